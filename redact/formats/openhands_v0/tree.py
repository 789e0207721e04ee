"""OpenHands V0's file store, read as one session: `~/.openhands/sessions/<id>/` holds
`metadata.json`, `events/<n>.json` (one event a file, numbered in order) and `event_cache/` (pages of
the same events). Any file of the folder reads as the whole conversation: `assemble` lists its events,
in order, as the trajectory export does (a JSON list), each file read with the input limits and the
whole with them too. Batch mode takes one file a folder (`list_sessions`) and names the others
(`auxiliary`)."""
from __future__ import annotations

from pathlib import Path

import orjson

from redact.errors import BadInput

METADATA_NAME = "metadata.json"
EVENTS, CACHE = "events", "event_cache"


def session_folder(path: Path) -> Path | None:
    """The conversation folder holding `path` (its metadata, an event file or a cache page)."""
    if path.name == METADATA_NAME and (path.parent / EVENTS).is_dir():
        return path.parent
    if path.parent.name in (EVENTS, CACHE) and (path.parent.parent / EVENTS).is_dir():
        return path.parent.parent
    return None


def _event_files(folder: Path) -> list[Path]:
    try:
        found = [p for p in (folder / EVENTS).iterdir() if p.suffix == ".json" and p.stem.isdigit() and p.is_file()]
    except OSError:
        return []
    return sorted(found, key=lambda p: int(p.stem))


def assemble(path: Path) -> bytes | None:
    """The conversation's events as one JSON list; None when `path` is not in a file store."""
    from redact.io.read import LIMITS, read_input

    folder = session_folder(path)
    if folder is None:
        return None
    budget = LIMITS.max_bytes
    events: list[object] = []
    for file in _event_files(folder):
        data = read_input(file, limit=max(budget, 0))
        budget -= len(data)
        try:
            event = orjson.loads(data)
        except orjson.JSONDecodeError:
            raise BadInput("not a JSON document", where=str(file)) from None
        if isinstance(event, dict):
            events.append(event)
    return orjson.dumps(events)


def _entry(folder: Path) -> Path | None:
    meta = folder / METADATA_NAME
    if meta.is_file():
        return meta
    files = _event_files(folder)
    return files[0] if files else None


def _folders(folder: Path) -> list[Path]:
    if (folder / EVENTS).is_dir():
        return [folder]
    try:
        return sorted(p for p in folder.iterdir() if p.is_dir() and (p / EVENTS).is_dir())
    except OSError:
        return []


def list_sessions(folder: Path) -> list[Path]:
    """One file a conversation folder under `folder` (`~/.openhands/sessions`, or one conversation)."""
    return [entry for f in _folders(folder) if (entry := _entry(f)) is not None]


def auxiliary(folder: Path) -> list[tuple[Path, str]]:
    """The other files of each conversation folder: read with the conversation, never on their own."""
    out: list[tuple[Path, str]] = []
    for f in _folders(folder):
        entry = _entry(f)
        for path in sorted(p for p in f.rglob("*") if p.is_file()):
            if path != entry:
                out.append((path, "a file of an OpenHands V0 conversation folder, read with the conversation"))
    return out
