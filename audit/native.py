"""The leak scan of native outputs (`--to native`): a raw log scrubbed in its own format.

The same four layers as a map's scan (docs/scanner.md), with the format's native table in place of the
map's field table:

1. grammar proof: every record is walked with its format's native table
   (`redact/formats/<name>/native_table.py`);
   every value must have the output grammar of its field's class (`redact/tables/spec.py` lists
   them), every key must be declared. Text may only appear as a shape marker (`{"chars": N}`); a
   field of class drop must be absent. Strings sort into proven (closed vocabulary or opaque),
   disclosed (a path under the mode the report states, an identifier the report lists) and rejected;
2. secrets: `redact.contract.secrets.find_secrets` over every string that is not proven;
3. taint against the source (`audit.taint`): distinctive pieces of the source's free text in the
   output's open strings;
4. language: open strings that read as prose.

Independence (STYLE.md, principle 4): this module reads the tables and the value grammars
(`redact/model/grammar.py`, `redact/tables/grammar.py`, the verb vocabulary), never the scrubber
(`redact/native/scrub.py`). Pointers are JSON pointers whose first token is the output's 1-based line
number (for a one-document format, the pointer into that document).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Any

import orjson

import redact.tables.grammar as ng
from audit.findings import LAYERS, Finding, excerpt, safe_key
from audit.grammar import IDENT, REJECTED, TEXT, Place
from redact.contract.language import looks_like_text
from audit.scan import FAIL, PASS, SKIPPED, ScanResult
from redact.contract.secrets import find_secrets
from audit.taint import taint_scan
from audit.values import extra_rules, ident_verdict, path_verdict
from redact.errors import BadInput
from redact.model import grammar as g
from redact.tables.spec import ByType, JsonText, Leaf, Many, Obj, Ref, Spec, Switch, Table
from redact.formats.tables import table as native_table

_URL_HOST = re.compile(r"(https?)://([^/?#\s]+)")
_Verdict = tuple[str | None, tuple[str, ...]]  # (kind or None when proven, rule ids)
_PROVEN: _Verdict = (None, ())
_PATH_LEAF = Leaf("path")
_MAX_NESTING = 16  # records inside records; the scrubber never writes deeper ones


def _pattern(ptr: str) -> str:
    return "/".join("*" if part.isdigit() else part for part in ptr.split("/"))


class _Walk:
    def __init__(self, table: Table, *, path_mode: str, verb_ok: Callable[[str], bool],
                 kept: Mapping[str, Collection[str]] | None) -> None:
        self.table = table
        self.path_mode = path_mode
        self.verb_ok = verb_ok
        self.kept = kept
        self.findings: dict[tuple[Any, ...], list[Any]] = {}
        self.strings: dict[str, dict[tuple[str, ...], Place]] = {}
        self.identifiers: dict[str, set[str]] = {}
        self._cache: dict[tuple[str, str, str], _Verdict] = {}
        self._patterns: dict[tuple[str, ...], tuple[re.Pattern[str], ...]] = {}
        self._depth = 0

    # -- recording -------------------------------------------------------------------------------
    def finding(self, rule: str, ptr: str, value: Any) -> None:
        key = (rule, value if isinstance(value, str) else "", _pattern(ptr))
        slot = self.findings.get(key)
        if slot is None:
            self.findings[key] = [rule, ptr, value, 1]
        else:
            slot[3] += 1

    def string(self, value: str, kind: str, ptr: str) -> None:
        key = (kind, _pattern(ptr))
        places = self.strings.setdefault(value, {})
        place = places.get(key)
        if place is None:
            places[key] = Place(ptr, kind)
        else:
            place.places += 1

    def reject(self, rule: str, ptr: str, value: Any) -> None:
        self.finding(rule, ptr, value)
        self.loose(value, ptr)

    def loose(self, value: Any, ptr: str) -> None:
        """Every string and key under a value no class sanctions: rejected."""
        stack: list[tuple[str, Any]] = [(ptr, value)]
        while stack:
            where, item = stack.pop()
            if type(item) is str:
                self.string(item, REJECTED, where)
                for rule in extra_rules(item):
                    self.finding(rule, where, item)
            elif type(item) is dict:
                for k, v in item.items():
                    place = f"{where}/{safe_key(k)}"
                    stack.append((place, v))
                    stack.append((place, k))
            elif type(item) is list:
                stack.extend((f"{where}/{i}", v) for i, v in enumerate(item))

    # -- nodes -----------------------------------------------------------------------------------
    def value(self, spec: Spec, value: Any, ptr: str) -> None:
        if isinstance(spec, Ref):  # a record inside a record: bounded, as the scrubber bounds it
            if self._depth >= _MAX_NESTING:
                self.reject("grammar.not-object", ptr, value)
                return
            self._depth += 1
            try:
                self.value(self.table.resolve(spec), value, ptr)
            finally:
                self._depth -= 1
            return
        if value is None:
            return
        if isinstance(spec, Leaf):
            self.leaf(spec, value, ptr)
        elif isinstance(spec, (Obj, Switch)):
            if type(value) is not dict:
                self.reject("grammar.not-object", ptr, value)
                return
            if isinstance(spec, Switch):
                tag = value.get(spec.key)
                case = spec.cases.get(tag) if isinstance(tag, str) else None
                case = case if case is not None else spec.default
                if case is None:
                    self.reject("grammar.enum", f"{ptr}/{safe_key(spec.key)}", value)
                    return
                self.value(case, value, ptr)
                return
            fields = spec.fields
            for k, item in value.items():
                sub = fields.get(k)
                where = f"{ptr}/{safe_key(k)}"
                if sub is None:
                    self.finding("grammar.unknown-field", where, k)
                    self.string(k, REJECTED, where)
                    self.loose(item, where)
                    continue
                self.value(sub, item, where)
        elif isinstance(spec, Many):
            if type(value) is not list:
                self.reject("grammar.not-list", ptr, value)
                return
            for i, item in enumerate(value):
                self.value(spec.item, item, f"{ptr}/{i}")
        elif isinstance(spec, ByType):
            t = type(value)
            if t is dict and spec.text is not None and ng.is_shape(value):
                return  # text, as its shape
            sub = spec.text if t is str else spec.items if t is list else spec.obj if t is dict else \
                spec.scalar
            if sub is None:
                sub = spec.text
            if sub is None:
                self.reject("grammar.type", ptr, value)
                return
            self.value(sub, value, ptr)
        elif isinstance(spec, JsonText):
            if type(value) is not str:
                self.reject("grammar.type", ptr, value)
                return
            try:
                inner = orjson.loads(value)
            except orjson.JSONDecodeError:
                if spec.text is not None:
                    self.value(spec.text, value, ptr)
                else:
                    self.reject("grammar.type", ptr, value)
                return
            self.value(spec.inner, inner, ptr)

    def leaf(self, spec: Leaf, value: Any, ptr: str) -> None:
        cls = spec.cls
        t = type(value)
        if cls in ("shape", "result"):
            if ng.is_shape(value) or (t is str and value in spec.keep):
                return
            self.reject("grammar.text", ptr, value)
            return
        if cls == "drop":
            self.reject("grammar.text", ptr, value)
            return
        if cls == "number":
            if (t is int or t is float):
                return
            self.reject("grammar.type", ptr, value)
            return
        if cls == "bool":
            if t is not bool:
                self.reject("grammar.type", ptr, value)
            return
        if cls == "ident" and t is int and spec.category in ("pr", "ticket"):
            return
        if cls == "verb" and t is list and value and all(type(w) is str for w in value):
            value, t = " ".join(value), str  # an argv: its words are the verb's
        if cls == "lines" and t is str:
            self.lines(spec, value, ptr)
            return
        if t is not str:
            self.reject("grammar.type", ptr, value)
            return
        key = (cls, spec.category or "", value)
        verdict = self._cache.get(key)
        if verdict is None:
            verdict = self._cache[key] = self.classify(spec, value)
        kind, rules = verdict
        for rule in rules:
            self.finding(rule, ptr, value)
        if kind is None:
            return
        self.string(value, kind, ptr)
        if kind.startswith(IDENT):
            self.identifiers.setdefault(kind[len(IDENT):], set()).add(value)

    def lines(self, spec: Leaf, value: str, ptr: str) -> None:
        patterns = self._patterns.get(spec.patterns)
        if patterns is None:
            patterns = self._patterns[spec.patterns] = tuple(re.compile(p) for p in spec.patterns)
        for line in value.split("\n"):
            if not line:
                continue
            m = next((m for m in (p.fullmatch(line) for p in patterns) if m is not None), None)
            if m is None:
                self.reject("grammar.text", ptr, line)
                continue
            path = m.groupdict().get("path")
            if path is not None:
                self.leaf(_PATH_LEAF, path, ptr)

    # -- value grammars --------------------------------------------------------------------------
    @staticmethod
    def _rejected(value: str, rule: str) -> _Verdict:
        return (REJECTED, (rule,) + tuple(r for r in extra_rules(value) if r != rule))

    def classify(self, spec: Leaf, value: str) -> _Verdict:
        cls = spec.cls
        if cls in ("enum", "const", "mask"):
            return _PROVEN if value in (spec.values or ()) else self._rejected(value, "grammar.enum")
        if cls == "id":
            return _PROVEN if ng.is_native_id(value) else self._rejected(value, "grammar.id")
        if cls == "timestamp":
            return _PROVEN if ng.is_native_utc_timestamp(value) else self._rejected(value, "grammar.timestamp")
        if cls == "version":
            return _PROVEN if g.VERSION_RE.fullmatch(value) else self._rejected(value, "grammar.version")
        if cls == "verb":
            return _PROVEN if self.verb_ok(value) else self._rejected(value, "grammar.verb")
        if cls == "cwd" and value == ng.ROOT_CWD:
            return _PROVEN
        if cls in ("path", "cwd"):
            return self.path(value)
        if cls == "ident":
            return self.ident(spec.category or "", value)
        if cls == "branch":
            if value in ng.KNOWN_BRANCHES or g.HASH_TOKEN_RE.fullmatch(value):
                return _PROVEN
            return self._rejected(value, "grammar.identifier")
        if cls == "tool":
            if spec.values is not None and value in spec.values:
                return _PROVEN
            return self.tool(value)
        if cls == "url_host":
            m = _URL_HOST.fullmatch(value)
            if m is None:
                return self._rejected(value, "grammar.identifier")
            return self.ident("host", m.group(2))
        return self._rejected(value, "grammar.type")  # pragma: no cover - every class is above

    def path(self, value: str) -> _Verdict:
        return path_verdict(value, self.path_mode, _PROVEN)  # type: ignore[no-any-return]

    def ident(self, category: str, value: str) -> _Verdict:
        return ident_verdict(category, value, self.kept, _PROVEN)  # type: ignore[no-any-return]

    def tool(self, value: str) -> _Verdict:
        if value == ng.DROPPED_TOOL:
            return _PROVEN
        parts = ng.split_mcp(value)
        if parts is None:
            return self.ident("tool", value)
        worst: _Verdict = _PROVEN
        for category, part in zip(("mcp_server", "mcp_tool"), parts):
            if part == ng.DROPPED_PART:
                continue
            verdict = self.ident(category, part)
            if verdict[0] == REJECTED:
                return (REJECTED, verdict[1])
            if verdict[0] is not None:
                worst = verdict
        return worst


def _records(output: bytes, table: Table, where: str) -> Iterator[tuple[str, Any, Spec]]:
    if table.document is not None and output.lstrip()[:1] == b"{":
        try:
            doc = orjson.loads(output)
        except orjson.JSONDecodeError:
            doc = None
        if type(doc) is dict and table.document_key in doc:
            yield "", doc, table.document
            return
    if not table.jsonl:
        try:
            yield "", orjson.loads(output), table.root
        except orjson.JSONDecodeError:
            raise BadInput("the native output is not one JSON document", where=where) from None
        return
    for n, line in enumerate(output.split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            record = line.decode("utf-8", "replace")
        yield f"/{n}", record, table.root


def _default_verb_check() -> Callable[[str], bool]:
    from redact.verbs.vocab import default_vocabulary  # the vocabulary, not the engine

    return default_vocabulary().is_valid_verb


def scan_native(output: bytes, fmt: str, *, path_mode: str,
                kept_identifiers: Mapping[str, Collection[str]] | None = None,
                source: bytes | None = None, verb_check: Callable[[str], bool] | None = None) -> ScanResult:
    """Scan a native output of format `fmt` (a raw log scrubbed in its own format).

    `path_mode`: the mode the report states was applied (paths must have its grammar).
    `kept_identifiers`: category -> values the report lists in clear (others are findings).
    `source`: the raw log the output was made from; enables the taint layer.
    """
    table = native_table(fmt)
    if table is None:
        raise BadInput(f"no native table for format {fmt}", where="<native>")
    walk = _Walk(table, path_mode=path_mode, verb_ok=verb_check or _default_verb_check(),
                 kept=kept_identifiers)
    for ptr, record, spec in _records(output, table, "<native>"):
        if type(record) is str:
            walk.reject("grammar.not-object", ptr, record)
            continue
        walk.value(spec, record, ptr)
    grammar = [Finding("grammar", rule, ptr, excerpt(value), n) for rule, ptr, value, n in walk.findings.values()]
    values = list(walk.strings)
    secrets = []
    for hit in find_secrets(values):
        for place in walk.strings[values[hit.index]].values():
            secrets.append(Finding("secrets", f"secrets.{hit.rule}", place.pointer, hit.masked, place.places,
                                   detail=hit.rule))
    taint = taint_scan(walk.strings, source, fmt) if source is not None else None
    language = [Finding("language", "language.text", place.pointer, excerpt(value), place.places)
                for value, places in walk.strings.items() if looks_like_text(value)
                for place in places.values() if place.kind != TEXT]
    by_layer: dict[str, list[Finding] | None] = {
        "grammar": grammar, "secrets": secrets, "taint": taint.findings if taint is not None else None,
        "language": language}
    verdicts = {layer: SKIPPED if by_layer[layer] is None else FAIL if by_layer[layer] else PASS
                for layer in LAYERS}
    return ScanResult(
        findings=tuple(f for layer in LAYERS for f in (by_layer[layer] or ())),
        verdicts=verdicts,
        identifiers={cat: frozenset(vals) for cat, vals in sorted(walk.identifiers.items())},
        path_mode=path_mode,
        strings_checked=len(walk.strings),
        taint_patterns=taint.patterns if taint is not None else 0,
        taint_searched=taint.searched if taint is not None else 0,
        taint_source_strings=taint.source_strings if taint is not None else 0,
    )


__all__ = ["scan_native"]
