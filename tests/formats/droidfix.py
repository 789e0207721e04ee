"""A Factory Droid session of our own: the `session_start` line as the real header has it (`version`
2, `owner`, `cwd`), then `message` lines with Anthropic-style content blocks as public descriptions
of Droid's log give them (`text`, `thinking`, `tool_use` / `tool_result`, `visibility: llm_only`
context lines), and the `<uuid>.settings.json` beside it.

Every free-text slot takes its value from `text(slot)`, so a property test can plant a canary in each.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

Text = Callable[[str], str]
SID = "2f5b8c1d-3e4f-4a5b-9c6d-7e8f9a0b1c2d"
ROOT = "/home/dana/src/shop"
MODEL = "claude-opus-4-7"
#: What the session holds (the tests count against these, not against the reader).
COUNTS = {"user": 2, "llm": 3, "calls": 6, "shell": 2, "edits": 2, "failed": 1, "context": 1}


def _plain(slot: str) -> str:
    return f"some words for {slot.replace('.', ' ')}"


def records(text: Text = _plain, *, root: str = ROOT) -> list[dict[str, object]]:
    n = iter(range(100))

    def msg(role: str, content: object, t: str, **extra: object) -> dict[str, object]:
        return {"type": "message", "id": f"m{next(n)}-{SID[:8]}", "timestamp": f"2026-04-21T10:{t}.000Z",
                "message": {"role": role, "content": content}, **extra}

    def use(cid: str, name: str, inp: dict[str, object]) -> dict[str, object]:
        return {"type": "tool_use", "id": cid, "name": name, "input": inp}

    def res(cid: str, out: object, error: bool = False) -> dict[str, object]:
        return {"type": "tool_result", "tool_use_id": cid, "content": out, "is_error": error}

    return [
        {"type": "session_start", "id": SID, "title": text("title"), "sessionTitle": text("session.title"),
         "owner": "dana", "version": 2, "cwd": root},
        msg("user", [{"type": "text", "text": text("context.reminder")}], "00:00", visibility="llm_only"),
        msg("user", [{"type": "text", "text": text("prompt.text")}], "00:01"),
        msg("assistant", [{"type": "thinking", "thinking": text("thinking"), "signature": text("signature")},
                          {"type": "text", "text": text("reply.text")},
                          use("toolu_01", "Read", {"file_path": root + "/src/app.py"}),
                          use("toolu_02", "Execute", {"command": "npm test -- " + text("npm.arg").split()[0],
                                                      "riskLevel": "low", "riskLevelReason": text("risk")})], "00:05"),
        msg("user", [res("toolu_01", text("read.output")),
                     res("toolu_02", [{"type": "text", "text": text("npm.output")}], error=True)], "00:09"),
        msg("assistant", [use("toolu_03", "Edit", {"file_path": root + "/src/app.py", "old_str": text("old"),
                                                   "new_str": text("new")}),
                          use("toolu_04", "Create", {"file_path": root + "/src/new.py", "content": text("content")}),
                          use("toolu_05", "Grep", {"pattern": text("pattern"), "path": root + "/src"})], "00:12"),
        msg("user", [res("toolu_03", text("edit.output")), res("toolu_04", "ok"), res("toolu_05", text("grep.out"))],
            "00:15"),
        msg("user", text("prompt2.text"), "01:00"),
        msg("assistant", [{"type": "text", "text": text("reply2.text")},
                          use("toolu_06", "Execute", {"command": "git status"})], "01:03"),
        msg("user", [res("toolu_06", text("git.output"))], "01:05"),
        {"type": "todo_state", "todos": text("todos")},
    ]


def session(text: Text = _plain, *, root: str = ROOT) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in records(text, root=root))


def settings(text: Text = _plain) -> bytes:
    return json.dumps({"assistantActiveTimeMs": 4200, "model": MODEL, "reasoningEffort": "high",
                       "interactionMode": "auto", "autonomyLevel": "off", "autonomyMode": "normal",
                       "tokenUsage": {"inputTokens": 7340, "outputTokens": 4748, "cacheReadTokens": 35188},
                       "providerLock": text("provider")}, indent=2).encode()


def write(folder: Path, text: Text = _plain, *, root: str = ROOT) -> Path:
    """The session and its settings in `folder/<cwd slug>/`, as Droid lays them out; the log's path."""
    slug = folder / root.replace("/", "-")
    slug.mkdir(parents=True, exist_ok=True)
    (slug / f"{SID}.settings.json").write_bytes(settings(text))
    log = slug / f"{SID}.jsonl"
    log.write_bytes(session(text, root=root))
    return log
