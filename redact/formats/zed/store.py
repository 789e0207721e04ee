"""Zed's SQLite store (`~/.local/share/zed/threads/threads.db`): one agent thread as JSON Lines.

Only the `threads` table is read, and of it the columns named here. A thread's `data` is its JSON
document, written as is (`data_type` `json`) or zstd-compressed (`zstd`, what Zed writes today);
it is decompressed by the `zstandard` library a chunk at a time, never past the input size limit
nor past the compression ratio the gzip reader allows (a zstd bomb is bad input). The export:

    {"zed": "session", "id", "summary", "updated_at", "created_at", "parent_id", "folder_paths",
     ...the thread document's own fields but `messages` and `request_token_usage`}
    {"zed": "message", "message": <one message as Zed wrote it>, "usage": <the turn's token usage>}

A user message carries `usage`: the entry of the thread's `request_token_usage` under its id (Zed
keeps there the usage of the last model request of that user turn). An agent message's
`tool_results` (a map by tool-use id) is written as the list of its values.
"""
from __future__ import annotations

import io
import sqlite3
from pathlib import Path
from typing import Any

import orjson
import zstandard

from redact.errors import BadInput
from redact.formats.zed.keys import AGENT, MESSAGES, RESULTS, TURN_USAGE, USER, USER_ID
from redact.io.read import Limits
from redact.io.store import tables

_CHUNK = 1 << 20
_ROW = ("id", "summary", "updated_at", "created_at", "parent_id", "folder_paths")


def _columns(db: sqlite3.Connection) -> list[str]:
    return [r[1] for r in db.execute("PRAGMA table_info(threads)")]


def sniff(db: sqlite3.Connection) -> bool:
    return "threads" in tables(db) and {"id", "summary", "data_type", "data"} <= set(_columns(db))


def sessions(db: sqlite3.Connection) -> list[str]:
    return [r[0] for r in db.execute("SELECT id FROM threads ORDER BY updated_at, id") if isinstance(r[0], str)]


def _inflate(blob: bytes, limits: Limits, where: str) -> bytes:
    """A zstd frame decompressed a chunk at a time (a frame need not state its size), refused past the
    input size limit or past the compression ratio the gzip reader allows (redact/io/read.py)."""
    out = bytearray()
    ceiling = max(limits.ratio_floor, limits.max_ratio * len(blob))
    try:
        with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(blob), read_across_frames=True) as reader:
            while chunk := reader.read(_CHUNK):
                out += chunk
                if len(out) > limits.max_bytes:
                    raise BadInput(f"a thread's decompressed size exceeds the limit of {limits.max_bytes} bytes",
                                   where=where)
                if len(out) > ceiling:
                    raise BadInput(f"a thread's compression ratio is above {limits.max_ratio}:1 (a zstd bomb?)",
                                   where=where)
    except zstandard.ZstdError:
        raise BadInput("a thread's zstd data cannot be decompressed", where=where) from None
    return bytes(out)


def thread_document(kind: object, blob: object, where: str) -> dict[str, Any]:
    """The JSON document of one `threads` row (its `data_type` and `data`)."""
    from redact.io import read

    raw = blob.encode("utf-8") if isinstance(blob, str) else blob
    if not isinstance(raw, bytes):
        raise BadInput("a thread row holds no data", where=where)
    if kind == "zstd":
        raw = _inflate(raw, read.LIMITS, where)
    elif kind != "json":
        raise BadInput("a thread's data_type is neither json nor zstd", where=where)
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise BadInput("a thread's data is not JSON", where=where) from None
    if not isinstance(doc, dict):
        raise BadInput("a thread's data is not a JSON object", where=where)
    return doc


def _message(value: object, usage: dict[str, Any]) -> dict[str, Any]:
    line: dict[str, Any] = {"zed": "message", "message": value}
    if isinstance(value, dict):
        user, agent = value.get(USER), value.get(AGENT)
        uid = user.get(USER_ID) if isinstance(user, dict) else None
        if isinstance(uid, str) and uid in usage:
            line["usage"] = usage[uid]
        results = agent.get(RESULTS) if isinstance(agent, dict) else None
        if isinstance(agent, dict) and isinstance(results, dict):
            line["message"] = {**value, AGENT: {**agent, RESULTS: list(results.values())}}
    return line


def export(db: sqlite3.Connection, session: str, path: Path | None = None) -> bytes:
    where = f"{path}#{session}" if path is not None else f"threads.db#{session}"
    have = set(_columns(db))
    cols = [c for c in _ROW if c in have]
    row = db.execute(f"SELECT {', '.join(cols)}, data_type, data FROM threads WHERE id = ?", (session,)).fetchone()
    doc = thread_document(row[-2], row[-1], where)
    head = {k: v for k, v in doc.items() if k not in (MESSAGES, TURN_USAGE)}
    head.update({"zed": "session", **dict(zip(cols, row[:-2], strict=True))})
    found = doc.get(TURN_USAGE)
    usage: dict[str, Any] = found if isinstance(found, dict) else {}
    messages = doc.get(MESSAGES)
    lines = [orjson.dumps(head)]
    lines += [orjson.dumps(_message(m, usage)) for m in (messages if isinstance(messages, list) else [])]
    return b"".join(line + b"\n" for line in lines)


def list_sessions(folder: Path) -> list[Path]:
    """Zed's thread store in its `threads/` folder, or in Zed's data folder (`zed/threads/threads.db`)."""
    for path in (folder / "threads.db", folder / "threads" / "threads.db"):
        if path.is_file():
            return [path]
    return []
