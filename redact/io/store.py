"""SQLite session stores (opencode's `opencode.db`, Cursor's `state.vscdb`, Crush's `crush.db`), read
without ever touching the user's files.

A store is opened through a private copy: the database and its `-wal` / `-shm` files are copied (in
chunks, size-capped) into a fresh 0700 temporary folder and the copy is opened with `mode=ro`, so
the original bytes and mtimes never change, even when the store has a write-ahead log that SQLite
would otherwise check-point. The copy is deleted when the store is closed.

A store holds several sessions. A session inside a store is addressed as `STORE#SESSION`
(`~/.local/share/opencode/opencode.db#ses_...`): `split_ref` tells such an address from a plain
path (only when the part before the last `#` is a real SQLite file and the whole is not a file).

Each store format's folder has a `store.py` (registry: `Format.store()`) with
`sniff(db) -> bool`, `sessions(db) -> list[str]` and `export(db, session, path) -> bytes`: the session's
rows of its session tables only, as JSON Lines the format's reader reads (and the leak scanner's
taint layer searches). Tables and keys that hold credentials are never selected.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from redact.errors import BadInput

SQLITE_HEADER = b"SQLite format 3\x00"
_CHUNK = 1 << 20


def is_sqlite(path: str | Path) -> bool:
    """Whether `path` is a regular file that starts with the SQLite header."""
    try:
        p = Path(path)
        if not p.is_file():
            return False
        with p.open("rb") as fh:
            return fh.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def split_ref(arg: str | Path) -> tuple[Path, str | None]:
    """(store path, session id) of `STORE#SESSION`; (path, None) for anything else."""
    text = str(arg)
    if "#" in text and not Path(text).exists():
        base, _, session = text.rpartition("#")
        if session and is_sqlite(base):
            return Path(base), session
    return Path(text), None


def ref(path: Path, session: str) -> Path:
    """The address of one session of a store."""
    return Path(f"{path}#{session}")


def _copy(src: Path, dst: Path, limit: int, where: str) -> None:
    copied = 0
    with src.open("rb") as fin, dst.open("wb") as fout:
        while True:
            chunk = fin.read(_CHUNK)
            if not chunk:
                return
            copied += len(chunk)
            if copied > limit:
                raise BadInput(f"store exceeds the limit of {limit} bytes", where=where)
            fout.write(chunk)


@contextmanager
def opened(path: Path, *, where: str | None = None) -> Iterator[sqlite3.Connection]:
    """A read-only connection to a private copy of the store at `path` (with its WAL)."""
    from redact.io.read import LIMITS

    where = where or str(path)
    if not is_sqlite(path):
        raise BadInput("not a SQLite database", where=where)
    tmp = Path(tempfile.mkdtemp(prefix="agentplay-store-"))
    try:
        os.chmod(tmp, 0o700)
        copy = tmp / "store.db"
        budget = LIMITS.max_bytes
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(path) + suffix)
            if suffix and not src.is_file():
                continue
            try:
                _copy(src, Path(str(copy) + suffix), budget, where)
            except OSError as exc:
                raise BadInput(f"cannot read ({exc.strerror or type(exc).__name__})", where=where) from None
            budget -= src.stat().st_size
        try:
            db = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
        except sqlite3.Error:
            raise BadInput("cannot open the SQLite database", where=where) from None
        try:
            db.execute("PRAGMA query_only=ON")
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            yield db
        except sqlite3.DatabaseError:
            raise BadInput("not a readable SQLite database (damaged or encrypted)", where=where) from None
        finally:
            db.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def tables(db: sqlite3.Connection) -> frozenset[str]:
    return frozenset(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'"))


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
                    raise BadInput(f"the {fmt.name} store holds no session", where=where)
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
