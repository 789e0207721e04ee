"""Apply a policy to a session map (map -> map), walking the input with the model's field table.

Fail closed: a field the table does not know is dropped and counted; an enum value outside its set
is dropped and counted; an event of unknown kind is dropped and counted. A value of the wrong JSON
type, or a missing required field, is bad input (exit 2). Events are sorted by `t`, renumbered so
that `events[i].seq == i`, and every field that points at a seq is remapped.

This module walks the map's objects and events; what becomes of one value under its field class is
`redact/apply/leaves.py` (`LeafRedactor`, the walker's base).
"""
from __future__ import annotations

import math
from typing import Any

from redact.apply.leaves import DROP, MAX_SAFE_INT, LeafRedactor, pointer_pattern
from redact.errors import BadInput
from redact.keys.material import Key
from redact.model import grammar
from redact.model.fieldclass import Kind
from redact.model.table import TOP_LEVEL_ORDER, Leaf, Nested, Node, event_nodes, map_node
from redact.apply.modes import resolve_mode
from redact.tables.names import is_shown
from redact.policy.load import EffectivePolicy
from redact.keys.recorder import TokenRecorder
from redact.apply.refs import remap_refs
from redact.report import RedactionReport

_MISSING = object()
# Fast paths of MapRedactor.node, one per common field shape (_code); 0 takes the general path.
_GENERAL, _INT, _NUM, _ENUM, _BOOL, _IDENT, _PURE, _NESTED = range(8)
_PURE_KINDS = (Kind.ID, Kind.PATH, Kind.LABEL, Kind.VERSION, Kind.ACTION, Kind.VERB)


def _code(spec: Leaf | Nested, may_cache_verbs: bool) -> int:
    if isinstance(spec, Nested):
        return _NESTED
    if spec.many or spec.mapping:
        return _GENERAL
    kind, py = spec.fc.kind, spec.py
    if kind is Kind.NUMBER:
        return _INT if py == {int} else _NUM if py == {int, float} else _GENERAL
    if kind is Kind.ENUM and spec.values is not None and py == {str}:
        return _ENUM
    if kind is Kind.BOOL and py == {bool}:
        return _BOOL
    if kind is Kind.IDENT and py == {str}:
        return _IDENT
    if kind in _PURE_KINDS and py == {str} and (kind is not Kind.VERB or may_cache_verbs):
        return _PURE  # a recorder sees each keyed program token as it is made: verbs uncached then
    return _GENERAL


class MapRedactor(LeafRedactor):
    """The walk of a map's nodes by the field table, each leaf reduced by `LeafRedactor`."""

    def __init__(self, policy: EffectivePolicy, key: Key | None, report: RedactionReport,
                 *, in_mode: str, out_mode: str, where: str, recorder: TokenRecorder | None = None) -> None:
        super().__init__(policy, key, report, in_mode=in_mode, out_mode=out_mode, where=where, recorder=recorder)
        self._plans: dict[int, tuple[list[tuple[str, Leaf | Nested, int]], tuple[str, ...]]] = {}
        self._shapes: dict[tuple[int, tuple[str, ...]], tuple[
            list[tuple[str, Leaf | Nested, int]], tuple[str, ...], tuple[str, ...]]] = {}
        # kind -> input string -> output (or DROP) for the kinds whose output is a function of the
        # string alone (per map: the key, modes and vocabulary are fixed for it)
        self._pure: dict[Kind, dict[str, Any]] = {kind: {} for kind in _PURE_KINDS}

    # ---- nodes ---------------------------------------------------------------------------
    def node(self, node: Node, raw: Any, ptr: str) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise self.bad(ptr, "expected an object")
        plan, unknown, required = self._shape(node, raw)
        for name in unknown:
            if not (ptr == "" and name == "events"):
                self.report.dropped_fields[pointer_pattern(f"{ptr}/{name}") if is_shown(name)
                                           else pointer_pattern(ptr) + "/<unknown field>"] += 1
        out: dict[str, Any] = {}
        for name, spec, code in plan:
            value = raw.get(name, _MISSING)
            if value is _MISSING:
                if spec.required:
                    raise self.bad(f"{ptr}/{name}", "required field is missing")
                continue
            # The common cases, inline; anything else (None, a wrong type, a number out of range,
            # an enum value outside its set) takes the general path below, which decides alike.
            t = type(value)
            if code == _INT:
                if t is int and -MAX_SAFE_INT <= value <= MAX_SAFE_INT:
                    out[name] = value
                    continue
            elif code == _NUM:
                if t is int and -MAX_SAFE_INT <= value <= MAX_SAFE_INT or t is float and math.isfinite(value):
                    out[name] = value
                    continue
            elif code == _ENUM:
                if t is str and value in spec.values:  # type: ignore[union-attr, operator]
                    out[name] = value
                    continue
            elif code == _BOOL:
                if t is bool:
                    out[name] = value
                    continue
            elif code == _IDENT:
                if t is str:
                    scrubbed = self.idents.scrub(spec.fc.category or "", value)  # type: ignore[union-attr]
                    if scrubbed is not None:
                        out[name] = scrubbed
                    continue
            elif code == _PURE:
                if t is str:
                    cache = self._pure[spec.fc.kind]  # type: ignore[union-attr]
                    result = cache.get(value)
                    if result is None:
                        result = cache[value] = self.scalar(spec, value, f"{ptr}/{name}")  # type: ignore[arg-type]
                    elif result is DROP:
                        self.drop_value(f"{ptr}/{name}")
                    if result is not DROP:
                        out[name] = result
                    continue
            sub = f"{ptr}/{name}"
            if code == _NESTED:
                assert isinstance(spec, Nested)
                if value is None:
                    if spec.required:
                        raise self.bad(sub, "must not be null")
                    continue
                if ptr == "" and name == "tasks":
                    # The format: a malformed tasks block must never fail a reader; drop it.
                    try:
                        out[name] = [self.node(spec.node, item, f"{sub}/{i}")
                                     for i, item in enumerate(value)]
                    except (BadInput, TypeError, RequiredDropped):
                        self.report.dropped_fields["/tasks (malformed)"] += 1
                    continue
                if spec.many:
                    if not isinstance(value, list):
                        raise self.bad(sub, "expected a list")
                    out[name] = [self.node(spec.node, item, f"{sub}/{i}") for i, item in enumerate(value)]
                else:
                    try:
                        out[name] = self.node(spec.node, value, sub)
                    except RequiredDropped:
                        if spec.required:
                            raise
                        # an optional object that cannot stand without the dropped value goes too
                        self.report.dropped_values[pointer_pattern(sub)] += 1
                continue
            result = self.leaf(spec, value, sub)  # type: ignore[arg-type]
            if result is not DROP:
                out[name] = result
        for name in required:  # present in the input: its value was not one the field allows
            if name not in out:
                raise RequiredDropped(f"{ptr}/{name}")
        return out

    def _shape(self, node: Node, raw: dict[str, Any]) -> tuple[
            list[tuple[str, Leaf | Nested, int]], tuple[str, ...], tuple[str, ...]]:
        """For an object of `node` with `raw`'s member names: the node's plan cut to the fields
        present or required (the same fields in the same order as the whole plan would act on:
        an absent optional field is skipped by it anyway), the names the table does not know, in
        input order, and the required fields. A map's objects of one kind mostly share a shape,
        so each is worked out once per map (the cache is this walker's: it lives for one map)."""
        names = tuple(raw)
        shape = self._shapes.get((id(node), names))
        if shape is None:
            plan, required = self._plan(node)
            fields = node.fields
            shape = self._shapes[(id(node), names)] = (
                [entry for entry in plan if entry[0] in raw or entry[1].required],
                tuple(name for name in names if name not in fields),
                required)
        return shape

    def _plan(self, node: Node) -> tuple[list[tuple[str, Leaf | Nested, int]], tuple[str, ...]]:
        """The node's fields in order, each with the code of its fast path, and its required
        fields (compiled once per map)."""
        plan = self._plans.get(id(node))  # table nodes live as long as the process (functools.cache)
        if plan is None:
            plan = self._plans[id(node)] = (
                [(name, spec, _code(spec, self.recorder is None)) for name, spec in node.fields.items()],
                tuple(name for name, spec in node.fields.items() if spec.required))
        return plan


class RequiredDropped(Exception):
    """A required field's value was dropped (not of its class): its object cannot be written."""

    def __init__(self, ptr: str) -> None:
        super().__init__(ptr)
        self.ptr = ptr


def redact_map(raw: Any, policy: EffectivePolicy, key: Key | None, report: RedactionReport,
               *, explicit_mode: str | None = None, recorder: TokenRecorder | None = None) -> dict[str, Any]:
    """The redacted map (without contentHash) for a parsed agentplay/v1 map `raw`.

    `recorder` (optional, for the reveal vault) is told every keyed token made and its original.
    """
    where = report.source
    if not isinstance(raw, dict):
        raise BadInput("a session map must be a JSON object", where=f"{where}#/")
    if raw.get("schema") not in ("agentplay/v1", "entelligence.session-map/v1"):
        raise BadInput("not an agentplay/v1 map (`schema`)", where=f"{where}#/schema")
    session = raw.get("session")
    in_mode = session.get("pathMode") if isinstance(session, dict) else None
    in_mode = in_mode if in_mode in grammar.PATH_MODES else "relative"
    out_mode = resolve_mode(policy, key, in_mode, explicit_mode, report)
    report.path_mode = out_mode
    report.key_fingerprint = key.fingerprint() if key else None
    report.policy_name, report.policy_hash = policy.name, policy.hash()
    report.policy_keeps = policy.keeps()
    r = MapRedactor(policy, key, report, in_mode=in_mode, out_mode=out_mode, where=where, recorder=recorder)
    try:
        top = r.node(map_node(), raw, "")
        events, remap = _events(r, raw.get("events"))
    except RequiredDropped as exc:  # in a list item or the session: nothing to drop it with
        raise r.bad(exc.ptr, "a required field's value is not one the format allows") from None
    top["schema"] = "agentplay/v1"
    top["session"]["pathMode"] = out_mode
    remap_refs(top, events, remap, report)
    ordered = {name: (events if name == "events" else top[name])
               for name in TOP_LEVEL_ORDER if name == "events" or name in top}
    ordered.pop("contentHash", None)
    for ev in events:
        report.events_by_kind[ev["kind"]] += 1
        report.events_by_agent[ev.get("agent") or "main"] += 1
    return ordered


def _events(r: MapRedactor, raw_events: Any) -> tuple[list[dict[str, Any]], dict[int, int]]:
    if not isinstance(raw_events, list):
        raise r.bad("/events", "expected a list" if raw_events is not None else "required field is missing")
    nodes = event_nodes()
    kept: list[tuple[float, int, dict[str, Any]]] = []
    seen: set[int] = set()
    for i, ev in enumerate(raw_events):
        ptr = f"/events/{i}"
        if not isinstance(ev, dict):
            raise r.bad(ptr, "expected an object")
        kind = ev.get("kind")
        node = nodes.get(kind) if isinstance(kind, str) else None
        if node is None:
            r.report.dropped_events["unknown kind"] += 1
            continue
        out = r.node(node, ev, ptr)
        # References name an event by its seq: two events with one seq make them ambiguous.
        if out["seq"] in seen:
            raise r.bad(f"{ptr}/seq", "seq repeats an earlier event's (references would be ambiguous)")
        seen.add(out["seq"])
        if out["seq"] != i:
            r.report.warn("events[].seq disagreed with their positions; references were resolved by seq")
        kept.append((out["t"], i, out))
    kept.sort(key=lambda item: (item[0], item[1]))
    remap = {ev["seq"]: new for new, (_, _, ev) in enumerate(kept)}
    events = []
    for new, (_, _, ev) in enumerate(kept):
        ev["seq"] = new
        events.append(ev)
    return events, remap
