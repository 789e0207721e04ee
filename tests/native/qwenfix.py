"""Qwen Code sessions for the tests, written by this project (modelled on the layouts Qwen Code
writes, not copied): every text slot holds a word from `c()`; paths hold a user name.

`chats(c)` is the JSON Lines layout of `~/.qwen/projects/<slug>/chats/<id>.jsonl` (prompts, model
responses with their telemetry, tool calls and results, a failed tool, an API error, a chat
compression, slash commands, an unknown record type); `record(c)` the older chat record of
`~/.qwen/tmp/<hash>/chats/session-*.json` (Gemini CLI's, with `qwen` model messages).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

SESSION_ID = "7e4a45d5-d379-4300-8528-fe2bb00564df"


def _t(second: int) -> str:
    return f"2026-04-07T02:{second // 60:02d}:{second % 60:02d}.000Z"


def records(c: Callable[[], str], user: str = "linh", *, branch: bool = True) -> list[dict[str, Any]]:
    root = f"C:\\Users\\{user}\\src\\shop"
    out: list[dict[str, Any]] = []
    n = iter(range(1, 10_000))
    last: list[str | None] = [None]

    def rec(kind: str, second: int, **fields: Any) -> dict[str, Any]:
        uuid = f"00000000-0000-4000-8000-{next(n):012d}"
        r: dict[str, Any] = {"uuid": uuid, "parentUuid": last[0], "sessionId": SESSION_ID, "timestamp": _t(second),
                             "type": kind, "cwd": root, "version": "0.14.0"}
        if branch:
            r["gitBranch"] = f"feat-{c()}"
        r.update(fields)
        last[0] = uuid
        out.append(r)
        return r

    def telemetry(second: int, ms: int, tokens: int) -> None:
        rec("system", second, subtype="ui_telemetry", systemPayload={"uiEvent": {
            "event.name": "qwen-code.api_response", "event.timestamp": _t(second), "response_id": f"chatcmpl-{c()}",
            "model": "coder-model", "status_code": 200, "duration_ms": ms, "input_token_count": tokens,
            "output_token_count": 40, "cached_content_token_count": 100, "thoughts_token_count": 5,
            "prompt_id": f"{SESSION_ID}########{c()}", "auth_type": "qwen-oauth"}})

    usage = {"promptTokenCount": 1200, "candidatesTokenCount": 40, "thoughtsTokenCount": 5, "totalTokenCount": 1245,
             "cachedContentTokenCount": 100}
    rec("user", 1, message={"role": "user", "parts": [
        {"text": f"{c()} see https://{c()}.example.com"}, {"inlineData": {"mimeType": "image/png", "data": c()}}]})
    telemetry(4, 2500, 1200)
    rec("assistant", 4, model="coder-model", usageMetadata=usage, contextWindowSize=131072, message={
        "role": "model", "parts": [
            {"text": c(), "thought": True, "thoughtSignature": c()}, {"text": c()},
            {"functionCall": {"id": "call_01", "name": "run_shell_command",
                              "args": {"command": f"git commit -m '{c()}'", "description": c(), "timeout": 60}}},
            {"functionCall": {"id": "call_02", "name": "read_file",
                              "args": {"file_path": f"{root}\\src\\app.py", "offset": 1, "limit": 20}}},
            {"functionCall": {"id": "call_03", "name": "edit",
                              "args": {"file_path": f"{root}\\src\\util.py", "old_string": c(), "new_string": c()}}},
            {"functionCall": {"id": "call_04", "name": "todo_write", "args": {"todos": [{"content": c()}]}}}]})
    rec("system", 5, subtype="ui_telemetry", systemPayload={"uiEvent": {
        "event.name": "qwen-code.tool_call", "function_name": "run_shell_command",
        "function_args": {"command": c()}, "duration_ms": 800, "success": True, "decision": "auto_accept",
        "prompt_id": c(), "tool_type": "native"}})
    for call_id, name, status, response, extra in (
        ("call_01", "run_shell_command", "success",
         {"output": f"Command: git commit -m '{c()}'\nDirectory: (root)\nOutput: [main 1a2b3c4] {c()}\n"
                    " 1 file changed, 2 insertions(+)\nError: (none)\nExit Code: 0\nSignal: (none)"}, {}),
        ("call_02", "read_file", "success", {"output": c()}, {"resultDisplay": c()}),
        ("call_03", "edit", "error", {"error": f"Failed to edit, 0 occurrences found {c()}"},
         {"errorType": "edit_no_occurrence_found", "resultDisplay": {"fileDiff": c(), "fileName": c()}}),
        ("call_04", "todo_write", "success", {"output": c()}, {"resultDisplay": {"type": "todo_list",
                                                                                "todos": [{"content": c()}]}}),
    ):
        rec("tool_result", 6, message={"role": "user", "parts": [
            {"functionResponse": {"id": call_id, "name": name, "response": response}}]},
            toolCallResult={"callId": call_id, "status": status, **extra})
    telemetry(9, 3000, 1400)
    rec("assistant", 9, model="coder-model", usageMetadata=usage, message={"role": "model", "parts": [
        {"functionCall": {"id": "call_05", "name": "run_shell_command", "args": {"command": f"npm test {c()}"}}},
        {"functionCall": {"id": "call_06", "name": "task",
                          "args": {"subagent_type": "reviewer", "description": c(), "prompt": c()}}},
        {"functionCall": {"id": "call_07", "name": "mcp__beads__show", "args": {"issue": c()}}}]})
    rec("tool_result", 12, message={"role": "user", "parts": [{"functionResponse": {
        "id": "call_05", "name": "run_shell_command",
        "response": {"output": f"Command: npm test\nDirectory: (root)\nOutput: {c()}\nError: (none)\nExit Code: 1"}}}]},
        toolCallResult={"callId": "call_05", "status": "success"})
    rec("tool_result", 13, message={"role": "user", "parts": [{"functionResponse": {
        "id": "call_06", "name": "task", "response": {"output": c()}}}]},
        toolCallResult={"callId": "call_06", "status": "success"})
    rec("tool_result", 13, message={"role": "user", "parts": [{"functionResponse": {
        "id": "call_07", "name": "mcp__beads__show", "response": {"error": f"Path is not within workspace {c()}"}}}]},
        toolCallResult={"callId": "call_07", "status": "error", "errorType": "invalid_tool_params"})
    rec("system", 14, subtype="ui_telemetry", systemPayload={"uiEvent": {
        "event.name": "qwen-code.api_error", "error": f"429 rate limit {c()}", "error_type": c(),
        "status_code": 429, "duration_ms": 10, "model": "coder-model", "prompt_id": c(), "response_id": "unknown"}})
    rec("system", 15, subtype="slash_command", systemPayload={"phase": "invocation", "rawCommand": f"/{c()}",
                                                              "outputHistoryItems": [{"type": "info", "text": c()}]})
    rec("system", 16, subtype="chat_compression", systemPayload={
        "info": {"originalTokenCount": 90000, "newTokenCount": 12000, "compressionStatus": 1},
        "compressedHistory": [{"role": "user", "parts": [{"text": c()}]}]})
    rec("user", 20, message={"role": "user", "parts": [{"text": c()}]})
    telemetry(22, 1800, 900)
    rec("assistant", 22, model="qwen3-coder-plus", usageMetadata=usage, message={"role": "model", "parts": [
        {"text": c()}]})
    rec(f"{c()}_record", 23, payload=c())
    return out


def chats(c: Callable[[], str], user: str = "linh", *, branch: bool = True) -> bytes:
    return b"".join(orjson.dumps(r) + b"\n" for r in records(c, user, branch=branch))


def record_doc(c: Callable[[], str], user: str = "linh") -> dict[str, Any]:
    """The chat record of `tmp/<hash>/chats/session-*.json`."""
    root = f"/home/{user}/src/shop"
    return {
        "sessionId": "c796947e-d1f8-4e86-ad1b-b8db7140eed1", "projectHash": "0481e01c" * 8,
        "startTime": "2025-11-08T22:32:45.988Z", "lastUpdated": "2025-11-08T23:17:57.428Z",
        "messages": [
            {"id": "m1", "timestamp": "2025-11-08T22:32:45.988Z", "type": "user", "content": c()},
            {"id": "m2", "timestamp": "2025-11-08T22:32:57.573Z", "type": "qwen", "content": c(),
             "thoughts": [{"subject": c(), "description": c(), "timestamp": "2025-11-08T22:32:50.000Z"}],
             "tokens": {"input": 32837, "output": 166, "cached": 800, "thoughts": 10, "tool": 0, "total": 33003},
             "model": "coder-model", "toolCalls": [
                 {"id": "tc1", "name": "read_file", "args": {"absolute_path": f"{root}/src/app.py"},
                  "status": "success", "timestamp": "2025-11-08T22:32:58.000Z", "displayName": c(),
                  "result": [{"functionResponse": {"id": "tc1", "name": "read_file", "response": {"output": c()}}}],
                  "resultDisplay": c()},
                 {"id": "tc2", "name": "run_shell_command", "args": {"command": f"ls {c()}", "description": c()},
                  "status": "error", "timestamp": "2025-11-08T22:33:00.000Z",
                  "result": [{"functionResponse": {"id": "tc2", "name": "run_shell_command",
                                                   "response": {"error": f"permission denied {c()}"}}}]}]},
            {"id": "m3", "timestamp": "2025-11-08T22:40:00.000Z", "type": "info", "content": "Request cancelled."},
            {"id": "m4", "timestamp": "2025-11-08T22:41:00.000Z", "type": "user", "content": c()},
            {"id": "m5", "timestamp": "2025-11-08T22:41:10.000Z", "type": "qwen", "content": c(),
             "tokens": {"input": 100, "output": 20, "cached": 0, "thoughts": 0, "tool": 0, "total": 120},
             "model": "coder-model"},
            {"id": "m6", "timestamp": "2025-11-08T22:41:11.000Z", "type": "error", "content": f"Quota {c()}"},
        ],
    }


def record(c: Callable[[], str], user: str = "linh") -> bytes:
    return orjson.dumps(record_doc(c, user), option=orjson.OPT_INDENT_2) + b"\n"
