"""SQLite session stores through the registry: which format a store is, its sessions, and one
session exported as the JSON Lines its reader reads. The store is opened as redact/io/store.py opens
it: a private copy (with its write-ahead log), read-only; the original is never touched."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from redact.errors import BadInput, NoSession
from redact.io.store import opened


def store_format(db: sqlite3.Connection) -> Any | None:
    """The registered format whose store this is, or None."""
    from redact.formats.registry import formats

    for fmt in formats():
        module = fmt.store()
        if module is None:
            continue
        try:
            if module.sniff(db):
                return fmt
        except sqlite3.Error:
            continue
    return None


def sessions_of(path: Path) -> list[str]:
    """The session ids of the store at `path` ([] when no format claims it or it cannot be read)."""
    try:
        with opened(path) as db:
            fmt = store_format(db)
            module: Any = fmt.store() if fmt is not None else None
            return list(module.sessions(db)) if module is not None else []
    except (BadInput, sqlite3.Error):
        return []


def export(path: Path, session: str | None, *, where: str, forced: str | None = None) -> tuple[str, bytes]:
    """(format name, the session's rows as JSON Lines) of one session of the store at `path`;
    `session` None: the store's only session (several: a usage error naming how to choose)."""
    from redact.errors import UsageError
    from redact.formats.registry import raw_format

    with opened(path, where=where) as db:
        try:
            fmt = raw_format(forced) if forced else store_format(db)
            if fmt is None or fmt.store() is None:
                names = "this format" if forced else "any format this build reads"
                raise BadInput(f"a SQLite database that is not a session store of {names}", where=where)
            module: Any = fmt.store()
            ids = list(module.sessions(db))
            if session is None:
                if not ids:
                    raise NoSession(f"the {fmt.name} store holds no session", where=where)
                if len(ids) > 1:
                    raise UsageError(f"the {fmt.name} store holds {len(ids)} sessions: give --out-dir DIR "
                                     "for one map each, or name one as STORE#SESSION", where=where)
                session = ids[0]
            elif session not in ids:
                raise BadInput("no such session in the store", where=where)
            data: bytes = module.export(db, session, path)
        except sqlite3.Error as exc:
            raise BadInput(f"cannot read the store ({type(exc).__name__})", where=where) from None
    return fmt.name, data


__all__ = ["export", "sessions_of", "store_format"]
