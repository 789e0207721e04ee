"""The Codex reader, record by record: layouts, token counts in both orders, user turns, patches,
outputs, MCP naming, roles, streaming, bad lines."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from redact.api import redact_bytes, redact_file
from redact.build.facts import LlmResponse, ToolCall, ToolResult, UserTurn
from redact.formats.detect import detect
from redact.errors import BadInput
from redact.formats import patches
from redact.formats.codex import tools as codex_tools
from redact.formats.codex.reader import read_session
from redact.report import RedactionReport
from tests.formats import make_codex
from tests.formats.codexfix import Rollout

SID = "019c0b22-3c4d-7e5f-8a60-718293a4b5c6"
CWD = "/home/kim/proj"


def facts(data: bytes) -> list[Any]:
    return read_session(data, "r.jsonl", report=RedactionReport(source="r")).facts


def rollout() -> Rollout:
    r = Rollout(SID)
    r.meta(CWD)
    r.turn(CWD)
    return r


def run(data: bytes, **kw: Any) -> dict[str, Any]:
    return redact_bytes(data, name="r.jsonl", **kw).session_map


def test_detects_every_layout() -> None:
    for path in (make_codex.MODERN, make_codex.LEGACY, make_codex.LEGACY_JSON):
        assert detect(path.read_bytes(), path.name) == "codex"
    compact = json.dumps(json.loads(make_codex.LEGACY_JSON.read_bytes())).encode()
    assert detect(compact, "x") == "codex"


def test_token_count_after_the_items_closes_the_response() -> None:
    r = rollout()
    r.tick(10).user("go")
    r.tick(1000).reasoning("r")
    cid = r.tick(10).function_call("shell", {"command": ["ls"]})
    r.tick(10).tokens((100, 40, 10), (100, 40, 10))
    r.tick(5).output(cid, "x")
    r.tick(10).tokens((100, 40, 10), (100, 40, 10))  # repeated: ignored
    r.tick(2000).say("done")
    r.tick(10).tokens((250, 140, 30), (150, 100, 20))
    llm = [f for f in facts(r.bytes()) if isinstance(f, LlmResponse)]
    assert [(f.inp, f.cr, f.out, f.tool_calls) for f in llm] == [(60, 40, 10, 1), (50, 100, 20, 0)]
    assert llm[0].latency == 1020 and llm[1].latency == 2020  # from the output to the token count


def test_token_count_before_the_items_waits_for_them() -> None:
    """Clients 0.3x write a response's usage before its items."""
    r = rollout()
    r.tick(10).user("go")
    r.tick(3000).tokens((100, 0, 10), (100, 0, 10))
    r.tick(5).reasoning("r")
    cid = r.tick(1).function_call("shell", {"command": ["ls"]})
    r.tick(1).output(cid, "x")
    r.tick(900_000).tokens((300, 100, 30), (200, 100, 20))  # the model's own time, then items at once
    r.tick(5).say("done")
    llm = [f for f in facts(r.bytes()) if isinstance(f, LlmResponse)]
    assert [(f.inp, f.cr, f.out) for f in llm] == [(100, 0, 10), (100, 100, 20)]
    assert llm[0].latency == 3000 and llm[1].latency == 900_000


def test_usage_without_last_token_usage_is_the_change_of_the_totals() -> None:
    r = rollout()
    r.tick(10).user("go")
    r.tick(10).say("a")
    r.event({"type": "token_count", "info": {"total_token_usage": {"input_tokens": 100, "cached_input_tokens": 0,
                                                                   "output_tokens": 5, "total_tokens": 105}}})
    r.tick(10).user("again")
    r.tick(10).say("b")
    r.event({"type": "token_count", "info": {"total_token_usage": {"input_tokens": 250, "cached_input_tokens": 50,
                                                                   "output_tokens": 9, "total_tokens": 259}}})
    llm = [f for f in facts(r.bytes()) if isinstance(f, LlmResponse)]
    assert [(f.inp, f.cr, f.out) for f in llm] == [(100, 0, 5), (100, 50, 4)]


def test_usage_with_no_items_is_a_request_of_its_own() -> None:
    r = rollout()
    r.tick(10).user("go")
    r.tick(10).tokens((100, 0, 10), (100, 0, 10))  # no items follow
    m = run(r.bytes())
    assert m["totals"]["requests"] == 1 and m["totals"]["tokens"] == 110


def test_prompts_come_from_user_message_events_when_there_are_any() -> None:
    r = rollout()
    r.tick(10).user("first prompt")  # item + event
    m = run(r.bytes())
    assert m["totals"]["userTurns"] == 1 and m["totals"]["promptChars"] == len("first prompt")
    r2 = rollout()
    r2.item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "<environment_context>x"}]})
    r2.item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "# AGENTS.md instructions for /x"}]})
    r2.item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "<user_instructions>x"}]})
    r2.item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "only items here"},
                                                            {"type": "input_image", "image_url": "data:x"}]})
    m2 = run(r2.bytes())
    assert (m2["totals"]["userTurns"], m2["totals"]["promptImages"]) == (1, 1)


@pytest.mark.parametrize("patch, base, paths, ops", [
    ("*** Begin Patch\n*** Add File: a.py\n+x\n*** End Patch", "/r", ("/r/a.py",), ("create",)),
    ("*** Update File: /abs/b.py\n@@\n-x\n+y", "/r", ("/abs/b.py",), ("modify",)),
    ("*** Delete File: c.py", None, ("c.py",), ("delete",)),
    ("*** Update File: d.py\n*** Move to: e/d.py\n@@", "/r", ("/r/d.py", "/r/e/d.py"), ("rename-from", "rename-to")),
    ("+*** Add File: not-a-header.py\n-*** Delete File: nor-this.py", "/r", (), ()),
])
def test_only_patch_file_headers_are_targets(patch: str, base: str | None, paths: tuple[str, ...],
                                             ops: tuple[str, ...]) -> None:
    assert patches.patch_targets(patch, base) == (paths, ops)


def test_apply_patch_through_the_shell_is_an_edit() -> None:
    r = rollout()
    cid = r.tick(10).function_call("shell", {"command": ["bash", "-lc", make_codex.SHELL_PATCH], "workdir": CWD})
    r.tick(10).output(cid, {"output": "Success.", "metadata": {"exit_code": 0, "duration_seconds": 0.2}})
    m = run(r.bytes())
    edit = next(e for e in m["events"] if e["kind"] == "edit")
    assert edit["tool"] == "apply_patch" and edit["dur"] == 200
    assert [f["path"] for f in m["files"]] == ["web/app.js"]


@pytest.mark.parametrize("output, exit_code, err, cls, dur", [
    ({"output": "ok", "metadata": {"exit_code": 0, "duration_seconds": 1.5}}, 0, False, None, 1500),
    ({"output": "boom", "metadata": {"exit_code": 2, "duration_seconds": 0.1}}, 2, True, "exit_code", 100),
    ("Exit code: 1\nWall time: 0.3 seconds\nOutput:\nno", 1, True, "exit_code", 300),
    ("Chunk ID: 1\nWall time: 4.0000 seconds\nProcess exited with code 0\nOutput:\n", 0, False, None, 4000),
    ("failed in sandbox MacosSeatbelt with execution error: command timed out", None, True, "timeout", None),
    ("failed in sandbox Seatbelt with execution error: Denied(operation not permitted)", None, True, "blocked", None),
    ("exec command rejected by user", None, True, "permission_denied", None),
    ("aborted", None, True, "interrupted", None),
    ("plain text output that says Exit code: 9 in the middle", None, False, None, None),
])
def test_output_shapes(output: Any, exit_code: int | None, err: bool, cls: str | None, dur: float | None) -> None:
    call = ToolCall(0.0, "main", "c1", "shell", "exec", argv=("ls",))
    res = codex_tools.make_result(output if isinstance(output, str) else json.dumps(output), call, 10.0)
    assert (res.exit_code, res.is_error, res.err_class, res.dur) == (exit_code, err, cls, dur)


def test_patch_output_failures() -> None:
    call = ToolCall(0.0, "main", "c1", "apply_patch", "edit")
    res = codex_tools.make_result("apply_patch verification failed: Failed to find expected lines", call, 1.0)
    assert res.is_error and res.err_class == "patch_failed"
    res = codex_tools.make_result(json.dumps({"output": "x", "metadata": {"exit_code": 1}}), call, 1.0)
    assert res.is_error and res.err_class == "patch_failed"


@pytest.mark.parametrize("name, extra, server, tool", [
    ("mcp__github__create_issue", {}, "github", "create_issue"),
    ("linear__get_issue", {}, "linear", "get_issue"),
    ("search", {"namespace": "mcp__docs"}, "docs", "search"),
])
def test_mcp_names(name: str, extra: dict[str, Any], server: str, tool: str) -> None:
    r = rollout()
    cid = r.tick(10).function_call(name, {"q": "x"}, **extra)
    r.tick(10).output(cid, "ok")
    ev = next(e for e in run(r.bytes(), policy="internal")["events"] if e["kind"] == "mcp")
    assert (ev["server"], ev["tool"]) == (server, tool)


def test_mcp_end_event_refines_the_call() -> None:
    r = rollout()
    cid = r.tick(10).function_call("weird_name_without_delimiter", {})
    r.tick(100).event({"type": "mcp_tool_call_end", "call_id": cid,
                       "invocation": {"server": "notion", "tool": "search", "arguments": {}},
                       "duration": {"secs": 1, "nanos": 0}, "result": {"Err": "server crashed"}})
    r.tick(5).output(cid, "err: server crashed")
    ev = next(e for e in run(r.bytes(), policy="internal")["events"] if e["kind"] == "mcp")
    assert (ev["server"], ev["tool"], ev["err"], ev["dur"]) == ("notion", "search", True, 1000)  # as Codex timed it


def test_exec_end_completes_a_still_running_command() -> None:
    r = rollout()
    cid = r.tick(10).function_call("exec_command", {"cmd": "make build"})
    r.tick(1000).output(cid, "Chunk ID: 1\nWall time: 1.0 seconds\nProcess running with session ID 3\nOutput:\n")
    r.tick(9000).event({"type": "exec_command_end", "call_id": cid, "exit_code": 2,
                        "duration": {"secs": 10, "nanos": 0}, "source": "unified_exec"})
    ev = next(e for e in run(r.bytes())["events"] if e.get("tool") == "exec_command")
    assert (ev["exitCode"], ev["err"], ev["errClass"]) == (2, True, "exit_code")


@pytest.mark.parametrize("source, role, parent", [
    ({"subagent": {"thread_spawn": {"parent_thread_id": "019c0000-1111-7222-8333-444455556666", "depth": 1}}},
     "subagent", "local:codex:019c0000-1111-7222-8333-444455556666"),
    ({"subagent": "review"}, "helper", None),
    ("exec", "root", None),
])
def test_roles_from_the_session_source(source: Any, role: str, parent: str | None) -> None:
    r = Rollout(SID)
    r.meta(CWD, source=source)
    r.tick(10).user("x")
    m = run(r.bytes())
    assert (m["session"]["role"], m["session"]["parentSessionId"]) == (role, parent)


def test_compacted_and_context_compacted_are_one_event() -> None:
    r = rollout()
    r.tick(10).add("compacted", {"message": "s"})
    r.tick(1).event({"type": "context_compacted"})
    r.tick(10).user("more")
    r.tick(10).event({"type": "context_compacted"})
    m = run(r.bytes())
    assert m["totals"]["compactions"] == 2


def test_review_end_is_not_an_interruption() -> None:
    r = rollout()
    r.tick(10).event({"type": "turn_aborted", "reason": "review_ended"})
    r.tick(10).event({"type": "turn_aborted", "reason": "interrupted"})
    assert run(r.bytes())["totals"]["errorsByClass"] == {"interrupted": 1}


def test_unknown_names_are_counted_with_safe_labels_only() -> None:
    r = rollout()
    r.add("Not Safe Name", {})
    r.event({"type": "a" * 60})
    r.item({"type": "brand_new_item"})
    report = redact_bytes(r.bytes(), name="r.jsonl").report
    assert report.skipped_records == {"<other>": 1, "event_msg:<other>": 1, "response_item:<other>": 1}


def test_streamed_file_equals_bytes(tmp_path: Path) -> None:
    r = rollout()
    for i in range(1500):  # over a MiB: redact_file streams it
        r.tick(10).user("p" * 500)
        cid = r.tick(10).function_call("shell", {"command": ["bash", "-lc", f"echo {i}"]})
        r.tick(10).output(cid, {"output": "x" * 200, "metadata": {"exit_code": 0, "duration_seconds": 0.01}})
    path = tmp_path / "rollout-big.jsonl"
    path.write_bytes(r.bytes())
    assert path.stat().st_size > 1 << 20
    streamed = redact_file(path).session_map
    in_memory = redact_bytes(path.read_bytes(), name=str(path)).session_map
    assert streamed == in_memory and streamed["totals"]["calls"] == 1500


def test_a_damaged_line_names_its_place_and_can_be_skipped() -> None:
    data = rollout().bytes() + b'{"timestamp": "2026-03-02T09:00:00Z", "type": "event_msg", "payl\n'
    with pytest.raises(BadInput) as info:
        redact_bytes(data, name="r.jsonl")
    assert info.value.where == "r.jsonl:3"
    result = redact_bytes(data, name="r.jsonl", skip_bad_lines=True)
    assert any("skipped 1 bad line" in w for w in result.report.warnings)


def test_dangling_calls_never_succeed() -> None:
    r = rollout()
    r.tick(10).function_call("shell", {"command": ["pytest"]})
    ev = next(e for e in run(r.bytes())["events"] if e["kind"] in ("exec", "verify"))
    assert ev["err"] is True and ev["errClass"] == "no_result"


def test_facts_hold_no_text() -> None:
    """Facts carry numbers, enums, paths, identifiers and the shell command only."""
    for fact in facts(make_codex.MODERN.read_bytes()):
        if isinstance(fact, (UserTurn, LlmResponse, ToolResult)):
            for value in vars(fact).values() if hasattr(fact, "__dict__") else \
                    (getattr(fact, s) for s in fact.__slots__):  # type: ignore[attr-defined]
                assert not isinstance(value, str) or len(value) < 80
