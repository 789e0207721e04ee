"""The sweep's vault: the original bytes of every span a scrub changed, sealed under the user's key.

The same construction as the reveal vault (redact/keys/vault.py, docs/receipts.md): AES-256-GCM under an
HKDF subkey of the key with a random salt and nonce (redact/keys/material.py `vault_seal`), the header as
associated data. Its own magic, so neither kind of vault is taken for the other:

    offset  size  what
    0       8     magic b"APRSWEEP"
    8       1     format version, 0x01
    9       16    the key's fingerprint, ASCII lowercase hex
    25      ...   sealed canonical JSON {"format", "files": [...]}

A file entry holds the path, the digests of the file before and after the scrub, and each changed
span as (offset in the scrubbed file, its length, the original bytes in base64); a store entry the
original value of each changed cell. `restore` puts back the original bytes of a file exactly, and
only into the file the scrub wrote (its digest must match); a store gets its cells back.
"""
from __future__ import annotations

import base64
import hashlib
import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from redact.model.canonical import canonical_json
from redact.errors import BadInput
from redact.io.write import write_atomic
from redact.keys.material import Key, vault_open, vault_seal

MAGIC = b"APRSWEEP"
VERSION = 1
FORMAT = "agentplay-redact/sweep-vault/v1"
_HEADER = len(MAGIC) + 1 + 16


@dataclass
class FileEntry:
    path: str
    kind: str
    original_sha256: str
    scrubbed_sha256: str
    spans: list[tuple[int, int, bytes]]
    cells: list[tuple[str, int, str, Any]]
    fts: list[str]


def _cell_json(value: Any) -> list[Any]:
    if isinstance(value, bytes):
        return ["blob", base64.b64encode(value).decode("ascii")]
    return ["text", value]


def _cell_value(pair: list[Any]) -> Any:
    kind, value = pair
    return base64.b64decode(value) if kind == "blob" else value


def write_sweep_vault(entries: list[FileEntry], key: Key, path: str | Path) -> None:
    """Seal `entries` into a new file at `path` (mode 0600; an existing file is refused)."""
    body = {"format": FORMAT, "keyFingerprint": key.fingerprint(), "files": [
        {"path": os.path.abspath(e.path), "kind": e.kind, "originalSha256": e.original_sha256,
         "scrubbedSha256": e.scrubbed_sha256,
         "spans": [[o, n, base64.b64encode(b).decode("ascii")] for o, n, b in e.spans],
         "cells": [[t, r, c, _cell_json(v)] for t, r, c, v in e.cells], "fts": e.fts}
        for e in entries]}
    header = MAGIC + bytes([VERSION]) + key.fingerprint().encode("ascii")
    write_atomic(path, header + vault_seal(key, canonical_json(body), header), private=True, exclusive=True)


def read_sweep_vault(path: str | Path, key: Key) -> list[dict[str, Any]]:
    where = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise BadInput(f"cannot read the vault ({exc.strerror or type(exc).__name__})", where=where) from None
    if data[: len(MAGIC)] != MAGIC or len(data) < _HEADER or data[len(MAGIC)] != VERSION:
        raise BadInput("not a sweep vault", where=where)
    plain = vault_open(key, data[_HEADER:], data[:_HEADER])
    if plain is None:
        raise BadInput("cannot open the vault: wrong key, or the vault was changed", where=where)
    body = orjson.loads(plain)
    if not isinstance(body, dict) or body.get("format") != FORMAT or not isinstance(body.get("files"), list):
        raise BadInput("the vault's content is not valid", where=where)
    return list(body["files"])


def restored_bytes(current: bytes, spans: list[list[Any]]) -> bytes:
    """`current` (a scrubbed file) with each span put back, last first."""
    out = current
    for offset, length, original in sorted(spans, key=lambda s: int(s[0]), reverse=True):
        out = out[:offset] + base64.b64decode(original) + out[offset + length:]
    return out


def restore(path: str | Path, key: Key) -> list[tuple[str, str]]:
    """Put back what the vault at `path` holds; (file, what happened) for each of its files."""
    from redact.sweep.store import journal_is_wal, write_cells

    done: list[tuple[str, str]] = []
    for entry in read_sweep_vault(path, key):
        target = Path(entry["path"])
        try:
            if entry["kind"] == "sqlite":
                wal = journal_is_wal(target)
                cells = [(t, r, c, _cell_value(v)) for t, r, c, v in entry["cells"]]
                fresh = write_cells(target, cells, list(entry.get("fts", [])), wal)
                try:
                    os.chmod(fresh, stat.S_IMODE(target.stat().st_mode))
                    os.replace(fresh, target)
                    for suffix in ("-wal", "-shm"):
                        Path(str(target) + suffix).unlink(missing_ok=True)
                finally:
                    shutil.rmtree(fresh.parent, ignore_errors=True)
                done.append((str(target), f"restored {len(cells)} cell(s)"))
                continue
            current = target.read_bytes()
            digest = hashlib.sha256(current).hexdigest()
            if digest == entry["originalSha256"]:
                done.append((str(target), "already the original"))
                continue
            if digest != entry["scrubbedSha256"]:
                done.append((str(target), "left alone: changed since the scrub"))
                continue
            original = restored_bytes(current, entry["spans"])
            if hashlib.sha256(original).hexdigest() != entry["originalSha256"]:
                done.append((str(target), "left alone: the restored bytes do not match the original"))
                continue
            write_atomic(target, original, mode=stat.S_IMODE(target.stat().st_mode))
            done.append((str(target), "restored"))
        except OSError as exc:
            done.append((str(target), f"left alone: {exc.strerror or type(exc).__name__}"))
    return done
