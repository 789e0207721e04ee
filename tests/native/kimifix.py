"""Kimi CLI wire logs for the tests, written by this project (modelled on the layout Kimi CLI writes,
not copied): every text slot holds a word from `c()`; paths hold a user name.

`wire(c)` is a session's `wire.jsonl`: prompts (text and parts), model steps with thinking, text,
tool calls (one streamed in parts) and their token usage, tool results (a failed shell command, a missing file, a failed
edit), a Task whose subagent's events come as `SubagentEvent`s, an interrupted step, approvals,
a compaction and an event type the table does not know.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

START = 1_772_590_000.0
MD5_DIR = "0b1fc2ee6a1b6d30f1c93b5b1b57a1f3"  # md5 of /home/<user>/src/shop (tests compute it)


def events(c: Callable[[], str], user: str = "chris") -> list[dict[str, Any]]:
    root = f"/home/{user}/src/shop"
    out: list[dict[str, Any]] = [{"type": "metadata", "protocol_version": "1.3"}]
    n = iter(range(1, 10_000))

    def ev(second: float, kind: str, **payload: Any) -> dict[str, Any]:
        e = {"type": kind, "payload": payload}
        out.append({"timestamp": START + second, "message": e})
        return e

    def call(second: float, call_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
        return {"type": "function", "id": call_id, "function": {"name": name, "arguments": orjson.dumps(args).decode()},
                "extras": None}

    def usage(inp: int, out_: int) -> dict[str, Any]:
        return {"context_usage": 0.04, "context_tokens": inp, "max_context_tokens": 262144,
                "token_usage": {"input_other": inp, "output": out_, "input_cache_read": 5000, "input_cache_creation": 7},
                "message_id": f"chatcmpl-{next(n)}"}

    ev(0, "TurnBegin", user_input=[{"type": "text", "text": f"{c()} see https://{c()}.example.com"},
                                   {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{c()}"}}])
    ev(0.1, "StepBegin", n=1)
    ev(1, "ContentPart", type="think", think=c(), encrypted=None)
    ev(2, "ContentPart", type="text", text=c())
    shell = call(2.5, "tool_01", "Shell", {"command": f"git commit -m '{c()}'", "timeout": 60})
    whole = shell["function"]["arguments"]
    shell["function"]["arguments"] = whole[:14]  # streamed: the rest comes in ToolCallParts
    ev(2.5, "ToolCall", **shell)
    ev(2.6, "ToolCallPart", arguments_part=whole[14:30])
    ev(2.65, "ToolCallPart", arguments_part=whole[30:])
    ev(2.7, "ApprovalRequest", id="76d576e6-510f-4b4d-94d2-9645ece63a5e", tool_call_id="tool_01", sender="Shell",
       action="run command", description=f"Run command `{c()}`", display=[{"type": "shell", "command": c()}])
    ev(2.8, "ApprovalResponse", request_id="76d576e6-510f-4b4d-94d2-9645ece63a5e", response="approve_for_session")
    ev(3, "ToolCall", **call(3, "tool_02", "ReadFile", {"path": f"{root}/src/app.py", "n_lines": 40}))
    ev(3.2, "ToolCall", **call(3.2, "tool_03", "StrReplaceFile", {"path": "src/util.py", "edit": {"old": c(), "new": c()}}))
    ev(4, "StatusUpdate", **usage(1200, 80))
    ev(5, "ToolResult", tool_call_id="tool_01", return_value={
        "is_error": False, "output": f"[main 1a2b3c4] {c()}\n 1 file changed, 2 insertions(+)\n", "message": c(),
        "display": [{"type": "brief", "text": c()}], "extras": None})
    ev(5.1, "ToolResult", tool_call_id="tool_02", return_value={"is_error": False, "output": c(), "message": ""})
    ev(5.2, "ToolResult", tool_call_id="tool_03", return_value={
        "is_error": True, "output": "", "message": f"No replacements were made. {c()}",
        "display": [{"type": "diff", "path": f"{root}/src/util.py", "old_text": c(), "new_text": c()}]})
    ev(6, "StepBegin", n=2)
    ev(6.5, "ToolCall", **call(6.5, "tool_04", "Shell", {"command": f"npm test {c()}"}))
    ev(6.6, "ToolCall", **call(6.6, "tool_05", "Task", {"description": c(), "subagent_name": "coder", "prompt": c()}))
    ev(7, "StatusUpdate", **usage(1500, 60))
    ev(9, "ToolResult", tool_call_id="tool_04", return_value={
        "is_error": True, "output": c(), "message": "Command failed with exit code: 1."})

    def sub(second: float, kind: str, **payload: Any) -> None:
        ev(second, "SubagentEvent", task_tool_call_id="tool_05", event={"type": kind, "payload": payload})

    sub(10, "TurnBegin", user_input=c())
    sub(10.1, "StepBegin", n=1)
    sub(11, "ContentPart", type="text", text=c())
    sub(11.5, "ToolCall", **call(11.5, "tool_06", "Glob", {"pattern": f"**/{c()}", "directory": f"{root}/src"}))
    sub(12, "StatusUpdate", **usage(900, 30))
    sub(13, "ToolResult", tool_call_id="tool_06", return_value={"is_error": False, "output": f"src/app.py\n{c()}"})
    sub(14, "TurnEnd")
    ev(15, "ToolResult", tool_call_id="tool_05", return_value={"is_error": False, "output": c(), "message": c()})
    ev(16, "TurnEnd")
    ev(20, "TurnBegin", user_input=c())
    ev(20.1, "StepBegin", n=1)
    ev(21, "StepInterrupted")
    ev(30, "CompactionBegin")
    ev(31, "CompactionEnd")
    ev(40, "TurnBegin", user_input=[{"type": "text", "text": c()}])
    ev(40.1, "StepBegin", n=1)
    ev(41, "ContentPart", type="text", text=c())
    ev(42, "StatusUpdate", **usage(800, 20))
    ev(43, "TurnEnd")
    ev(44, f"{c()}Event", x=c())
    return out


def wire(c: Callable[[], str], user: str = "chris") -> bytes:
    return b"".join(orjson.dumps(r) + b"\n" for r in events(c, user))
