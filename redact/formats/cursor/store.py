"""Cursor's SQLite `state.vscdb`: one chat's values as JSON Lines.

Two layouts. `globalStorage/state.vscdb` (Cursor 0.4x on): table `cursorDiskKV`, one
`composerData:<composerId>` value per chat (a composer) and one `bubbleId:<composerId>:<bubbleId>`
value per message (a bubble), in the order of the composer's `fullConversationHeadersOnly` (older
composers hold their bubbles inline, in `conversation`). The older `workspaceStorage/<hash>/state.vscdb`:
table `ItemTable`, key `workbench.panel.aichat.view.aichat.chatdata`, whose `tabs` are the chats.

Only those keys are read, and of each value only the fields named here are exported: the composer's
`*EncryptionKey` fields, `agentKv:*`, `checkpointId:*`, file contents (`ofsContent:*`,
`inlineDiff:*`), `cursorAuth/*` and every other key are never selected. The fields read from those
values and the fields written are places of the format's one table (`keys.py`: the named nodes
`STORED_COMPOSER`, `STORED_BUBBLE`, `CHATDATA` of `native_table.py`, and the export's records). The export:

    {"cursor": "composer", "id", "v", "createdAt", "lastUpdatedAt", "model", "mode", "root", "gitRepos",
     "name", "parent"}       (gitRepos: trackedGitRepos' paths; parent: the composer listing it as a subagent)
    {"cursor": "bubble", "id", "type", "createdAt", "tokenCount", "model", "text", "thinking",
     "tool": {"id", "name", "status", "params", "rawArgs", "result", "error"}}
    {"cursor": "tab", "id", "lastSendTime", "title"}          (workspaceStorage)
    {"cursor": "bubble", "id", "type": "user" | "ai", "time", "model", "text"}
"""
from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from redact.io.store import tables
from redact.formats.chatlog import as_object
from redact.formats.cursor.keys import (
    ADDITIONAL_STATUS, AT, B_ADDITIONAL, B_ADDITIONAL_STATUS, B_CREATED, B_ID, B_MODEL_INFO, B_MODEL_NAME, B_TEXT,
    B_THINKING, B_THINKING_TEXT, B_TOKENS, B_TOOL, B_TYPE, BUBBLE_MODEL, BUBBLE_TYPE, C_CONVERSATION, C_CREATED,
    C_CUT, C_LAST_BUBBLE, C_SUMMARY, C_SUMMARY_INNER, COMPACTED,
    C_FS_PATH, C_GIT_REPOS, C_HEADER_BUBBLE, C_HEADERS, C_MODE, C_MODEL_CONFIG, C_MODEL_NAME, C_NAME, C_SUBAGENTS, C_UPDATED,
    C_REPO_PATH, C_URI, C_VERSION, C_WORKSPACE, CREATED, GIT_REPOS, ID, KIND, LAST_SEND, MODE, MODEL, NAME, PARENT, ROOT, T_CACHE_TIME,
    T_ID, T_MODEL, T_RAW_TEXT, T_TEXT, T_TIMESTAMP, T_TYPE, TAB_BUBBLES, TAB_ID, TAB_SENT, TAB_TITLE, TABS, TEXT,
    THINKING, TIME, TITLE, TOKENS, TOOL, TOOL_COPIED, UPDATED, VERSION,
)

CHATDATA = "workbench.panel.aichat.view.aichat.chatdata"
STORE_NAME = "state.vscdb"


def _json(value: object) -> Any:
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if not isinstance(value, str):
        return None
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:
        return None


def _kv(db: sqlite3.Connection, key: str) -> Any:
    row = db.execute("SELECT value FROM cursorDiskKV WHERE key = ?", (key,)).fetchone()
    return _json(row[0]) if row else None


def _item(db: sqlite3.Connection, key: str) -> Any:
    row = db.execute("SELECT value FROM ItemTable WHERE key = ?", (key,)).fetchone()
    return _json(row[0]) if row else None


def _global(db: sqlite3.Connection) -> bool:
    return "cursorDiskKV" in tables(db)


def sniff(db: sqlite3.Connection) -> bool:
    names = tables(db)
    if "cursorDiskKV" in names:
        return db.execute("SELECT 1 FROM cursorDiskKV WHERE key LIKE 'composerData:%' LIMIT 1").fetchone() \
            is not None
    if "ItemTable" in names:
        return db.execute("SELECT 1 FROM ItemTable WHERE key = ?", (CHATDATA,)).fetchone() is not None
    return False


def _headers(composer: dict[str, Any]) -> list[str]:
    heads = composer.get(C_HEADERS)
    ids = [h.get(C_HEADER_BUBBLE) for h in heads if isinstance(h, dict)] if isinstance(heads, list) else []
    return [i for i in ids if isinstance(i, str)]


def _tabs(db: sqlite3.Connection) -> list[dict[str, Any]]:
    tabs = as_object(_item(db, CHATDATA)).get(TABS)
    return [t for t in tabs if isinstance(t, dict) and isinstance(t.get(TAB_ID), str)] \
        if isinstance(tabs, list) else []


def _composers(db: sqlite3.Connection) -> Iterator[tuple[str, dict[str, Any]]]:
    for key, value in db.execute("SELECT key, value FROM cursorDiskKV WHERE key LIKE 'composerData:%' "
                                 "ORDER BY key"):
        doc = _json(value)
        if isinstance(doc, dict):
            yield key[len("composerData:"):], doc


def sessions(db: sqlite3.Connection) -> list[str]:
    if _global(db):
        found = []
        for cid, doc in _composers(db):
            if _headers(doc) or isinstance(doc.get(C_CONVERSATION), list) and doc[C_CONVERSATION]:
                found.append((doc.get(C_CREATED) if isinstance(doc.get(C_CREATED), int) else 0, cid))
        return [cid for _, cid in sorted(found)]
    return [t[TAB_ID] for t in _tabs(db) if isinstance(t.get(TAB_BUBBLES), list) and t[TAB_BUBBLES]]


def _parent(db: sqlite3.Connection, session: str) -> str | None:
    """The composer that launched `session` as a subagent (it lists it in `subagentComposerIds`)."""
    for cid, doc in _composers(db):
        for key in C_SUBAGENTS:
            ids = doc.get(key)
            if isinstance(ids, list) and session in ids and cid != session:
                return cid
    return None


def _bubble(b: dict[str, Any]) -> dict[str, Any]:
    tool = as_object(b.get(B_TOOL))
    thinking = b.get(B_THINKING)
    out: dict[str, Any] = {
        KIND: "bubble", ID: b.get(B_ID), BUBBLE_TYPE: b.get(B_TYPE), AT: b.get(B_CREATED),
        TOKENS: as_object(b.get(B_TOKENS)), BUBBLE_MODEL: as_object(b.get(B_MODEL_INFO)).get(B_MODEL_NAME),
        TEXT: b.get(B_TEXT), THINKING: as_object(thinking).get(B_THINKING_TEXT) if isinstance(thinking, dict) else None,
    }
    if tool:
        picked = {k: tool.get(k) for k in TOOL_COPIED if k in tool}
        status = as_object(tool.get(B_ADDITIONAL)).get(B_ADDITIONAL_STATUS)
        if status is not None:
            picked[ADDITIONAL_STATUS] = status
        out[TOOL] = picked
    return out


def _git_repos(doc: dict[str, Any]) -> list[str]:
    found = doc.get(C_GIT_REPOS)
    repos = [as_object(r).get(C_REPO_PATH) for r in found] if isinstance(found, list) else []
    return [r for r in repos if isinstance(r, str) and r]


def _compacted_through(doc: dict[str, Any]) -> str | None:
    """The bubble a composer's latest compaction summary covers up to (never the summary's text):
    the summary's `truncationLastBubbleIdInclusive`, else (an older summary, a plain string) the
    record's `lastBubbleId`."""
    found = as_object(doc.get(C_SUMMARY))
    inner = found.get(C_SUMMARY_INNER)
    for value in (as_object(inner).get(C_CUT) if isinstance(inner, dict) else None, found.get(C_LAST_BUBBLE)):
        if isinstance(value, str) and 0 < len(value) <= 200:
            return value
    return None


def export(db: sqlite3.Connection, session: str, path: Path | None = None) -> bytes:
    lines: list[dict[str, Any]] = []
    if _global(db):
        doc = as_object(_kv(db, f"composerData:{session}"))
        root = as_object(as_object(doc.get(C_WORKSPACE)).get(C_URI)).get(C_FS_PATH)
        lines.append({KIND: "composer", ID: session, VERSION: doc.get(C_VERSION), CREATED: doc.get(C_CREATED),
                      UPDATED: doc.get(C_UPDATED), MODEL: as_object(doc.get(C_MODEL_CONFIG)).get(C_MODEL_NAME),
                      MODE: doc.get(C_MODE), ROOT: root, GIT_REPOS: _git_repos(doc), NAME: doc.get(C_NAME),
                      PARENT: _parent(db, session), COMPACTED: _compacted_through(doc)})
        inline = doc.get(C_CONVERSATION)
        if isinstance(inline, list) and inline:
            lines.extend(_bubble(b) for b in inline if isinstance(b, dict))
        for bid in _headers(doc):
            b = _kv(db, f"bubbleId:{session}:{bid}")
            if isinstance(b, dict):
                lines.append(_bubble({**b, B_ID: bid}))
    else:
        tab = next((t for t in _tabs(db) if t[TAB_ID] == session), {})
        lines.append({KIND: "tab", ID: session, LAST_SEND: tab.get(TAB_SENT), TITLE: tab.get(TAB_TITLE)})
        bubbles = tab.get(TAB_BUBBLES)
        for b in bubbles if isinstance(bubbles, list) else []:
            if isinstance(b, dict):
                lines.append({KIND: "bubble", ID: b.get(T_ID), BUBBLE_TYPE: b.get(T_TYPE),
                              TIME: b.get(T_TIMESTAMP) or b.get(T_CACHE_TIME),
                              BUBBLE_MODEL: b.get(T_MODEL), TEXT: b.get(T_TEXT) or b.get(T_RAW_TEXT)})
    return b"".join(orjson.dumps(line) + b"\n" for line in lines)


def list_sessions(folder: Path) -> list[Path]:
    """Cursor's `state.vscdb` in `folder` (globalStorage, or one workspaceStorage/<hash>), when it
    holds Cursor chats (VS Code's own state.vscdb has none)."""
    from redact.formats.stores import sessions_of

    path = folder / STORE_NAME
    return [path] if path.is_file() and sessions_of(path) else []
