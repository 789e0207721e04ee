"""Explain: for each field of an output map, which rule of which policy produced it.

    exp = explain_file("session.jsonl", policy="public", key=key)
    for f in exp.fields: f.pointer, f.field_class, f.rule, f.outcome
    exp.select("/events/3/verb")          # one pointer, or a pattern such as /events/*/verb

The redaction runs exactly as `redact` would (the library API, nothing written); the output map is
then walked with the field table (redact/model/table.py), and each value's rule is read from its field
class, the effective policy and the report. Values are never part of an explanation, neither the
original (which the output does not hold) nor the output's: only pointers, classes, policy keys and
the kind of outcome ("hashed", "kept in clear", "bucket label", ...). Dropped values are explained
from the report's pointer patterns and counts. For a raw log, `input_fields` lists the fields of the
input the reader read and what it kept of each, from the format's one table (the same rows as
docs/formats.md).
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redact.model import grammar
from redact.model.fieldclass import Kind
from redact.model.table import Leaf, Nested, Node, event_nodes, map_node
from redact.policy.load import EffectivePolicy, load_policy
from redact.report import RedactionReport
from redact.verbs.grammar import EMPTY, HASHED_SCRIPT_RE, SCRIPT, UNPARSED

CONTRACT = "the redaction contract (not configurable)"


@dataclass(frozen=True)
class FieldExplanation:
    pointer: str  # JSON pointer in the output map
    field_class: str  # e.g. "path", "verb", "ident:repo"
    rule: str  # the policy key or contract rule that decided it
    outcome: str  # what happened to the value, never the value

    @property
    def pattern(self) -> str:
        return _pattern(self.pointer)

    def as_dict(self) -> dict[str, str]:
        return {"pointer": self.pointer, "fieldClass": self.field_class, "rule": self.rule,
                "outcome": self.outcome}


@dataclass(frozen=True)
class DroppedExplanation:
    pattern: str  # pointer pattern (or a category / reason)
    count: int
    rule: str

    def as_dict(self) -> dict[str, Any]:
        return {"pattern": self.pattern, "count": self.count, "rule": self.rule}


@dataclass(frozen=True)
class InputField:
    """A field of the raw input format that the reader reads, from the format's one table."""

    location: str  # as in docs/formats.md: `assistant.message.usage.input_tokens`
    field_class: str  # the native class: `shape`, `id`, `ident:model`, ...
    use: str  # what the reader keeps of it

    def as_dict(self) -> dict[str, str]:
        return {"location": self.location, "fieldClass": self.field_class, "use": self.use}


@dataclass
class Explanation:
    policy_name: str
    policy_source: str
    policy_hash: str
    path_mode: str
    requested_mode: str
    key_fingerprint: str | None
    fields: list[FieldExplanation] = field(default_factory=list)
    dropped: list[DroppedExplanation] = field(default_factory=list)
    link_scope: str | None = None
    input_format: str | None = None  # the raw format read (None: the input was a map)
    input_fields: list[InputField] = field(default_factory=list)

    def select(self, pointer: str) -> list[FieldExplanation]:
        """The fields at `pointer`, or under it; `*` in a pointer matches any one array index."""
        pointer = pointer.rstrip("/") if pointer not in ("", "/") else ""
        regex = re.compile("/".join(r"\d+" if part == "*" else re.escape(part) for part in pointer.split("/"))
                           + r"(?:/.*)?")
        return [f for f in self.fields if regex.fullmatch(f.pointer)]

    def dropped_at(self, pointer: str) -> list[DroppedExplanation]:
        wanted = _pattern(pointer)
        return [d for d in self.dropped if d.pattern == wanted or d.pattern.startswith(wanted + "/")]

    def grouped(self) -> list[tuple[FieldExplanation, int]]:
        """One line per (pointer pattern, class, rule, outcome), in order of first appearance."""
        counts: Counter[tuple[str, str, str, str]] = Counter()
        first: dict[tuple[str, str, str, str], FieldExplanation] = {}
        for f in self.fields:
            k = (f.pattern, f.field_class, f.rule, f.outcome)
            counts[k] += 1
            first.setdefault(k, f)
        return [(FieldExplanation(k[0], k[1], k[2], k[3]), counts[k]) for k in first]

    def header(self) -> dict[str, Any]:
        return {"policy": {"name": self.policy_name, "source": self.policy_source, "hash": self.policy_hash},
                "pathMode": self.path_mode, "requestedMode": self.requested_mode,
                "keyFingerprint": self.key_fingerprint, "linkScope": self.link_scope}


def _pattern(ptr: str) -> str:
    return "/".join("*" if part.isdigit() else part for part in ptr.split("/"))


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


class _Explainer:
    def __init__(self, policy: EffectivePolicy, report: RedactionReport, explicit_mode: str | None) -> None:
        self.policy = policy.policy
        self.report = report
        self.explicit_mode = explicit_mode
        self.out: list[FieldExplanation] = []

    def add(self, ptr: str, tag: str, rule: str, outcome: str) -> None:
        self.out.append(FieldExplanation(ptr, tag, rule, outcome))

    def node(self, node: Node, raw: Any, ptr: str) -> None:
        if not isinstance(raw, dict):
            return
        for name, spec in node.fields.items():
            if name not in raw:
                continue
            sub = f"{ptr}/{_escape(name)}"
            value = raw[name]
            if isinstance(spec, Nested):
                if spec.many and isinstance(value, list):
                    for i, item in enumerate(value):
                        self.node(spec.node, item, f"{sub}/{i}")
                elif isinstance(value, dict):
                    self.node(spec.node, value, sub)
            elif spec.mapping:
                self.add(sub, "number", "format: counts keyed by a closed set of names", "kept")
            elif spec.many and isinstance(value, list):
                for i, item in enumerate(value):
                    self.leaf(spec, item, f"{sub}/{i}")
            else:
                self.leaf(spec, value, sub)

    def leaf(self, leaf: Leaf, value: Any, ptr: str) -> None:
        kind, tag = leaf.fc.kind, leaf.fc.tag
        if value is None:
            self.add(ptr, tag, "format: the field may be null", "null kept")
            return
        if kind is Kind.IDENT:
            self.add(ptr, tag, *self.ident(leaf.fc.category or "", value))
        elif kind is Kind.PATH or kind is Kind.LABEL:
            self.add(ptr, tag, *self.path(value, kind))
        elif kind is Kind.ID:
            self.add(ptr, tag, *self.opaque_id(value))
        elif kind is Kind.VERB:
            self.add(ptr, tag, *self.verb(value))
        elif kind is Kind.TEXT:
            self.add(ptr, tag, *self.text(ptr))
        else:
            self.add(ptr, tag, *_FIXED[kind])

    def ident(self, category: str, value: Any) -> tuple[str, str]:
        action = getattr(self.policy.identifiers, category)
        rule = f"identifiers.{category} = {action}"
        if not isinstance(value, str):
            return rule, "kept (a number)"
        hashed = grammar.HASH_TOKEN_RE.fullmatch(value) is not None
        if hashed:
            why = {"hash": "hashed (keyed HMAC under the category's own subkey)",
                   "allowlist": "hashed: not on the allowlist",
                   "generalize": "hashed: a private host (RFC 1918, loopback, .local, .internal, "
                                 "single label, ...)",
                   "keep": "hashed: the value held a local path, an e-mail address, white space or "
                           "invisible characters, which are never kept in clear"}
            return rule, why.get(action, "hashed")
        outcome = {"keep": "kept in clear (listed in the audit report)",
                   "allowlist": "kept in clear: on the allowlist (listed in the audit report)",
                   "generalize": "kept in clear: a public host (listed in the audit report)"}
        rule += "; always: credentials, query and fragment removed"
        return rule, outcome.get(action, "kept in clear")

    def path(self, value: Any, kind: Kind) -> tuple[str, str]:
        if isinstance(value, str) and grammar.is_bucket_label(value):
            return (f"{CONTRACT}: a path outside the repository becomes a bucket label",
                    "bucket label (no user name, no folder below it)")
        mode = self.report.path_mode
        rule = f"--mode {mode}" if self.explicit_mode else f"paths.mode = {self.policy.paths.mode}"
        if self.report.requested_mode != mode:
            rule += f" (asked for {self.report.requested_mode}; no key, so {mode})"
        outcome = {"relative": "repo-relative path as is",
                   "dirs_only": "directories kept; file name -> \u2022 + SHA-256 (6 hex, unkeyed)",
                   "hashed": "every segment -> HMAC-SHA256(key) (10 hex)"}
        return rule, outcome.get(mode, mode)

    def opaque_id(self, value: Any) -> tuple[str, str]:
        action = self.policy.ids.action
        rule = f"ids.action = {action}"
        text = value if isinstance(value, str) else ""
        if text.startswith("h:"):
            return rule, ("hashed (keyed HMAC)" if action == "hash" else
                          "hashed: not of the opaque-id grammar (uuid, hex, sa-...), never kept in clear")
        if text.startswith("id-"):
            return rule, "hashed (unkeyed SHA-256: no key was given)"
        if action == "hash":
            return rule, "kept: a structural id (main, r0, t1) that names no one"
        return rule, "kept: an opaque id (uuid, hex, sa-..., r0, t1)"

    def verb(self, value: Any) -> tuple[str, str]:
        rule = f"{CONTRACT}: a command is reduced to a verb of the closed vocabulary (docs/verbs.md)"
        if value == SCRIPT:
            return rule, "a program outside the vocabulary -> the neutral token"
        if isinstance(value, str) and HASHED_SCRIPT_RE.fullmatch(value):
            return rule, "a program outside the vocabulary -> a keyed token"
        if value in (UNPARSED, EMPTY):
            return rule, "no verb could be given -> a fixed token"
        return rule, "program and subcommand from the vocabulary; flags, paths and values dropped"

    def text(self, ptr: str) -> tuple[str, str]:
        if ptr.startswith("/tasks/"):
            return "text.keep_task_names = true", "kept on purpose by the policy (text)"
        return "text.keep_artifact_titles = true", "kept on purpose by the policy (text)"


_FIXED: dict[Kind, tuple[str, str]] = {
    Kind.ENUM: ("format: a closed set of values", "kept (one of the listed values)"),
    Kind.NUMBER: ("format: a number", "kept"),
    Kind.BOOL: ("format: true or false", "kept"),
    Kind.TIMESTAMP: ("format: an ISO-8601 timestamp", "kept, normalised to UTC milliseconds"),
    Kind.VERSION: ("format: a version string", "kept (version grammar)"),
    Kind.ACTION: ("format: a vcs action of the closed vocabulary", "kept"),
    Kind.HASH: ("format: the map's contentHash (docs/content-hash.md)", "recomputed over the output"),
    Kind.DIGEST: ("format: the keyed digest of the raw log (docs/receipts.md)",
                  "made from the raw log with the key; dropped from a map input"),
}


def _dropped(report: RedactionReport, policy: EffectivePolicy) -> list[DroppedExplanation]:
    out = []
    unknown: Counter[str] = Counter()
    for pattern, n in report.dropped_fields.items():
        # The last segment is a name the input chose (the report shows plain ones); not shown here.
        head, _, last = pattern.rpartition("/")
        unknown[pattern if last.startswith("<") or " " in last else f"{head}/<unknown field>"] += n
    for pattern, n in sorted(unknown.items()):
        out.append(DroppedExplanation(pattern, n, f"{CONTRACT}: a field the format does not define is "
                                                  "dropped (fail closed)"))
    for pattern, n in sorted(report.dropped_values.items()):
        out.append(DroppedExplanation(pattern, n, f"{CONTRACT}: text is never kept, and a value outside "
                                                  "its field's class is dropped"))
    for category, n in sorted(report.idents.dropped.items()):
        action = getattr(policy.policy.identifiers, category, None)
        why = (f"identifiers.{category} = drop" if action == "drop" else
               f"identifiers.{category} = {action}, but the value had to be hashed and no key was given"
               if action is not None else f"{CONTRACT}: not an identifier value")
        out.append(DroppedExplanation(f"identifier:{category}", n, why))
    for reason, n in sorted(report.dropped_events.items()):
        out.append(DroppedExplanation(f"/events ({reason})", n, f"{CONTRACT}: an event of a kind the "
                                                                "format does not define is dropped"))
    for record, n in sorted(report.skipped_records.items()):
        out.append(DroppedExplanation(f"source record {record}", n, "the reader skips a record type it "
                                                                    "does not know (fail closed)"))
    for name, n in sorted(report.fallbacks.items()):
        out.append(DroppedExplanation(f"fallback {name}", n, "a name the leak scanner would flag under "
                                      "this rule was replaced (a token, a hash or a drop), not kept"))
    return out


def explain_map(session_map: dict[str, Any], report: RedactionReport, policy: EffectivePolicy, *,
                explicit_mode: str | None = None) -> Explanation:
    """The explanation of an output map made under `policy`, with its redaction report."""
    ex = _Explainer(policy, report, explicit_mode)
    ex.node(map_node(), session_map, "")
    nodes = event_nodes()
    for i, ev in enumerate(session_map.get("events") or []):
        kind = ev.get("kind") if isinstance(ev, dict) else None
        node = nodes.get(kind) if isinstance(kind, str) else None
        if node is not None:
            ex.node(node, ev, f"/events/{i}")
    if "contentHash" in session_map:
        ex.add("/contentHash", "hash", *_FIXED[Kind.HASH])
    return Explanation(policy.name, policy.source, policy.hash(), report.path_mode, report.requested_mode,
                       report.key_fingerprint, ex.out, _dropped(report, policy), report.link_scope)


def explain_file(path: str | Path, *, policy: str | EffectivePolicy = "default", mode: str | None = None,
                 **options: Any) -> Explanation:
    """Redact `path` as `redact_file` would (nothing written) and explain its output field by field.

    `options` are `redact_file`'s (`key`, `input_format`, `skip_bad_lines`, ...). A redaction the
    scanner blocks raises LeakFound, as `redact` does.
    """
    from redact import api
    from redact.options import RunOptions

    RunOptions(mode=mode, input_format=options.get("input_format"))  # refused before anything is read
    scope = options.pop("link_scope", None)
    eff = policy if isinstance(policy, EffectivePolicy) else load_policy(policy)
    eff = eff.with_link_scope(scope)
    result = api.redact_file(path, None, policy=eff, mode=mode, **options)
    exp = explain_map(result.session_map, result.report, eff, explicit_mode=mode)
    exp.input_format, exp.input_fields = _input_fields(result.report.input_format)
    return exp


def _input_fields(name: str | None) -> tuple[str | None, list[InputField]]:
    """The fields the raw format's reader reads (its table's rows with a use), or none for a map."""
    from redact.formats.fieldtable import field_rows
    from redact.formats.registry import raw_format

    fmt = raw_format(name) if name else None
    if fmt is None:
        return None, []
    return fmt.name, [InputField(r.location, r.cls, r.use) for r in field_rows(fmt) if r.use not in ("", "-")]
