"""SARIF 2.1.0 for scan findings, for code-scanning dashboards.

One run; one artifact per scanned file; one result per finding. A finding's place is a JSON
pointer, which SARIF carries as a logical location (`fullyQualifiedName`, kind `member`) next to
the file's physical location. Messages are the rules' fixed texts plus the masked excerpt; the
excerpt, the number of places and the source field (taint) are also under `properties`.
`partialFingerprints` hash the file, rule and pointer, so a dashboard can track a finding without
reading the file. Validated against the OASIS schema in tests/audit/test_sarif.py.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from audit.findings import RULES, Finding, Rule
from audit.scan import ScanResult

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
TOOL_NAME = "agentplay-redact"
FINGERPRINT = "agentplayFinding/v1"


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
        "defaultConfiguration": {"level": "error"},
        "properties": {"layer": rule.layer, "tags": ["privacy", "leak", rule.layer]},
    }


def _message(finding: Finding) -> str:
    text = f"{finding.message} [{finding.excerpt}]"
    if finding.places > 1:
        text += f" (and {finding.places - 1} more places with the same value)"
    if finding.source:
        text += f" (from source field {finding.source})"
    return text


def to_sarif(results: Sequence[tuple[str, ScanResult]]) -> dict[str, Any]:
    """A SARIF 2.1.0 log for the scan results of (file name, ScanResult) pairs."""
    rules: dict[str, Rule] = {}
    for _, res in results:
        for f in res.findings:
            rules.setdefault(f.rule, _rule_of(f))
    rule_ids = sorted(rules)
    index = {rid: i for i, rid in enumerate(rule_ids)}
    artifacts = [{"location": {"uri": name}} for name, _ in results]
    out_results: list[dict[str, Any]] = []
    for art, (name, res) in enumerate(results):
        for f in res.findings:
            digest = hashlib.sha256(f"{name}\0{f.rule}\0{f.pointer}".encode("utf-8", "surrogatepass")).hexdigest()
            props: dict[str, Any] = {"layer": f.layer, "excerpt": f.excerpt, "places": f.places}
            if f.source:
                props["sourceField"] = f.source
            out_results.append({
                "ruleId": f.rule,
                "ruleIndex": index[f.rule],
                "level": "error",
                "message": {"text": _message(f)},
                "locations": [{
                    "physicalLocation": {"artifactLocation": {"uri": name, "index": art}},
                    "logicalLocations": [{"fullyQualifiedName": f.pointer or "/", "kind": "member"}],
                }],
                "partialFingerprints": {FINGERPRINT: digest},
                "properties": props,
            })
    verdicts = {name: dict(res.verdicts) for name, res in results}
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": TOOL_NAME,
                "version": _version(),
                "semanticVersion": _version(),
                "rules": [_rule_descriptor(rules[rid]) for rid in rule_ids],
            }},
            "invocations": [{"executionSuccessful": True, "properties": {"verdicts": verdicts}}],
            "artifacts": artifacts,
            "columnKind": "unicodeCodePoints",
            "results": out_results,
        }],
    }
