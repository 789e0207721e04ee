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


#: The files SQLite keeps beside a store (`opencode.db-wal`): read with it, never on their own.
SIDE_SUFFIXES = ("-wal", "-shm", "-journal")


def side_files(path: str | Path) -> list[Path]:
    """The write-ahead log, shared memory and journal files that exist beside the store at `path`."""
    return [Path(f"{path}{suffix}") for suffix in SIDE_SUFFIXES if Path(f"{path}{suffix}").is_file()]


def store_of_side(path: str | Path) -> Path | None:
    """The store whose side file `path` is (`x.db-wal` -> `x.db`, when that is a SQLite file), or None."""
    text = str(path)
    for suffix in SIDE_SUFFIXES:
        if text.endswith(suffix) and is_sqlite(text[: -len(suffix)]):
            return Path(text[: -len(suffix)])
    return None


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
