"""Kiro's session store `~/.kiro/sessions/<workspace>/sess_<id>/`, declared: the sniffers, the
session files of a folder, the companion (`session.json` beside `messages.jsonl`), the assembly of a
`session.json` given alone, and the files that are not sessions. What each field is, is the one
table (`native_table.py`).

Built from public descriptions, not from a sample (none is public): a session monitor reads
`session.json` (title, workspace, model, `status`) and tails `messages.jsonl` (`{id, timestamp,
payload}` lines, `turn_start` / `turn_end` with `stopReason`); a usage indexer walks the store three
levels deep for `messages.jsonl`, reads `workspacePaths` / `rootPaths`, `parentSessionId` and
`createdReason` from `session.json`, and names the event types the table lists.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from redact.formats.kiro_ide_log.native_table import ALIASES

__all__ = ["ALIASES", "LOG", "META", "assemble", "auxiliary", "find_companions", "is_session_doc", "list_sessions",
           "markdown", "sniff", "sniff_doc"]

LOG, META = "messages.jsonl", "session.json"
_SESSION_DIR = re.compile(r"sess_[A-Za-z0-9_-]{1,128}")


def _is_event(record: Any) -> bool:
    from redact.formats.kiro_ide_log.keys import AT, EVENT_ID, PAYLOAD, TYPE, TYPES

    if not isinstance(record, dict) or not set(record) <= {EVENT_ID, AT, PAYLOAD}:
        return False
    payload = record.get(PAYLOAD)
    return isinstance(record.get(AT), str) and isinstance(payload, dict) and payload.get(TYPE) in TYPES


def sniff(records: list[dict[str, Any]]) -> bool:
    """`messages.jsonl`: every line an `{id, timestamp, payload}` event of a type the table lists."""
    return bool(records) and all(_is_event(r) for r in records)


def is_session_doc(doc: Any) -> bool:
    """`session.json`: a session id with its workspace paths (a list) and, when present, a status."""
    from redact.formats.kiro_ide_log.keys import ROOTS, SESSION_ID, STATE, WORKSPACES

    if not isinstance(doc, dict) or not isinstance(doc.get(SESSION_ID), str):
        return False
    paths = [doc.get(WORKSPACES), doc.get(ROOTS)]
    return any(isinstance(p, list) for p in paths) and all(p is None or isinstance(p, list) for p in paths) and \
        (doc.get(STATE) is None or isinstance(doc.get(STATE), str))


def sniff_doc(doc: Any) -> bool:
    return is_session_doc(doc) or _is_event(doc)


def _in_store(path: Path) -> bool:
    return bool(_SESSION_DIR.fullmatch(path.parent.name))


def find_companions(path: Path) -> list[Path]:
    """`session.json` of the session whose `messages.jsonl` (or `session.json`) is `path`."""
    meta = path.parent / META
    return [meta] if path.name in (LOG, META) and meta.is_file() else []


def assemble(path: Path) -> bytes | None:
    """A `session.json` given alone is read as its session: the document on one line, then the
    `messages.jsonl` beside it (the reader takes the first line for the session's metadata); None when
    no log is beside it (the document is read as it is)."""
    import orjson

    from redact.errors import BadInput
    from redact.io.read import LIMITS, read_input

    log = path.parent / LOG
    if path.name != META or not log.is_file():
        return None
    raw = read_input(path, limit=LIMITS.max_bytes)
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise BadInput("not a JSON document", where=str(path)) from None
    if not is_session_doc(doc):
        return None
    return orjson.dumps(doc) + b"\n" + read_input(log, limit=max(LIMITS.max_bytes - len(raw), 0))


def list_sessions(folder: Path) -> list[Path]:
    """The sessions under a store folder (`~/.kiro/sessions`, one workspace's folder, or one
    `sess_<id>` folder): each `messages.jsonl`, or the `session.json` of a session with no log yet."""
    found: list[Path] = []
    for depth in ("", "*/", "*/*/"):
        try:
            dirs = [folder] if not depth else sorted(p for p in folder.glob(depth) if p.is_dir())
        except OSError:
            continue
        for d in dirs:
            if not _SESSION_DIR.fullmatch(d.name):
                continue
            if (d / LOG).is_file():
                found.append(d / LOG)
            elif (d / META).is_file():
                found.append(d / META)
    return sorted(set(found))


def auxiliary(folder: Path) -> list[tuple[Path, str]]:
    """A session's `session.json` beside its `messages.jsonl`: read with it, not a session of its own."""
    return [(p.parent / META, "Kiro's session metadata, read with its messages.jsonl")
            for p in list_sessions(folder) if p.name == LOG and (p.parent / META).is_file()]


def markdown() -> str:
    from redact.formats.toolnames import alias_markdown

    return "\n".join(alias_markdown(ALIASES, "anything else (MCP tools...) | a `tool` event")) + "\n"
