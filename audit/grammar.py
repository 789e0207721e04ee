"""Layer 1, the grammar proof: every value of a map checked against its field class.

The field table (`redact/model/table.py`) says which class each field holds; the value grammars
(`redact/model/grammar.py`, `redact.verbs.is_valid_verb`) say what a value of that class may look
like. Both are shared with the redactor; none of the redactor's transforming code is used here
(STYLE.md, principle 4), so a bug that makes the redactor emit a bad value cannot also make this
check accept it.

The walk sorts every string of the map into one of three kinds, which the other layers build on:

* proven: closed vocabulary or opaque by grammar (enum, timestamp, id, version, verb, vcs action,
  bucket label, `h:` token, hashed path, contentHash). Nothing else runs on these.
* disclosed: allowed in clear because the report shows it: an identifier kept in clear (collected
  per category, so the report lists each one), a path under relative or dirs_only mode (the mode is
  in the report), a text field the policy keeps on purpose.
* rejected: anything a field's class does not allow, unknown fields and event kinds, strings where
  a number belongs. Each is a finding, and the later layers look at them too.

Speed: the table is compiled once into flat per-node field specs; string verdicts come from
`audit/values.py`, cached per field class.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from audit.findings import Finding, excerpt, safe_key
from audit.values import (
    IDENT,
    PATH,
    PROVEN,
    REJECTED,
    TEXT,
    ValueClasses,
    Verdict,
    declared_mode,
    extra_rules,
    url_rules,
)
from redact.model.fieldclass import Kind
from redact.model.grammar import MAX_SAFE_INT
from redact.model.table import Leaf, Nested, Node, event_nodes, map_node


@dataclass(frozen=True, slots=True)
class Spec:
    """One compiled field: how to check its value."""

    name: str
    tag: str  # field class tag: enum, number, path, ident:repo, ...
    kind: Kind
    category: str | None
    values: frozenset[str] | None
    many: bool
    mapping: bool
    str_ok: bool
    num_ok: bool
    bool_ok: bool
    text_key: str | None  # "task_names" / "artifact_titles" for TEXT fields a policy may keep
    fast: int = 0  # _NUM: a number field; _STR: a single-string field; 0: anything else


@dataclass(frozen=True, slots=True)
class Compiled:
    model: str
    fields: dict[str, Spec | Sub]


@dataclass(frozen=True, slots=True)
class Sub:
    name: str
    node: Compiled
    many: bool
    fast: int = 3  # _SUB


_NUM, _STR, _SUB = 1, 2, 3


_TEXT_KEYS = {("Task", "name"): "task_names", ("ArtifactEvent", "title"): "artifact_titles"}


def _spec(model: str, leaf: Leaf) -> Spec:
    return Spec(
        name=leaf.name, tag=leaf.fc.tag, kind=leaf.fc.kind, category=leaf.fc.category,
        values=leaf.values, many=leaf.many, mapping=leaf.mapping,
        str_ok=str in leaf.py, num_ok=int in leaf.py or float in leaf.py, bool_ok=bool in leaf.py,
        text_key=_TEXT_KEYS.get((model, leaf.name)),
        fast=(_NUM if leaf.fc.kind is Kind.NUMBER and not leaf.many and not leaf.mapping and str not in leaf.py
              else _STR if str in leaf.py and not leaf.many else 0),
    )


def _compile(node: Node, done: dict[str, Compiled]) -> Compiled:
    if node.model in done:
        return done[node.model]
    fields: dict[str, Spec | Sub] = {}
    for name, item in node.fields.items():
        if isinstance(item, Nested):
            fields[name] = Sub(name, _compile(item.node, done), item.many)
        else:
            fields[name] = _spec(node.model, item)
    done[node.model] = Compiled(node.model, fields)
    return done[node.model]


@cache
def compiled_table() -> tuple[Compiled, dict[str, Compiled]]:
    """The top-level node and one node per event kind, compiled once per process."""
    done: dict[str, Compiled] = {}
    return _compile(map_node(), done), {kind: _compile(node, done) for kind, node in event_nodes().items()}


@dataclass
class Place:
    """Where a distinct string first sits in one field (pattern) under one kind, and how often."""

    pointer: str
    kind: str
    places: int = 1


@dataclass
class GrammarResult:
    findings: list[Finding]
    # value -> (kind, field pattern) -> first place; proven strings are not recorded
    strings: dict[str, dict[tuple[str, ...], Place]]
    identifiers: dict[str, set[str]]
    path_mode: str
    kept_text: int = 0

    @property
    def passed(self) -> bool:
        return not self.findings


def _pattern(ptr: str) -> str:
    return "/".join("*" if part.isdigit() else part for part in ptr.split("/"))


class GrammarWalk:
    def __init__(self, session_map: dict[str, Any], *, verb_ok: Callable[[str], bool],
                 kept_identifiers: Mapping[str, Collection[str]] | None,
                 keep_text: frozenset[str]) -> None:
        self.map = session_map
        self.path_mode = declared_mode(session_map)
        self.classes = ValueClasses(self.path_mode, verb_ok, kept_identifiers, keep_text)
        self.classes.session_map = session_map
        self._findings: dict[tuple[Any, ...], list[Any]] = {}  # key -> [rule, ptr, value, n]
        self.strings: dict[str, dict[tuple[str, ...], Place]] = {}
        self.identifiers: dict[str, set[str]] = {}
        self.kept_text = 0

    # -- recording -----------------------------------------------------------------------------
    def finding(self, rule: str, ptr: str, value: Any, *, key: str | None = None,
                field: tuple[str, ...] | None = None) -> None:
        """One finding per rule, value and field pattern: the same bad value in 20,000 events of
        one field is one finding with its first place and a count, in two fields two findings."""
        where = field if field is not None else (_pattern(ptr),)
        k = (rule, key if key is not None else (value if isinstance(value, str) else ""), *where)
        slot = self._findings.get(k)
        if slot is None:
            self._findings[k] = [rule, ptr, value, 1]
        else:
            slot[3] += 1

    def string(self, value: str, kind: str, ptr: str, field: tuple[str, ...] | None = None) -> None:
        key = (kind, *(field if field is not None else (_pattern(ptr),)))
        places = self.strings.get(value)
        if places is None:
            self.strings[value] = {key: Place(ptr, kind)}
            return
        place = places.get(key)
        if place is None:
            places[key] = Place(ptr, kind)
        else:
            place.places += 1

    # -- the walk ------------------------------------------------------------------------------
    def run(self) -> GrammarResult:
        top, events = compiled_table()
        raw = self.map
        self.node(top, raw, "", skip=("events",))
        evs = raw.get("events")
        if isinstance(evs, list):
            for i, ev in enumerate(evs):
                ptr = f"/events/{i}"
                if not isinstance(ev, dict):
                    self.finding("grammar.not-object", ptr, ev)
                    self.loose(ev, ptr)
                    continue
                kind = ev.get("kind")
                node = events.get(kind) if isinstance(kind, str) else None
                if node is None:
                    self.finding("grammar.unknown-event-kind", ptr, kind,
                                  key=f"kind:{kind}" if isinstance(kind, str) else "kind:?")
                    if isinstance(kind, str):
                        self.string(kind, REJECTED, f"{ptr}/kind")
                    self.loose(ev, ptr)
                    continue
                self.node(node, ev, ptr, "/events/*")
        elif "events" in raw:
            self.finding("grammar.not-list", "/events", evs)
            self.loose(evs, "/events")
        findings = [Finding("grammar", rule, ptr, excerpt(value), n)
                    for rule, ptr, value, n in self._findings.values()]
        return GrammarResult(findings, self.strings, self.identifiers, self.path_mode, self.kept_text)

    def node(self, node: Compiled, raw: dict[str, Any], ptr: str, pat: str = "",
             skip: tuple[str, ...] = ()) -> None:
        """Check one object; `pat` is its pointer with list indexes as `*` (the field pattern)."""
        fields = node.fields
        verdict = self.classes.verdict
        caches = self.classes.caches
        strings = self.strings
        for name, value in raw.items():
            spec = fields.get(name)
            if spec is None:
                if name in skip:
                    continue
                sub = f"{ptr}/{safe_key(name)}"
                field = (f"{pat}/{safe_key(name)}",)
                self.finding("grammar.unknown-field", sub, value, key=field[0], field=field)
                self.string(name, REJECTED, sub, field)
                for rule in extra_rules(name):
                    self.finding(rule, sub, name, field=field)
                self.loose(value, sub)
                continue
            if value is None:
                continue
            t = type(value)
            fast = spec.fast
            if fast == _NUM:  # the hot paths, inline: numbers and single strings
                if t is float or t is int and -MAX_SAFE_INT <= value <= MAX_SAFE_INT:
                    continue
            elif fast == _STR:
                if t is str:
                    cache = caches.get(spec.tag)  # type: ignore[union-attr]
                    found = cache.get(value) if cache is not None else None
                    if found is None:
                        found = verdict(spec, value)  # type: ignore[arg-type]
                    kind = found[0]
                    if kind is PROVEN:
                        continue
                    if not found[1]:  # a disclosed string seen before in this field: count it
                        places = strings.get(value)
                        place = places.get((kind, pat, name)) if places is not None else None
                        if place is not None:
                            place.places += 1
                            if kind is TEXT:
                                self.kept_text += 1
                            continue
                    self.scalar(spec, value, ptr, name, found, (pat, name))  # type: ignore[arg-type]
                    continue
            elif fast == _SUB:
                self.sub(spec, value, ptr, name, pat)  # type: ignore[arg-type]
                continue
            self.leaf(spec, value, ptr, name, pat)  # type: ignore[arg-type]

    def sub(self, spec: Sub, value: Any, ptr: str, name: str, pat: str) -> None:
        if spec.many:
            if type(value) is list:
                base, sub_pat = f"{ptr}/{name}", f"{pat}/{name}/*"
                for i, item in enumerate(value):
                    if type(item) is dict:
                        self.node(spec.node, item, f"{base}/{i}", sub_pat)
                    else:
                        self.finding("grammar.not-object", f"{base}/{i}", item)
                        self.loose(item, f"{base}/{i}")
            else:
                self.finding("grammar.not-list", f"{ptr}/{name}", value)
                self.loose(value, f"{ptr}/{name}")
        elif type(value) is dict:
            self.node(spec.node, value, f"{ptr}/{name}", f"{pat}/{name}")
        else:
            self.finding("grammar.not-object", f"{ptr}/{name}", value)
            self.loose(value, f"{ptr}/{name}")

    def leaf(self, spec: Spec, value: Any, ptr: str, name: str, pat: str) -> None:
        t = type(value)
        field = (pat, name)
        if t is str and spec.str_ok and not spec.many:
            self.scalar(spec, value, ptr, name, None, field)
        elif (t is int or t is float) and spec.num_ok and not spec.many and not spec.mapping or t is bool and spec.bool_ok and not spec.many:
            if t is int and not -MAX_SAFE_INT <= value <= MAX_SAFE_INT:
                self.finding("grammar.number-range", f"{ptr}/{name}", value, field=field)
            return
        elif t is list and spec.many:
            base = f"{ptr}/{name}"
            for i, item in enumerate(value):
                if item is None:
                    continue
                ti = type(item)
                if ti is str and spec.str_ok:
                    self.scalar(spec, item, base, str(i), None, field)
                elif (ti is int or ti is float) and spec.num_ok or ti is bool and spec.bool_ok:
                    if ti is int and not -MAX_SAFE_INT <= item <= MAX_SAFE_INT:
                        self.finding("grammar.number-range", f"{base}/{i}", item, field=field)
                    continue
                else:
                    self.wrong_type(item, f"{base}/{i}")
        elif t is dict and spec.mapping:
            base = f"{ptr}/{name}"
            for key, count in value.items():
                sub = f"{base}/{safe_key(key)}"
                if spec.values is not None and key not in spec.values:
                    self.finding("grammar.unknown-key", sub, key, field=field)
                    if isinstance(key, str):
                        self.string(key, REJECTED, sub, field)
                        for rule in extra_rules(key):
                            self.finding(rule, sub, key, field=field)
                tc = type(count)
                if not (tc is int or tc is float):
                    self.wrong_type(count, sub)
                elif tc is int and not -MAX_SAFE_INT <= count <= MAX_SAFE_INT:
                    self.finding("grammar.number-range", sub, count, field=field)
        else:
            self.wrong_type(value, f"{ptr}/{name}")

    def scalar(self, spec: Spec, value: str, ptr: str, name: str, found: Verdict | None,
               field: tuple[str, str]) -> None:
        kind, rules = found if found is not None else self.classes.verdict(spec, value)
        if kind is PROVEN:
            return
        where = f"{ptr}/{name}"
        for rule in rules:
            self.finding(rule, where, value, field=field)
        if kind is REJECTED:
            self.string(value, REJECTED, where, field)
            return
        self.string(value, kind, where, field)
        if kind is TEXT:
            self.kept_text += 1
        elif kind.startswith(IDENT):
            cat = kind[len(IDENT):]
            clear = self.identifiers.get(cat)
            if clear is None:
                self.identifiers[cat] = {value}
            else:
                clear.add(value)

    def wrong_type(self, value: Any, ptr: str) -> None:
        self.finding("grammar.type", ptr, value)
        self.loose(value, ptr)

    def loose(self, value: Any, ptr: str) -> None:
        """Record every string (and key) under a value no class sanctions, as rejected."""
        for where, s in iter_strings(value, ptr):
            self.string(s, REJECTED, where)
            for rule in extra_rules(s):
                self.finding(rule, where, s)


def iter_strings(value: Any, ptr: str) -> Iterator[tuple[str, str]]:
    """(pointer, string) for every string value and object key under `value`."""
    stack: list[tuple[str, Any]] = [(ptr, value)]
    while stack:
        where, item = stack.pop()
        t = type(item)
        if t is str:
            yield where, item
        elif t is dict:
            for key, sub in reversed(list(item.items())):
                place = f"{where}/{safe_key(key)}"
                stack.append((place, sub))
                stack.append((place, key))
        elif t is list:
            for i in range(len(item) - 1, -1, -1):
                stack.append((f"{where}/{i}", item[i]))


@dataclass(frozen=True)
class GrammarOptions:
    verb_ok: Callable[[str], bool]
    kept_identifiers: Mapping[str, Collection[str]] | None = None
    keep_text: frozenset[str] = field(default_factory=frozenset)


def check_grammar(session_map: dict[str, Any], options: GrammarOptions) -> GrammarResult:
    return GrammarWalk(session_map, verb_ok=options.verb_ok, kept_identifiers=options.kept_identifiers,
                       keep_text=options.keep_text).run()


__all__ = ["IDENT", "PATH", "PROVEN", "REJECTED", "TEXT", "GrammarOptions", "GrammarResult", "Place",
           "check_grammar", "compiled_table", "declared_mode", "extra_rules", "iter_strings", "url_rules"]
