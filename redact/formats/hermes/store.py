"""Hermes Agent's SQLite store (`~/.hermes/state.db`): one session's rows as Hermes's own JSON Lines
log (a `session_meta` line, then its messages), read by the log's reader.

Only `sessions` (the columns named here) and `messages` (the columns named here) are read. The
full-text indexes (`messages_fts*`, `messages_fts_trigram*`: copies of every message's text) and
any other table are never selected. The store is opened as the other stores are, through a private
copy with its `-wal` (redact/io/store.py), so rows not yet checkpointed are read too. Times are
epoch seconds (REAL: true UTC instants) and become ISO-8601 UTC, never shifted. The session's own
counts ride on the header: its end (`ended_at`) and its token columns (the totals
Hermes adds up from every API response of the session), each only when the store has the column and
holds a whole number there. The export:

    {"role": "session_meta", "session_id", "model", "platform" (the session's `source`), "timestamp", "cwd",
     "ended_at", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "reasoning_tokens"}
    {"role", "content", "tool_call_id", "tool_calls": [...], "timestamp", "finish_reason", "reasoning"}
"""
from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from redact.formats.hermes.keys import AT, META_CWD, META_END, META_TOKENS, TOOL_CALLS
from redact.io.store import tables

_MESSAGE = ("role", "content", "tool_call_id", "tool_calls", "timestamp", "finish_reason", "reasoning")


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in db.execute(f"PRAGMA table_info({table})")]


def sniff(db: sqlite3.Connection) -> bool:
    return {"sessions", "messages"} <= tables(db) and {"tool_calls", "finish_reason"} <= set(_columns(db, "messages")) \
        and {"source", "started_at"} <= set(_columns(db, "sessions"))


def sessions(db: sqlite3.Connection) -> list[str]:
    return [r[0] for r in db.execute("SELECT id FROM sessions ORDER BY started_at, id") if isinstance(r[0], str)]


def _iso(value: object) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 7_258_118_400:
        return None
    return datetime.fromtimestamp(float(value), tz=UTC).strftime("%Y-%m-%dT%H:%M:%S.%f") + "Z"


def _list(value: object) -> list[Any] | None:
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    try:
        found = orjson.loads(value) if isinstance(value, str) else None
    except orjson.JSONDecodeError:
        return None
    return found if isinstance(found, list) else None


def export(db: sqlite3.Connection, session: str, path: Path | None = None) -> bytes:
    have_s, have_m = set(_columns(db, "sessions")), set(_columns(db, "messages"))
    extra = [c for c in (META_CWD, META_END, *META_TOKENS) if c in have_s]  # the columns are named as the keys
    row = db.execute(f"SELECT {', '.join(('id', 'model', 'source', 'started_at', *extra))} FROM sessions "
                     "WHERE id = ?", (session,)).fetchone()
    head: dict[str, Any] = {"role": "session_meta", "session_id": row[0], "model": row[1], "platform": row[2],
                            "timestamp": _iso(row[3])}
    more = dict(zip(extra, row[4:], strict=True))
    cwd = more.get(META_CWD)
    if isinstance(cwd, str) and cwd:
        head[META_CWD] = cwd
    head[META_END] = _iso(more.get(META_END))
    for column in META_TOKENS:
        value = more.get(column)
        if type(value) is int and value >= 0:
            head[column] = value
    lines = [orjson.dumps({k: v for k, v in head.items() if v is not None})]
    cols = [c for c in _MESSAGE if c in have_m]
    for found in db.execute(f"SELECT {', '.join(cols)} FROM messages WHERE session_id = ? ORDER BY timestamp, id",
                            (session,)):
        record = dict(zip(cols, found, strict=True))
        record[AT] = _iso(record.get(AT))
        if TOOL_CALLS in record:
            record[TOOL_CALLS] = _list(record[TOOL_CALLS])
        lines.append(orjson.dumps({k: v for k, v in record.items() if v is not None}))
    return b"".join(line + b"\n" for line in lines)
