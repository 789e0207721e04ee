"""The audit report of an existing map, when there is no RedactionReport (`agentplay-redact audit FILE`).

Builds the same dict as `RedactionReport.as_dict()` by walking the map with the field table
(`redact/model/table.py`): identifiers are the leaves whose field class is IDENT, and a value is in
clear unless it is one of this tool's hash tokens (`h:` + 12 hex). It does not transform anything
and shares no code with the redactor's walk. Keys this function adds to the redaction report's:

* `contentHashStored`, `contentHashMatches`: the map's own `contentHash` and whether it equals the
  one recomputed here (`contentHash`);
* `unknownFields` (pointer pattern -> count) and `unknownEvents` (reason -> count): what the map
  carries that the format does not define (a redacted map has none; the redactor drops them);
* `textFields` (pointer pattern -> count): text fields present, such as task names a policy kept;
  their values are never read into the report;
* `auditOf` ("map"), `eventCount`, `pathModeDeclared`.

The report holds counts, pointer patterns and identifier values only, never a text value.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from redact.model.canonical import content_hash
from redact.errors import BadInput
from redact.io.read import display_name, parse_json, read_input
from redact.model import grammar
from redact.model.values import SCHEMA_IDS
from redact.model.fieldclass import Kind
from redact.model.table import Leaf, Nested, Node, event_nodes, map_node
from redact.tables.names import agent_label, is_shown


def _pattern(ptr: str) -> str:
    return "/".join("*" if part.isdigit() else part for part in ptr.split("/"))


class _Walk:
    def __init__(self) -> None:
        self.clear: dict[str, set[str]] = defaultdict(set)
        self.hashed: Counter[str] = Counter()
        self.unknown_fields: Counter[str] = Counter()
        self.unknown_events: Counter[str] = Counter()
        self.text_fields: Counter[str] = Counter()
        self.by_kind: Counter[str] = Counter()
        self.by_agent: Counter[str] = Counter()

    def unknown(self, ptr: str, name: str) -> None:
        key = f"{_pattern(ptr)}/{name}" if is_shown(name) else f"{_pattern(ptr)}/<unknown field>"
        self.unknown_fields[key] += 1

    def node(self, node: Node, raw: Any, ptr: str) -> None:
        if not isinstance(raw, dict):
            self.unknown_fields[f"{_pattern(ptr) or '/'} (malformed)"] += 1
            return
        for name, value in raw.items():
            spec = node.fields.get(name)
            sub = f"{ptr}/{name}"
            if spec is None:
                if not (ptr == "" and name == "events"):
                    self.unknown(ptr, name)
                continue
            if isinstance(spec, Nested):
                if value is None:
                    continue
                if spec.many:
                    if isinstance(value, list):
                        for i, item in enumerate(value):
                            self.node(spec.node, item, f"{sub}/{i}")
                    else:
                        self.unknown_fields[f"{_pattern(sub)} (malformed)"] += 1
                else:
                    self.node(spec.node, value, sub)
                continue
            self.leaf(spec, value, sub)

    def leaf(self, leaf: Leaf, value: Any, ptr: str) -> None:
        kind = leaf.fc.kind
        if kind not in (Kind.IDENT, Kind.TEXT):
            return
        values = value if isinstance(value, list) else [value]
        for one in values:
            if one is None or isinstance(one, (bool, dict, list)):
                continue
            if kind is Kind.TEXT:
                if not isinstance(one, str) or one:
                    self.text_fields[_pattern(ptr)] += 1
                continue
            category = leaf.fc.category or "unknown"
            if isinstance(one, str) and grammar.HASH_TOKEN_RE.fullmatch(one):
                self.hashed[category] += 1
            elif isinstance(one, (int, float)):
                self.clear[category].add(str(one))
            elif isinstance(one, str) and one:
                self.clear[category].add(one)

    def events(self, raw: Any) -> int:
        if not isinstance(raw, list):
            return 0
        nodes = event_nodes()
        for i, ev in enumerate(raw):
            ptr = f"/events/{i}"
            if not isinstance(ev, dict):
                self.unknown_events["not an object"] += 1
                continue
            kind = ev.get("kind")
            node = nodes.get(kind) if isinstance(kind, str) else None
            self.by_agent[agent_label(ev.get("agent"))] += 1
            if node is None or not isinstance(kind, str):
                self.unknown_events["unknown kind"] += 1
                self.by_kind["<unknown kind>"] += 1
                continue
            self.by_kind[kind] += 1
            self.node(node, ev, ptr)
        return len(raw)


def _path_mode(session: Any, report: dict[str, Any], files: Any) -> None:
    declared = session.get("pathMode") if isinstance(session, dict) else None
    warnings: list[str] = report["warnings"]
    if declared in grammar.PATH_MODES:
        mode = declared
    else:
        mode = "relative"
        if declared is None:
            warnings.append("session.pathMode is absent: readers take the map's paths as relative")
        else:
            warnings.append("session.pathMode is not relative, dirs_only or hashed: readers take "
                            "the map's paths as relative")
    report["pathMode"] = mode
    report["requestedMode"] = mode
    report["pathModeDeclared"] = declared in grammar.PATH_MODES
    paths = [f.get("path") for f in files if isinstance(f, dict)] if isinstance(files, list) else []
    off = sum(1 for p in paths if not (isinstance(p, str) and grammar.path_in_mode(p, mode)))
    if off:
        warnings.append(f"{off} of {len(paths)} file paths do not have the shape of {mode} mode")


def _content_hash(raw: dict[str, Any], report: dict[str, Any]) -> None:
    stored = raw.get("contentHash")
    try:
        computed = content_hash(raw)
    except (TypeError, ValueError, RecursionError):  # a value canonical JSON cannot write
        computed = ""
        report["warnings"].append("the contentHash cannot be computed: the map holds a value "
                                  "canonical JSON refuses")
    report["contentHash"] = computed
    report["contentHashStored"] = stored if isinstance(stored, str) else None
    if stored is None:
        report["contentHashMatches"] = None
        report["warnings"].append("the map has no contentHash; the one shown was computed here")
    else:
        report["contentHashMatches"] = bool(computed) and stored == computed
        if not report["contentHashMatches"]:
            report["warnings"].append("the map's contentHash does not match its content (edited "
                                      "after it was written?); the one shown was computed here")


def _scan(raw: dict[str, Any], report: dict[str, Any], source_log: bytes | None,
          options: dict[str, Any]) -> None:
    """Verdicts and findings from the leak scanner, which shares none of this walk's code."""
    from audit.scan import scan_map  # imported here: the scanner loads the verb vocabulary

    result = scan_map(raw, source=source_log, **options)
    report["scanner"] = {str(layer): str(v) for layer, v in result.verdicts.items()}
    report["findings"] = [finding_dict(f) for f in result.findings]


def finding_dict(finding: Any) -> dict[str, Any]:
    """A finding (an `audit.findings.Finding` or a dict) as the report holds it: no value, only the
    masked excerpt. The renderers check every part again."""
    if hasattr(finding, "as_dict"):
        return dict(finding.as_dict())
    return dict(finding) if isinstance(finding, dict) else {}


def report_of_map(raw: Any, *, source: str = "<map>", scan: bool = True,
                  source_log: bytes | None = None, policy: Any = None) -> dict[str, Any]:
    """The audit report dict of a parsed map `raw` (BadInput when it is not an agentplay/v1 map).

    `source` names the map in the report; `scan` runs the leak scanner (`audit/scan.py`) for the
    verdicts and findings, with its taint layer when `source_log` (the raw log's bytes) is given.
    `policy` (an `EffectivePolicy`, `audit --policy`): the policy the map was made under; the report
    names it and the scanner does not count what it keeps on purpose as findings.
    """
    if not isinstance(raw, dict):
        raise BadInput("a session map must be a JSON object", where=f"{source}#/")
    schema = raw.get("schema")
    if schema not in SCHEMA_IDS:
        raise BadInput("not an agentplay/v1 map (`schema`)", where=f"{source}#/schema")
    if not isinstance(raw.get("events"), list):
        raise BadInput("`events` must be a list", where=f"{source}#/events")
    report: dict[str, Any] = {
        "auditOf": "map",
        "source": source,
        "inputFormat": str(schema),
        "keyFingerprint": None,
        "policy": ({"name": None, "hash": None} if policy is None else
                   {"name": policy.name, "hash": policy.hash(), "keeps": policy.keeps()}),
        "identifiersDropped": {},
        "droppedFields": {},
        "droppedValues": {},
        "droppedEvents": {},
        "skippedRecords": {},
        "warnings": [],
        "scanner": {},
        "findings": [],
    }
    walk = _Walk()
    walk.node(map_node(), raw, "")
    report["eventCount"] = walk.events(raw["events"])
    _path_mode(raw.get("session"), report, raw.get("files"))
    _content_hash(raw, report)
    report["eventsByKind"] = dict(sorted(walk.by_kind.items()))
    report["eventsByAgent"] = dict(sorted(walk.by_agent.items()))
    report["identifiersInClear"] = {k: sorted(v) for k, v in sorted(walk.clear.items())}
    report["identifiersHashed"] = dict(sorted(walk.hashed.items()))
    report["unknownFields"] = dict(sorted(walk.unknown_fields.items()))
    report["unknownEvents"] = dict(sorted(walk.unknown_events.items()))
    report["textFields"] = dict(sorted(walk.text_fields.items()))
    if walk.unknown_fields or walk.unknown_events:
        report["warnings"].append("the map carries fields or events the format does not define "
                                  "(`redact` would drop them)")
    if walk.text_fields:
        report["warnings"].append("the map carries text fields (task names or artifact titles); "
                                  "their values are not shown here")
    if scan:
        _scan(raw, report, source_log, {} if policy is None else policy.scan_options())
    if policy is not None:
        report["textKept"] = _text_kept(raw, policy)
    return report


def _text_kept(raw: dict[str, Any], policy: Any) -> dict[str, list[str]]:
    """The task names and artifact titles `policy` keeps on purpose, as the map holds them."""
    text = policy.policy.text
    out: dict[str, list[str]] = {}
    tasks = raw.get("tasks")
    if text.keep_task_names and isinstance(tasks, list):
        names = {t["name"] for t in tasks if isinstance(t, dict) and isinstance(t.get("name"), str) and t["name"]}
        if names:
            out["task_names"] = sorted(names)
    events = raw.get("events")
    if text.keep_artifact_titles and isinstance(events, list):
        titles = {e["title"] for e in events if isinstance(e, dict) and e.get("kind") == "ArtifactEvent"
                  and isinstance(e.get("title"), str) and e["title"]}
        if titles:
            out["artifact_titles"] = sorted(titles)
    return out


def audit_file(path: str | Path, *, scan: bool = True,
               source_log: str | Path | bytes | None = None, policy: Any = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """(report, map) for the map file at `path` (gzip or not, `-` for stdin). BadInput on bad input.

    `source_log`: the raw log the map was made from, for the scanner's taint layer."""
    where = display_name(path)
    raw = parse_json(read_input(path), where)
    log = source_log if isinstance(source_log, bytes) or source_log is None else read_input(source_log)
    report = report_of_map(raw, source=where, scan=scan, source_log=log, policy=policy)
    return report, raw

