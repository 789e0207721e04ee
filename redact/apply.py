"""Apply a policy to a session map (map -> map), walking the input with the model's field table.

Fail closed: a field the table does not know is dropped and counted; an enum value outside its set
is dropped and counted; an event of unknown kind is dropped and counted. A value of the wrong JSON
type, or a missing required field, is bad input (exit 2). Events are sorted by `t`, renumbered so
that `events[i].seq == i`, and every field that points at a seq is remapped.
"""
from __future__ import annotations

import math
from datetime import datetime, timezone
import re
from typing import Any

from redact.errors import BadInput
from redact.identifiers import IdentScrubber
from redact.keys import Key, sha256_hex
from redact.model import grammar
from redact.model.fieldclass import Kind
from redact.model.table import TOP_LEVEL_ORDER, Leaf, Nested, Node, event_nodes, map_node
from redact.modes import resolve_mode
from redact.names import is_shown, shown
from redact.pathguard import guard_path
from redact.paths import apply_mode, bucket, clean_relative, hashed, is_absolute
from redact.policy.load import EffectivePolicy
from redact.recorder import TokenRecorder, recording_hasher
from redact.refs import remap_refs
from redact.report import RedactionReport
from redact.verbs import extract, is_valid_verb, is_vcs_action

_DROP = object()
_STRUCTURAL_IDS = frozenset({"main"})
_STRUCTURAL_ID_RE = re.compile(r"r\d+|t\d+")  # repo and task ids the map model numbers itself
_JSON_TYPES = {str: "a string", int: "an integer", float: "a number", bool: "true or false"}
# Integers a JavaScript reader holds exactly (2^53 - 1): beyond it a viewer would show, and hash, a
# different number than the one scanned, and a too-large integer cannot be serialized at all.
MAX_SAFE_INT = grammar.MAX_SAFE_INT


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


def _pattern(ptr: str) -> str:
    return "/".join("*" if part.isdigit() else part for part in ptr.split("/"))


class MapRedactor:
    def __init__(self, policy: EffectivePolicy, key: Key | None, report: RedactionReport,
                 *, in_mode: str, out_mode: str, where: str, recorder: TokenRecorder | None = None) -> None:
        self.policy = policy
        self.key = key
        self.report = report
        self.in_mode = in_mode
        self.out_mode = out_mode
        self.where = where
        self.recorder = recorder  # the reveal vault's (redact/recorder.py); None records nothing
        self.idents = IdentScrubber(policy, key, recorder, fallbacks=report.fallbacks)
        report.idents = self.idents.report
        self._hash_ids = policy.policy.ids.action == "hash"
        self._vocab = policy.vocabulary
        self._id_cache: dict[str, str] = {}
        self._path_cache: dict[str, str] = {}
        self._plans: dict[int, tuple[list[tuple[str, Leaf | Nested, int]], tuple[str, ...]]] = {}
        # kind -> input string -> output (or _DROP) for the kinds whose output is a function of the
        # string alone (per map: the key, modes and vocabulary are fixed for it)
        self._pure: dict[Kind, dict[str, Any]] = {kind: {} for kind in _PURE_KINDS}
        self._hasher = (lambda name: key.ident_digest("program", name, 10)) if key and out_mode == "hashed" else None
        if self._hasher is not None and recorder is not None:
            self._hasher = recording_hasher(self._hasher, recorder)

    # ---- errors and counting -------------------------------------------------------------
    def bad(self, ptr: str, what: str) -> BadInput:
        return BadInput(what, where=f"{self.where}#{ptr or '/'}")

    def drop_value(self, ptr: str) -> object:
        self.report.dropped_values[_pattern(ptr)] += 1
        return _DROP

    # ---- leaves --------------------------------------------------------------------------
    def _type_check(self, leaf: Leaf, value: Any, ptr: str) -> Any:
        if isinstance(value, bool):
            if bool in leaf.py:
                return value
        elif isinstance(value, int):
            if int in leaf.py:
                if abs(value) > MAX_SAFE_INT:
                    raise self.bad(ptr, "number out of range")
                return value
        elif isinstance(value, float):
            if float in leaf.py:
                if not math.isfinite(value):
                    raise self.bad(ptr, "number out of range")
                return value
            if int in leaf.py and value.is_integer():
                if abs(value) > MAX_SAFE_INT:
                    raise self.bad(ptr, "number out of range")
                return int(value)
        elif isinstance(value, str) and str in leaf.py:
            return value
        wanted = " or ".join(sorted(_JSON_TYPES[t] for t in leaf.py))
        raise self.bad(ptr, f"expected {wanted}")

    def leaf(self, leaf: Leaf, value: Any, ptr: str) -> Any:
        if value is None:
            if leaf.nullable:
                return None
            raise self.bad(ptr, "must not be null")
        if leaf.many:
            if not isinstance(value, list):
                raise self.bad(ptr, "expected a list")
            out = []
            for i, item in enumerate(value):
                one = self.scalar(leaf, self._type_check(leaf, item, f"{ptr}/{i}"), f"{ptr}/{i}")
                if one is not _DROP and one not in out:
                    out.append(one)
            return out
        if leaf.mapping:
            if not isinstance(value, dict):
                raise self.bad(ptr, "expected an object")
            mapped: dict[str, Any] = {}
            for k, v in value.items():
                if leaf.values is not None and k not in leaf.values:
                    self.report.dropped_fields[_pattern(ptr) + "/<unknown key>"] += 1
                    continue
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    raise self.bad(f"{ptr}/{shown(k, '<key>')}", "expected a number")
                if abs(v) > MAX_SAFE_INT:
                    raise self.bad(f"{ptr}/{shown(k, '<key>')}", "number out of range")
                if isinstance(v, float) and not v.is_integer() and float not in leaf.py:
                    raise self.bad(f"{ptr}/{shown(k, '<key>')}", "expected an integer")
                mapped[k] = int(v) if isinstance(v, float) and v.is_integer() else v
            return mapped
        return self.scalar(leaf, self._type_check(leaf, value, ptr), ptr)

    def scalar(self, leaf: Leaf, value: Any, ptr: str) -> Any:
        kind = leaf.fc.kind
        if kind in (Kind.NUMBER, Kind.BOOL):
            return value
        if kind is Kind.ENUM:
            return value if leaf.values is None or value in leaf.values else self.drop_value(ptr)
        if kind is Kind.TIMESTAMP:
            return self.timestamp(value, ptr, required=leaf.required)
        if kind is Kind.ID:
            return self.opaque_id(value)
        if kind is Kind.VERSION:
            return value if grammar.VERSION_RE.fullmatch(value) else self.drop_value(ptr)
        if kind is Kind.PATH:
            return self.path(value)
        if kind is Kind.LABEL:
            return value if grammar.is_bucket_label(value) else self.label(value)
        if kind is Kind.VERB:
            if self._vocab is None:
                return value if is_valid_verb(value) else extract(value, hasher=self._hasher).verb
            return (value if self._vocab.is_valid_verb(value)
                    else extract(value, hasher=self._hasher, vocab=self._vocab).verb)
        if kind is Kind.ACTION:
            verb_ok = is_valid_verb if self._vocab is None else self._vocab.is_valid_verb
            return value if is_vcs_action(value, verb_ok) else self.drop_value(ptr)
        if kind is Kind.IDENT:
            out = self.idents.scrub(leaf.fc.category or "", value)
            return _DROP if out is None else out
        if kind is Kind.TEXT:
            return self.text(value, ptr)
        if kind is Kind.HASH:
            return _DROP  # recomputed on output
        raise AssertionError(kind)  # pragma: no cover

    def timestamp(self, value: str, ptr: str, *, required: bool) -> Any:
        try:
            dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
            if dt.tzinfo is None:
                dt = dt.replace(tzinfo=timezone.utc)
            dt = dt.astimezone(timezone.utc)  # OverflowError past year 1 or 9999 in UTC
        except (ValueError, OverflowError):
            if required:
                raise self.bad(ptr, "not an ISO-8601 timestamp") from None
            return self.drop_value(ptr)
        # isoformat, not strftime("%Y"): strftime writes year 1 as "1", not "0001"
        return dt.replace(tzinfo=None).isoformat(timespec="milliseconds") + "Z"

    def opaque_id(self, value: str) -> str:
        cached = self._id_cache.get(value)
        if cached is not None:
            return cached
        if value in _STRUCTURAL_IDS or (grammar.is_id(value) and not self._hash_ids):
            out = value
        elif grammar.is_id(value) and (value.startswith(("h:", "id-")) or
                                      _STRUCTURAL_ID_RE.fullmatch(value)):
            out = value
        elif self.key is not None:
            out = "h:" + self.key.ident_digest("id", value)
            if self.recorder is not None:
                self.recorder.record("id", out, value)
        else:
            out = "id-" + sha256_hex(value.encode("utf-8", "surrogatepass"))[:12]
        self._id_cache[value] = out
        return out

    def label(self, value: str) -> str:
        return bucket(value) if is_absolute(value) else "outside-repo"

    def path(self, value: str) -> str:
        cached = self._path_cache.get(value)
        if cached is None:
            cached = self._path(value)
            self._path_cache[value] = cached
        return cached

    def _path(self, value: str) -> str:
        if grammar.is_bucket_label(value):
            return value
        if is_absolute(value):
            return bucket(value)
        if self.in_mode == self.out_mode and grammar.path_in_mode(value, self.out_mode):
            return guard_path(value, self.out_mode, self.key, self.report.fallbacks, self.recorder)
        if self.in_mode == "dirs_only" and self.out_mode == "hashed" and grammar.is_dirs_only_path(value):
            assert self.key is not None
            return hashed(value, self.key, self.recorder)
        if self.in_mode == "hashed" and grammar.is_hashed_path(value):
            return value
        rel = clean_relative(value)
        if rel is None:
            return "outside-repo"
        if self.out_mode == "hashed" and self.key is None:
            return "outside-repo"  # an input claiming hashed mode with a path that is not hashed
        return apply_mode(rel, self.out_mode, self.key, self.recorder, self.report.fallbacks)

    def text(self, value: str, ptr: str) -> Any:
        keep = self.policy.policy.text
        if ptr.startswith("/tasks/") and keep.keep_task_names:
            return value
        if ptr.endswith("/title") and keep.keep_artifact_titles:
            return value
        return self.drop_value(ptr)

    # ---- nodes ---------------------------------------------------------------------------
    def node(self, node: Node, raw: Any, ptr: str) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise self.bad(ptr, "expected an object")
        fields = node.fields
        for name in raw:
            if name not in fields and not (ptr == "" and name == "events"):
                self.report.dropped_fields[_pattern(f"{ptr}/{name}") if is_shown(name)
                                           else _pattern(ptr) + "/<unknown field>"] += 1
        out: dict[str, Any] = {}
        plan, required = self._plan(node)
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
                    elif result is _DROP:
                        self.drop_value(f"{ptr}/{name}")
                    if result is not _DROP:
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
                        self.report.dropped_values[_pattern(sub)] += 1
                continue
            result = self.leaf(spec, value, sub)  # type: ignore[arg-type]
            if result is not _DROP:
                out[name] = result
        for name in required:  # present in the input: its value was not one the field allows
            if name not in out:
                raise RequiredDropped(f"{ptr}/{name}")
        return out

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
