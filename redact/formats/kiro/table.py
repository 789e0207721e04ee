"""Kiro CLI sessions, declared: the sniffers, the store's file pair read as one export, and the
session files of the store folder. Record kinds, content block kinds, tool aliases and the class of
every field are the format's one table (`native_table.py`); docs/formats.md renders them
(scripts/gen_format_docs.py).

Kiro CLI 2.x keeps each session as `~/.kiro/sessions/cli/<uuid>.json` (the session metadata:
working directory, times, the turns' metadata, the model) and `<uuid>.jsonl` (the log: one
`{version, kind, data}` entry a line), with a `<uuid>.lock` while it runs. `/chat save` writes the
same two as one document, `{"format": "kiro-session-export-v1", "metadata": ..., "log_entries": [...]}`.
`assemble` turns a pair into that document, so one reader reads both; a `.json` without its `.jsonl`
(or with an empty one) is a session with no records, which the reader says.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson

from redact.errors import BadInput
from redact.formats.kiro.native_table import ALIASES, EXPORT_FORMAT, STATUS

SESSION_NAME = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json")
__all__ = ["ALIASES", "STATUS", "assemble", "auxiliary", "is_metadata", "list_sessions", "markdown", "sniff",
           "sniff_doc"]


def _is_entry(record: Any) -> bool:
    from redact.formats.kiro.keys import DATA, KIND, MESSAGE_ID, RECORDS, VERSION

    return isinstance(record, dict) and record.get(VERSION) == "v1" and record.get(KIND) in RECORDS and \
        isinstance(record.get(DATA), dict) and isinstance(record[DATA].get(MESSAGE_ID), str)


def is_metadata(doc: Any) -> bool:
    """The session metadata document (the store's `<uuid>.json`, the export's `metadata`)."""
    from redact.formats.kiro.keys import CONVERSATION, RTS, SESSION_ID, STATE

    state = doc.get(STATE) if isinstance(doc, dict) else None
    return isinstance(doc, dict) and isinstance(doc.get(SESSION_ID), str) and isinstance(state, dict) and \
        (isinstance(state.get(CONVERSATION), dict) or isinstance(state.get(RTS), dict))


def sniff(records: list[dict[str, Any]]) -> bool:
    return bool(records) and _is_entry(records[0])


def sniff_doc(doc: Any) -> bool:
    from redact.formats.kiro.keys import FORMAT_TAG, LOG_ENTRIES

    if isinstance(doc, dict) and doc.get(FORMAT_TAG) == EXPORT_FORMAT and isinstance(doc.get(LOG_ENTRIES), list):
        return True
    return is_metadata(doc) or _is_entry(doc)


def _pair(path: Path) -> tuple[Path, Path] | None:
    if path.suffix not in (".json", ".jsonl") or not SESSION_NAME.fullmatch(path.stem + ".json"):
        return None
    return path.with_suffix(".json"), path.with_suffix(".jsonl")


def assemble(path: Path) -> bytes | None:
    """The export document of the store session whose `.json` or `.jsonl` is `path`; None when `path`
    is not one file of a store pair (an export, or a `.jsonl` alone: read as it is)."""
    from redact.formats.jsonl import iter_objects
    from redact.io.read import LIMITS, read_input

    pair = _pair(path)
    if pair is None or not pair[0].is_file():
        return None
    meta_file, log_file = pair
    raw = read_input(meta_file, limit=LIMITS.max_bytes)
    try:
        meta = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise BadInput("not a JSON document", where=str(meta_file)) from None
    if not is_metadata(meta):
        return None
    entries: list[Any] = []
    if log_file.is_file():
        log = read_input(log_file, limit=max(LIMITS.max_bytes - len(raw), 0))
        entries = [record for _, record in iter_objects(log, str(log_file))]
    return orjson.dumps({"format": EXPORT_FORMAT, "metadata": meta, "log_entries": entries})


def list_sessions(folder: Path) -> list[Path]:
    """The sessions of Kiro's `sessions/cli/` folder: each `<uuid>.json` (its `.jsonl` is read with it)."""
    try:
        return sorted(p for p in folder.iterdir() if SESSION_NAME.fullmatch(p.name) and p.is_file())
    except OSError:
        return []


def auxiliary(folder: Path) -> list[tuple[Path, str]]:
    """The store's files that are not sessions: the `.lock` of a running session, and each `.jsonl`
    (read with its `.json`)."""
    try:
        names = sorted(p for p in folder.iterdir() if p.is_file())
    except OSError:
        return []
    out: list[tuple[Path, str]] = []
    for p in names:
        if p.suffix == ".lock" and SESSION_NAME.fullmatch(p.stem + ".json"):
            out.append((p, "Kiro's lock of a running session (a process id and a time; not a session)"))
        elif p.suffix == ".jsonl" and SESSION_NAME.fullmatch(p.stem + ".json") and p.with_suffix(".json").is_file():
            out.append((p, "Kiro's session log, read with its .json"))
    return out


def markdown() -> str:
    from redact.formats.toolnames import alias_markdown

    return "\n".join(alias_markdown(ALIASES, "anything else (`use_aws`, `todo_list`, MCP tools...) | a `tool` event")) + "\n"
