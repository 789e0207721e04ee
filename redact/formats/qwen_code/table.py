"""Qwen Code sessions, declared: the sniffers, the session files and the files beside them that are
not sessions (the record types, tools and error types are the one table's, `native_table.py`).

Qwen Code (a fork of Gemini CLI) keeps two layouts under `~/.qwen/`:

- `projects/<cwd slug>/chats/<session id>.jsonl` (clients 0.5 on): one record per line, `{uuid,
  parentUuid, sessionId, timestamp, type: user|assistant|tool_result|system, cwd, version,
  gitBranch, message{role, parts}, usageMetadata}`; half the lines are `system` records (UI
  telemetry, slash commands);
- `tmp/<project hash>/chats/session-<time>-<id8>.json` (older clients): Gemini CLI's chat record
  with model messages of type `qwen`; beside it `checkpoint-<tag>.json` (`/chat save`: the raw
  model history), `logs.json` (the prompt log) and `shell_history`, which batch mode skips by name
  and says so.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from redact.formats.qwen_code.native_table import ERROR_TYPES, MESSAGE_TYPES, MODEL_TYPE, TOOLS

__all__ = ["AUXILIARY", "ERROR_TYPES", "MCP_NAME", "MESSAGE_TYPES", "TOOLS", "auxiliary", "list_sessions",
           "markdown", "sniff", "sniff_doc"]

#: `mcp__<server>__<tool>`, or `<server>__<tool>` (a name that clashed)
MCP_NAME = re.compile(r"(?:mcp__)?([A-Za-z0-9_.-]{1,64}?)__([A-Za-z0-9_.-]{1,128})")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl")
_SESSION = re.compile(r"session-.+\.json")
#: files of a `tmp/<hash>` folder that are not sessions -> why they are skipped
AUXILIARY: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"checkpoint(?:-.+)?\.json"), "Qwen Code checkpoint (/chat save), not a session log"),
    (re.compile(r"logs\.json"), "Qwen Code prompt log, not a session log"),
    (re.compile(r"shell_history"), "Qwen Code shell history, not a session log"),
)


def sniff(records: list[dict[str, Any]]) -> bool:
    """The JSON Lines layout: records with `uuid` and `sessionId` whose messages are Gemini API
    `parts`, or Qwen Code's system and tool-result records (never Claude Code's `content`)."""
    from redact.formats.qwen_code.keys import CALL_RESULT, KIND, MESSAGE, PARTS, PAYLOAD, RECORD_TYPES, SESSION_ID, UUID

    seen = False
    for r in records:
        kind = r.get(KIND)
        if not (isinstance(kind, str) and kind in RECORD_TYPES):
            continue  # a record type a later client adds
        if not (isinstance(r.get(UUID), str) and isinstance(r.get(SESSION_ID), str)):
            return False
        message = r.get(MESSAGE)
        if isinstance(message, dict) and not isinstance(message.get(PARTS), list):
            return False  # Claude Code's messages hold `content`
        seen = seen or isinstance(message, dict) or isinstance(r.get(PAYLOAD), dict) or CALL_RESULT in r
    return seen


def sniff_doc(doc: Any) -> bool:
    """The chat record Qwen Code inherited: Gemini CLI's metadata, with a `qwen` model message."""
    from redact.formats.qwen_code.keys import KIND, RECORD

    if not isinstance(doc, dict) or not isinstance(doc.get(RECORD.session_id), str) or KIND in doc:
        return False
    messages = doc.get(RECORD.messages)
    return isinstance(messages, list) and any(
        isinstance(m, dict) and m.get(RECORD.message_type) == MODEL_TYPE for m in messages)


def list_sessions(folder: Path) -> list[Path]:
    """The sessions under a Qwen Code folder (`~/.qwen`, its `projects/` or `tmp/`, one project's
    folder or its `chats/`): `<uuid>.jsonl` and `session-*.json` in a `chats` folder."""
    found: list[Path] = []
    for path in folder.rglob("*.json*"):
        if path.parent.name != "chats" or not path.is_file():
            continue
        if _UUID.fullmatch(path.name) or _SESSION.fullmatch(path.name):
            found.append(path)
    return sorted(found)


def auxiliary(folder: Path) -> list[tuple[Path, str]]:
    """The files under `folder` a Qwen Code project folder holds beside its chats, with why each is
    not read (batch mode says so)."""
    out: list[tuple[Path, str]] = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or "chats" in path.parts:
            continue
        why = next((w for pattern, w in AUXILIARY if pattern.fullmatch(path.name)), None)
        if why is not None:
            out.append((path, why))
    return out


def markdown() -> str:
    """The tables as docs/formats.md shows them (a test keeps the two equal)."""
    out = ["| chat record message type | handling |", "|---|---|"]
    out += [f"| `{kind}` | {how} |" for kind, how in MESSAGE_TYPES.items()]
    out += ["", "| tool | event kind |", "|---|---|"]
    out += [f"| `{name}` | {kind} |" for name, kind in TOOLS.items()]
    out.append("| `mcp__<server>__<tool>`, `<server>__<tool>` | mcp |")
    out.append("| anything else | tool |")
    out += ["", "| toolCallResult.errorType | errClass |", "|---|---|"]
    out += [f"| `{name}` | {cls} |" for name, cls in ERROR_TYPES.items()]
    return "\n".join(out) + "\n"
