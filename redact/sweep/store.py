"""Secrets in SQLite session stores (opencode's `opencode.db`, Cursor's `state.vscdb`, Crush's
`crush.db`, ...): found cell by cell, scrubbed row by row.

Every text cell (and every blob cell that is UTF-8 text) of every ordinary table is searched as
find.py searches a file: JSON text string by string, other text whole. A full-text index is
searched through its own table when it keeps its content, and skipped when it indexes another
table's (its shadow tables are never searched: they repeat what the content holds). A key-value
row whose key names a credential (`cursorAuth/accessToken`) is a credential entry: counted, never
read, never changed.

A binary cell (not UTF-8) is not searched; but a value found elsewhere in the store is looked for in
it too and overwritten with a mask of the same length (`binary_mask`), so its framing holds.

A scrub works on a copy: the store and its `-wal` are copied beside it, the copy's cells are
updated, every full-text index is rebuilt from the updated content (so no old term stays in its
shadow tables), and `VACUUM INTO` writes a fresh file without the freed pages that still held the
old values. The fresh file replaces the store only if the store and its `-wal` did not change
meanwhile; the old `-wal` and `-shm` are removed then (they belong to the replaced file).
"""
from __future__ import annotations

import os
import re
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redact.sweep.find import Edit, Fingerprint, Known, Place, TextScan, apply_edits, known_values, scan_text

_FTS = re.compile(r"create\s+virtual\s+table\s+.*?\busing\s+(fts[345])\s*\((.*)\)", re.IGNORECASE | re.DOTALL)
_CONTENT_OPTION = re.compile(r"\bcontent\s*=\s*(['\"]?)([^'\",)]*)\1", re.IGNORECASE)
_SHADOW = ("_content", "_data", "_idx", "_docsize", "_config", "_segments", "_segdir", "_stat", "_docsize")
_CREDENTIAL_KEY = re.compile(r"auth|token|secret|credential|password|passwd|api[_-]?key|cookie", re.IGNORECASE)
_KEY_COLUMNS = ("key", "name", "k", "id")


@dataclass
class CellEdit:
    table: str
    rowid: int
    column: str
    old: str | bytes
    new: str | bytes
    edits: list[Edit]


@dataclass
class StoreScan:
    places: list[Place] = field(default_factory=list)
    cells: list[CellEdit] = field(default_factory=list)
    credential_rows: int = 0
    blobs: int = 0
    fts_rebuild: list[str] = field(default_factory=list)  # external-content indexes to rebuild
    skipped_tables: list[str] = field(default_factory=list)


def quote_name(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _layout(db: sqlite3.Connection) -> tuple[list[str], list[str]]:
    """(tables to search, full-text indexes that index another table's content)."""
    rows = db.execute("SELECT name, sql FROM sqlite_master WHERE type='table'").fetchall()
    fts_own: set[str] = set()
    fts_external: list[str] = []
    shadows: set[str] = set()
    for name, sql in rows:
        m = _FTS.match(sql or "")
        if m is None:
            continue
        shadows.update(name + suffix for suffix in _SHADOW)
        option = _CONTENT_OPTION.search(m.group(2))
        if option is None:
            fts_own.add(name)
        elif option.group(2):
            fts_external.append(name)
    searched = []
    for name, sql in rows:
        if name.startswith("sqlite_") or name in shadows:
            continue
        if (sql or "").lower().lstrip().startswith("create virtual") and name not in fts_own:
            continue
        searched.append(name)
    return searched, fts_external


def _credential_key(row: dict[str, Any]) -> bool:
    for column in _KEY_COLUMNS:
        value = row.get(column)
        if isinstance(value, str) and _CREDENTIAL_KEY.search(value):
            return True
    return False


def scan_db(db: sqlite3.Connection, fp: Fingerprint) -> StoreScan:
    """Every cell searched; when something is found, searched again for every other occurrence of
    the values found (find.py `known_values`), in any cell."""
    first = _scan_db(db, fp, None)
    if not first.cells:
        return first
    known: Known = {}
    for cell in first.cells:
        known.update(known_values(TextScan(first.places, cell.edits)))
    return _scan_db(db, fp, known)


def _scan_db(db: sqlite3.Connection, fp: Fingerprint, known: Known | None) -> StoreScan:
    result = StoreScan()
    tables, result.fts_rebuild = _layout(db)
    for table in tables:
        try:
            cursor = db.execute(f"SELECT rowid AS __rowid__, * FROM {quote_name(table)}")
        except sqlite3.Error:
            result.skipped_tables.append(table)
            continue
        columns = [d[0] for d in cursor.description]
        for values in cursor:
            row = dict(zip(columns, values))
            rowid = row.pop("__rowid__")
            if _credential_key(row):
                result.credential_rows += 1
                continue
            for column, value in row.items():
                _scan_cell(result, table, rowid, column, value, fp, known)
    return result


ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_CHUNK = 1 << 20


def inflate(blob: bytes) -> bytes | None:
    """A zstd-compressed cell (Zed's threads) decompressed within the input limits of
    redact/io/read.py (size, and ratio past its floor); None when it is damaged or past them."""
    import io

    import zstandard

    from redact.io import read

    limits = read.LIMITS
    ceiling = max(limits.ratio_floor, limits.max_ratio * len(blob))
    out = bytearray()
    try:
        with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(blob), read_across_frames=True) as reader:
            while chunk := reader.read(_CHUNK):
                out += chunk
                if len(out) > min(limits.max_bytes, ceiling):
                    return None
    except zstandard.ZstdError:
        return None
    return bytes(out)


def deflate(data: bytes) -> bytes:
    import zstandard

    return zstandard.ZstdCompressor(level=3).compress(data)


def cell_text(value: Any) -> str | None:
    """A cell as the sweep searches it: text; a blob as UTF-8, or decompressed first when it is a
    zstd frame; None for a binary cell."""
    if isinstance(value, str):
        return value
    if not isinstance(value, bytes):
        return None
    raw: bytes | None = inflate(value) if value[:4] == ZSTD_MAGIC else value
    if raw is None:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _scan_cell(result: StoreScan, table: str, rowid: int, column: str, value: Any, fp: Fingerprint,
               known: Known | None) -> None:
    compressed = isinstance(value, bytes) and value[:4] == ZSTD_MAGIC
    if isinstance(value, bytes):
        decoded = cell_text(value)
        if decoded is not None:
            text = decoded
        else:
            result.blobs += 1
            if known:
                _mask_in_binary(result, table, rowid, column, value, fp, known)
            return
    elif isinstance(value, str):
        text = value
    else:
        return
    if len(text) < 8:
        return
    scan = scan_text(text, fp, known=known)
    result.blobs += scan.blobs
    if not scan.edits:
        return
    where = f"{table}.{column} row {rowid}"
    result.places.extend(Place(p.cls, p.fingerprint, None, p.length, p.when, where) for p in scan.places)
    new_text = apply_edits(text, scan.edits)
    new: str | bytes = new_text.encode("utf-8") if isinstance(value, bytes) else new_text
    if compressed:  # compressed again, as the agent wrote it
        new = deflate(new_text.encode("utf-8"))
    result.cells.append(CellEdit(table, rowid, column, value, new, scan.edits))


def binary_mask(n: int) -> bytes:
    """What replaces a value of n bytes inside a binary cell: n bytes, so the framing of the
    binary format (protobuf lengths, offsets) stays as it was."""
    return (b"[REDACTED" + b"*" * (n - 10) + b"]") if n >= 11 else b"*" * n


def _mask_in_binary(result: StoreScan, table: str, rowid: int, column: str, value: bytes, fp: Fingerprint,
                    known: Known) -> None:
    """A binary cell (not UTF-8: a protobuf, a serialised state) holding a value found elsewhere:
    each occurrence overwritten in place with a mask of the same length."""
    new = value
    originals = []
    for secret, cls in known.items():
        raw = secret.encode("utf-8")
        if raw in new:
            print_ = fp(secret)
            result.places.append(Place(cls, print_, None, len(secret), None, f"{table}.{column} row {rowid}"))
            originals.append((print_, secret))
            new = new.replace(raw, binary_mask(len(raw)))
    if originals:
        result.cells.append(CellEdit(table, rowid, column, value, new, [Edit(0, 0, "", originals)]))


def copy_store(path: Path, folder: Path) -> Path:
    """A copy of the store at `path` with its `-wal` (and `-shm`), in `folder`."""
    copy = folder / "store.db"
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(path) + suffix)
        if suffix and not src.is_file():
            continue
        shutil.copyfile(src, str(copy) + suffix)
    return copy


def write_cells(path: Path, cells: list[tuple[str, int, str, Any]], fts_rebuild: list[str],
                wal: bool) -> Path:
    """A fresh copy of the store at `path` with each (table, rowid, column, value) set, its full-text
    indexes rebuilt, vacuumed; returned in a private folder beside the store (the caller renames it
    over the store or removes the folder)."""
    folder = Path(tempfile.mkdtemp(prefix=".agentplay-sweep-", dir=path.parent))
    os.chmod(folder, 0o700)
    copy = copy_store(path, folder)
    db = sqlite3.connect(copy)
    try:
        db.execute("PRAGMA secure_delete=ON")
        for table, rowid, column, value in cells:
            db.execute(f"UPDATE {quote_name(table)} SET {quote_name(column)} = ? WHERE rowid = ?", (value, rowid))
        for index in fts_rebuild:
            db.execute(f"INSERT INTO {quote_name(index)}({quote_name(index)}) VALUES('rebuild')")
        db.commit()
        fresh = folder / "fresh.db"
        db.execute("VACUUM INTO ?", (str(fresh),))
    finally:
        db.close()
    if wal:
        fresh_db = sqlite3.connect(fresh)
        try:
            fresh_db.execute("PRAGMA journal_mode=WAL")
        finally:
            fresh_db.close()
        for suffix in ("-wal", "-shm"):
            Path(str(fresh) + suffix).unlink(missing_ok=True)
    return fresh


def journal_is_wal(path: Path) -> bool:
    with path.open("rb") as fh:
        header = fh.read(20)
    return len(header) >= 20 and header[18] == 2 and header[19] == 2
