"""Pi coding-agent sessions for the tests, written by this project (modelled on the layout Pi writes,
not copied): every text slot holds a word from `c()`; paths hold a user name.

`session(c)` is a v3 tree (`id`/`parentId` on every entry, one branch back to an earlier entry) with
every entry type and message role Pi writes; `session(c, version=1)` the older linear layout (no ids,
the first model in the header); `glued=True` writes two of the records on one line with no newline
between them, as a write race in Pi did.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

SESSION_ID = "01a06e8e-492c-760a-bf70-2b72342a409f"
START_MS = 1_788_561_213_000  # 2026-09-04T22:33:33Z


def iso(ms: int) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def records(c: Callable[[], str], user: str = "dana", *, version: int = 3) -> list[dict[str, Any]]:
    root = f"/home/{user}/src/shop"
    out: list[dict[str, Any]] = []
    n = iter(range(1, 10_000))
    last: list[str | None] = [None]

    def entry(kind: str, second: int, *, parent: str | None = "", **fields: Any) -> dict[str, Any]:
        rec: dict[str, Any] = {"type": kind}
        if version >= 2:
            eid = f"{next(n):08x}"
            rec["id"] = eid
            rec["parentId"] = last[0] if parent == "" else parent
            last[0] = eid
        rec["timestamp"] = iso(START_MS + second * 1000)
        rec.update(fields)
        out.append(rec)
        return rec

    def message(second: int, *, sent: int | None = None, parent: str | None = "", **m: Any) -> dict[str, Any]:
        m["timestamp"] = START_MS + (second if sent is None else sent) * 1000
        return entry("message", second, parent=parent, message=m)

    usage = {"input": 120, "output": 40, "cacheRead": 3000, "cacheWrite": 500, "totalTokens": 3660,
             "cost": {"input": 0.001, "output": 0.002, "cacheRead": 0.0003, "cacheWrite": 0.001, "total": 0.0043}}
    header: dict[str, Any] = {"type": "session", "id": SESSION_ID, "timestamp": iso(START_MS), "cwd": root}
    if version >= 2:
        header = {"type": "session", "version": version, **{k: v for k, v in header.items() if k != "type"},
                  "parentSession": f"/home/{user}/.pi/agent/sessions/--{c()}--/old.jsonl"}
    else:
        header.update(provider="anthropic", modelId="claude-sonnet-4-5", thinkingLevel="off")
    out.append(header)
    if version >= 2:
        entry("model_change", 1, parent=None, provider="anthropic", modelId="claude-sonnet-4-5")
    entry("thinking_level_change", 1, thinkingLevel="high")
    entry("session_info", 1, name=c())
    message(2, role="user", content=[{"type": "text", "text": f"{c()} see https://{c()}.example.com/x"},
                                     {"type": "image", "data": c(), "mimeType": "image/png"}])
    message(5, sent=2, role="assistant", api="anthropic-messages", provider="anthropic", model="claude-sonnet-4-5",
            usage=usage, stopReason="toolUse", responseId=f"msg_{c()}", content=[
                {"type": "thinking", "thinking": c(), "thinkingSignature": c()},
                {"type": "text", "text": c(), "textSignature": c()},
                {"type": "toolCall", "id": "toolu_01", "name": "bash",
                 "arguments": {"command": f"git commit -m '{c()}'", "timeout": 60}},
                {"type": "toolCall", "id": "toolu_02", "name": "read",
                 "arguments": {"path": f"{root}/src/app.py", "offset": 1, "limit": 50}},
                {"type": "toolCall", "id": "toolu_03", "name": "edit",
                 "arguments": {"path": "src/util.py", "oldText": c(), "newText": c()}},
                {"type": "toolCall", "id": "toolu_04", "name": "todo",
                 "arguments": {"items": [c()]}, "partialJson": c()}])
    message(6, role="toolResult", toolCallId="toolu_01", toolName="bash", isError=False,
            content=[{"type": "text", "text": f"[main 1a2b3c4] {c()}\n 1 file changed, 2 insertions(+)\n"}])
    message(6, role="toolResult", toolCallId="toolu_02", toolName="read", isError=False,
            content=[{"type": "text", "text": c()}], details={"truncation": {"content": c(), "truncated": True}})
    message(6, role="toolResult", toolCallId="toolu_03", toolName="edit", isError=True,
            content=[{"type": "text", "text": f"Could not find the exact text in src/util.py. {c()}"}],
            details={"diff": c()})
    message(7, role="toolResult", toolCallId="toolu_04", toolName="todo", isError=False,
            content=[{"type": "text", "text": c()}, {"type": "image", "data": c(), "mimeType": "image/png"}])
    message(9, sent=8, role="assistant", api="anthropic-messages", provider="anthropic", model="claude-sonnet-4-5",
            usage=usage, stopReason="toolUse", content=[
                {"type": "toolCall", "id": "toolu_05", "name": "bash", "arguments": {"command": f"npm test {c()}"}},
                {"type": "toolCall", "id": "toolu_06", "name": "grep",
                 "arguments": {"pattern": c(), "path": f"{root}/src", "ignoreCase": True}},
                {"type": "toolCall", "id": "toolu_07", "name": "write",
                 "arguments": {"path": f"{root}/src/new.py", "content": c()}}])
    message(12, role="toolResult", toolCallId="toolu_05", toolName="bash", isError=True,
            content=[{"type": "text", "text": f"{c()}\n\nCommand exited with code 1"}])
    message(12, role="toolResult", toolCallId="toolu_06", toolName="grep", isError=False,
            content=[{"type": "text", "text": f"src/app.py:1: {c()}"}])
    fork = message(12, role="toolResult", toolCallId="toolu_07", toolName="write", isError=False,
                   content=[{"type": "text", "text": c()}])
    entry("label", 13, targetId=fork.get("id", "x"), label=c())
    message(14, role="bashExecution", command=f"ls {c()}", output=c(), exitCode=0, cancelled=False,
            truncated=False, fullOutputPath=f"/tmp/{c()}.log")
    message(15, sent=14, role="assistant", api="anthropic-messages", provider="anthropic", model="claude-sonnet-4-5",
            usage={"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0},
            stopReason="error", errorMessage=f"429 rate limit {c()}", content=[])
    entry("compaction", 20, summary=c(), firstKeptEntryId="00000004", tokensBefore=52000,
          details={"readFiles": [f"{root}/{c()}"], "modifiedFiles": []}, fromHook=False)
    if version >= 2:
        # /tree: a branch from an earlier entry, with the summary of the branch left
        entry("branch_summary", 21, parent=fork.get("id"), fromId=fork.get("id"), summary=c(),
              details={"readFiles": [c()]})
    entry("model_change", 21, provider="openai", modelId="gpt-5.1-codex")
    message(22, role="user", content=c())
    message(25, sent=22, role="assistant", api="openai-responses", provider="openai", model="gpt-5.1-codex",
            usage={**usage, "reasoning": 10}, stopReason="stop",
            content=[{"type": "text", "text": c()}])
    message(26, role="user", content=[{"type": "text", "text": c()}])
    message(27, sent=26, role="assistant", api="openai-responses", provider="openai", model="gpt-5.1-codex",
            usage={"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0},
            stopReason="aborted", errorMessage="Request was aborted", content=[])
    entry("custom", 28, customType=c(), data={"state": c()})
    entry("custom_message", 28, customType=c(), content=c(), display=True, details={"x": c()})
    message(28, role="custom" if version >= 3 else "hookMessage", customType=c(), content=c(), display=False)
    entry(f"{c()}_entry", 29, value=c())
    return out


def session(c: Callable[[], str], user: str = "dana", *, version: int = 3, glued: bool = False) -> bytes:
    lines = [orjson.dumps(r) for r in records(c, user, version=version)]
    if glued:  # the first two tool results written with no newline between them
        at = next(i for i, line in enumerate(lines) if b'"toolResult"' in line)
        lines[at:at + 2] = [lines[at] + lines[at + 1]]
    return b"".join(line + b"\n" for line in lines)
