"""The native scrubber's engine: one input value + its table node -> the output value, or nothing.

Format modules (`redact/formats/<name>/native.py`) read their records and hand each one to
`Scrubber.record`; this module applies the field classes (`redact/tables/spec.py`) under the policy:
text to its shape, commands to verbs, paths by the path mode, identifiers by the policy's action, ids
kept or hashed, and every field the table does not know dropped and counted in the report. It never
passes a value through that its class does not allow.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import orjson

from redact.apply.identifiers import IdentScrubber
from redact.keys.material import Key, sha256_hex
from redact.model.grammar import VERSION_RE
from redact.tables.names import shown
from redact.tables import grammar as ng
from redact.tables.spec import ByType, JsonText, Leaf, Many, Obj, Ref, Spec, Switch, Table
from redact.apply.paths import apply_mode, clean_relative, is_absolute, locate, normalize, resolve_abs
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport
from redact.verbs import extract, extract_argv

DROP: Any = object()  # "write nothing here"
MAX_NESTING = 16  # records inside records (Claude Code's agent_progress) kept at most this deep
_NOT_JSON: Any = object()


_ZONED = re.compile(r"(\d{4}-\d{2}-\d{2})([T ])(\d{2}:\d{2}:\d{2})(\.\d{1,9})?([+-])(\d{2}):?(\d{2})")


def to_utc(value: str) -> str | None:
    """A native timestamp with its offset moved to UTC `Z` (fraction and separator as written);
    one in UTC or without a zone as it is; None when the zoned one is not a real time."""
    m = _ZONED.fullmatch(value)
    if m is None:
        return value
    date, sep, clock, frac, sign, hours, minutes = m.groups()
    if int(hours) > 23 or int(minutes) > 59:
        return None
    try:
        local = datetime.fromisoformat(f"{date}T{clock}")
        offset = timedelta(hours=int(hours), minutes=int(minutes))
        utc = local - offset if sign == "+" else local + offset
    except (ValueError, OverflowError):
        return None
    return f"{utc.date().isoformat()}{sep}{utc.time().isoformat('seconds')}{frac or ''}Z"


class Scrubber:
    """Applies one table under one policy to the records of one input. Keeps the report's counts."""

    def __init__(self, table: Table, *, policy: EffectivePolicy, key: Key | None, mode: str,
                 report: RedactionReport, roots: tuple[str, ...] = (),
                 exit_code: re.Pattern[str] | None = None) -> None:
        self.table = table
        self.policy = policy
        self.key = key
        self.mode = mode
        self.report = report
        self.roots = roots
        self.cwd: str | None = None  # the working directory of the record being scrubbed
        self.exit_code = exit_code  # how the harness writes a failed command's exit code
        self.idents = IdentScrubber(policy, key, fallbacks=report.fallbacks)
        report.idents = self.idents.report
        self.hash_ids = policy.policy.ids.action == "hash"
        self.hasher: Callable[[str], str] | None = None
        if key is not None and mode == "hashed":
            self.hasher = key.program_digest
        self._ids: dict[str, str] = {}
        self._paths: dict[tuple[str, str | None], str] = {}
        self._verbs: dict[str, str] = {}
        self._patterns: dict[tuple[str, ...], tuple[re.Pattern[str], ...]] = {}
        self._depth = 0
        self._roots = tuple(r for r in (resolve_abs(x) for x in roots) if r)

    # -- counting --------------------------------------------------------------------------------
    def dropped(self, pat: str) -> Any:
        self.report.dropped_values[pat] += 1
        return DROP

    def unknown(self, pat: str) -> None:
        self.report.dropped_fields[f"{pat}.<unknown field>" if pat else "<unknown field>"] += 1

    # -- nodes -----------------------------------------------------------------------------------
    def record(self, record: dict[str, Any]) -> dict[str, Any] | None:
        out = self.value(self.table.root, record, "")
        return None if out is DROP else out

    def value(self, spec: Spec, value: Any, pat: str) -> Any:
        if isinstance(spec, Ref):  # a record inside a record: nested deeper than MAX_NESTING is dropped
            if self._depth >= MAX_NESTING:
                return self.dropped(pat + "<too deep>")
            self._depth += 1
            try:
                return self.value(self.table.resolve(spec), value, pat)
            finally:
                self._depth -= 1
        if value is None:
            if isinstance(spec, Leaf):
                if spec.cls == "drop":
                    return DROP
                return next(iter(spec.values or ())) if spec.cls == "const" else None
            return DROP if isinstance(spec, Switch) else None
        if isinstance(spec, Leaf):
            return self.leaf(spec, value, pat)
        if isinstance(spec, Obj):
            if type(value) is not dict:
                return self.dropped(pat)
            return self.obj(spec, value, pat)
        if isinstance(spec, Switch):
            if type(value) is not dict:
                return self.dropped(pat)
            tag = value.get(spec.key)
            case = spec.cases.get(tag) if isinstance(tag, str) else None
            if case is None:
                case = spec.default
            if case is None:
                label = shown(tag, "<other>")
                return self.dropped(f"{pat}({spec.key}={label})")
            if not pat and isinstance(tag, str):  # a record: its patterns start with its type
                pat = shown(tag, "<other>")
            return self.value(case, value, pat)
        if isinstance(spec, Many):
            if type(value) is not list:
                return self.dropped(pat)
            items = []
            for item in value:
                one = self.value(spec.item, item, pat + "[]")
                if one is not DROP:
                    items.append(one)
            return items
        if isinstance(spec, ByType):
            t = type(value)
            sub = spec.text if t is str else spec.items if t is list else spec.obj if t is dict else \
                spec.scalar
            if sub is None:
                return self.dropped(pat)
            return self.value(sub, value, pat)
        if isinstance(spec, JsonText):
            return self.json_text(spec, value, pat)
        raise AssertionError(spec)  # pragma: no cover

    def obj(self, spec: Obj, value: dict[str, Any], pat: str) -> dict[str, Any]:
        fields = spec.fields
        out: dict[str, Any] = {}
        for name, item in value.items():
            sub = fields.get(name)
            if sub is None:
                self.unknown(pat)
                continue
            one = self.value(sub, item, f"{pat}.{name}" if pat else name)
            if one is not DROP:
                out[name] = one
        # const fields are written whatever the input held (a lowered level, a lossy marker)
        for name, sub in fields.items():
            if isinstance(sub, Leaf) and sub.cls == "const" and name not in out:
                out[name] = next(iter(sub.values or ()))
        return out

    def json_text(self, spec: JsonText, value: Any, pat: str) -> Any:
        if type(value) is not str:
            return self.dropped(pat)
        try:
            parsed = orjson.loads(value) if value.lstrip()[:1] in ("{", "[") else _NOT_JSON
        except orjson.JSONDecodeError:
            parsed = _NOT_JSON
        if parsed is _NOT_JSON:
            if spec.text is not None:
                return self.value(spec.text, value, pat)
            self.report.dropped_values[pat + "<not json>"] += 1
            return "{}"
        out = self.value(spec.inner, parsed, pat + "<json>")
        if out is DROP:
            return "{}"
        return orjson.dumps(out).decode("utf-8")

    # -- leaves ----------------------------------------------------------------------------------
    def leaf(self, spec: Leaf, value: Any, pat: str) -> Any:
        cls = spec.cls
        t = type(value)
        if cls == "shape" or cls == "result":
            if t is not str:
                if ng.is_shape(value):
                    return value  # scrubbed already
                try:  # a JSON value in a text slot (Agent Replay's `any`): the length of its JSON text
                    return {"chars": len(orjson.dumps(value).decode("utf-8"))}
                except orjson.JSONEncodeError:  # pragma: no cover - parsed JSON always encodes
                    return self.dropped(pat)
            if value in spec.keep:
                return value
            shape: dict[str, int] = {"chars": len(value)}
            if cls == "result" and self.exit_code is not None:
                m = self.exit_code.match(value[:64])
                if m:
                    shape["exitCode"] = int(m.group(1))
            return shape
        if cls == "drop":
            return self.dropped(pat)
        if cls == "const" or cls == "mask":
            return next(iter(spec.values or ()))
        if cls == "enum":
            return value if t is str and value in (spec.values or ()) else self.dropped(pat)
        if cls == "number":
            if (t is int or t is float) and math.isfinite(value):
                return value
            return self.dropped(pat)
        if cls == "bool":
            return value if t is bool else self.dropped(pat)
        if cls == "id":
            return self.opaque_id(value) if t is str else self.dropped(pat)
        if cls == "timestamp":
            utc = to_utc(value) if t is str and ng.is_native_timestamp(value) else None
            return self.dropped(pat) if utc is None else utc
        if cls == "version":
            return value if t is str and VERSION_RE.fullmatch(value) else self.dropped(pat)
        if cls == "path":
            return self.path(value) if t is str else self.dropped(pat)
        if cls == "cwd":
            return self.cwd_value(value) if t is str else self.dropped(pat)
        if cls == "verb":
            return self.verb(value, pat)
        if cls == "ident":
            if t is not str and not (t is int and spec.category in ("pr", "ticket")):
                return self.dropped(pat)
            out = self.idents.scrub(spec.category or "", value)
            return DROP if out is None else out
        if cls == "branch":
            return self.branch(value) if t is str else self.dropped(pat)
        if cls == "tool":
            if t is str and spec.values is not None and value in spec.values:
                return value
            return self.tool(value) if t is str else self.dropped(pat)
        if cls == "url_host":
            return self.url_host(value, pat) if t is str else self.dropped(pat)
        if cls == "lines":
            return self.lines(spec, value) if t is str else self.dropped(pat)
        raise AssertionError(cls)  # pragma: no cover

    def opaque_id(self, value: str) -> str:
        cached = self._ids.get(value)
        if cached is None:
            prefixed = None if self.hash_ids else ng.PREFIXED_ID_RE.fullmatch(value)
            if ng.HASH_TOKEN_RE.fullmatch(value) or (not self.hash_ids and ng.is_native_id(value)):
                cached = value
            elif prefixed is not None:
                digest = (self.key.ident_digest("id", value) if self.key is not None
                          else sha256_hex(value.encode("utf-8", "surrogatepass"))[:12])
                cached = prefixed["head"] + digest + (prefixed["tail"] or "")
            elif self.key is not None:
                cached = "h:" + self.key.ident_digest("id", value)
            else:
                cached = "id-" + sha256_hex(value.encode("utf-8", "surrogatepass"))[:12]
            self._ids[value] = cached
        return cached

    def path(self, value: str) -> str:
        k = (value, self.cwd)
        cached = self._paths.get(k)
        if cached is None:
            loc = locate(value, self.roots, self.cwd)
            cached = apply_mode(loc.rel, self.mode, self.key, None, self.report.fallbacks) if loc.rel is not None else \
                (loc.label or "outside-repo")
            self._paths[k] = cached
        return cached

    def cwd_value(self, value: str) -> str:
        if not is_absolute(value.strip()) and clean_relative(value) is None and \
                value.strip().replace("\\", "/").strip("./") == "":
            return ng.ROOT_CWD  # `.`: relative to a root, the root itself
        resolved = resolve_abs(normalize(value.strip())) if is_absolute(value.strip()) else None
        if resolved is not None:
            for root in self._roots:
                if resolved == root or (root[1:2] == ":" and resolved.lower() == root.lower()):
                    return ng.ROOT_CWD
        k = (value, None)
        cached = self._paths.get(k)
        if cached is None:
            loc = locate(value, self.roots, None)
            cached = apply_mode(loc.rel, self.mode, self.key, None, self.report.fallbacks) if loc.rel is not None else \
                (loc.label or "outside-repo")
            self._paths[k] = cached
        return cached

    def verb(self, value: Any, pat: str) -> Any:
        if type(value) is str:
            cached = self._verbs.get(value)
            if cached is None:
                cached = extract(value, hasher=self.hasher).verb
                if len(value) <= 4096:
                    self._verbs[value] = cached
            return cached
        if type(value) is list and value and all(type(v) is str for v in value):
            return extract_argv(value, hasher=self.hasher).verb.split(" ")  # an argv stays an argv
        return self.dropped(pat)

    def lines(self, spec: Leaf, value: str) -> str:
        """Only the lines a pattern declares (harness headers, patch file headers); the rest goes."""
        patterns = self._patterns.get(spec.patterns)
        if patterns is None:
            patterns = self._patterns[spec.patterns] = tuple(re.compile(p) for p in spec.patterns)
        out: list[str] = []
        for line in value.split("\n"):
            line = line.rstrip("\r \t")
            for pattern in patterns:
                m = pattern.fullmatch(line)
                if m is None:
                    continue
                if "path" in pattern.groupindex and m.group("path") is not None:
                    line = line[:m.start("path")] + self.path(m.group("path").strip()) + line[m.end("path"):]
                out.append(line)
                break
        return "\n".join(out)

    def branch(self, value: str) -> Any:
        if value in ng.KNOWN_BRANCHES:
            return value
        if self.key is not None:
            return self.key.ident_token("branch", value)
        return DROP

    def tool(self, name: str) -> str:
        parts = ng.split_mcp(name)
        if parts is None:
            out = self.idents.scrub("tool", name)
            return out if isinstance(out, str) else ng.DROPPED_TOOL
        server, tool = parts
        s = self.idents.scrub("mcp_server", server) if server else None
        t = self.idents.scrub("mcp_tool", tool) if tool else None
        return (f"mcp__{s if isinstance(s, str) else ng.DROPPED_PART}"
                f"__{t if isinstance(t, str) else ng.DROPPED_PART}")

    def url_host(self, value: str, pat: str) -> Any:
        try:
            parts = urlsplit(value.strip())
            host = parts.hostname
        except ValueError:
            return self.dropped(pat)
        if not host or parts.scheme.lower() not in ("http", "https"):
            return self.dropped(pat)
        out = self.idents.scrub("host", host)
        if not isinstance(out, str) or ng.HASH_TOKEN_RE.fullmatch(out):
            return self.dropped(pat)
        return f"{parts.scheme.lower()}://{out}"
