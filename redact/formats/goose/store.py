"""Goose's SQLite store (`~/.local/share/goose/sessions/sessions.db`): one session as the JSON Lines of
Goose's 2025 generation, which the one reader reads.

Only `sessions` (the columns named here) and `messages` are read; `recipe_json`,
`user_recipe_values_json`, `extension_data` and any other table are never selected. The export:

    {"id", "name", "description", "session_type", "working_dir", "created_at", "updated_at",
     "user_set_name", "message_count", "*_tokens", "accumulated_*"}      (the times in ISO-8601 UTC)
    {"role", "created", "content": [...], "metadata": {...}}             (one line per message)
"""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import orjson

from redact.io.store import tables

_SESSION = ("id", "name", "description", "session_type", "working_dir", "created_at", "updated_at",
            "user_set_name", "total_tokens", "input_tokens", "output_tokens", "accumulated_total_tokens",
            "accumulated_input_tokens", "accumulated_output_tokens")
_TIMES = ("created_at", "updated_at")


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in db.execute(f"PRAGMA table_info({table})")]


def sniff(db: sqlite3.Connection) -> bool:
    return {"sessions", "messages"} <= tables(db) and "content_json" in _columns(db, "messages") and \
        "working_dir" in _columns(db, "sessions")


def sessions(db: sqlite3.Connection) -> list[str]:
    return [r[0] for r in db.execute("SELECT id FROM sessions ORDER BY created_at, id") if isinstance(r[0], str)]


def _json(value: object) -> Any:
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    try:
        return orjson.loads(value) if isinstance(value, str) else None
    except orjson.JSONDecodeError:
        return None


def _iso(value: object) -> object:
    """SQLite's CURRENT_TIMESTAMP (`2025-12-02 16:58:55`, UTC) as ISO-8601 UTC."""
    if isinstance(value, str) and len(value) >= 19 and value[10] == " ":
        return value[:10] + "T" + value[11:] + ("" if value.endswith("Z") else "Z")
    return value


def export(db: sqlite3.Connection, session: str, path: Path | None = None) -> bytes:
    have_s, have_m = set(_columns(db, "sessions")), set(_columns(db, "messages"))
    cols = [c for c in _SESSION if c in have_s]
    row = db.execute(f"SELECT {', '.join(cols)} FROM sessions WHERE id = ?", (session,)).fetchone()
    head = {c: (_iso(v) if c in _TIMES else v) for c, v in zip(cols, row, strict=True)}
    count = db.execute("SELECT count(*) FROM messages WHERE session_id = ?", (session,)).fetchone()[0]
    lines = [orjson.dumps({**head, "message_count": count})]
    meta = "metadata_json" if "metadata_json" in have_m else "NULL"
    for role, created, content, metadata in db.execute(
            f"SELECT role, created_timestamp, content_json, {meta} FROM messages WHERE session_id = ? "
            "ORDER BY created_timestamp, id", (session,)):
        record: dict[str, Any] = {"role": role, "created": created, "content": _json(content) or []}
        found = _json(metadata)
        if isinstance(found, dict):
            record["metadata"] = found
        lines.append(orjson.dumps(record))
    return b"".join(line + b"\n" for line in lines)
