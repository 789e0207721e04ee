"""`explain` (redact/share/explain.py): each output field's class, rule and outcome, and never a value."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from redact.cli import main
from redact.share.explain import explain_file
from redact.keys.material import load_key_file
from tests.formats.ccfix import Transcript, text, tool_use
from tests.maps import EXAMPLE

KEY_HEX = "4e" * 32
CANARIES = ("Zq7Canary", "zq7canary")


@pytest.fixture()
def key_path(tmp_path: Path) -> Path:
    path = tmp_path / "key"
    path.write_text(KEY_HEX)
    os.chmod(path, 0o600)
    return path


def canary_map() -> dict[str, Any]:
    """The example map with a canary in every kind of slot: identifiers, paths, verbs, text, unknown."""
    doc = json.loads(EXAMPLE.read_text())
    doc["repos"][0]["name"] = "Zq7Canary-orders"
    doc["repos"][0]["remote"] = "https://bob:Zq7CanaryTok@git.zq7canary.internal/team/api.git"
    doc["files"][0]["path"] = "Zq7CanaryDir/service.py"
    doc["tasks"][0]["name"] = "Zq7Canary please fix the customer bug"
    doc["session"]["xZq7Canary"] = "Zq7Canary unknown field"
    doc["events"][0]["x-Zq7Canary"] = 1
    for ev in doc["events"]:
        if ev.get("kind") == "exec":
            ev["verb"] = "./zq7canary-deploy.sh --token Zq7CanaryToken"
        if ev.get("kind") == "llm":
            ev["model"] = "Zq7Canary-model"
    return doc


def canary_transcript() -> bytes:
    t = Transcript("6f1e4c2a-1b2c-4d3e-8f4a-5b6c7d8e9f00", "/home/zq7canary/src/api")
    t.user("Zq7Canary please refactor the billing module")
    tid = t.tool_id()
    t.assistant([text("Zq7Canary reply"), tool_use(tid, "Bash", {"command": "./zq7canary.sh --k Zq7Canary"})])
    t.result(tid, "Zq7Canary output")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Read", {"file_path": "/home/zq7canary/src/api/Zq7Canary/mod.py"})])
    t.result(tid, "Zq7Canary file content")
    return t.bytes()


def _clean(text_out: str) -> None:
    for canary in CANARIES:
        assert canary not in text_out


def test_rules_name_the_policy_and_the_outcome(key_path: Path) -> None:
    exp = explain_file(EXAMPLE, policy="public", key=load_key_file(key_path))
    assert exp.policy_name == "public" and exp.path_mode == "hashed"
    (path,) = exp.select("/files/0/path")
    assert path.field_class == "path" and path.rule == "paths.mode = hashed" and "HMAC" in path.outcome
    (repo,) = exp.select("/repos/0/name")
    assert repo.rule == "identifiers.repo = hash" and repo.outcome.startswith("hashed")
    (sid,) = exp.select("/session/id")
    assert sid.rule == "ids.action = hash" and sid.outcome.startswith("hashed")
    verbs = exp.select("/events/*/verb")
    assert verbs and all(v.field_class == "verb" and "closed vocabulary" in v.rule for v in verbs)
    assert exp.select("/contentHash")[0].field_class == "hash"
    assert any(d.pattern == "/tasks/*/name" for d in exp.dropped)  # task names: text, dropped


def test_default_policy_and_fallbacks() -> None:
    exp = explain_file(EXAMPLE, policy="default", mode="hashed")  # no key: dirs_only, said so
    (path,) = exp.select("/files/0/path")
    assert path.rule.startswith("--mode dirs_only (asked for hashed") and "unkeyed" in path.outcome
    (remote,) = exp.select("/repos/0/remote")
    assert remote.rule.startswith("identifiers.remote = keep") and remote.outcome.startswith("kept in clear")


@pytest.mark.parametrize("policy", ["default", "internal", "public"])
def test_explain_never_prints_a_value_of_a_map(tmp_path: Path, key_path: Path, policy: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.json"
    src.write_text(json.dumps(canary_map()))
    for extra in ([], ["--json"], ["--field", "/repos/0/name"], ["--field", "/events/*/verb", "--json"],
                  ["--field", "/session"]):
        code = main(["explain", str(src), "--policy", policy, "--key-file", str(key_path), *extra])
        out, err = capsys.readouterr()
        assert code == 0, err
        assert out.strip()
        _clean(out + err)


def test_explain_never_prints_a_value_of_a_raw_log(tmp_path: Path, key_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "6f1e4c2a-1b2c-4d3e-8f4a-5b6c7d8e9f00.jsonl"
    src.write_bytes(canary_transcript())
    for policy in ("default", "internal", "public"):
        code = main(["explain", str(src), "--policy", policy, "--key-file", str(key_path)])
        out, err = capsys.readouterr()
        assert code == 0, err
        assert "/events/" in out
        _clean(out + err)


def test_explain_of_the_dropped_and_the_absent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.json"
    src.write_text(json.dumps(canary_map()))
    code = main(["explain", str(src), "--field", "/tasks/0/name"])
    out, err = capsys.readouterr()
    assert code == 0 and "dropped" in out and "text is never kept" in out
    _clean(out + err)
    code = main(["explain", str(src), "--field", "/no/such/field"])
    out, err = capsys.readouterr()
    assert code == 2 and len(err.strip().splitlines()) == 1
    code = main(["explain", str(src), "--json"])
    body = json.loads(capsys.readouterr().out)
    assert body["policy"]["name"] == "default"
    assert {"pointer", "fieldClass", "rule", "outcome"} == set(body["fields"][0])
    assert any(d["pattern"].startswith("/session/") for d in body["dropped"])  # the unknown field


def test_explain_lists_the_input_fields_the_reader_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """For a raw log, explain names the input fields its reader read, from the format's one table
    (the rows docs/formats.md shows with a use); a map input has none."""
    from redact.formats.fieldtable import field_rows
    from redact.formats.registry import raw_format

    src = tmp_path / "6f1e4c2a-1b2c-4d3e-8f4a-5b6c7d8e9f00.jsonl"
    src.write_bytes(canary_transcript())
    exp = explain_file(src)
    fmt = raw_format("claude-code")
    assert fmt is not None and exp.input_format == "claude-code"
    wanted = [(r.location, r.cls, r.use) for r in field_rows(fmt) if r.use != "-"]
    assert [(i.location, i.field_class, i.use) for i in exp.input_fields] == wanted
    assert any(i.location == "assistant.message.usage.input_tokens" and i.use == "in" for i in exp.input_fields)
    code = main(["explain", str(src), "--json"])
    body = json.loads(capsys.readouterr().out)
    assert code == 0 and len(body["inputFields"]) == len(wanted)
    as_map = tmp_path / "in.json"
    as_map.write_text(json.dumps(canary_map()))
    assert explain_file(as_map).input_fields == []
