"""The scanner's library API: `scan_map` verdicts, options, bad input, secrets layer wiring."""
from __future__ import annotations

import json

import pytest

from audit.scan import ScanResult, scan_map
from redact.errors import BadInput
from redact.verbs import extend_vocabulary
from tests.audit.scanner_maps import SECRETS, kept_identifiers, redacted_example


def test_verdicts_for_a_clean_map_with_and_without_a_source() -> None:
    doc = redacted_example("public")
    assert scan_map(doc).verdicts == {"grammar": "pass", "secrets": "pass", "taint": "skipped", "language": "pass"}
    assert scan_map(doc, source=b"{}").verdicts["taint"] == "pass"


@pytest.mark.parametrize("doc", [[], "x", {"schema": "other/v1", "events": []}, {"events": []}])
def test_not_a_map_is_bad_input(doc: object) -> None:
    with pytest.raises(BadInput):
        scan_map(doc)  # type: ignore[arg-type]


def test_old_schema_name_is_a_map() -> None:
    doc = redacted_example("default")
    doc["schema"] = "entelligence.session-map/v1"
    doc.pop("contentHash")
    assert scan_map(doc).clean


def test_secrets_layer_sees_disclosed_and_rejected_strings_only() -> None:
    doc = redacted_example("default")
    doc.pop("contentHash")
    doc["repos"][0]["name"] = SECRETS[0]  # an identifier shape: only the secrets layer can tell
    doc["session"]["id"] = "0123456789abcdef0123456789abcdef01234567"  # hex: proven, never a "secret"
    result = scan_map(doc)
    assert [(f.layer, f.rule, f.pointer) for f in result.findings] == [
        ("secrets", "secrets.github-token", "/repos/0/name")]
    assert result.findings[0].excerpt.startswith("ghp_") and SECRETS[0] not in result.findings[0].excerpt


def test_identifiers_are_returned_for_the_report() -> None:
    result = scan_map(redacted_example("internal"))
    assert result.identifiers["repo"] == frozenset({"orders-api"})
    assert "h:" not in json.dumps({k: sorted(v) for k, v in result.identifiers.items()})


def test_kept_identifiers_cross_check() -> None:
    doc = redacted_example("default")
    kept = kept_identifiers("default")
    assert scan_map(doc, kept_identifiers=kept).clean
    kept["repo"].discard("orders-api")
    result = scan_map(doc, kept_identifiers=kept)
    assert [(f.rule, f.pointer) for f in result.findings] == [("grammar.identifier-undeclared", "/repos/0/name")]


def test_policy_verbs_are_checked_with_the_policys_vocabulary() -> None:
    doc = redacted_example("default")
    doc.pop("contentHash")
    exec_event = next(ev for ev in doc["events"] if ev["kind"] == "exec")
    exec_event["verb"] = "acmectl deploy"
    assert not scan_map(doc).clean
    vocab = extend_vocabulary({"acmectl": ["deploy"]})
    assert scan_map(doc, verb_check=vocab.is_valid_verb).clean


def test_result_as_dict_holds_counts_not_values() -> None:
    result = scan_map(redacted_example("internal"))
    text = json.dumps(result.as_dict())
    assert "orders-api" not in text and result.as_dict()["identifiersInClear"]["repo"] == 1
    assert isinstance(result, ScanResult) and result.clean


def test_findings_come_in_layer_order_and_are_deterministic() -> None:
    doc = redacted_example("default")
    doc["session"]["note"] = "please send " + SECRETS[3] + " to the team"
    a, b = scan_map(doc, source=b'{"type":"user","message":"please send it to the team"}'), scan_map(doc)
    layers = [f.layer for f in a.findings]
    assert layers == sorted(layers, key=["grammar", "secrets", "taint", "language"].index)
    assert scan_map(doc) == b


def test_same_result_in_processes_with_different_hash_seeds(tmp_path: object) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    folder = Path(str(tmp_path))
    doc = redacted_example("default")
    doc["session"]["note"] = "please fix the zq_payroll_export_2291 job for the customer"
    doc["repos"][0]["name"] = SECRETS[2]
    (folder / "m.json").write_text(json.dumps(doc))
    (folder / "s.jsonl").write_text(json.dumps({"type": "user", "message": {
        "content": "fix the zq_payroll_export_2291 job for the customer"}}) + "\n")
    outs = []
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        run = subprocess.run([sys.executable, "-m", "redact", "scan", "-f", "json", str(folder / "m.json"),
                              "--source", str(folder / "s.jsonl"), "--untied-source"], capture_output=True, env=env, check=False)
        assert run.returncode == 1, run.stderr
        outs.append(run.stdout)
    assert outs[0] == outs[1] == outs[2]
