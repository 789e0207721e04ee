"""Continue sessions: ~/.continue/sessions/<uuid>.json into a map, and scrubbed natively; the index
and dev_data logs skipped by name."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

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


def test_the_index_gives_the_start_and_no_map_makes_one_up(tmp_path: Path) -> None:
    """Issue 25: maps said 1970-01-01. The index `sessions.json` beside the session (also under a
    copy's flat name `<prefix>sessions.json`) holds the session's `dateCreated`: the map starts there.
    Without the index the source has no time: the report says so (the epoch is a stand-in)."""
    created = 1_772_464_780_580
    for prefix in ("", "home__.continue_sessions_"):
        folder = tmp_path / (prefix or "plain")
        folder.mkdir()
        path = folder / f"{prefix}{jsonfix.CONTINUE_ID}.json"
        path.write_bytes(jsonfix.continue_session(jsonfix.plain()))
        (folder / f"{prefix}sessions.json").write_bytes(orjson.dumps([
            {"sessionId": "other", "title": "zqtitleqz one", "dateCreated": "1000000000000"},
            {"sessionId": jsonfix.CONTINUE_ID, "title": "zqtitleqz two", "dateCreated": str(created),
             "workspaceDirectory": "C:\\Users\\dana\\dev\\shop", "messageCount": 5}]))
        result = redact_file(path)
        assert result.session_map["session"]["startedAt"] == "2026-03-02T15:19:40.580Z"
        assert b"zqtitleqz" not in result.data and "zqtitleqz" not in str(result.report.as_dict())
        assert any("dateCreated" in w for w in result.report.warnings)
    alone = tmp_path / "alone"
    alone.mkdir()
    path = alone / f"{jsonfix.CONTINUE_ID}.json"
    path.write_bytes(jsonfix.continue_session(jsonfix.plain()))
    result = redact_file(path)
    assert result.session_map["session"]["startedAt"].startswith("1970-01-01")
    assert any("stand-in" in w for w in result.report.warnings)


def test_a_conversation_summary_is_a_compaction() -> None:
    """Issue 25: compaction notices were dropped. A history item holding `conversationSummary` is
    where Continue compacted the conversation: a compaction event, and its text never reaches the map."""
    from redact.api import redact_bytes

    doc = orjson.loads(jsonfix.continue_session(jsonfix.plain()))
    plain = redact_bytes(orjson.dumps(doc), name="s.json").session_map
    doc["history"][1]["conversationSummary"] = "zqsummaryqz of what came before"
    result = redact_bytes(orjson.dumps(doc), name="s.json")
    kinds = Counter(e["kind"] for e in result.session_map["events"])
    assert kinds["compaction"] == 1 and result.session_map["totals"]["compactions"] == 1
    assert plain["totals"]["compactions"] == 0 and b"zqsummaryqz" not in result.data


@pytest.mark.parametrize(("usage", "out"), [
    ({"prompt_tokens": 2032, "completion_tokens": 15, "total_tokens": 2095}, 63),  # 48 thoughts: in total only
    ({"prompt_tokens": 2032, "completion_tokens": 15, "total_tokens": 2047}, 15),
    ({"prompt_tokens": 2032, "completion_tokens": 15}, 15),
    ({"prompt_tokens": 2032, "completion_tokens": 15, "total_tokens": 10}, 15),  # a total below: ignored
])
def test_a_thinking_model_s_thoughts_are_counted(tmp_path: Path, usage: dict[str, int], out: int) -> None:
    """The cn CLI writes a Gemini response's thinking tokens only in total_tokens (prompt + completion +
    thoughts): they are output tokens (issue 25: 2.81M tokens mapped as 2.78M)."""
    doc = orjson.loads(jsonfix.continue_session(jsonfix.plain()))
    for item in doc["history"]:
        if item["message"]["role"] == "assistant":
            item["message"].pop("usage", None)
    first = next(i for i in doc["history"] if i["message"]["role"] == "assistant")
    first["message"]["usage"] = {**usage, "model": "gemini-2.5-pro"}
    path = tmp_path / f"{jsonfix.CONTINUE_ID}.json"
    path.write_bytes(orjson.dumps(doc))
    m = redact_file(path, policy="internal").session_map
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert (llm[0].get("in"), llm[0].get("out")) == (2032, out)
    assert m["totals"]["tokens"] == 2032 + out


def test_create_new_file_creates_its_file() -> None:
    """Continue's create_new_file only ever makes a file that was not there: once done, its edit is a
    create (issue 25: the map had none); a failed one creates nothing."""
    doc = orjson.loads(jsonfix.continue_session(jsonfix.plain()))
    m = redact_bytes_of(doc)
    assert next(f for f in m["files"] if f["path"] == "src/new.js").get("op") == "create"
    assert m["totals"]["filesCreated"] == 1
    for item in doc["history"]:
        for state in item.get("toolCallStates") or []:
            if state["toolCall"]["function"]["name"] == "create_new_file":
                state["status"] = "errored"
    assert redact_bytes_of(doc)["totals"]["filesCreated"] == 0


def redact_bytes_of(doc: dict[str, Any]) -> dict[str, Any]:
    from redact.api import redact_bytes

    return redact_bytes(orjson.dumps(doc), name=f"{jsonfix.CONTINUE_ID}.json", policy="internal").session_map
