"""Codex rollouts for the native tests, written by this project (modelled on the 0.3x-0.12x layout,
the August-2025 layout and the single-JSON `.json` rollout). Every text slot holds a word from `c()`."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

SID = "019b3cd4-2000-7553-b475-7027684d1f18"
ROOT = "/home/{user}/work/ledger"


def _ts(n: int) -> str:
    return f"2026-01-06T20:04:{n % 60:02d}.{n % 1000:03d}Z"


def rollout(c: Callable[[], str], user: str = "kim") -> bytes:
    """A modern rollout with a canary from `c` in every text slot."""
    root = ROOT.format(user=user)
    n = 0
    out: list[dict[str, Any]] = []

    def line(kind: str, payload: dict[str, Any]) -> None:
        nonlocal n
        n += 1
        out.append({"timestamp": _ts(n), "type": kind, "payload": payload})

    line("session_meta", {"id": SID, "timestamp": _ts(0), "cwd": root, "originator": "codex_cli_rs",
                          "cli_version": "0.77.0", "instructions": c(), "source": "cli", "model_provider": "openai",
                          "git": {"commit_hash": "2da7505f7a55852ba8e8d7b70cbe5997675451d9",
                                  "branch": f"fix/{c()}", "repository_url": "git@github.com:acme/ledger.git"}})
    line("turn_context", {"cwd": root, "approval_policy": "on-request", "model": "gpt-5.1-codex", "effort": "medium",
                          "summary": "auto", "user_instructions": c(), "timezone": c(),
                          "sandbox_policy": {"type": "workspace-write", "network_access": False,
                                             "writable_roots": [f"/home/{user}/.cache/{c()}"]}})
    line("response_item", {"type": "message", "role": "user",
                           "content": [{"type": "input_text", "text": f"<environment_context><cwd>{root}</cwd>"
                                                                      f"</environment_context> {c()}"}]})
    line("event_msg", {"type": "user_message", "message": f"{c()} please fix {c()}", "kind": "plain",
                       "images": [c()]})
    line("response_item", {"type": "reasoning", "summary": [{"type": "summary_text", "text": c()}],
                           "content": None, "encrypted_content": "gAAAA" + c()})
    line("event_msg", {"type": "agent_reasoning", "text": c()})
    line("response_item", {"type": "function_call", "name": "shell",
                           "arguments": orjson.dumps({"command": ["bash", "-lc", f"grep -rn {c()} src"],
                                                      "workdir": root, "justification": c(),
                                                      "timeout_ms": 1000}).decode(),
                           "call_id": "call_kItm80DZepVp7HsuoqOnkAUc"})
    line("response_item", {"type": "function_call_output", "call_id": "call_kItm80DZepVp7HsuoqOnkAUc",
                           "output": orjson.dumps({"output": f"src/a.py:1:{c()}",
                                                   "metadata": {"exit_code": 0, "duration_seconds": 0.5}}).decode()})
    line("response_item", {"type": "function_call", "name": "shell_command",
                           "arguments": orjson.dumps({"command": f"API_TOKEN={c()} ./deploy-{c()}.sh --force",
                                                      "workdir": f"{root}/ops"}).decode(),
                           "call_id": "call_9vR2mQ7xL1pZ8kT3"})
    line("response_item", {"type": "function_call_output", "call_id": "call_9vR2mQ7xL1pZ8kT3",
                           "output": f"Exit code: 1\nWall time: 0.2 seconds\nOutput:\n{c()} failed for {c()}"})
    line("event_msg", {"type": "exec_command_end", "call_id": "call_9vR2mQ7xL1pZ8kT3", "exit_code": 1,
                       "duration": {"secs": 0, "nanos": 200}, "command": ["bash", "-lc", f"./deploy-{c()}.sh"],
                       "cwd": f"{root}/ops", "stdout": c(), "stderr": c(), "aggregated_output": c(),
                       "formatted_output": c(), "parsed_cmd": [{"type": "unknown", "cmd": c()}],
                       "status": "failed"})
    line("response_item", {"type": "custom_tool_call", "status": "completed", "call_id": "call_Pq4sW9eR2tY6uI0o",
                           "name": "apply_patch",
                           "input": f"*** Begin Patch\n*** Update File: {root}/src/ledger.py\n@@\n-{c()}\n+{c()}\n"
                                    f"*** Add File: notes/todo.md\n+{c()}\n*** End Patch"})
    line("response_item", {"type": "custom_tool_call_output", "call_id": "call_Pq4sW9eR2tY6uI0o",
                           "output": orjson.dumps({"output": f"Success. Updated {c()}",
                                                   "metadata": {"exit_code": 0, "duration_seconds": 0.0}}).decode()})
    line("response_item", {"type": "function_call", "name": "mcp__notion__search",
                           "arguments": orjson.dumps({"query": c()}).decode(), "call_id": "call_Zx8cV7bN6mA5sD4f"})
    line("response_item", {"type": "function_call_output", "call_id": "call_Zx8cV7bN6mA5sD4f",
                           "output": [{"type": "input_text", "text": c()}]})
    line("response_item", {"type": "web_search_call", "status": "completed",
                           "action": {"type": "search", "query": c()}})
    line("response_item", {"type": "message", "role": "assistant", "phase": "final_answer",
                           "content": [{"type": "output_text", "text": c(), "annotations": []}]})
    line("event_msg", {"type": "agent_message", "message": c(), "phase": "final_answer"})
    line("event_msg", {"type": "token_count", "info": {
        "last_token_usage": {"input_tokens": 10, "cached_input_tokens": 2, "output_tokens": 3,
                             "reasoning_output_tokens": 1, "total_tokens": 13},
        "total_token_usage": {"input_tokens": 10, "cached_input_tokens": 2, "output_tokens": 3,
                              "reasoning_output_tokens": 1, "total_tokens": 13}, "model_context_window": 272000},
        "rate_limits": {"primary": {"used_percent": 1.0, "window_minutes": 300, "resets_at": 1},
                        "limit_id": c(), "plan_type": "plus"}})
    line("event_msg", {"type": "error", "message": c(), "codex_error_info": "server_overloaded"})
    line("event_msg", {"type": "turn_diff", "unified_diff": c()})
    line("event_msg", {"type": c(), "payload": c()})
    line(c(), {"type": "x", "text": c()})
    line("compacted", {"message": c(), "replacement_history": [{"type": "message", "content": c()}]})
    line("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": c()}],
                           c(): c()})
    return b"".join(orjson.dumps(r) + b"\n" for r in out)


def legacy(c: Callable[[], str], user: str = "kim") -> bytes:
    """The August-2025 layout: a bare header, bare items, state lines."""
    root = ROOT.format(user=user)
    lines = [
        {"id": SID, "timestamp": _ts(0), "instructions": c(),
         "git": {"commit_hash": "7ce137e7650797c4fa979474fabb04c07d1246d6", "branch": "main",
                 "repository_url": "https://github.com/acme/ledger.git"}},
        {"record_type": "state"},
        {"type": "message", "id": None, "role": "user",
         "content": [{"type": "input_text", "text": f"<environment_context><cwd>{root}</cwd></environment_context>"}]},
        {"type": "message", "id": None, "role": "user", "content": [{"type": "input_text", "text": c()}]},
        {"type": "reasoning", "id": "rs_68a46d452f988198b3ea24e0c21029b5", "summary": [
            {"type": "summary_text", "text": c()}], "encrypted_content": c()},
        {"type": "function_call", "id": "fc_68a46d4d04c88198aeaca6e85d6a2433", "name": "shell",
         "arguments": orjson.dumps({"command": ["cat", f"{root}/{c()}.txt"]}).decode(),
         "call_id": "call_4uToLHROm83PEn2PFmjnbtep"},
        {"type": "function_call_output", "call_id": "call_4uToLHROm83PEn2PFmjnbtep",
         "output": orjson.dumps({"output": c(), "metadata": {"exit_code": 0, "duration_seconds": 0.1}}).decode()},
        {"record_type": "state"},
    ]
    return b"".join(orjson.dumps(r) + b"\n" for r in lines)


def document(c: Callable[[], str], user: str = "kim") -> bytes:
    """The single-JSON `.json` rollout."""
    root = ROOT.format(user=user)
    return orjson.dumps({"session": {"timestamp": _ts(0), "id": SID, "instructions": c()}, "items": [
        {"role": "user", "content": [{"type": "input_text",
                                      "text": f"<environment_context><cwd>{root}</cwd></environment_context>"}]},
        {"role": "user", "content": [{"type": "input_text", "text": c()}]},
        {"role": "assistant", "content": c(), "reasoning": c(), "tool_calls": [
            {"id": "call_5nm7c66z", "index": 0, "type": "function",
             "function": {"name": "shell", "arguments": orjson.dumps({"command": ["rg", c(), root]}).decode()}}]},
        {"role": "tool", "tool_call_id": "call_5nm7c66z", "content": f"Exit code: 0\nWall time: 1 seconds\n{c()}"},
        {"role": "assistant", "content": [{"type": "output_text", "text": c()}]},
    ]})
