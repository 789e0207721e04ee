"""Cline task logs (ui_messages.json) for the tests, written by this project (modelled on the layout
Cline writes, not copied): every text slot holds a word from `c()`; paths hold a user name."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

TASK_ID = "1770577372307"
T0 = 1_770_577_372_307


def messages(c: Callable[[], str], user: str = "mele") -> list[dict[str, Any]]:
    root = f"c:/Users/{user}/src/shop"
    info = {"providerId": "anthropic", "modelId": "claude-opus-4-6", "mode": "act"}
    n = iter(range(1000))

    def say(sub: str, text: Any = None, **more: Any) -> dict[str, Any]:
        m: dict[str, Any] = {"ts": T0 + 1000 * next(n), "type": "say", "say": sub, "modelInfo": info,
                             "conversationHistoryIndex": 0, **more}
        if text is not None:
            m["text"] = text if isinstance(text, str) else orjson.dumps(text).decode()
        return m

    def ask(sub: str, text: Any = None, **more: Any) -> dict[str, Any]:
        m: dict[str, Any] = {"ts": T0 + 1000 * next(n), "type": "ask", "ask": sub, "conversationHistoryIndex": 1,
                             **more}
        if text is not None:
            m["text"] = text if isinstance(text, str) else orjson.dumps(text).decode()
        return m

    request = f"<task>{c()}</task>\n# Current Working Directory ({root}) Files\n{c()}.py\n"
    return [
        say("task", f"{c()} see https://{c()}.example.com", images=["data:image/png;base64,AAAA"], files=[]),
        say("checkpoint_created", lastCheckpointHash="2760230633331e01083f3ec12bcdcd47c1265c61",
            isCheckpointCheckedOut=False),
        say("api_req_started", {"request": request, "tokensIn": 10, "tokensOut": 700, "cacheWrites": 12000,
                                "cacheReads": 8000, "cost": 0.1}),
        say("reasoning", c(), partial=False),
        say("text", c(), partial=False),
        say("tool", {"tool": "readFile", "path": "src/app.py", "content": f"{root}/src/app.py {c()}",
                     "operationIsLocatedInWorkspace": True}),
        say("tool", {"tool": "editedExistingFile", "path": "src/util.py", "content": c(),
                     "startLineNumbers": [3]}),
        say("api_req_started", {"request": c(), "tokensIn": 5, "tokensOut": 50, "cacheWrites": 0,
                                "cacheReads": 20000, "cost": 0.01}),
        say("command", f"git commit -m '{c()}'", commandCompleted=True),
        ask("command_output", f"[main 1a2b3c4] {c()}"),
        ask("command_output", " 1 file changed, 2 insertions(+)"),
        say("api_req_started", {"request": c(), "tokensIn": 3, "tokensOut": 40, "cacheWrites": 10,
                                "cacheReads": 100, "cost": 0.01}),
        ask("tool", {"tool": "newFileCreated", "path": f"/tmp/{c()}.txt", "content": c()}),
        ask("command", f"npm test -- {c()}{'REQ_APP'}"),
        ask("use_mcp_server", {"type": "use_mcp_tool", "serverName": "github", "toolName": "create_issue",
                               "arguments": orjson.dumps({"title": c()}).decode()}),
        say("mcp_server_response", c()),
        say("error_retry", {"attempt": 1, "maxAttempts": 3, "delaySeconds": 2, "errorMessage": f"429 {c()}"}),
        say("api_req_retried"),
        say("api_req_started", {"request": c(), "tokensIn": 0, "tokensOut": 0, "cacheWrites": 0, "cacheReads": 0,
                                "cost": 0, "cancelReason": "user_cancelled"}),
        ask("resume_task"),
        say("user_feedback", c(), images=[], files=[]),
        ask("followup", orjson.dumps({"question": c(), "options": [c()]}).decode()),
        say("completion_result", c()),
        ask("api_req_failed", f"500 {c()}"),
        say(c(), c()),
    ]


def ui_messages(c: Callable[[], str], user: str = "mele") -> bytes:
    return orjson.dumps(messages(c, user), option=orjson.OPT_INDENT_2)
