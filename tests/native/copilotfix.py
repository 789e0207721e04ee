"""GitHub Copilot CLI event logs for the tests, written by this project (modelled on the layout
Copilot CLI writes, not copied): every text slot holds a word from `c()`; paths hold a user name.

`events(c)` is a current-layout log (copilotVersion 1.0.x: context, hooks, MCP, a subagent,
compaction); `events(c, legacy=True)` the older flat layout (`copilotVersion: "unknown"`, the
`str_replace_editor` tool, no context).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

SESSION_ID = "07c40cd0-aaaa-4bbb-8ccc-1234567890ab"


def _t(second: int) -> str:
    return f"2026-03-20T20:{second // 60:02d}:{second % 60:02d}.000Z"


def records(c: Callable[[], str], user: str = "mele", *, legacy: bool = False) -> list[dict[str, Any]]:
    root = f"D:\\\\Users\\\\{user}\\\\src\\\\shop".replace("\\\\", "\\")
    n = iter(range(10_000))
    out: list[dict[str, Any]] = []

    def ev(kind: str, second: int, **data: Any) -> None:
        out.append({"type": kind, "data": data, "id": f"00000000-0000-4000-8000-{next(n):012d}",
                    "timestamp": _t(second), "parentId": None})

    start: dict[str, Any] = {"sessionId": SESSION_ID, "version": 1, "producer": "copilot-agent",
                             "copilotVersion": "unknown" if legacy else "1.0.10", "startTime": _t(0)}
    if not legacy:
        start["context"] = {"cwd": root, "gitRoot": root, "branch": f"feat-{c()}", "headCommit": "8f29996c",
                            "repository": "acme/shop", "hostType": "github"}
    ev("session.start", 0, **start)
    ev("user.message", 1, content=f"{c()} see https://{c()}.example.com", attachments=[
        {"type": "file", "path": f"{root}\\notes.md", "displayName": f"@{c()}"}],
        transformedContent=c())
    ev("system.message", 1, content=c(), role="system")
    ev("assistant.turn_start", 2, turnId="0")
    if legacy:
        ev("assistant.message", 3, messageId="m1", content=c(), toolRequests=[
            {"toolCallId": "tooluse_a1", "name": "str_replace_editor",
             "arguments": {"command": "create", "path": f"{root}\\src\\app.py", "file_text": c()}}])
        ev("tool.execution_start", 3, toolCallId="tooluse_a1", toolName="str_replace_editor",
           arguments={"command": "create", "path": f"{root}\\src\\app.py", "file_text": c()})
        ev("tool.execution_complete", 4, toolCallId="tooluse_a1", success=False,
           error={"message": f"Path already exists {c()}", "code": "failure"})
        ev("assistant.message", 5, messageId="m2", content="", toolRequests=[
            {"toolCallId": "tooluse_b1", "name": "bash", "arguments": {"command": f"npm test -- {c()}"}}])
        ev("tool.execution_start", 5, toolCallId="tooluse_b1", toolName="bash",
           arguments={"command": f"npm test -- {c()}", "description": c()})
        ev("tool.execution_complete", 7, toolCallId="tooluse_b1", success=True,
           result={"content": f"{c()}\n<exited with exit code 1>"})
    else:
        ev("session.model_change", 2, previousModel="claude-opus-4.6", newModel="claude-sonnet-4.6")
        ev("assistant.message", 3, messageId="m1", content=c(), reasoningText=c(), reasoningOpaque=c(),
           outputTokens=120, interactionId="i1", toolRequests=[
               {"toolCallId": "toolu_p1", "name": "powershell", "type": "function", "intentionSummary": c(),
                "arguments": {"command": f"git commit -m '{c()}'", "description": c(), "initial_wait": 30}},
               {"toolCallId": "toolu_v1", "name": "view", "arguments": {"path": f"{root}\\src\\app.py"}},
               {"toolCallId": "toolu_m1", "name": "beads-show", "arguments": {"issue_id": c()}},
               {"toolCallId": "toolu_never", "name": "edit",
                "arguments": {"path": f"{root}\\src\\util.py", "old_str": c(), "new_str": c()}}])
        ev("tool.execution_start", 3, toolCallId="toolu_p1", toolName="powershell",
           arguments={"command": f"git commit -m '{c()}'", "description": c(), "initial_wait": 30})
        ev("hook.start", 3, hookInvocationId="h1", hookType="preToolUse",
           input={"toolArgs": {"command": c()}, "cwd": root})
        ev("hook.end", 3, hookInvocationId="h1", hookType="preToolUse", success=False, error=c())
        ev("tool.execution_complete", 5, toolCallId="toolu_p1", model="claude-sonnet-4.6", success=True,
           result={"content": f"[main 1a2b3c4] {c()}\n 1 file changed, 2 insertions(+)\n"
                              "<exited with exit code 0>", "detailedContent": c()},
           toolTelemetry={"properties": {"x": c()}})
        ev("tool.execution_start", 5, toolCallId="toolu_v1", toolName="view",
           arguments={"path": f"{root}\\src\\app.py", "view_range": [1, 20]})
        ev("tool.execution_complete", 6, toolCallId="toolu_v1", model="claude-sonnet-4.6", success=True,
           result={"content": c()})
        ev("tool.execution_start", 6, toolCallId="toolu_m1", toolName="beads-show",
           arguments={"issue_id": c()}, mcpServerName="beads", mcpToolName="show")
        ev("tool.execution_complete", 7, toolCallId="toolu_m1", model="claude-sonnet-4.6", success=True,
           result={"content": c()})
        ev("assistant.message", 8, messageId="m2", content="", outputTokens=40, toolRequests=[
            {"toolCallId": "toolu_t1", "name": "task",
             "arguments": {"agent_type": "explore", "prompt": c(), "name": c()}}])
        ev("tool.execution_start", 8, toolCallId="toolu_t1", toolName="task",
           arguments={"agent_type": "explore", "prompt": c(), "name": c()})
        ev("subagent.started", 8, toolCallId="toolu_t1", agentName="explore", agentDisplayName=c(),
           agentDescription=c())
        ev("assistant.message", 9, parentToolCallId="toolu_t1", messageId="m3", content=c(), outputTokens=30,
           toolRequests=[{"toolCallId": "toolu_g1", "name": "grep",
                          "arguments": {"pattern": c(), "path": f"{root}\\src", "-n": True}}])
        ev("tool.execution_start", 9, parentToolCallId="toolu_t1", toolCallId="toolu_g1", toolName="grep",
           arguments={"pattern": c(), "path": f"{root}\\src", "-n": True})
        ev("tool.execution_complete", 10, parentToolCallId="toolu_t1", toolCallId="toolu_g1",
           model="claude-haiku-4.5", success=False, error={"message": f"rg: {c()}", "code": "failure"})
        ev("subagent.completed", 11, toolCallId="toolu_t1", agentName="explore", agentDisplayName=c())
        ev("tool.execution_complete", 11, toolCallId="toolu_t1", model="claude-sonnet-4.6", success=True,
           result={"content": c()})
        ev("session.compaction_start", 12, systemTokens=100, conversationTokens=2000)
        ev("session.compaction_complete", 13, success=True, preCompactionTokens=2100, summaryContent=c(),
           checkpointPath=f"C:\\Users\\{user}\\.copilot\\{c()}.md", compactionTokensUsed={"input": 5})
        ev("session.warning", 13, warningType="mcp", message=c())
        ev("session.shutdown", 14, shutdownType="routine", modelMetrics={c(): {"usage": {"inputTokens": 5}}},
           codeChanges={"linesAdded": 1, "linesRemoved": 0, "filesModified": [f"{root}\\src\\app.py"]})
    ev("session.error", 15, errorType="model_call", message=f'"429 {c()}"', stack=c())
    ev("assistant.turn_end", 16, turnId="0")
    ev(f"{c()}.event", 16, x=c())
    return out


def events(c: Callable[[], str], user: str = "mele", *, legacy: bool = False) -> bytes:
    return b"".join(orjson.dumps(r) + b"\n" for r in records(c, user, legacy=legacy))
