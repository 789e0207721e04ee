"""The Kiro CLI v1 engine's (and Amazon Q Developer CLI's) SQLite store `data.sqlite3`: one
conversation a row, exported as the ConversationState document its reader reads.

Two tables hold conversations: `conversations_v2(key, conversation_id, value, created_at, updated_at)`
(key: the working directory; value: the ConversationState JSON) and the older `conversations(key,
value)`. Only `value` (and `conversation_id`) of those rows is selected; `auth_kv` (the login tokens),
`state` (settings), `history` (the prompt history) and every other table are never read. A store
with neither table holds no conversation (the `data.sqlite3` a fresh install writes)."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import orjson

from redact.formats.kiro_legacy.table import is_conversation
from redact.io.store import tables

_V2, _V1 = "conversations_v2", "conversations"
_MARKS = frozenset({"migrations", "state"})


def sniff(db: sqlite3.Connection) -> bool:
    found = tables(db)
    return _MARKS <= found and bool({"auth_kv", _V2, _V1} & found)


def _rows(db: sqlite3.Connection) -> list[tuple[str, str]]:
    """(session id, value) of every conversation row: the v2 table's first, by time."""
    found = tables(db)
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    queries = ([f"SELECT value FROM {_V2} ORDER BY created_at, rowid"] if _V2 in found else []) + \
        ([f"SELECT value FROM {_V1} ORDER BY rowid"] if _V1 in found else [])
    for query in queries:
        for (value,) in db.execute(query):
            text = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
            if not isinstance(text, str):
                continue
            try:
                doc = orjson.loads(text)
            except orjson.JSONDecodeError:
                continue
            if is_conversation(doc):
                from redact.formats.kiro_legacy.keys import CONVERSATION_ID

                cid = doc[CONVERSATION_ID]
                if cid not in seen:
                    seen.add(cid)
                    out.append((cid, text))
    return out


def sessions(db: sqlite3.Connection) -> list[str]:
    return [cid for cid, _ in _rows(db)]


def export(db: sqlite3.Connection, session: str, path: Path | None = None) -> bytes:
    for cid, text in _rows(db):
        if cid == session:
            return text.encode("utf-8")
    return b"{}"


def list_sessions(folder: Path) -> list[Path]:
    """The store of the CLI's data folder (`~/.local/share/kiro-cli/data.sqlite3`)."""
    path = folder / "data.sqlite3"
    return [path] if path.is_file() else []
