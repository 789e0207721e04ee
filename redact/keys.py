"""Key material: the only module that holds a key or computes HMAC/HKDF.

Byte-level choices (pinned by test vectors in docs/paths.md and tests/test_keys.py):
- A key file holds the key as hex text (ASCII whitespace around it is ignored); any other content is
  refused. The decoded bytes are the key. Keys under 16 bytes are refused.
- Path segments: HMAC-SHA256(key, UTF-8 segment) as lowercase hex, first 10 characters (the seed's
  `hashed` mode, so a map's tokens match any producer that uses the same key).
- Identifiers: a subkey per category, HKDF-SHA256(key, salt=None, info="agentplay-redact/v1/ident/"
  + category, length 32); the token is "h:" + HMAC-SHA256(subkey, UTF-8 value) hex, first 12 chars.
  The same string in two categories gives unlinked tokens.
- Fingerprint: HMAC-SHA256(key, "agentplay-redact/v1/fingerprint") hex, first 16 characters.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from redact.errors import KeyError_

MIN_KEY_BYTES = 16
KEY_BYTES = 32
ENV_KEY = "AGENTPLAY_REDACT_KEY"
ENV_KEY_FILE = "AGENTPLAY_REDACT_KEY_FILE"
_FINGERPRINT_LABEL = b"agentplay-redact/v1/fingerprint"
_IDENT_INFO = "agentplay-redact/v1/ident/"
PATH_TOKEN_HEX = 10
IDENT_TOKEN_HEX = 12


class Key:
    """A redaction key. Its bytes never leave this module in any printable form."""

    __slots__ = ("_bytes", "_subkeys", "_seg_cache", "_ident_cache", "source")

    def __init__(self, material: bytes, *, source: str) -> None:
        if len(material) < MIN_KEY_BYTES:
            raise KeyError_(f"key is {len(material)} bytes; at least {MIN_KEY_BYTES} are required",
                            where=source)
        self._bytes = bytes(material)
        self._subkeys: dict[str, bytes] = {}
        self._seg_cache: dict[str, str] = {}
        self._ident_cache: dict[tuple[str, str], str] = {}
        self.source = source

    def __repr__(self) -> str:
        return f"Key(fingerprint={self.fingerprint()})"

    __str__ = __repr__

    def __reduce__(self) -> object:  # never pickled into a worker's log by accident
        raise TypeError("a Key cannot be pickled")

    def fingerprint(self) -> str:
        return hmac.new(self._bytes, _FINGERPRINT_LABEL, hashlib.sha256).hexdigest()[:16]

    def segment_token(self, segment: str) -> str:
        """The `hashed` path-mode token of one path segment."""
        token = self._seg_cache.get(segment)
        if token is None:
            digest = hmac.new(self._bytes, segment.encode("utf-8", "surrogatepass"), hashlib.sha256)
            token = digest.hexdigest()[:PATH_TOKEN_HEX]
            self._seg_cache[segment] = token
        return token

    def _subkey(self, category: str) -> bytes:
        sub = self._subkeys.get(category)
        if sub is None:
            hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
                        info=(_IDENT_INFO + category).encode("ascii"))
            sub = hkdf.derive(self._bytes)
            self._subkeys[category] = sub
        return sub

    def ident_digest(self, category: str, value: str, length: int = IDENT_TOKEN_HEX) -> str:
        """Hex prefix of the keyed hash of `value` under the category's subkey."""
        cached = self._ident_cache.get((category, value))
        if cached is None:
            mac = hmac.new(self._subkey(category), value.encode("utf-8", "surrogatepass"), hashlib.sha256)
            cached = mac.hexdigest()
            self._ident_cache[(category, value)] = cached
        return cached[:length]

    def ident_token(self, category: str, value: str) -> str:
        return "h:" + self.ident_digest(category, value)


def parse_key_text(data: bytes, *, source: str) -> Key:
    text = data.strip(b" \t\r\n")
    try:
        material = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise KeyError_("key is not hex text (make one with `agentplay-redact keygen PATH`)",
                        where=source) from None
    return Key(material, source=source)


def load_key_file(path: Path, *, allow_unsafe_permissions: bool = False) -> Key:
    where = str(path)
    try:
        st = path.stat()
    except FileNotFoundError:
        raise KeyError_("key file not found", where=where) from None
    except OSError as exc:
        raise KeyError_(f"cannot read key file ({exc.strerror})", where=where) from None
    if not stat.S_ISREG(st.st_mode):
        raise KeyError_("key path is not a regular file", where=where)
    if st.st_mode & 0o077 and not allow_unsafe_permissions:
        raise KeyError_(
            f"key file is readable by group or others (mode {stat.S_IMODE(st.st_mode):04o}); "
            "run `chmod 600` on it, or pass --unsafe-key-permissions",
            where=where,
        )
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise KeyError_(f"cannot read key file ({exc.strerror})", where=where) from None
    return parse_key_text(data, source=where)


def key_from_env(environ: dict[str, str] | None = None, *,
                 allow_unsafe_permissions: bool = False) -> Key | None:
    env = os.environ if environ is None else environ
    if env.get(ENV_KEY):
        return parse_key_text(env[ENV_KEY].encode("utf-8", "replace"), source=f"${ENV_KEY}")
    if env.get(ENV_KEY_FILE):
        return load_key_file(Path(env[ENV_KEY_FILE]), allow_unsafe_permissions=allow_unsafe_permissions)
    return None


def keygen(path: Path) -> str:
    """Write a new 32-byte key as hex with mode 0600; refuse to overwrite. Returns the fingerprint."""
    material = secrets.token_bytes(KEY_BYTES)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise KeyError_("refusing to overwrite an existing file", where=str(path)) from None
    except OSError as exc:
        raise KeyError_(f"cannot create key file ({exc.strerror})", where=str(path)) from None
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(material.hex() + "\n")
    os.chmod(path, 0o600)
    return Key(material, source=str(path)).fingerprint()


def sha256_hex(data: bytes) -> str:
    """Unkeyed SHA-256, for dirs_only names and content hashes (no key material involved)."""
    return hashlib.sha256(data).hexdigest()
