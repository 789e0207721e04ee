"""The sweep: every file read, every secret found and grouped by its keyed fingerprint; with
`scrub`, each file rewritten with its secrets replaced, the originals sealed first, the result
proved.

    result = sweep(inputs, key)                       # find only
    result = sweep(inputs, key, scrub_to="x.vault")   # find, seal the originals, rewrite, prove

A file is read once; what was read is what is scrubbed. Before a rewritten file replaces it, the
file must still have the size, time and digest it had when read: one that changed (an agent still
writing it) is left alone and named. The proof of a scrub runs twice: on the new bytes before they
are written (`residue`: none of the found values remains, in the text, in its JSON strings
decoded, URL-decoded or inside base64 runs decoded; and the secrets layer finds none of their
fingerprints again), and on the file read back after it is written.
"""
from __future__ import annotations

import base64
import binascii
import gzip
import hashlib
import os
import re
import sqlite3
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from redact.errors import BadInput
from redact.io.read import GZIP_MAGIC, gunzip
from redact.keys.material import Key
from redact.sweep.find import Edit, Fingerprint, Place, decode_literal, json_strings, known_values, scan_text
from redact.sweep.store import cell_text, journal_is_wal, quote_name, scan_db, write_cells
from redact.sweep.targets import Inputs

_SQLITE_HEADER = b"SQLite format 3\x00"
_BASE64_RUN = re.compile(r"[A-Za-z0-9+/_\-]{16,}={0,2}")
FINGERPRINT_HEX = 12


def fingerprinter(key: Key) -> Fingerprint:
    """The keyed fingerprint of a secret: 12 hex of an HMAC under a subkey of `key` (without the
    key, a guessed password cannot be tested against it)."""
    cache: dict[str, str] = {}

    def fp(value: str) -> str:
        found = cache.get(value)
        if found is None:
            found = cache[value] = key.ident_digest("sweep-secret", value, FINGERPRINT_HEX)
        return found

    return fp


@dataclass
class FileResult:
    path: str
    agent: str
    kind: str  # "json", "text", "sqlite", "gzip"
    session: str
    size: int
    places: list[Place] = field(default_factory=list)
    blobs: int = 0
    credential_rows: int = 0
    status: str = "read"  # read | scrubbed | left alone | not scrubbed | restored
    note: str = ""


@dataclass
class SweepResult:
    files: list[FileResult] = field(default_factory=list)
    credentials: list[str] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)
    left_alone: list[tuple[str, str]] = field(default_factory=list)
    key_fingerprint: str = ""
    key_is_ephemeral: bool = False
    seconds: float = 0.0
    scrubbed: int = 0
    proof: str = ""  # after a scrub: what was proved
    vault: str = ""
    caveats: list[str] = field(default_factory=list)  # what a scrub could not make sure of

    @property
    def bytes_read(self) -> int:
        return sum(f.size for f in self.files)

    @property
    def places(self) -> list[tuple[FileResult, Place]]:
        return [(f, p) for f in self.files for p in f.places]


def _agent_of(data: bytes, where: str, place: str) -> str:
    """The format the content says, else the agent whose place holds the file (`place`)."""
    from redact.formats.detect import detect

    try:
        return detect(data[: 1 << 20], where)
    except (BadInput, ValueError, RecursionError):
        return place


def _store_agent(db: sqlite3.Connection, place: str) -> str:
    from redact.formats.stores import store_format

    fmt = store_format(db)
    return str(fmt.name) if fmt is not None else place


def _session_of(path: Path) -> str:
    name = path.name
    for suffix in (".gz", ".jsonl", ".json", ".md", ".txt"):
        if name.endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
    if name in ("events", "ui_messages", "api_conversation_history") and path.parent.name:
        return path.parent.name
    return name


@dataclass
class _Pending:
    """A file with secrets, read, and what a scrub would write."""

    result: FileResult
    original: bytes
    stamp: tuple[int, int, str]
    new: bytes = b""
    spans: list[tuple[int, int, bytes]] = field(default_factory=list)  # (offset in new, length, original)
    cells: list[tuple[str, int, str, object, object]] = field(default_factory=list)
    fts: list[str] = field(default_factory=list)
    originals: dict[str, str] = field(default_factory=dict)  # fingerprint -> value (memory only)
    in_place: bool = False  # overwrite the file, keeping its inode (`_replace_file`)


def _stamp(path: Path, data: bytes | None = None) -> tuple[int, int, str]:
    st = path.stat()
    if data is None:
        data = _read_wal_too(path)
    return st.st_size, st.st_mtime_ns, hashlib.sha256(data).hexdigest()


def _read_wal_too(path: Path) -> bytes:
    data = path.read_bytes()
    wal = Path(str(path) + "-wal")
    return data + (wal.read_bytes() if wal.is_file() else b"")


def _read_file(path: Path, result: SweepResult, fp: Fingerprint, scrub: bool,
               place: str = "unknown") -> _Pending | None:
    where = str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        result.unreadable.append((where, f"cannot read ({exc.strerror or type(exc).__name__})"))
        return None
    if data.startswith(_SQLITE_HEADER):
        return _read_store(path, data, result, fp, scrub, place)
    kind = "text"
    body = data
    if data[:2] == GZIP_MAGIC:
        try:
            body = gunzip(data, where)
        except BadInput as exc:  # damaged, or past the bomb limits
            result.unreadable.append((where, exc.what))
            return None
        kind = "gzip"
    text = body.decode("utf-8", "surrogateescape")
    scan = scan_text(text, fp)
    if scan.edits:  # every other occurrence of what was found, wherever it sits in the file
        scan = scan_text(text, fp, known=known_values(scan))
    if kind == "text" and text.lstrip()[:1] in ("{", "["):
        kind = "json"
    fr = FileResult(where, _agent_of(body, where, place), kind, _session_of(path), len(data), scan.places, scan.blobs)
    result.files.append(fr)
    if not scan.edits or not scrub:
        return None
    pending = _Pending(fr, data, _stamp(path, data))
    pending.new, pending.spans = _rewrite(text, scan.edits)
    if kind == "gzip":  # recompressed; the vault keeps the whole original file, for exact bytes back
        pending.new = recompress(pending.new, data)
        pending.spans = [(0, len(pending.new), data)]
    pending.originals = {p: v for e in scan.edits for p, v in e.originals}
    return pending


def recompress(body: bytes, original: bytes) -> bytes:
    """`body` compressed as gzip with the header time of the `original` gzip file."""
    mtime = int.from_bytes(original[4:8], "little") if len(original) >= 8 else 0
    return gzip.compress(body, compresslevel=6, mtime=mtime)


def text_of(data: bytes, where: str = "") -> str:
    """A file's bytes as the sweep searches them: gunzipped when gzip, as UTF-8 with bad bytes kept."""
    if data[:2] == GZIP_MAGIC:
        data = gunzip(data, where)
    return data.decode("utf-8", "surrogateescape")


def _rewrite(text: str, edits: list[Edit]) -> tuple[bytes, list[tuple[int, int, bytes]]]:
    """The scrubbed bytes, and each changed span's place in them with its original bytes."""
    pieces: list[bytes] = []
    spans: list[tuple[int, int, bytes]] = []
    at = offset = 0
    for edit in sorted(edits, key=lambda e: e.start):
        kept = text[at:edit.start].encode("utf-8", "surrogateescape")
        pieces.append(kept)
        offset += len(kept)
        new = edit.new.encode("utf-8", "surrogateescape")
        spans.append((offset, len(new), text[edit.start:edit.end].encode("utf-8", "surrogateescape")))
        pieces.append(new)
        offset += len(new)
        at = edit.end
    pieces.append(text[at:].encode("utf-8", "surrogateescape"))
    return b"".join(pieces), spans


def _read_store(path: Path, data: bytes, result: SweepResult, fp: Fingerprint, scrub: bool,
                place: str = "unknown") -> _Pending | None:
    from redact.io.store import opened

    where = str(path)
    try:
        with opened(path, where=where) as db:
            agent = _store_agent(db, place)
            scan = scan_db(db, fp)
    except (BadInput, sqlite3.Error) as exc:
        result.unreadable.append((where, exc.diagnostic() if isinstance(exc, BadInput) else "cannot read the store"))
        return None
    fr = FileResult(where, agent, "sqlite", path.name, len(data), scan.places, scan.blobs, scan.credential_rows)
    if scan.skipped_tables:
        fr.note = f"{len(scan.skipped_tables)} table(s) could not be read"
    result.files.append(fr)
    if not scan.cells or not scrub:
        return None
    pending = _Pending(fr, data, _stamp(path))
    pending.cells = [(c.table, c.rowid, c.column, c.old, c.new) for c in scan.cells]
    pending.fts = scan.fts_rebuild
    pending.originals = {p: v for c in scan.cells for e in c.edits for p, v in e.originals}
    return pending


def views(text: str) -> Iterable[str]:
    """`text` as the proof reads it: as it is, its JSON strings decoded, URL-decoded, and every
    base64 run decoded (as UTF-8, bad bytes dropped)."""
    yield text
    if text.lstrip()[:1] in ("{", "["):
        decoded = [decode_literal(literal) for _, _, _, literal in json_strings(text)]
        yield "\n".join(d for d in decoded if d)
    if "%" in text:
        yield unquote(text)
    for m in _BASE64_RUN.finditer(text):
        run = m.group()
        for decode in (base64.b64decode, base64.urlsafe_b64decode):
            try:
                yield decode(run + "=" * (-len(run) % 4)).decode("utf-8", "ignore")
            except (binascii.Error, ValueError):
                continue


def residue(text: str, originals: dict[str, str], fp: Fingerprint) -> list[str]:
    """The fingerprints of `originals` that `text` still holds, decoded or found again."""
    left = {p for p in originals if p in {q.fingerprint for q in scan_text(text, fp).places}}
    values = [(p, v) for p, v in originals.items() if p not in left]
    for view in views(text):
        for p, v in values:
            if p not in left and v in view:
                left.add(p)
    return sorted(left)


def sweep(inputs: Inputs, key: Key, *, ephemeral: bool = False, scrub_to: str | None = None,
          progress: Callable[[str], None] | None = None, in_place: bool = False, jobs: int = 1,
          held: str = "leave") -> SweepResult:
    """Read every file of `inputs`; with `scrub_to` (a new vault path), scrub them too; with
    `in_place`, a log file is overwritten in place rather than replaced (`_replace_file`). A file
    another program holds open (holders.py) is left alone (`held="leave"`), or, with
    `held="in place"` (a hook run by that program), a log file is overwritten in place and a store
    left alone. With `jobs` > 1 the files are read and searched by that many processes
    (`_read_all`); the result is the same as with one, in the same order."""
    started = time.perf_counter()
    fp = fingerprinter(key)
    result = SweepResult(credentials=[str(p) for p in inputs.credentials],
                         key_fingerprint=key.fingerprint(), key_is_ephemeral=ephemeral)
    result.unreadable.extend(inputs.unusable)
    pending: list[_Pending] = []
    places = [inputs.agents.get(str(path), "unknown") for path in inputs.files]
    for read in _read_all(list(inputs.files), places, fp, scrub_to is not None, jobs, progress):
        result.files.extend(read.files)
        result.unreadable.extend(read.unreadable)
        if read.pending is not None:
            pending.append(read.pending)
    if scrub_to is not None:
        _scrub(pending, key, fp, scrub_to, result, in_place, held)
    result.seconds = time.perf_counter() - started
    return result


@dataclass
class _Read:
    """What reading one file added: its result (none when it could not be read), why not, and
    what a scrub would write."""

    files: list[FileResult]
    unreadable: list[tuple[str, str]]
    pending: _Pending | None


def _read_one(path: Path, place: str, fp: Fingerprint, scrub: bool) -> _Read:
    part = SweepResult()
    found = _read_file(path, part, fp, scrub, place)
    return _Read(part.files, part.unreadable, found)


#: the fingerprinter and the scrub flag of the sweep that forked this worker (set in the parent
#: before the pool forks, so the key itself is never pickled or sent)
_WORKER: list[tuple[Fingerprint, bool]] = []


def _read_in_worker(path: Path, place: str) -> _Read:
    fp, scrub = _WORKER[0]
    return _read_one(path, place, fp, scrub)


def _read_all(files: list[Path], places: list[str], fp: Fingerprint, scrub: bool, jobs: int,
              progress: Callable[[str], None] | None) -> Iterator[_Read]:
    """What reading each of `files` added, in their order. With `jobs` > 1 (on Linux, where workers
    fork), a pool of that many processes reads them, the largest first so that one big store does
    not come last; the parent only collects what they return, in the files' order."""
    if jobs <= 1 or len(files) < 2 or not sys.platform.startswith("linux"):
        for path, place in zip(files, places):
            if progress is not None:
                progress(str(path))
            yield _read_one(path, place, fp, scrub)
        return
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor

    from redact.sweep.find import warm_up

    warm_up()  # the secrets layer and its anchors loaded once, shared by the forked workers
    sizes = {}
    for i, path in enumerate(files):
        try:
            sizes[i] = path.stat().st_size
        except OSError:
            sizes[i] = 0
    _WORKER[:] = [(fp, scrub)]
    try:
        with ProcessPoolExecutor(max_workers=min(jobs, len(files)),
                                 mp_context=multiprocessing.get_context("fork")) as pool:
            futures: dict[int, Future[_Read]] = {}
            for i in sorted(sizes, key=lambda j: -sizes[j]):
                futures[i] = pool.submit(_read_in_worker, files[i], places[i])
            for i, path in enumerate(files):
                read = futures[i].result()
                if progress is not None:
                    progress(str(path))
                yield read
    finally:
        _WORKER.clear()


def _scrub(pending: list[_Pending], key: Key, fp: Fingerprint, vault_path: str, result: SweepResult,
           in_place: bool = False, held: str = "leave") -> None:
    from redact.sweep.holders import held_open
    from redact.sweep.vault import FileEntry, write_sweep_vault

    holders = held_open(i.result.path for i in pending if i.result.status != "not scrubbed")
    if holders is None:
        result.caveats.append("this system gives no way to tell which files another program holds open "
                              "(no /proc, no lsof): an agent still running may lose what it writes after the scrub")
        holders = {}
    ready: list[_Pending] = []
    for item in pending:
        fr = item.result
        if fr.status == "not scrubbed":
            result.left_alone.append((fr.path, fr.note))
            continue
        holder = holders.get(fr.path)
        if holder is not None and (held == "leave" or item.cells):
            fr.status, fr.note = "left alone", f"open in another program ({holder}): run the sweep again when it ends"
            result.left_alone.append((fr.path, fr.note))
            continue
        item.in_place = in_place or holder is not None
        if item.cells:
            ready.append(item)
            continue
        left = residue(text_of(item.new, fr.path), item.originals, fp)
        if left:
            fr.status, fr.note = "not scrubbed", f"the scrub could not prove {len(left)} secret(s) gone"
            result.left_alone.append((fr.path, fr.note))
            continue
        ready.append(item)
    if not ready:  # nothing to change: no vault either
        result.proof = "nothing to scrub"
        return
    entries = [FileEntry(i.result.path, i.result.kind, hashlib.sha256(i.original).hexdigest(),
                         hashlib.sha256(i.new).hexdigest() if not i.cells else "",
                         i.spans, [(t, r, c, o) for t, r, c, o, _ in i.cells], i.fts) for i in ready]
    write_sweep_vault(entries, key, vault_path)  # the originals are sealed before any file changes
    result.vault = vault_path
    proved = 0
    for item in ready:
        fr = item.result
        path = Path(fr.path)
        try:
            if _stamp(path, None if item.cells else path.read_bytes()) != item.stamp:
                fr.status, fr.note = "left alone", "changed while the sweep read it (an agent still writing?)"
                result.left_alone.append((fr.path, fr.note))
                continue
            if item.cells:
                _replace_store(path, item, fp)
            else:
                _replace_file(path, item.new, item.stamp if item.in_place else None)
        except _Unproved:
            fr.status, fr.note = "not scrubbed", "the scrub could not prove every secret gone (one sits in a blob?)"
            result.left_alone.append((fr.path, fr.note))
            continue
        except (OSError, sqlite3.Error) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
            fr.status, fr.note = "left alone", f"cannot write ({why})"
            result.left_alone.append((fr.path, fr.note))
            continue
        fr.status = "scrubbed"
        result.scrubbed += 1
        if not _prove_on_disk(path, item, fp):
            fr.note = "written, but the proof found a secret again"
            result.left_alone.append((fr.path, fr.note))
        else:
            proved += 1
    result.proof = (f"{proved} of {result.scrubbed} scrubbed file(s) read back and searched again: "
                    f"none of the fingerprints found remains, decoded")


def _replace_file(path: Path, data: bytes, in_place: tuple[int, int, str] | None = None) -> None:
    """`data` in place of the file at `path`: written beside it and renamed over it; or, with
    `in_place` (the file's stamp when read), written into the same file, so a program that keeps
    it open for appending (Codex and its live rollout) goes on appending to it. In place, the file
    is checked once more, under the open handle, just before it is overwritten."""
    from redact.io.write import write_atomic

    if in_place is None:
        write_atomic(path, data, mode=stat.S_IMODE(path.stat().st_mode))
        return
    with path.open("r+b") as fh:
        current = fh.read()
        if (len(current), hashlib.sha256(current).hexdigest()) != (in_place[0], in_place[2]):
            raise OSError(0, "changed while being scrubbed")
        fh.seek(0)
        fh.write(data)
        fh.truncate()
        fh.flush()
        os.fsync(fh.fileno())


class _Unproved(Exception):
    """The scrubbed copy of a store still holds a value found: it does not replace the store."""


def _replace_store(path: Path, item: _Pending, fp: Fingerprint) -> None:
    import shutil

    wal = journal_is_wal(path)
    fresh = write_cells(path, [(t, r, c, n) for t, r, c, _, n in item.cells], item.fts, wal)
    try:
        if not _prove_on_disk(fresh, item, fp):
            raise _Unproved
        if _stamp(path) != item.stamp:
            raise OSError(0, "changed while being scrubbed")
        os.chmod(fresh, stat.S_IMODE(path.stat().st_mode))
        os.replace(fresh, path)
        for suffix in ("-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
    finally:
        shutil.rmtree(fresh.parent, ignore_errors=True)


def _prove_on_disk(path: Path, item: _Pending, fp: Fingerprint) -> bool:
    if not item.cells:
        try:
            return not residue(text_of(path.read_bytes(), str(path)), item.originals, fp)
        except BadInput:
            return False
    from redact.io.store import opened

    with opened(path) as db:
        scan = scan_db(db, fp)
        if {p.fingerprint for p in scan.places} & set(item.originals):
            return False
        texts = []
        for table, rowid, column, *_ in item.cells:
            row = db.execute(f"SELECT {quote_name(column)} FROM {quote_name(table)} WHERE rowid = ?", (rowid,)).fetchone()
            value = row[0] if row else None
            text = cell_text(value)
            texts.append(text if text is not None else value.decode("utf-8", "replace")
                         if isinstance(value, bytes) else str(value))
    raw = path.read_bytes().decode("utf-8", "ignore")  # the file's pages: no freed page holds one
    return not any(residue(t, item.originals, fp) for t in texts) and not any(
        v in raw for v in item.originals.values())
