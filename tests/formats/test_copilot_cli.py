"""GitHub Copilot CLI event logs (the session folder and the legacy flat file): detection, the map's
events by kind, subagent lanes, native scrubbing, batch discovery from `~/.copilot`, and canaries in
every text slot never surviving any policy."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.batch import run as batch
from redact.api import redact_bytes, redact_file
from redact.formats.detect import detect
from redact.policy.load import load_policy
from tests.formats.canary import KEY, POLICIES, Canaries, canary_base, check
from tests.native.copilotfix import SESSION_ID, events, records
from tests.native.helpers import lines, native, report_text

CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


def _map(data: bytes, policy: str = "default") -> dict[str, Any]:
    return redact_bytes(data, name="in", policy=policy, key=KEY if policy == "public" else None).session_map


@pytest.mark.parametrize("legacy", [False, True])
def test_detected_from_the_content(legacy: bool) -> None:
    assert detect(events(Canaries("det"), legacy=legacy), "x") == "copilot-cli"


@pytest.mark.parametrize("legacy", [False, True])
def test_events_by_kind_agree_with_the_log(legacy: bool) -> None:
    """Counted from the fixture's records (not from the reader)."""
    recs = records(Canaries("cnt"), legacy=legacy)
    m = _map(events(Canaries("cnt"), legacy=legacy))
    assert m["session"]["agentTool"] == "copilot" and m["session"]["id"].endswith(SESSION_ID)
    kinds = Counter(e["kind"] for e in m["events"])
    asked = {q["toolCallId"] for r in recs if r["type"] == "assistant.message" for q in r["data"]["toolRequests"]}
    started = {r["data"]["toolCallId"] for r in recs if r["type"] == "tool.execution_start"}
    assert sum(kinds[k] for k in CALL_KINDS) == m["totals"]["calls"] == len(asked | started)
    assert kinds["llm"] == sum(r["type"] == "assistant.message" for r in recs)
    assert kinds["user"] == sum(r["type"] == "user.message" for r in recs)
    out = sum(r["data"].get("outputTokens", 0) for r in recs if r["type"] == "assistant.message")
    assert m["totals"]["tokens"] == m["totals"]["outputTokens"] == out  # only output is recorded
    assert all(e["in"] == 0 and e["cr"] == 0 for e in m["events"] if e["kind"] == "llm")


def test_tools_lanes_errors_and_outputs() -> None:
    m = _map(events(Canaries("res")))
    ev = m["events"]
    shell = next(e for e in ev if e.get("verb") == "git commit")
    assert shell["exitCode"] == 0 and [e["sha"] for e in ev if e["kind"] == "commit"] == ["1a2b3c4"]
    assert next(e for e in ev if e["kind"] == "mcp")[["server", "tool"][0]] == "beads"
    never = next(e for e in ev if e["kind"] == "edit")
    assert never["errClass"] == "no_result"  # requested, never started: no result
    sub = next(e for e in ev if e["kind"] == "subagent")
    assert sub["subagentType"] == "explore" and sub["child"].startswith("sa-")
    lane = [e for e in ev if e["agent"] == sub["child"]]
    assert [e["kind"] for e in lane] == ["llm", "search"] and lane[0]["model"] == "claude-haiku-4.5"
    main_llm = [e for e in ev if e["kind"] == "llm" and e["agent"] == "main"]
    assert {e["model"] for e in main_llm} == {"claude-sonnet-4.6"} and main_llm[0]["thinking"] is True
    errors = [(e["source"], e["errClass"]) for e in ev if e["kind"] == "error"]
    assert errors == [("hook", "hook_error"), ("llm", "rate_limit")]
    assert next(e for e in ev if e["kind"] == "compaction")["preTokens"] == 2100
    assert m["repos"][0]["name"] == "shop" and {f["path"] for f in m["files"]} == {"src/app.py", "src/util.py"}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base, legacy=st.booleans())
def test_no_canary_in_any_map(base: str, legacy: bool) -> None:
    for policy, key in POLICIES:
        c = Canaries(base)
        check(events(c, legacy=legacy), c, policy, key)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base, legacy=st.booleans(), policy=st.sampled_from([p for p, _ in POLICIES]))
def test_no_canary_survives_native(base: str, legacy: bool, policy: str) -> None:
    c = Canaries(base)
    key = KEY if policy == "public" else None
    out, report = native(events(c, legacy=legacy), "copilot-cli", policy=policy, key=key)
    body = out.decode()
    assert not [x for x in c.all if x in body] and "mele" not in body
    assert all(x.isascii() and x.replace("_", "").isalnum() for x in c.all if x in report_text(report))
    again = redact_bytes(out, name="native", input_format="copilot-cli", policy=policy, key=key)
    assert not [x for x in c.all if x in again.data.decode()]


def test_native_keeps_what_the_table_allows() -> None:
    data = events(Canaries("nat"))
    out, report = native(data, "copilot-cli")
    got = lines(out)
    assert len(got) == len(lines(data)) - 1 and report.skipped_records  # the unknown event type
    start = got[0]["data"]
    assert start["sessionId"] == SESSION_ID and start["context"]["cwd"] == "."
    shell = next(r for r in got if r["type"] == "tool.execution_start")["data"]
    assert shell["arguments"]["command"] == "git commit" and set(shell["arguments"]["description"]) == {"chars"}
    hook = next(r for r in got if r["type"] == "hook.start")["data"]
    assert "input" not in hook
    assert redact_bytes(out, name="n", input_format="copilot-cli").session_map["totals"]["calls"] == 6


def _home(tmp_path: Path) -> Path:
    """A `~/.copilot` with a session folder (log, workspace.yaml, checkpoints, rewind snapshots, a
    lock), a legacy flat log, and credentials beside them."""
    copilot = tmp_path / ".copilot"
    folder = copilot / "session-state" / SESSION_ID
    (folder / "checkpoints").mkdir(parents=True)
    (folder / "rewind-snapshots").mkdir()
    (folder / "events.jsonl").write_bytes(events(Canaries("h1")))
    (folder / "workspace.yaml").write_text(f"id: {SESSION_ID}\ncwd: /home/mele/src/shop\nsummary: zqsecretqz\n")
    (folder / "checkpoints" / "index.md").write_text("zqsecretqz\n")
    (folder / "rewind-snapshots" / "index.json").write_text('{"userMessage": "zqsecretqz"}')
    (folder / "inuse.123.lock").write_text("123")
    legacy = "27d7ef99-f7c7-43eb-8599-cb469623c8f7"
    (copilot / "session-state" / f"{legacy}.jsonl").write_bytes(events(Canaries("h2"), legacy=True))
    (copilot / "mcp-auth.json").write_text('{"token": "zqsecretqz"}')
    return copilot


@pytest.mark.parametrize("start", [".copilot", ".copilot/session-state", f".copilot/session-state/{SESSION_ID}"])
def test_batch_finds_both_layouts_and_skips_the_rest(tmp_path: Path, start: str) -> None:
    _home(tmp_path)
    tasks, other = batch.plan([str(tmp_path / start)], tmp_path / "out")
    expected = {f"{SESSION_ID}.json.gz"} | ({"27d7ef99-f7c7-43eb-8599-cb469623c8f7.json.gz"}
                                            if not start.endswith(SESSION_ID) else set())
    assert {Path(t.output).name for t in tasks} == expected  # a folder's log is named after the folder
    skipped = {Path(o.input).name for o in other}
    assert all(o.status == batch.SKIPPED for o in other) and all("zqsecretqz" not in o.message for o in other)
    assert {"workspace.yaml", "index.md", "index.json", "inuse.123.lock"} <= skipped
    assert ("mcp-auth.json" in skipped) == (start == ".copilot")
    outcomes = batch.run(tasks, batch.Settings(policy=load_policy("default")))
    assert {o.status for o in outcomes} == {batch.WRITTEN}


def test_the_workspace_file_gives_the_root_when_the_log_has_none(tmp_path: Path) -> None:
    copilot = _home(tmp_path)
    folder = copilot / "session-state" / SESSION_ID
    (folder / "events.jsonl").write_bytes(events(Canaries("ws"), legacy=True))
    (folder / "workspace.yaml").write_text("cwd: D:\\Users\\mele\\src\\shop\n")
    m = redact_file(folder / "events.jsonl").session_map
    assert [f["path"] for f in m["files"]] == ["src/app.py"] and m["repos"][0]["name"] == "shop"


def _log(*records: tuple[str, str, dict[str, Any]]) -> bytes:
    import orjson

    head = {"type": "session.start", "timestamp": "2026-03-20T19:00:00.000Z", "id": "s0", "parentId": None,
            "data": {"sessionId": SESSION_ID, "version": 1, "producer": "copilot-agent",
                     "copilotVersion": "1.0.10", "startTime": "2026-03-20T19:00:00.000Z"}}
    lines_ = [head] + [{"type": kind, "timestamp": at, "id": f"e{n}", "parentId": None, "data": data}
                       for n, (kind, at, data) in enumerate(records)]
    return b"".join(orjson.dumps(r) + b"\n" for r in lines_)


def _said(at: str, out: int, **more: Any) -> tuple[str, str, dict[str, Any]]:
    return ("assistant.message", at, {"messageId": at, "content": more.pop("content", "words"),
                                      "outputTokens": out, "toolRequests": more.pop("calls", []), **more})


def test_shutdown_gives_each_run_its_input_and_cache_tokens() -> None:
    """Issue 25: only output tokens were kept. Each `session.shutdown` ends a run with each model's
    totals; the run's last response of that model carries them whole (fresh input, cache reads); a
    run that never shut down adds nothing made up."""
    opus = {"usage": {"inputTokens": 1000, "outputTokens": 30, "cacheReadTokens": 600, "cacheWriteTokens": 0}}
    haiku = {"usage": {"inputTokens": 200, "outputTokens": 5, "cacheReadTokens": 50, "cacheWriteTokens": 10}}
    data = _log(
        ("session.model_change", "2026-03-20T19:00:01.000Z", {"newModel": "claude-opus-4.6"}),
        _said("2026-03-20T19:00:02.000Z", 10), _said("2026-03-20T19:00:03.000Z", 20),
        ("session.model_change", "2026-03-20T19:00:04.000Z", {"newModel": "claude-haiku-4.5"}),
        _said("2026-03-20T19:00:05.000Z", 5),
        ("session.shutdown", "2026-03-20T19:00:06.000Z",
         {"shutdownType": "routine", "modelMetrics": {"claude-opus-4.6": opus, "claude-haiku-4.5": haiku}}),
        ("session.resume", "2026-03-20T19:10:00.000Z", {}),
        _said("2026-03-20T19:10:01.000Z", 7))
    m = _map(data)
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert [(e["model"], e.get("in", 0), e.get("cr", 0), e.get("cw", 0)) for e in llm] == [
        ("claude-opus-4.6", 0, 0, 0), ("claude-opus-4.6", 400, 600, 0), ("claude-haiku-4.5", 140, 50, 10),
        ("claude-haiku-4.5", 0, 0, 0)]
    assert m["totals"]["tokens"] == 1000 + 200 + 10 + 20 + 5 + 7  # the whole prompts, once, and each output


def test_a_legacy_response_split_in_two_messages_is_one_request() -> None:
    """Issue 25: a legacy log writes a response with text and a call as two messages ms apart (66
    requests became 70). Parallel calls that share no text stay as the log wrote them."""
    call = {"toolCallId": "c1", "name": "bash", "arguments": {"command": "ls"}}
    data = _log(
        ("user.message", "2026-03-20T19:00:01.000Z", {"content": "hi"}),
        _said("2026-03-20T19:00:02.000Z", 0, content="let me look"),
        _said("2026-03-20T19:00:02.006Z", 0, content="", calls=[call]),
        ("tool.execution_start", "2026-03-20T19:00:02.007Z", {"toolCallId": "c1", "toolName": "bash",
                                                              "arguments": {"command": "ls"}}),
        ("tool.execution_complete", "2026-03-20T19:00:03.000Z", {"toolCallId": "c1", "success": True,
                                                                 "result": {"content": "a"}}),
        _said("2026-03-20T19:00:04.000Z", 0, content="done"),
        _said("2026-03-20T19:05:00.000Z", 0, content="later, on its own"),
        _said("2026-03-20T19:05:09.000Z", 0, content="", calls=[{**call, "toolCallId": "c2"}]))
    m = _map(data)
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert m["totals"]["requests"] == len(llm) == 4
    assert [e.get("toolCalls", 0) for e in llm] == [1, 0, 0, 1]


def test_each_skipped_event_type_is_named_in_the_report() -> None:
    """The records the map has no event for (hooks that succeeded, turn boundaries, warnings) are
    counted under their own type's name, never lumped as `<other>` (issue 25: 615 records of one
    session, its 167 hook runs among them, were counted as `<other>`); a type the table does not
    know is still `<other>` (the input's own names are never shown)."""
    hook = {"hookInvocationId": "h1", "hookType": "postToolUse"}
    data = _log(("user.message", "2026-03-20T19:00:01.000Z", {"content": "words"}),
                ("hook.start", "2026-03-20T19:00:02.000Z", {**hook, "input": {}}),
                ("hook.end", "2026-03-20T19:00:02.100Z", {**hook, "success": True}),
                ("session.warning", "2026-03-20T19:00:03.000Z", {"warningType": "mcp", "message": "words"}),
                ("assistant.turn_start", "2026-03-20T19:00:04.000Z", {"turnId": "0"}),
                ("globex.merger_plan", "2026-03-20T19:00:05.000Z", {}))
    result = redact_bytes(data, name="s.jsonl", policy="internal")
    skipped = result.report.skipped_records
    assert {k: skipped[k] for k in ("hook_start", "session_warning", "assistant_turn_start")} == {
        "hook_start": 1, "session_warning": 1, "assistant_turn_start": 1}
    assert skipped["<other>"] == 1 and "globex" not in str(result.report.as_dict())
    assert sum(skipped.values()) >= 4
