"""The local reveal vault: token -> original, encrypted under the user's key, never written by default.

    log = TokenLog()                                   # redact/keys/recorder.py
    ... redact with recorder=log ...
    write_vault(log, key, "session.vault", content_hash=result.report.content_hash)
    vault = read_vault("session.vault", key)           # BadInput on a wrong key or a changed byte

File layout (version 1; docs/receipts.md):

    offset  size  what
    0       8     magic b"APRVAULT"
    8       1     format version, 0x01
    9       16    the key's fingerprint, ASCII lowercase hex (which key opens it)
    25      16    HKDF salt (random)
    41      12    AES-GCM nonce (random)
    53      n+16  AES-256-GCM ciphertext and tag

The first 25 bytes are the associated data, so the header is authenticated too. The plaintext is the
canonical JSON of `{"format", "keyFingerprint", "contentHash", "entries": {kind: {token: original}}}`.
The encryption itself lives in redact/keys/material.py, the only module that touches key bytes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from redact.model.canonical import canonical_json
from redact.errors import BadInput, UsageError
from redact.io.write import check_output_path, write_atomic
from redact.keys.material import Key, vault_open, vault_seal
from redact.keys.recorder import TokenLog

MAGIC = b"APRVAULT"
VERSION = 1
FORMAT = "agentplay-redact/vault/v1"
_HEADER = len(MAGIC) + 1 + 16
MAX_VAULT_BYTES = 1 << 30
KINDS_FIXED = ("segment", "fallback", "id", "program")


@dataclass
class Vault:
    """An opened vault. Holds the originals: show them only to their owner, locally."""

    key_fingerprint: str
    content_hash: str | None
    entries: dict[str, dict[str, str]] = field(default_factory=dict)

    def lookup(self, kind: str, token: str) -> str | None:
        return self.entries.get(kind, {}).get(token)

    def __len__(self) -> int:
        return sum(len(v) for v in self.entries.values())

    def __repr__(self) -> str:
        return f"Vault({len(self)} tokens, key {self.key_fingerprint})"


def _header(fingerprint: str) -> bytes:
    return MAGIC + bytes([VERSION]) + fingerprint.encode("ascii")


def _valid_kind(kind: str) -> bool:
    return kind in KINDS_FIXED or kind.startswith("ident:")


def vault_bytes(recorder: TokenLog, key: Key, *, content_hash: str | None = None) -> bytes:
    """The encrypted vault for what `recorder` collected (a new salt and nonce every call)."""
    body = {
        "format": FORMAT,
        "keyFingerprint": key.fingerprint(),
        "contentHash": content_hash,
        "entries": {kind: dict(sorted(tokens.items())) for kind, tokens in sorted(recorder.entries.items())},
    }
    header = _header(key.fingerprint())
    return header + vault_seal(key, canonical_json(body), header)


def write_vault(recorder: TokenLog, key: Key, path: str | Path, *, content_hash: str | None = None) -> int:
    """Encrypt `recorder`'s tokens under `key` into `path` (mode 0600, atomic). Returns the token count.

    Overwrites only an earlier vault: any other existing file is refused (UsageError), so a typo in
    `--vault` cannot destroy a file.
    """
    check_vault_path(path)
    write_atomic(path, vault_bytes(recorder, key, content_hash=content_hash), private=True)
    return len(recorder)


def check_vault_path(path: str | Path, inputs: list[str | Path] | None = None) -> None:
    """UsageError unless `path` may take a vault: a new name or an earlier vault, a regular file
    (the writer's guards), not one of `inputs`. Run it before writing anything else."""
    target = Path(path)
    check_output_path(target, inputs or [], private=True)  # first: a pipe would block the read below
    if target.exists():
        try:
            with target.open("rb") as fh:
                is_vault = fh.read(len(MAGIC)) == MAGIC
        except OSError:
            is_vault = False
        if not is_vault:
            raise UsageError("refusing to overwrite a file that is not a vault", where=str(path))


def open_vault(data: bytes, key: Key, *, where: str = "<vault>") -> Vault:
    """Decrypt and check vault bytes. BadInput (one line, no value) on anything but a good vault."""
    if data[: len(MAGIC)] != MAGIC or len(data) < _HEADER:
        raise BadInput("not an agentplay-redact vault", where=where)
    if data[len(MAGIC)] != VERSION:
        raise BadInput(f"vault format version {data[len(MAGIC)]} is not supported (only {VERSION})",
                       where=where)
    header = data[:_HEADER]
    plain = vault_open(key, data[_HEADER:], header)
    if plain is None:
        stated = header[len(MAGIC) + 1:].decode("ascii", "replace")
        if stated != key.fingerprint():
            raise BadInput(f"cannot open the vault: it names key {_hex16(stated)} and this key is "
                           f"{key.fingerprint()} (wrong key, or the vault was changed)", where=where)
        raise BadInput("cannot open the vault: wrong key, or the vault was changed "
                       "(authentication failed)", where=where)
    try:
        body = orjson.loads(plain)
    except orjson.JSONDecodeError:  # authenticated, so only a producer bug gets here
        raise BadInput("the vault's content is not valid", where=where) from None
    return _vault_of(body, where)


def _hex16(text: str) -> str:
    return text if len(text) == 16 and all(c in "0123456789abcdef" for c in text) else "(unreadable)"


def _vault_of(body: Any, where: str) -> Vault:
    ok = isinstance(body, dict) and body.get("format") == FORMAT and isinstance(body.get("entries"), dict)
    entries: dict[str, dict[str, str]] = {}
    if ok:
        for kind, tokens in body["entries"].items():
            if not (isinstance(kind, str) and _valid_kind(kind) and isinstance(tokens, dict)
                    and all(isinstance(t, str) and isinstance(o, str) for t, o in tokens.items())):
                ok = False
                break
            entries[kind] = dict(tokens)
    if not ok:
        raise BadInput("the vault's content is not valid", where=where)
    content_hash = body.get("contentHash")
    return Vault(str(body.get("keyFingerprint", "")),
                 content_hash if isinstance(content_hash, str) else None, entries)


def read_vault(path: str | Path, key: Key) -> Vault:
    """Open the vault at `path` with `key`; BadInput on a wrong key, a changed byte or a non-vault."""
    where = str(path)
    try:
        with Path(path).open("rb") as fh:
            data = fh.read(MAX_VAULT_BYTES + 1)
    except FileNotFoundError:
        raise BadInput("no such vault file", where=where) from None
    except IsADirectoryError:
        raise BadInput("is a directory", where=where) from None
    except OSError as exc:
        raise BadInput(f"cannot read the vault ({exc.strerror})", where=where) from None
    if len(data) > MAX_VAULT_BYTES:
        raise BadInput("the vault is larger than any this tool writes", where=where)
    return open_vault(data, key, where=where)
