"""Crush's SQLite store (`<project>/.crush/crush.db`): one session's rows as JSON Lines.

Only `sessions` (the columns named here) and `messages` are read; `files` (file contents),
`goose_db_version` and any other table are never selected. The export:

    {"crush": "session", "id", "parent_session_id", "summary_message_id", "title", "prompt_tokens",
     "completion_tokens", "cost", "created_at", "updated_at", "project"}  (project: the folder holding .crush/)
    {"crush": "message", "id", "role", "model", "provider", "created_at", "finished_at", "parts": [...]}
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

import orjson

from redact.io.store import tables

_SESSION = ("id", "parent_session_id", "summary_message_id", "title", "prompt_tokens", "completion_tokens", "cost",
            "created_at", "updated_at")
_MESSAGE = ("id", "role", "model", "provider", "created_at", "finished_at")


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in db.execute(f"PRAGMA table_info({table})")]


def sniff(db: sqlite3.Connection) -> bool:
    return {"sessions", "messages"} <= tables(db) and "parts" in _columns(db, "messages") and \
        "prompt_tokens" in _columns(db, "sessions")


def sessions(db: sqlite3.Connection) -> list[str]:
    return [r[0] for r in db.execute("SELECT id FROM sessions ORDER BY created_at, id") if isinstance(r[0], str)]


def _parts(value: object) -> list[object]:
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    try:
        found = orjson.loads(value) if isinstance(value, str) else None
    except orjson.JSONDecodeError:
        found = None
    return found if isinstance(found, list) else []


def export(db: sqlite3.Connection, session: str, path: Path | None = None) -> bytes:
    have_s, have_m = set(_columns(db, "sessions")), set(_columns(db, "messages"))
    cols = [c for c in _SESSION if c in have_s]
    row = db.execute(f"SELECT {', '.join(cols)} FROM sessions WHERE id = ?", (session,)).fetchone()
    head = {"crush": "session", **dict(zip(cols, row, strict=True))}
    if path is not None and path.parent.name == ".crush":
        head["project"] = str(path.parent.parent.resolve())
    lines = [orjson.dumps(head)]
    mcols = [c for c in _MESSAGE if c in have_m]
    for found in db.execute(f"SELECT {', '.join(mcols)}, parts FROM messages WHERE session_id = ? "
                            "ORDER BY created_at, rowid", (session,)):
        record = dict(zip(mcols, found[:-1], strict=True))
        lines.append(orjson.dumps({"crush": "message", **record, "parts": _parts(found[-1])}))
    return b"".join(line + b"\n" for line in lines)


def list_sessions(folder: Path) -> list[Path]:
    """The Crush store of a project folder (`<project>/.crush/crush.db`) or of `.crush/` itself."""
    for path in (folder / ".crush" / "crush.db", folder / "crush.db"):
        if path.is_file():
            return [path]
    return []
