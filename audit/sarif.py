"""SARIF 2.1.0 for scan findings, for code-scanning dashboards.

One run; one artifact per scanned file; one result per finding. A finding's place is a JSON
pointer, which SARIF carries as a logical location (`fullyQualifiedName`, kind `member`) next to
the file's physical location. Messages are the rules' fixed texts plus the masked excerpt; the
excerpt, the number of places and the source field (taint) are also under `properties`.
`partialFingerprints` hash the file, rule and pointer, so a dashboard can track a finding without
reading the file. Validated against the OASIS schema in tests/audit/test_sarif.py.

For GitHub code scanning: every result has `region.startLine` (the line of the pointer's value in
the file's text, audit/locate.py; 1 for a map on one line, such as a `.json.gz`), artifact URIs are
relative to the working folder and percent-encoded (never an absolute path: it would name the
user), and every rule has a `helpUri` and a `security-severity`. A file that could not be scanned
is a tool execution notification of the invocation (which is then not successful).
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any
from urllib.parse import quote

from audit.findings import RULES, Finding, Rule
from audit.locate import lines_of
from audit.scan import ScanResult

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
TOOL_NAME = "agentplay-redact"
FINGERPRINT = "agentplayFinding/v1"
# Where the rules are explained. The project's public home is not settled yet: change it here only.
DOCS_URL = "https://github.com/agentplay/agentplay-redact/blob/main/docs/scanner.md"
_SECTIONS = {"grammar": "grammar-proof", "secrets": "secrets-layer", "taint": "taint-against-the-source",
             "language": "natural-language-detector"}
# GitHub's security-severity (0.0-10.0): a credential is critical; source text, an identifier or a
# field out of the grammar is high; text that merely reads as language is medium.
_SEVERITY = {"secrets": "9.5", "taint": "8.5", "grammar": "7.5", "language": "5.5"}


def _version() -> str:
    try:
        return version("agentplay-redact")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0"


def _rule_of(finding: Finding) -> Rule:
    rule = RULES.get(finding.rule)
    if rule is not None:
        return rule
    generic = RULES[f"{finding.layer}.secret"] if finding.layer == "secrets" else None
    message = generic.message if generic else finding.message
    return Rule(finding.rule, finding.layer, message)


def _rule_descriptor(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.id,
        "name": rule.id.split(".", 1)[-1].replace("-", " ").title().replace(" ", ""),
        "shortDescription": {"text": rule.message},
        "helpUri": f"{DOCS_URL}#{_SECTIONS.get(rule.layer, 'the-leak-scanner')}",
        "help": {"text": f"{rule.message}. The scanner's {rule.layer} layer (docs/scanner.md) found it "
                         "in the map: redact the input again, or fix the producer of the map."},
        "defaultConfiguration": {"level": "error"},
        "properties": {"layer": rule.layer, "tags": ["privacy", "leak", rule.layer],
                       "security-severity": _SEVERITY.get(rule.layer, "7.5")},
    }


def artifact_uri(name: str) -> str:
    """`name` as a relative, percent-encoded URI reference (from the working folder when absolute)."""
    path = name
    if os.path.isabs(path):
        try:
            path = os.path.relpath(path)
        except ValueError:  # another drive (Windows)
            path = os.path.basename(path)
    return quote(path.replace(os.sep, "/"), safe="/")


def _message(finding: Finding) -> str:
    text = f"{finding.message} [{finding.excerpt}]"
    if finding.places > 1:
        text += f" (and {finding.places - 1} more places with the same value)"
    if finding.source:
        text += f" (from source field {finding.source})"
    return text


def to_sarif(results: Sequence[tuple[str, ScanResult]], *, texts: Mapping[str, str | bytes] | None = None,
             failures: Sequence[tuple[str, str]] = ()) -> dict[str, Any]:
    """A SARIF 2.1.0 log for the scan results of (file name, ScanResult) pairs.

    `texts` (file name -> the map's text, decompressed) places each result on its line; without it
    every result is on line 1. `failures` are (file name, one-line diagnostic) of files that could
    not be scanned: tool execution notifications, and the invocation is not successful.
    """
    rules: dict[str, Rule] = {}
    for _, res in results:
        for f in res.findings:
            rules.setdefault(f.rule, _rule_of(f))
    rule_ids = sorted(rules)
    index = {rid: i for i, rid in enumerate(rule_ids)}
    artifacts = [{"location": {"uri": artifact_uri(name)}} for name, _ in results]
    out_results: list[dict[str, Any]] = []
    for art, (name, res) in enumerate(results):
        lines = _lines(texts.get(name) if texts else None, [f.pointer or "/" for f in res.findings])
        uri = artifact_uri(name)
        for f in res.findings:
            digest = hashlib.sha256(f"{uri}\0{f.rule}\0{f.pointer}".encode("utf-8", "surrogatepass")).hexdigest()
            props: dict[str, Any] = {"layer": f.layer, "excerpt": f.excerpt, "places": f.places}
            if f.source:
                props["sourceField"] = f.source
            out_results.append({
                "ruleId": f.rule,
                "ruleIndex": index[f.rule],
                "level": "error",
                "message": {"text": _message(f)},
                "locations": [{
                    "physicalLocation": {"artifactLocation": {"uri": uri, "index": art},
                                         "region": {"startLine": lines.get(f.pointer or "/", 1)}},
                    "logicalLocations": [{"fullyQualifiedName": f.pointer or "/", "kind": "member"}],
                }],
                "partialFingerprints": {FINGERPRINT: digest},
                "properties": props,
            })
    verdicts = {name: dict(res.verdicts) for name, res in results}
    invocation: dict[str, Any] = {"executionSuccessful": not failures, "properties": {"verdicts": verdicts}}
    if failures:
        invocation["toolExecutionNotifications"] = [{
            "level": "error",
            "message": {"text": f"not scanned: {diagnostic}"},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": artifact_uri(name)}}}],
        } for name, diagnostic in failures]
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": TOOL_NAME,
                "version": _version(),
                "semanticVersion": _version(),
                "informationUri": DOCS_URL,
                "rules": [_rule_descriptor(rules[rid]) for rid in rule_ids],
            }},
            "invocations": [invocation],
            "artifacts": artifacts,
            "columnKind": "unicodeCodePoints",
            "results": out_results,
        }],
    }


def _lines(text: str | bytes | None, pointers: list[str]) -> dict[str, int]:
    if text is None or not pointers:
        return {}
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return lines_of(text, pointers)
