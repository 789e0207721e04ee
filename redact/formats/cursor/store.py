"""Cursor's SQLite `state.vscdb`: one chat's values as JSON Lines.

Two layouts. `globalStorage/state.vscdb` (Cursor 0.4x on): table `cursorDiskKV`, one
`composerData:<composerId>` value per chat (a composer) and one `bubbleId:<composerId>:<bubbleId>`
value per message (a bubble), in the order of the composer's `fullConversationHeadersOnly` (older
composers hold their bubbles inline, in `conversation`). The older `workspaceStorage/<hash>/state.vscdb`:
table `ItemTable`, key `workbench.panel.aichat.view.aichat.chatdata`, whose `tabs` are the chats.

Only those keys are read, and of each value only the fields named here are exported: the composer's
`*EncryptionKey` fields, `agentKv:*`, `checkpointId:*`, file contents (`ofsContent:*`,
`inlineDiff:*`), `cursorAuth/*` and every other key are never selected. The export:

    {"cursor": "composer", "id", "v", "createdAt", "lastUpdatedAt", "model", "mode", "root", "name",
     "parent"}                                   (parent: the composer listing it as a subagent)
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
    heads = composer.get("fullConversationHeadersOnly")
    ids = [h.get("bubbleId") for h in heads if isinstance(h, dict)] if isinstance(heads, list) else []
    return [i for i in ids if isinstance(i, str)]


def _tabs(db: sqlite3.Connection) -> list[dict[str, Any]]:
    tabs = as_object(_item(db, CHATDATA)).get("tabs")
    return [t for t in tabs if isinstance(t, dict) and isinstance(t.get("tabId"), str)] \
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
            if _headers(doc) or isinstance(doc.get("conversation"), list) and doc["conversation"]:
                found.append((doc.get("createdAt") if isinstance(doc.get("createdAt"), int) else 0, cid))
        return [cid for _, cid in sorted(found)]
    return [t["tabId"] for t in _tabs(db) if isinstance(t.get("bubbles"), list) and t["bubbles"]]


def _parent(db: sqlite3.Connection, session: str) -> str | None:
    """The composer that launched `session` as a subagent (it lists it in `subagentComposerIds`)."""
    for cid, doc in _composers(db):
        for key in ("subagentComposerIds", "subComposerIds"):
            ids = doc.get(key)
            if isinstance(ids, list) and session in ids and cid != session:
                return cid
    return None


_TOOL_FIELDS = ("toolCallId", "name", "status", "params", "rawArgs", "result", "error")


def _bubble(b: dict[str, Any]) -> dict[str, Any]:
    tool = as_object(b.get("toolFormerData"))
    thinking = b.get("thinking")
    out: dict[str, Any] = {
        "cursor": "bubble", "id": b.get("bubbleId"), "type": b.get("type"), "createdAt": b.get("createdAt"),
        "tokenCount": as_object(b.get("tokenCount")), "model": as_object(b.get("modelInfo")).get("modelName"),
        "text": b.get("text"), "thinking": as_object(thinking).get("text") if isinstance(thinking, dict) else None,
    }
    if tool:
        picked = {k: tool.get(k) for k in _TOOL_FIELDS if k in tool}
        status = as_object(tool.get("additionalData")).get("status")
        if status is not None:
            picked["additionalStatus"] = status
        out["tool"] = picked
    return out


def export(db: sqlite3.Connection, session: str, path: Path | None = None) -> bytes:
    lines: list[dict[str, Any]] = []
    if _global(db):
        doc = as_object(_kv(db, f"composerData:{session}"))
        root = as_object(as_object(doc.get("workspaceIdentifier")).get("uri")).get("fsPath")
        lines.append({"cursor": "composer", "id": session, "v": doc.get("_v"), "createdAt": doc.get("createdAt"),
                      "lastUpdatedAt": doc.get("lastUpdatedAt"), "model": as_object(doc.get("modelConfig")).get("modelName"),
                      "mode": doc.get("unifiedMode"), "root": root, "name": doc.get("name"),
                      "parent": _parent(db, session)})
        inline = doc.get("conversation")
        if isinstance(inline, list) and inline:
            lines.extend(_bubble(b) for b in inline if isinstance(b, dict))
        for bid in _headers(doc):
            b = _kv(db, f"bubbleId:{session}:{bid}")
            if isinstance(b, dict):
                lines.append(_bubble({**b, "bubbleId": bid}))
    else:
        tab = next((t for t in _tabs(db) if t["tabId"] == session), {})
        lines.append({"cursor": "tab", "id": session, "lastSendTime": tab.get("lastSendTime"),
                      "title": tab.get("chatTitle")})
        bubbles = tab.get("bubbles")
        for b in bubbles if isinstance(bubbles, list) else []:
            if isinstance(b, dict):
                lines.append({"cursor": "bubble", "id": b.get("id"), "type": b.get("type"),
                              "time": b.get("timestamp") or b.get("contextCacheTimestamp"),
                              "model": b.get("modelType"), "text": b.get("text") or b.get("rawText")})
    return b"".join(orjson.dumps(line) + b"\n" for line in lines)


def list_sessions(folder: Path) -> list[Path]:
    """Cursor's `state.vscdb` in `folder` (globalStorage, or one workspaceStorage/<hash>), when it
    holds Cursor chats (VS Code's own state.vscdb has none)."""
    from redact.formats.stores import sessions_of

    path = folder / STORE_NAME
    return [path] if path.is_file() and sessions_of(path) else []
