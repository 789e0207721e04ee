"""opencode 1.x's SQLite store (`~/.local/share/opencode/opencode.db`): one session's rows as JSON Lines.

Only the tables `session`, `message` and `part` are read, and of `session` only the columns named
here; `account`, `control_account`, `credential`, `session_share` (its `secret`), `event`, `todo`
and every other table are never selected. Each line of the export is one row:

    {"opencode": "session", "id", "parent_id", "directory", "title", "version", "time_created", ...}
    {"opencode": "message", "id", "time_created", "data": {...}}      (messages by time, then id)
    {"opencode": "part", "id", "message_id", "time_created", "data": {...}}  (after their message)

A `data` column that is not a JSON object becomes `{}` (the reader skips and counts it).
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

import orjson

from redact.io.store import tables

STORE_NAMES = ("opencode.db",)
_SESSION_COLUMNS = ("id", "project_id", "parent_id", "directory", "title", "version", "time_created",
                    "time_updated", "agent", "model")


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in db.execute(f"PRAGMA table_info({table})")]


def sniff(db: sqlite3.Connection) -> bool:
    if not {"session", "message", "part"} <= tables(db):
        return False
    return {"id", "directory", "version"} <= set(_columns(db, "session")) and \
        "data" in _columns(db, "message") and "data" in _columns(db, "part")


def sessions(db: sqlite3.Connection) -> list[str]:
    return [r[0] for r in db.execute("SELECT id FROM session ORDER BY time_created, id") if isinstance(r[0], str)]


def _data(value: object) -> object:
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if not isinstance(value, str):
        return {}
    try:
        found = orjson.loads(value)
    except orjson.JSONDecodeError:
        return {}
    return found if isinstance(found, dict) else {}


def export(db: sqlite3.Connection, session: str, path: Path | None = None) -> bytes:
    have = set(_columns(db, "session"))
    cols = [c for c in _SESSION_COLUMNS if c in have]
    row = db.execute(f"SELECT {', '.join(cols)} FROM session WHERE id = ?", (session,)).fetchone()
    lines = [orjson.dumps({"opencode": "session", **dict(zip(cols, row, strict=True))})]
    parts: dict[str, list[bytes]] = {}
    for pid, mid, created, data in db.execute(
            "SELECT id, message_id, time_created, data FROM part WHERE session_id = ? ORDER BY id", (session,)):
        parts.setdefault(mid, []).append(orjson.dumps(
            {"opencode": "part", "id": pid, "message_id": mid, "time_created": created, "data": _data(data)}))
    for mid, created, data in db.execute(
            "SELECT id, time_created, data FROM message WHERE session_id = ? ORDER BY time_created, id",
            (session,)):
        lines.append(orjson.dumps({"opencode": "message", "id": mid, "time_created": created,
                                   "data": _data(data)}))
        lines.extend(parts.pop(mid, []))
    return b"".join(line + b"\n" for line in lines)


def list_sessions(folder: Path) -> list[Path]:
    """The opencode store in `folder` (`~/.local/share/opencode`), when there is one, and the session
    files of a pre-1.x storage tree there (`tree.py`)."""
    from redact.formats.opencode.tree import list_sessions as tree_sessions

    found = [folder / name for name in STORE_NAMES if (folder / name).is_file()]
    return found + tree_sessions(folder)
