"""The redaction contract, as a property: canaries in every text slot of a Codex rollout never reach
the map, under every preset policy.

Hypothesis draws a rollout: a sequence of steps (prompts, injected context, reasoning, replies, every
built-in tool with its output in each output shape, apply_patch as a tool and through the shell,
local shell calls, web searches, MCP calls with their end events, subagent tools with their collab
events, token counts, errors, compaction, the records the reader skips, unknown records) with a fresh
canary in each text slot: prompt text and images, instructions, developer and injected messages,
reasoning summaries and encrypted content, replies, tool arguments (commands' arguments, unknown
programs, justifications, plans, stdin, subagent messages and task names, MCP arguments, search
queries, URL paths), outputs (stdout, stderr, aggregated output, patch results, MCP results), patch
contents, branch names, remote credentials, error messages, compaction summaries, and the user name in
every working directory. Paths inside the repository are paths (shown in relative mode by design),
so no canary goes into one.
"""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.api import redact_bytes
from tests.formats.canary import KEY, POLICIES, Canaries, canary_base, check, flips
from tests.formats.codexfix import Rollout
from tests.formats.test_claude_code_contract import BASH

SID = "019c0c33-4d5e-7f60-8a71-8293a4b5c6d7"
STEPS = ("prompt", "injected", "developer", "reasoning", "say", "shell", "shell_command", "exec_command",
         "local_shell", "patch", "shell_patch", "mcp", "web", "spawn", "wait", "plan", "stdin", "view",
         "errors", "compact", "skipped", "unknown", "tokens", "ghost", "bad_args")


def rollout(steps: list[str], base: str, flip: list[bool]) -> tuple[bytes, Canaries]:
    c = Canaries(base)
    user = c()
    cwd = f"/Users/{user}/proj"
    r = Rollout(SID)
    r.meta(cwd, instructions=c(), branch=f"feature/{c()}", remote=f"https://{c()}:{c()}@github.com/acme/shop.git")
    r.turn(cwd, user_instructions=c(), developer_instructions=c(),
           collaboration_mode={"mode": "default", "settings": {"developer_instructions": c()}})
    flips_ = iter(flip + [False] * 200)
    total = [0, 0, 0]

    def out(cid: str, text: str, code: int = 0) -> None:
        r.tick(10).output(cid, {"output": text, "metadata": {"exit_code": code, "duration_seconds": 0.1}})

    for step in steps:
        r.tick(1000)
        if step == "prompt":
            r.user(f"{c()} see https://{c()}.example.org/x?y={c()} \u2028 {c(chr(233) + chr(23383))}",
                   images=[f"data:image/png;base64,{c()}"])
            r.event({"type": "user_message", "message": c(), "local_images": [f"/Users/{user}/{c()}.png"],
                     "text_elements": [{"text": c()}]})
        elif step == "injected":
            r.item({"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": f"<environment_context>\n<cwd>{cwd}</cwd>\n{c()}</environment_context>"},
                {"type": "input_text", "text": f"# AGENTS.md instructions for {cwd}\n{c()}"}]})
        elif step == "developer":
            r.item({"type": "message", "role": "developer", "content": [{"type": "input_text", "text": c()}]})
        elif step == "reasoning":
            r.item({"type": "reasoning", "summary": [{"type": "summary_text", "text": c()}],
                    "content": [{"type": "reasoning_text", "text": c()}], "encrypted_content": c()})
            r.event({"type": "agent_reasoning", "text": c()})
            r.event({"type": "agent_reasoning_raw_content", "text": c()})
        elif step == "say":
            r.say(c())
            r.item({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": c()}],
                    "phase": "final_answer"})
        elif step == "shell":
            cmd = BASH[len(c.all) % len(BASH)].format(c=c())
            cid = r.function_call("shell", {"command": ["bash", "-lc", cmd], "workdir": f"{cwd}/{c()}",
                                            "justification": c(), "with_escalated_permissions": True})
            r.event({"type": "exec_command_end", "call_id": cid, "command": ["bash", "-lc", cmd], "cwd": cwd,
                     "stdout": c(), "stderr": c(), "aggregated_output": c(), "formatted_output": c(),
                     "exit_code": 1 if next(flips_) else 0, "duration": {"secs": 0, "nanos": 5}})
            out(cid, c(), 1 if next(flips_) else 0)
        elif step == "shell_command":
            cid = r.function_call("shell_command", {"command": BASH[len(c.all) % len(BASH)].format(c=c()),
                                                    "workdir": cwd})
            r.tick(10).output(cid, f"Exit code: 1\nWall time: 0.2 seconds\nOutput:\n{c()}\n")
        elif step == "exec_command":
            cid = r.function_call("exec_command", {"cmd": f"./{c()}.sh --key {c()}", "workdir": cwd, "tty": True})
            r.tick(10).output(cid, f"Chunk ID: {c()}\nWall time: 0.1 seconds\nProcess exited with code 0\n"
                                   f"Original token count: 3\nOutput:\n{c()}\n")
        elif step == "local_shell":
            cid = r.call_id()
            r.item({"type": "local_shell_call", "call_id": cid, "status": "completed",
                    "action": {"type": "exec", "command": ["curl", f"https://api.example.com/{c()}?token={c()}"],
                               "working_directory": f"/Users/{user}/{c()}", "env": {"K": c()}, "user": c()}})
            out(cid, c())
        elif step == "patch":
            patch = (f"*** Begin Patch\n*** Update File: src/app.py\n@@ {c()}\n-{c()}\n+{c()}\n"
                     f"*** Add File: /Users/{user}/Downloads/{c()}.md\n+{c()}\n*** End Patch")
            cid = r.patch(patch)
            r.event({"type": "patch_apply_end", "call_id": cid, "stdout": c(), "stderr": c(),
                     "success": not next(flips_)})
            r.patch_output(cid, c() if next(flips_) else {"output": c(), "metadata": {"exit_code": 0}})
        elif step == "shell_patch":
            cid = r.function_call("shell", {"command": ["bash", "-lc", f"apply_patch <<'EOF'\n*** Begin Patch\n"
                                                        f"*** Add File: docs/new.md\n+{c()}\n*** End Patch\nEOF"]})
            out(cid, c())
        elif step == "mcp":
            cid = r.function_call("mcp__linear__create_issue", {"title": c(), "body": c()})
            r.event({"type": "mcp_tool_call_begin", "call_id": cid,
                     "invocation": {"server": "linear", "tool": "create_issue", "arguments": {"t": c()}}})
            r.event({"type": "mcp_tool_call_end", "call_id": cid,
                     "invocation": {"server": "linear", "tool": "create_issue", "arguments": {"t": c()}},
                     "duration": {"secs": 0, "nanos": 1}, "result": {"Err": c()} if next(flips_) else
                     {"Ok": {"content": [{"type": "text", "text": c()}], "isError": False}}})
            r.tick(10).output(cid, [{"type": "input_text", "text": c()}])
        elif step == "web":
            r.item({"type": "web_search_call", "id": f"ws_{len(c.all)}", "status": "completed",
                    "action": {"type": "search", "query": c()}})
            r.item({"type": "web_search_call", "id": f"ws_{len(c.all)}b", "status": "completed",
                    "action": {"type": "open_page", "url": f"https://docs.python.org/{c()}?q={c()}#{c()}"}})
            r.event({"type": "web_search_end", "call_id": "ws_x", "query": c()})
        elif step == "spawn":
            cid = r.function_call("spawn_agent", {"message": c(), "task_name": c(), "agent_type": "worker",
                                                  "fork_turns": "none"})
            r.event({"type": "collab_agent_spawn_begin", "call_id": cid, "prompt": c()})
            r.event({"type": "collab_agent_spawn_end", "call_id": cid, "new_thread_id": SID, "prompt": c(),
                     "new_agent_nickname": c(), "status": {"completed": c()}})
            out(cid, json.dumps({"agent_id": SID, "nickname": c()}))
        elif step == "wait":
            cid = r.function_call("send_input", {"id": SID, "message": c()})
            out(cid, c())
            cid = r.function_call("wait", {"ids": [SID], "timeout_ms": 10})
            r.event({"type": "collab_waiting_end", "statuses": {SID: {"completed": c()}}})
            out(cid, c())
        elif step == "plan":
            cid = r.function_call("update_plan", {"explanation": c(), "plan": [{"step": c(), "status": "pending"}]})
            r.event({"type": "plan_update", "plan": [{"step": c()}]})
            r.tick(10).output(cid, "Plan updated")
        elif step == "stdin":
            cid = r.function_call("write_stdin", {"session_id": 3, "chars": c()})
            r.tick(10).output(cid, c())
        elif step == "view":
            cid = r.function_call("view_image", {"path": f"/Users/{user}/Desktop/{c()}.png"})
            r.event({"type": "view_image_tool_call", "call_id": cid, "path": f"/Users/{user}/{c()}.png"})
            r.tick(10).output(cid, c())
        elif step == "errors":
            r.event({"type": "stream_error", "message": c(), "additional_details": c()})
            r.event({"type": "error", "message": c(), "codex_error_info": {"other": c()}})
            r.event({"type": "warning", "message": c()})
            r.event({"type": "turn_aborted", "reason": "interrupted"})
        elif step == "compact":
            r.add("compacted", {"message": c(), "replacement_history": [
                {"type": "message", "role": "user", "content": [{"type": "input_text", "text": c()}]}]})
            r.event({"type": "context_compacted"})
        elif step == "skipped":
            r.event({"type": "task_complete", "last_agent_message": c()})
            r.event({"type": "turn_diff", "unified_diff": c()})
            r.event({"type": "exec_command_output_delta", "call_id": "x", "chunk": c()})
            r.event({"type": "entered_review_mode", "prompt": c()})
        elif step == "unknown":
            r.add(c(), {"text": c()})
            r.event({"type": c(), "text": c()})
            r.item({"type": c(), "text": c()})
            r.event({"type": "user_message", "message": c(), c(): c()})
        elif step == "tokens":
            total = [total[0] + 100, total[1] + 50, total[2] + 10]
            r.tokens((total[0], total[1], total[2]), (100, 50, 10))
        elif step == "ghost":
            r.item({"type": "ghost_snapshot", "ghost_commit": {"id": "a" * 40, "parent": None,
                                                               "preexisting_untracked_files": [f"/Users/{user}/{c()}"]}})
        elif step == "bad_args":
            cid = r.function_call("shell", "{" + c())
            r.tick(10).output(cid, c())
    return r.bytes(), c


session_steps = st.lists(st.sampled_from(STEPS), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=session_steps, base=canary_base, flip=flips)
def test_no_canary_under_default(steps: list[str], base: str, flip: list[bool]) -> None:
    data, canaries = rollout(steps, base, flip)
    check(data, canaries, "default", None, name="rollout.jsonl")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=session_steps, base=canary_base, flip=flips)
def test_no_canary_under_internal(steps: list[str], base: str, flip: list[bool]) -> None:
    data, canaries = rollout(steps, base, flip)
    check(data, canaries, "internal", None, name="rollout.jsonl")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=session_steps, base=canary_base, flip=flips)
def test_no_canary_under_public_with_a_key(steps: list[str], base: str, flip: list[bool]) -> None:
    data, canaries = rollout(steps, base, flip)
    check(data, canaries, "public", KEY, name="rollout.jsonl")


def test_every_step_at_once() -> None:
    data, canaries = rollout(list(STEPS) * 2, "all0", [True, False] * 10)
    for policy, key in POLICIES:
        check(data, canaries, policy, key, name="rollout.jsonl")


def test_identifier_canaries_vanish_under_public() -> None:
    r = Rollout(SID)
    r.meta("/home/dev/zqrepozq", remote="git@zqhostzq.example.com:zqorgzq/zqrepozq.git")
    r.turn("/home/dev/zqrepozq", model="zqmodelzq")
    cid = r.tick(10).function_call("mcp__zqserverzq__zqtoolzq", {})
    r.tick(10).output(cid, "ok")
    cid = r.tick(10).function_call("zqcustomtoolzq", {})
    r.tick(10).output(cid, "ok")
    cid = r.tick(10).patch("*** Begin Patch\n*** Add File: zqdirzq/zqfilezq.py\n+x\n*** End Patch")
    cid = r.tick(10).function_call("spawn_agent", {"agent_type": "zqtypezq", "message": "m"})
    r.tick(10).output(cid, "{}")
    r.tick(10).tokens((10, 0, 1), (10, 0, 1))
    out = redact_bytes(r.bytes(), name="r.jsonl", policy="public", key=KEY).data.decode()
    assert "zq" not in out
