"""opencode's pre-1.x JSON storage tree, read as one session.

Before 1.x, opencode wrote `~/.local/share/opencode/storage/`: `session/<projectID>/<sessionID>.json`
(the session: `{id, slug, version, projectID, directory, parentID?, title, time: {created, updated}}`),
`message/<sessionID>/<messageID>.json` (a message: its `data` of 1.x plus `id` and `sessionID`) and
`part/<messageID>/<partID>.json` (a part: plus `id`, `sessionID`, `messageID`). Ids sort by time.
`assemble` turns one session's files into the JSON Lines export `store.py` writes for 1.x, so one
reader reads both; each file is read with the input limits, and the whole with them too. There is no
example of the tree in the shared corpus: the layout is taken from opencode's source and docs. The
keys read are the table's (`native_table.py`): a session file is its named node `session_file`, a
message file the `data` of a `message` row, a part file the `data` of a `part` row.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from redact.errors import BadInput
from redact.formats.opencode.keys import (
    AT, FILE_CREATED, FILE_DIRECTORY, FILE_ID, FILE_PARENT, FILE_PROJECT, FILE_TIMES, FILE_TITLE, FILE_UPDATED,
    FILE_VERSION, MESSAGE_FILE_ID, PART_FILE_ID, TIMES,
)

_NAMES = ("ses_", "msg_", "prt_")


def is_session_doc(doc: Any) -> bool:
    return isinstance(doc, dict) and isinstance(doc.get(FILE_ID), str) and doc[FILE_ID].startswith("ses_") and \
        isinstance(doc.get(FILE_DIRECTORY), str) and isinstance(doc.get(FILE_TIMES), dict) and FILE_PROJECT in doc


def session_line(doc: dict[str, Any]) -> dict[str, Any]:
    found = doc.get(FILE_TIMES)
    times: dict[str, Any] = found if isinstance(found, dict) else {}
    return {"opencode": "session", "id": doc.get(FILE_ID), "parent_id": doc.get(FILE_PARENT),
            "directory": doc.get(FILE_DIRECTORY), "title": doc.get(FILE_TITLE), "version": doc.get(FILE_VERSION),
            "time_created": times.get(FILE_CREATED), "time_updated": times.get(FILE_UPDATED)}


def _load(path: Path, budget: list[int]) -> Any:
    from redact.io.read import read_input

    data = read_input(path, limit=max(budget[0], 0))
    budget[0] -= len(data)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        raise BadInput("not a JSON document", where=str(path)) from None


def _files(folder: Path, prefix: str) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir() if p.name.startswith(prefix) and p.suffix == ".json")
    except OSError:
        return []


def storage_of(path: Path) -> Path | None:
    """The `storage/` folder of a session file `storage/session/<projectID>/ses_*.json`."""
    if path.name.startswith("ses_") and path.parent.parent.name == "session":
        return path.parent.parent.parent
    return None


def assemble(path: Path) -> bytes | None:
    """The export of the session whose file is `path`, with its messages and parts; None when the file
    is not a session file of a storage tree."""
    from redact.io.read import LIMITS

    storage = storage_of(path)
    if storage is None:
        return None
    budget = [LIMITS.max_bytes]
    doc = _load(path, budget)
    if not is_session_doc(doc):
        return None
    lines = [session_line(doc)]
    for mfile in _files(storage / "message" / doc[FILE_ID], "msg_"):
        msg = _load(mfile, budget)
        if not isinstance(msg, dict):
            continue
        found = msg.get(TIMES)
        times: dict[str, Any] = found if isinstance(found, dict) else {}
        mid: str = msg[MESSAGE_FILE_ID] if isinstance(msg.get(MESSAGE_FILE_ID), str) else mfile.stem
        lines.append({"opencode": "message", "id": mid, "time_created": times.get(AT), "data": msg})
        for pfile in _files(storage / "part" / mid, "prt_"):
            part = _load(pfile, budget)
            if isinstance(part, dict):
                lines.append({"opencode": "part", "id": part.get(PART_FILE_ID, pfile.stem), "message_id": mid,
                              "time_created": None, "data": part})
    return b"".join(orjson.dumps(line) + b"\n" for line in lines)


def list_sessions(folder: Path) -> list[Path]:
    """The session files of the tree under `folder` (`~/.local/share/opencode`, or its `storage/`)."""
    for storage in (folder / "storage", folder):
        sessions = storage / "session"
        if sessions.is_dir():
            found: list[Path] = []
            try:
                projects = sorted(p for p in sessions.iterdir() if p.is_dir())
            except OSError:
                return []
            for project in projects:
                found.extend(_files(project, "ses_"))
            return found
    return []


def companions(path: Path) -> list[Path]:
    """The message and part files read with the session file at `path` (by their folders' names,
    which are the ids; none opened): batch discovery never takes them for sessions of their own, and
    no output may be written over one of them."""
    storage = storage_of(path)
    if storage is None:
        return []
    messages = _files(storage / "message" / path.stem, "msg_")
    return messages + [part for message in messages for part in _files(storage / "part" / message.stem, "prt_")]
