"""Gemini CLI chat recordings, declared: the sniffers, MCP names and the auxiliary files (the message
types, tools and line kinds are the one table's, `native_table.py`, and importable from here).

Gemini CLI records each chat under `~/.gemini/tmp/<project>/chats/` (`<project>`: a sha256 of the
project path in older clients, a slug in newer ones). Two layouts:

- `session-<time>-<id8>.json`: one `ConversationRecord` document, `{sessionId, projectHash,
  startTime, lastUpdated, messages[]}` (clients to late 2025);
- `session-<time>-<id8>.jsonl`: append-only. The first line is the metadata (`kind: "main"`, or
  `"subagent"` for a subagent's recording under `chats/<parent>/`); later lines are messages (a
  message is written again, whole, each time its tool calls or tokens change: the last writing of an
  id wins, at the place of its first), `{"$set": {...}}` metadata updates and `{"$rewindTo": id}`.

Beside the chats the project folder holds files that are not sessions: `checkpoint-<tag>.json`
(`/chat save`), `logs.json` (the prompt log), `shell_history` and `tool-outputs/`. Batch mode skips
them by name and says so (`AUXILIARY`). The class of every field, and what the reader keeps of it,
is the format's one table (`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

# The message types, the tools and the JSONL line kinds are the table's (`native_table.py`: its tree
# is built from them); importable from here too.
from redact.formats.gemini_cli.native_table import CANCELLED, LINE_KINDS, MESSAGE_TYPES, TOOLS

__all__ = ["AUXILIARY", "CANCELLED", "LINE_KINDS", "MCP_NAME", "MESSAGE_TYPES", "TOOLS", "WAITS_ON_USER",
           "auxiliary", "list_sessions", "markdown", "sniff", "sniff_doc"]

WAITS_ON_USER = frozenset({"ask_user"})
#: `<server>__<tool>`: an MCP tool whose name clashed with another (Gemini CLI qualifies it so)
MCP_NAME = re.compile(r"([A-Za-z0-9_.-]{1,64})__([A-Za-z0-9_.-]{1,128})")

#: files of a Gemini CLI project folder that are not sessions -> why they are skipped
AUXILIARY: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"checkpoint(?:-.+)?\.json"), "Gemini CLI checkpoint (/chat save), not a session log"),
    (re.compile(r"logs\.json"), "Gemini CLI prompt log, not a session log"),
    (re.compile(r"shell_history"), "Gemini CLI shell history, not a session log"),
)
AUX_FOLDERS = {"tool-outputs": "Gemini CLI tool outputs, not a session log"}
_SESSION = re.compile(r"session-.+\.jsonl?")


def _meta_like(record: Any) -> bool:
    from redact.formats.gemini_cli.keys import PROJECT_HASH, SESSION_ID, START, TYPE

    return isinstance(record, dict) and isinstance(record.get(SESSION_ID), str) and \
        TYPE not in record and (PROJECT_HASH in record or START in record)


def _message_like(record: Any) -> bool:
    from redact.formats.gemini_cli.keys import MESSAGE_ID, MESSAGE_KINDS, MESSAGE_TYPE

    kind = record.get(MESSAGE_TYPE) if isinstance(record, dict) else None
    return isinstance(kind, str) and kind in MESSAGE_KINDS and isinstance(record.get(MESSAGE_ID), str)


def sniff(records: list[dict[str, Any]]) -> bool:
    """The JSONL layout: a metadata first line, then messages or updates (or nothing yet)."""
    from redact.formats.gemini_cli.keys import KIND, MESSAGES, PROJECT_HASH, REWIND, SET

    if not records or not _meta_like(records[0]):
        return False
    first = records[0]
    if MESSAGES in first and not isinstance(first.get(MESSAGES), list):
        return False
    rest = records[1:]
    return first.get(KIND) in ("main", "subagent") or PROJECT_HASH in first and \
        (not rest or any(_message_like(r) or SET in r or REWIND in r for r in rest))


def sniff_doc(doc: Any) -> bool:
    """The single-JSON layout: a ConversationRecord with its messages."""
    from redact.formats.gemini_cli.keys import MESSAGES

    return _meta_like(doc) and isinstance(doc.get(MESSAGES), list)


def list_sessions(folder: Path) -> list[Path]:
    """The chat recordings in a Gemini CLI folder (`~/.gemini`, `~/.gemini/tmp`, a project folder or
    its `chats/`): `session-*.json(l)` under a `chats` folder, and subagent recordings in
    `chats/<parent>/`."""
    found: list[Path] = []
    for path in folder.rglob("*.json*"):
        parts = path.parts
        if not path.is_file() or path.suffix not in (".json", ".jsonl"):
            continue
        if parts[-2:-1] == ("chats",) and _SESSION.fullmatch(path.name) or len(parts) >= 3 and parts[-3] == "chats" and path.suffix == ".jsonl":
            found.append(path)
    return sorted(found)


def auxiliary(folder: Path) -> list[tuple[Path, str]]:
    """The files under `folder` a Gemini CLI project folder holds beside its chats, with why each is
    not read (batch mode says so)."""
    out: list[tuple[Path, str]] = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        for pattern, why in AUXILIARY:
            if pattern.fullmatch(path.name) and "chats" not in path.parts:
                out.append((path, why))
                break
        else:
            folder_why = next((w for name, w in AUX_FOLDERS.items() if name in path.parts), None)
            if folder_why is not None:
                out.append((path, folder_why))
    return out


def markdown() -> str:
    """The tables as docs/formats.md shows them (a test keeps the two equal)."""
    out = ["| message type / line | handling |", "|---|---|"]
    out += [f"| `{kind}` | {how} |" for kind, how in MESSAGE_TYPES.items()]
    out += [f"| {kind} | {how} |" for kind, how in LINE_KINDS.items()]
    out.append("| any other type | skipped, counted by name when it has a safe shape |")
    out += ["", "| tool | event kind |", "|---|---|"]
    out += [f"| `{name}` | {kind} |" for name, kind in TOOLS.items()]
    out.append("| `<server>__<tool>` | mcp |")
    out.append("| anything else | tool |")
    return "\n".join(out) + "\n"
