"""Cline task logs (ui_messages.json; Roo Code and Kilo Code write the same): detection, the map's
events by kind, native scrubbing, batch discovery from globalStorage, and canaries in every text slot
never surviving any policy."""
from __future__ import annotations

import gzip
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.batch import run as batch
from redact.api import redact_bytes, redact_file
from redact.formats.detect import detect
from redact.policy.load import load_policy
from tests.formats.canary import KEY, POLICIES, Canaries, canary_base, check
from tests.native.clinefix import TASK_ID, messages, ui_messages
from tests.native.helpers import native, report_text

CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


def _map(data: bytes, policy: str = "default") -> dict[str, Any]:
    return redact_bytes(data, name=f"tasks/{TASK_ID}/ui_messages.json", policy=policy,
                        key=KEY if policy == "public" else None).session_map


def test_detected_and_counted() -> None:
    """Counted from the fixture's messages, not by the reader."""
    data = ui_messages(Canaries("cnt"))
    assert detect(data, "x") == "cline"
    msgs = messages(Canaries("cnt"))
    m = _map(data)
    assert m["session"]["agentTool"] == "cline" and m["session"]["id"].endswith(TASK_ID)
    kinds = Counter(e["kind"] for e in m["events"])
    subs = Counter(x.get("say") or x.get("ask") for x in msgs)
    calls = subs["tool"] + subs["command"] + subs["use_mcp_server"] + subs["followup"]
    assert sum(kinds[k] for k in CALL_KINDS) == m["totals"]["calls"] == calls
    assert kinds["llm"] == subs["api_req_started"] and kinds["user"] == subs["task"] + subs["user_feedback"]
    usage = [orjson.loads(x["text"]) for x in msgs if x.get("say") == "api_req_started"]
    assert m["totals"]["tokens"] == sum(u["tokensIn"] + u["tokensOut"] + u["cacheWrites"] + u["cacheReads"]
                                        for u in usage)
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert (llm[0]["in"], llm[0]["cw"], llm[0]["cr"], llm[0]["out"]) == (10, 12000, 8000, 700)
    assert llm[0]["thinking"] is True and llm[0]["toolCalls"] == 2


def test_tools_commands_and_errors() -> None:
    m = _map(ui_messages(Canaries("res")))
    ev = m["events"]
    assert m["repos"][0]["name"] == "shop" and {f["path"] for f in m["files"]} == {"src/app.py", "src/util.py"}
    assert [e["sha"] for e in ev if e["kind"] == "commit"] == ["1a2b3c4"]
    test = next(e for e in ev if e["kind"] == "verify")
    assert test["verb"] == "npm test" and "err" not in test  # approved: the next request carried its result
    assert next(e for e in ev if e["kind"] == "mcp")["server"] == "github"
    assert all("dur" not in e for e in ev if e["kind"] in CALL_KINDS)  # no tool time is recorded
    errors = [(e["source"], e["errClass"]) for e in ev if e["kind"] == "error"]
    assert errors == [("llm", "rate_limit"), ("orchestration", "interrupted"), ("llm", "server_error")]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base)
def test_no_canary_in_any_map(base: str) -> None:
    for policy, key in POLICIES:
        c = Canaries(base)
        check(ui_messages(c), c, policy, key, name="ui_messages.json")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base, policy=st.sampled_from([p for p, _ in POLICIES]))
def test_no_canary_survives_native(base: str, policy: str) -> None:
    c = Canaries(base)
    key = KEY if policy == "public" else None
    out, report = native(ui_messages(c), "cline", policy=policy, key=key)
    body = out.decode()
    assert not [x for x in c.all if x in body] and "mele" not in body
    assert all(x.isascii() and x.replace("_", "").isalnum() for x in c.all if x in report_text(report))
    again = redact_bytes(out, name="native", input_format="cline", policy=policy, key=key)
    assert not [x for x in c.all if x in again.data.decode()]


def test_native_keeps_what_the_table_allows() -> None:
    data = ui_messages(Canaries("nat"))
    out, report = native(data, "cline")
    got = orjson.loads(out)
    assert len(got) == len(orjson.loads(data)) - 1 and sum(report.skipped_records.values()) == 1
    usage = orjson.loads(got[2]["text"])
    assert usage["tokensOut"] == 700 and set(usage["request"]) == {"chars"}
    tool = orjson.loads(got[5]["text"])
    assert tool["tool"] == "readFile" and tool["path"] == "src/app.py" and set(tool["content"]) == {"chars"}
    assert got[8]["text"] == "git commit"
    assert redact_bytes(out, name="n", input_format="cline").session_map["totals"]["calls"] == 7


@pytest.mark.parametrize("extension", ["saoudrizwan.claude-dev", "rooveterinaryinc.roo-cline", "kilocode.kilo-code"])
def test_batch_finds_tasks_and_skips_the_rest(tmp_path: Path, extension: str) -> None:
    storage = tmp_path / "globalStorage" / extension
    task = storage / "tasks" / TASK_ID
    task.mkdir(parents=True)
    (task / "ui_messages.json").write_bytes(ui_messages(Canaries("b")))
    (task / "api_conversation_history.json").write_text('[{"role": "user", "content": "zqsecretqz"}]')
    (task / "task_metadata.json").write_text('{"files_in_context": ["zqsecretqz"]}')
    (storage / "settings").mkdir()
    (storage / "settings" / "cline_mcp_settings.json").write_text('{"env": {"TOKEN": "zqsecretqz"}}')
    (storage / "secrets.json").write_text('{"apiKey": "zqsecretqz"}')
    tasks, other = batch.plan([str(tmp_path / "globalStorage")], tmp_path / "out")
    assert [Path(t.output).name for t in tasks] == [f"{TASK_ID}.json.gz"]
    skipped = {Path(o.input).name for o in other}
    assert skipped == {"api_conversation_history.json", "task_metadata.json", "cline_mcp_settings.json",
                       "secrets.json"}
    assert all(o.status == batch.SKIPPED and "zqsecretqz" not in o.message for o in other)
    assert [o.status for o in batch.run(tasks, batch.Settings(policy=load_policy("default")))] == [batch.WRITTEN]
    session = redact_file(task / "ui_messages.json").session_map["session"]
    assert session["id"].endswith(TASK_ID)
    assert session["agentTool"] == {"saoudrizwan.claude-dev": "cline", "rooveterinaryinc.roo-cline": "roo-code",
                                    "kilocode.kilo-code": "kilo-code"}[extension]


# -- issue 25: approvals, the older task record, one failure counted once, two more tools -------------
T = 1_770_577_372_307


def _log(*entries: tuple[str, str, Any]) -> bytes:
    """A ui_messages.json of (type, subtype, text) entries, one second apart (text JSON when not str)."""
    out = []
    for i, (kind, sub, text) in enumerate(entries):
        m: dict[str, Any] = {"ts": T + 1000 * i, "type": kind, kind: sub}
        if text is not None:
            m["text"] = text if isinstance(text, str) else orjson.dumps(text).decode()
        out.append(m)
    return orjson.dumps(out)


def _req(request: str = "", **more: Any) -> tuple[str, str, Any]:
    return ("say", "api_req_started", {"request": request, "tokensIn": 1, "tokensOut": 2, **more})


def _calls(m: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in m["events"] if e["kind"] in CALL_KINDS]


def test_a_call_that_waited_for_approval_gets_the_next_requests_result() -> None:
    m = _map(_log(("say", "task", "go"), _req(),
                  ("ask", "tool", {"tool": "readFile", "path": "/w/a.py"}),
                  _req("[read_file for '/w/a.py'] Result: ..."),
                  ("ask", "command", "rm -rf build"),
                  _req("[execute_command for 'rm -rf build'] The user denied this operation."),
                  ("ask", "tool", {"tool": "readFile", "path": "/w/b.py"})))
    calls = _calls(m)
    assert len(calls) == 3 and "err" not in calls[0]  # approved: the next request carried its result
    assert calls[1]["err"] is True and calls[1]["errClass"] == "permission_denied"
    assert calls[2]["errClass"] == "no_result"  # nothing after it: the log shows no outcome
    assert m["totals"]["errors"] == 2


def test_an_older_versions_task_text_is_the_first_prompt() -> None:
    m = _map(_log(("say", "text", "analyse this thread"), ("say", "checkpoint_created", None), _req(),
                  ("say", "text", "an answer")))
    users = [e for e in m["events"] if e["kind"] == "user"]
    assert m["totals"]["userTurns"] == 1 and users[0]["chars"] == len("analyse this thread")
    assert m["events"][0]["kind"] == "user" and m["session"]["startedAt"].startswith("2026-02-08T19:02:52")
    assert next(e for e in m["events"] if e["kind"] == "llm")["textChars"] == len("an answer")


def test_a_failed_attempt_is_one_error() -> None:
    """A failed request (cancelReason), its retries (error_retry), the last attempt's failure and the
    ask after it: four attempts failed, so four errors, not the seven records that speak of them."""
    m = _map(_log(("say", "task", "go"), _req(cancelReason="streaming_failed"),
                  ("say", "error_retry", {"attempt": 1, "maxAttempts": 3, "delaySeconds": 2}),
                  ("say", "api_req_retried", None),
                  ("say", "error_retry", {"attempt": 2, "maxAttempts": 3, "delaySeconds": 4}),
                  ("say", "api_req_retried", None),
                  ("say", "error_retry", {"attempt": 3, "maxAttempts": 3, "delaySeconds": 8}),
                  ("say", "api_req_retried", None),
                  ("say", "error_retry", {"attempt": 3, "maxAttempts": 3, "delaySeconds": 0, "failed": True}),
                  ("ask", "api_req_failed", "Failed to create stream"),
                  ("say", "api_req_retried", None),
                  ("say", "error_retry", {"attempt": 1, "maxAttempts": 3, "delaySeconds": 2}),
                  ("ask", "api_req_failed", "Failed to create stream")))
    errors = [e for e in m["events"] if e["kind"] == "error"]
    assert len(errors) == m["totals"]["errors"] == 6  # 4 in the first chain, 1 retry, 1 failure of its own
    assert all(e["source"] == "llm" for e in errors)


def test_mcp_documentation_and_plan_mode_responses_are_calls() -> None:
    m = _map(_log(("say", "task", "plan it"), _req(), ("say", "load_mcp_documentation", ""),
                  _req(), ("ask", "plan_mode_respond", {"response": "the plan", "options": []})))
    assert m["totals"]["calls"] == 2 and len(_calls(m)) == 2


def test_the_task_lasts_until_its_last_message() -> None:
    """The closing completion_result is no event, but the task went on until it (6 s after the start)."""
    m = _map(_log(("say", "task", "go"), _req(), ("say", "text", "done"), ("say", "checkpoint_created", None),
                  ("say", "completion_result", "done"), ("ask", "completion_result", None),
                  ("ask", "resume_completed_task", None)))
    assert m["session"]["durationMs"] == 6000


# -- issue 25: a task folder with only api_conversation_history.json is read, not refused -------------
def _history(secret: str) -> list[dict[str, Any]]:
    """The messages Cline sent to the model (Anthropic messages; XML tool calls in the text, or
    tool_use blocks), as a task folder keeps them in api_conversation_history.json."""
    return [
        {"role": "user", "content": [
            {"type": "text", "text": f"<task>\nfix the login bug {secret}\n</task>"},
            {"type": "text", "text": "<environment_details>\n# Current Working Directory (/home/mele/src/shop) "
                                     f"Files\napp.py\n{secret}\n</environment_details>"}]},
        {"role": "assistant", "content": [{"type": "text", "text": f"<thinking>{secret}</thinking>\n"
                                                                   "<read_file>\n<path>src/app.py</path>\n</read_file>"}]},
        {"role": "user", "content": [{"type": "text", "text": "[read_file for 'src/app.py'] Result:"},
                                     {"type": "text", "text": secret}]},
        {"role": "assistant", "content": [{"type": "text", "text": f"<execute_command>\n<command>npm test {secret}"
                                                                   "</command>\n</execute_command>"}]},
        {"role": "user", "content": [
            {"type": "text", "text": f"[execute_command for 'npm test {secret}'] The user denied this operation."},
            {"type": "text", "text": f"<feedback>\nno tests now {secret}\n</feedback>"}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01", "name": "replace_in_file",
                                           "input": {"path": "src/app.py", "diff": secret}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": secret}]},
    ]


def test_a_task_folder_with_only_its_api_history_is_read(tmp_path: Path) -> None:
    from redact.cli import main

    task = tmp_path / "globalStorage" / "saoudrizwan.claude-dev" / "tasks" / TASK_ID
    task.mkdir(parents=True)
    secret = "zqhistorycanaryqz"
    (task / "api_conversation_history.json").write_bytes(orjson.dumps(_history(secret)))
    out = tmp_path / "out"
    assert main([str(task), "--out-dir", str(out)]) == 0  # a folder of one task: a map, not a refusal
    written = list(out.glob("*.json.gz"))  # index.json, the manifest, sits beside them
    assert len(written) == 1 and secret not in gzip.decompress(written[0].read_bytes()).decode()
    for policy in ("default", "internal", "public"):
        result = redact_file(task / "api_conversation_history.json", policy=policy,
                             key=KEY if policy == "public" else None)
        assert secret not in result.data.decode() + str(result.report.as_dict())
    m = redact_file(task / "api_conversation_history.json", policy="internal").session_map
    assert m["totals"]["userTurns"] == 2 and m["totals"]["requests"] == 3 and m["totals"]["calls"] == 3
    calls = _calls(m)
    assert [e["kind"] for e in calls] == ["read", "verify", "edit"]
    assert "err" not in calls[0] and calls[1]["errClass"] == "permission_denied" and "err" not in calls[2]
    assert [f["path"] for f in m["files"]] == ["src/app.py"]
    # no time in the history: every event takes the task's own time (its id), and the report says so
    assert m["session"]["startedAt"] == "2026-02-08T19:02:52.307Z"
    assert "history:<no time: the task's start>" in str(redact_file(task / "api_conversation_history.json")
                                                          .report.as_dict())
