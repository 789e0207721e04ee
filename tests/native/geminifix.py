"""Gemini CLI chat recordings for the tests, written by this project (modelled on the layouts Gemini
CLI writes, not copied): every text slot holds a word from `c()`; paths hold a user name.

`recording(c, layout="jsonl")` is the append-only layout (a metadata line, messages written again
as they grow, `$set` and `$rewindTo` lines); `layout="json"` the single-JSON ConversationRecord.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

SESSION_ID = "3f0c9a1e-5b2d-4e6f-8a7b-9c0d1e2f3a4b"
ROOT = "/home/{user}/src/{repo}"


def _t(second: int) -> str:
    return f"2026-04-25T08:{second // 60:02d}:{second % 60:02d}.000Z"


def messages(c: Callable[[], str], user: str = "mele") -> list[dict[str, Any]]:
    """user -> gemini (shell + read + replace, tokens) -> gemini (write_file, grep, web, MCP) -> error
    -> info cancelled -> user (parts) -> gemini (cancelled shell, unknown tool)."""
    root = ROOT.format(user=user, repo="shop")
    shell_out = f"Command: git commit -m {c()}\nDirectory: (root)\nOutput: [main 1a2b3c4] {c()}\n" \
                f" 2 files changed, 5 insertions(+), 1 deletion(-)\nError: (none)\nExit Code: 0\n"
    return [
        {"id": "m-user-1", "timestamp": _t(1), "type": "user",
         "content": f"{c()} please see https://{c()}.example.com/x"},
        {"id": "m-gem-1", "timestamp": _t(3), "type": "gemini", "content": c(), "model": "gemini-2.5-pro",
         "thoughts": [{"subject": c(), "description": c(), "timestamp": _t(2)}],
         "tokens": {"input": 1000, "output": 50, "cached": 400, "thoughts": 30, "tool": 0, "total": 1080},
         "toolCalls": [
             {"id": "run_shell_command-1", "name": "run_shell_command",
              "args": {"command": f"git commit -am '{c()}'", "description": c(), "dir_path": f"{root}/lib"},
              "result": [{"functionResponse": {"id": "run_shell_command-1", "name": "run_shell_command",
                                               "response": {"output": shell_out}}}],
              "status": "success", "timestamp": _t(4), "resultDisplay": c(), "description": c(),
              "displayName": "Shell", "renderOutputAsMarkdown": False},
             {"id": "read_file-1", "name": "read_file", "args": {"file_path": f"{root}/src/app.py", "offset": 3},
              "result": [{"functionResponse": {"id": "read_file-1", "name": "read_file",
                                               "response": {"output": c()}}}],
              "status": "success", "timestamp": _t(5), "displayName": "ReadFile", "description": c()},
             {"id": "replace-1", "name": "replace",
              "args": {"file_path": f"{root}/src/util.py", "old_string": c(), "new_string": c(),
                       "instruction": c(), "allow_multiple": False},
              "result": [{"functionResponse": {"id": "replace-1", "name": "replace",
                                               "response": {"error": f"{c()} old_string not found"}}}],
              "status": "error", "timestamp": _t(6), "displayName": "Edit", "description": c()},
         ]},
        {"id": "m-gem-2", "timestamp": _t(8), "type": "gemini", "content": "", "model": "gemini-2.5-flash",
         "thoughts": [],
         "tokens": {"input": 2000, "output": 10, "cached": 0, "thoughts": 0, "tool": 0, "total": 2010},
         "toolCalls": [
             {"id": "write_file-1", "name": "write_file", "args": {"file_path": f"/tmp/{c()}.txt", "content": c()},
              "result": [], "status": "success", "timestamp": _t(9)},
             {"id": "grep_search-1", "name": "grep_search", "args": {"pattern": c(), "dir_path": root},
              "result": [{"functionResponse": {"id": "grep_search-1", "name": "grep_search",
                                               "response": {"output": c()}}}],
              "status": "success", "timestamp": _t(10)},
             {"id": "google_web_search-1", "name": "google_web_search", "args": {"query": c()},
              "status": "success", "timestamp": _t(11), "result": None},
             {"id": "mcp-1", "name": "github__create_issue", "args": {"title": c(), "body": c()},
              "status": "success", "timestamp": _t(12)},
         ]},
        {"id": "m-err-1", "timestamp": _t(13), "type": "error", "content": f"[API Error: 429 {c()}]"},
        {"id": "m-info-1", "timestamp": _t(14), "type": "info", "content": "Request cancelled."},
        {"id": "m-info-2", "timestamp": _t(14), "type": "info", "content": c()},
        {"id": "m-user-2", "timestamp": _t(15), "type": "user", "content": [{"text": c()}, {"text": c()}]},
        {"id": "m-gem-3", "timestamp": _t(16), "type": "gemini", "content": c(), "model": "gemini-2.5-pro",
         "toolCalls": [
             {"id": "run_shell_command-2", "name": "run_shell_command",
              "args": {"command": f"npm test -- {c()}", "is_background": False},
              "result": [{"functionResponse": {"id": "run_shell_command-2", "name": "run_shell_command",
                                               "response": {"output": f"{c()}\nExit Code: 1\n"}}}],
              "status": "success", "timestamp": _t(20)},
             {"id": "sleepy-1", "name": "zz_custom_tool", "args": {"x": c()}, "status": "cancelled",
              "timestamp": _t(21)},
         ], "thoughts": [{"subject": c(), "description": c(), "timestamp": _t(16)}]},
    ]


def meta(c: Callable[[], str], user: str = "mele", *, directories: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"sessionId": SESSION_ID, "projectHash": "ab" * 32, "startTime": _t(0),
                           "lastUpdated": _t(30)}
    if directories:
        out["directories"] = [ROOT.format(user=user, repo="shop")]
    return out


def recording(c: Callable[[], str], user: str = "mele", *, layout: str = "jsonl",
              directories: bool = True) -> bytes:
    msgs = messages(c, user)
    head = meta(c, user, directories=directories)
    if layout == "json":
        return orjson.dumps({**head, "messages": msgs, "summary": c()}, option=orjson.OPT_INDENT_2)
    lines: list[dict[str, Any]] = [{**head, "kind": "main"}]
    for m in msgs:
        if m["type"] == "gemini" and m.get("toolCalls"):
            first = {k: v for k, v in m.items() if k != "toolCalls"}
            lines.append(first)  # written first without its calls, then again, whole
        lines.append(m)
        lines.append({"$set": {"lastUpdated": m["timestamp"]}})
    lines.append({"$set": {"summary": c()}})
    lines.append({"$rewindTo": "m-info-2"})
    return b"".join(orjson.dumps(line) + b"\n" for line in lines)
