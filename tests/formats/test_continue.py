"""Continue sessions: ~/.continue/sessions/<uuid>.json into a map, and scrubbed natively; the index
and dev_data logs skipped by name."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings

from redact.api import redact_file
from redact.cli import main
from redact.formats.detect import detect
from redact.errors import BadInput
from redact.api_native import scrub_native
from redact.policy.load import load_policy
from redact.report import RedactionReport
from tests.formats import jsonfix
from tests.formats.canary import POLICIES, Canaries, canary_base, check
from tests.maps import shell_commands

CALLS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


@pytest.mark.parametrize("workspace", ["file:///c%3A/Users/dana/dev/shop", "C:\\Users\\dana\\dev\\shop"])
def test_a_session_becomes_a_map(tmp_path: Path, workspace: str) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    path = sessions / f"{jsonfix.CONTINUE_ID}.json"
    path.write_bytes(jsonfix.continue_session(jsonfix.plain(), workspace=workspace))
    (sessions / "sessions.json").write_text('[{"sessionId": "x", "title": "secret plans"}]')
    assert detect(path.read_bytes(), "x") == "continue-dev"
    m = redact_file(path).session_map
    kinds = Counter(e["kind"] for e in m["events"])
    want = jsonfix.CONTINUE_COUNTS
    assert m["session"]["agentTool"] == "continue" and m["session"]["id"].endswith(jsonfix.CONTINUE_ID)
    assert kinds["user"] == want["user"] and kinds["llm"] == want["llm"]
    assert sum(kinds[k] for k in CALLS) == want["calls"]
    assert shell_commands(m) == want["shell"] and kinds["edit"] == want["edits"]
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert sum(e.get("in", 0) for e in llm) == want["in"] and sum(e.get("out", 0) for e in llm) == want["out"]
    assert sorted(f["path"] for f in m["files"]) == ["src/app.js", "src/new.js"]
    assert {e["t"] for e in m["events"]} == {0}  # Continue writes no times
    out = tmp_path / "out"
    assert main([str(sessions), "--out-dir", str(out)]) == 0  # ~/.continue/sessions
    assert [p.name for p in out.glob("*.json.gz")] == [f"{jsonfix.CONTINUE_ID}.json.gz"]
    with pytest.raises(BadInput, match="never read"):
        redact_file(sessions / "sessions.json")


def test_native_keeps_the_session_and_drops_the_text() -> None:
    data = jsonfix.continue_session(jsonfix.plain())
    out = scrub_native(data, "continue-dev", name="s.json", policy=load_policy("default"), key=None, mode=None,
                       report=RedactionReport(source="x"))
    doc = orjson.loads(out)
    assert b"plain words" not in out and "workspaceDirectory" not in doc
    item = doc["history"][1]
    assert [s["status"] for s in item["toolCallStates"]] == ["done", "errored", "done"]
    assert item["message"]["usage"]["prompt_tokens"] == 2032


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base)
def test_no_canary_in_a_map_or_native(base: str) -> None:
    canaries = Canaries(base)
    data = jsonfix.continue_session(canaries)
    for policy, key in POLICIES:
        check(data, canaries, policy, key, name="s.json")
        out = scrub_native(data, "continue-dev", name="s.json", policy=load_policy(policy), key=key, mode=None,
                           report=RedactionReport(source="x")).decode()
        assert not [c for c in canaries.all if c in out]
