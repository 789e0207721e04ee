"""VS Code Copilot Chat sessions for the tests, written by this project (modelled on the layouts VS
Code writes, not copied): every text slot holds a word from `c()`; paths hold a user name.

`chat(c)` is a `chatSessions/<uuid>.json` document (version 3); `chat(c, export=True)` the "Export
Chat" shape (no version, sessionId or creationDate; the session id in a result's metadata).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

SESSION_ID = "a622273b-64af-41b3-b181-debba92c0202"
T0 = 1_759_343_988_690


def _md(text: str) -> dict[str, Any]:
    return {"value": text, "supportThemeIcons": False, "supportHtml": False}


def _call(name: str, args: dict[str, Any], call_id: str) -> dict[str, Any]:
    return {"name": name, "arguments": orjson.dumps(args).decode(), "id": call_id}


def _invocation(tool_id: str, call_id: str, *, error: bool = False, mcp: str | None = None,
                data: dict[str, Any] | None = None, c: Callable[[], str]) -> dict[str, Any]:
    return {"kind": "toolInvocationSerialized", "invocationMessage": _md(c()), "pastTenseMessage": _md(c()),
            "isConfirmed": {"type": 3}, "isComplete": True,
            "source": {"type": "mcp", "label": mcp, "serverLabel": c(), "collectionId": c()} if mcp
            else {"type": "internal", "label": "built-in"},
            "resultDetails": {"input": c(), "output": [{"type": "embed", "value": c()}], "isError": error},
            "toolSpecificData": data or {"kind": "input", "rawInput": {"x": c()}},
            "toolCallId": call_id, "toolId": tool_id}


def requests(c: Callable[[], str], user: str = "mele", *, export: bool = False) -> list[dict[str, Any]]:
    root = f"/home/{user}/src/shop"
    agent = {"extensionId": {"value": "GitHub.copilot-chat"}, "extensionVersion": "0.31.3", "description": c()}
    first = {
        "requestId": "request_1", "timestamp": T0, "modelId": "copilot/gpt-4.1",
        "message": {"text": f"{c()} see https://{c()}.example.com", "parts": [{"text": c(), "kind": "text"}]},
        "variableData": {"variables": [{"kind": "file", "name": c(), "value": {"path": f"{root}/{c()}"}},
                                       {"kind": "image", "name": c(), "isImage": True}]},
        "response": [_md(c()),
                     {"kind": "prepareToolInvocation", "toolName": "copilot_readFile"},
                     _invocation("copilot_readFile", "inv-1", c=c),
                     _invocation("copilot_replaceString", "inv-2", error=True, c=c),
                     _invocation("mcp_playwright_browser_navigate", "inv-3", mcp="playwright", c=c),
                     {"kind": "progressTaskSerialized", "content": _md(c()), "progress": []},
                     {"kind": "thinking", "value": c()},
                     {"kind": "textEditGroup", "uri": {"$mid": 1, "fsPath": f"{root}/src/{c()}.py",
                                                       "path": f"{root}/src/{c()}.py", "scheme": "file"},
                      "edits": [[{"text": c()}]], "done": True},
                     {"kind": c(), "value": c()}],
        "result": {"timings": {"firstProgress": 900, "totalElapsed": 4000},
                   "metadata": {"sessionId": SESSION_ID, "toolCallRounds": [
                       {"response": c(), "id": "r1", "toolInputRetry": 0, "toolCalls": [
                           _call("copilot_readFile", {"filePath": f"{root}/src/app.py", "startLine": 1}, "call_1"),
                           _call("copilot_replaceString", {"filePath": f"{root}/src/util.py", "oldString": c(),
                                                           "newString": c()}, "call_2")]},
                       {"response": "", "id": "r2", "toolCalls": [
                           _call("mcp_playwright_browser_navigate", {"url": f"https://{c()}.example.com"}, "call_3"),
                           _call("run_in_terminal", {"command": f"git commit -m '{c()}'", "explanation": c()},
                                 "call_4"),
                           _call("copilot_applyPatch", {"input": f"*** Begin Patch\n*** Add File: {root}/src/new.py"
                                                                 f"\n+{c()}\n*** End Patch"}, "call_5"),
                           _call("copilot_fetchWebPage", {"urls": [f"https://docs.example.org/{c()}"],
                                                          "query": c()}, "call_6")]},
                       {"response": c(), "id": "r3", "toolCalls": []}],
                       "toolCallResults": {
                           "call_1": {"content": [{"value": c()}]},
                           "call_4": {"content": [{"value": f"[main 1a2b3c4] {c()}\n 1 file changed, "
                                                           "2 insertions(+)\n"}]}},
                       "renderedUserMessage": [{"type": 1, "text": c()}], "agentId": c()},
                   "details": c()},
        "followups": [], "isCanceled": False, "agent": agent, "contentReferences": [{"x": c()}],
        "codeCitations": [],
    }
    second = {
        "requestId": "request_2", "timestamp": T0 + 60_000, "modelId": "copilot/gpt-4.1",
        "message": {"text": c(), "parts": []}, "variableData": {"variables": []},
        "response": [_md(c()), _invocation("run_in_terminal", "inv-4", c=c, data={
            "kind": "terminal", "commandLine": {"original": f"npm test -- {c()}"}, "language": "sh"})],
        "result": {"errorDetails": {"code": "rateLimited", "message": c(), "responseIsIncomplete": True}},
        "isCanceled": True, "agent": agent,
    }
    return [first, second]


def edit_log(c: Callable[[], str], user: str = "mele") -> bytes:
    """The same session as `chat(c)`, as the JSONL edit log newer VS Code writes: the initial state
    holds the first request; the second is pushed, its result set, a title set and then deleted, and
    one entry names a path that is not there."""
    doc = orjson.loads(chat(c, user))
    first, second = doc["requests"]
    result = second.pop("result")
    doc["requests"] = [first]
    entries: list[dict[str, Any]] = [
        {"kind": 0, "v": doc},
        {"kind": 2, "k": ["requests"], "v": [second]},
        {"kind": 1, "k": ["requests", 1, "result"], "v": result},
        {"kind": 1, "k": ["customTitle"], "v": c()},
        {"kind": 3, "k": ["customTitle"]},
        {"kind": 2, "k": ["requests", 1, "response"], "i": 2, "v": []},
        {"kind": 1, "k": ["requests", 7, "result"], "v": {"x": c()}},
    ]
    return b"".join(orjson.dumps(e) + b"\n" for e in entries)


def chat(c: Callable[[], str], user: str = "mele", *, export: bool = False) -> bytes:
    reqs = requests(c, user, export=export)
    if export:
        doc: dict[str, Any] = {"requesterUsername": c(), "requesterAvatarIconUri": {"path": c()},
                               "responderUsername": "GitHub Copilot", "initialLocation": "panel", "requests": reqs}
    else:
        doc = {"version": 3, "requesterUsername": c(), "responderUsername": "", "initialLocation": "panel",
               "requests": reqs, "sessionId": SESSION_ID, "creationDate": T0 - 1000, "isImported": False,
               "lastMessageDate": T0 + 60_000, "customTitle": c()}
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2)
