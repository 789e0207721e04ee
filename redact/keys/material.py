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
- Link scope (docs/threat-model.md): every token above is made with the scope's key. `global` is the
  key itself (today's tokens, byte for byte). `dataset:NAME`: HKDF-SHA256(key, salt=None,
  info="agentplay-redact/v1/link-scope/dataset:" + NAME, length 32). `session`: HKDF-SHA256(key,
  salt=SHA-256 of the input's bytes (gunzipped), info="agentplay-redact/v1/link-scope/session",
  length 32). A scoped key keeps the root key's fingerprint (which key made a map) and the vault is
  sealed under the root key, so `reveal` needs only the key file.
- Reveal vault (docs/receipts.md): AES-256-GCM under HKDF-SHA256(key, salt=16 random bytes stored in
  the vault, info="agentplay-redact/v1/vault", length 32), a 12-byte random nonce, the vault's header
  as associated data. The vault's own label keeps its key unrelated to every token's.
- Source digest (issue 27): "hmac-sha256:" + HMAC-SHA256(subkey, the raw log's bytes, gunzipped) hex,
  the subkey HKDF-SHA256(root key, salt=None, info="agentplay-redact/v1/source-digest", length 32).
  The root key, not a link scope's: `scan --source` needs only the key file. Keyed, so a reader of
  the map cannot confirm a guessed log by hashing it (an unkeyed SHA-256 would let them).
- Receipt signing keys are Ed25519, a separate key pair (PEM: PKCS#8 private, SubjectPublicKeyInfo
  public). A public key's id is SHA-256 of its 32 raw bytes, hex, first 16 characters.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

if TYPE_CHECKING:  # the vault and receipt signing import them when used: a map needs only HKDF
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from redact.errors import KeyError_, UsageError
from redact.io.private import read_private_file

MIN_KEY_BYTES = 16
KEY_BYTES = 32
ENV_KEY = "AGENTPLAY_REDACT_KEY"
ENV_KEY_FILE = "AGENTPLAY_REDACT_KEY_FILE"
_FINGERPRINT_LABEL = b"agentplay-redact/v1/fingerprint"
_IDENT_INFO = "agentplay-redact/v1/ident/"
_SCOPE_INFO = "agentplay-redact/v1/link-scope/"
_SOURCE_INFO = b"agentplay-redact/v1/source-digest"
SOURCE_DIGEST_PREFIX = "hmac-sha256:"
PATH_TOKEN_HEX = 10
IDENT_TOKEN_HEX = 12


class Key:
    """A redaction key. Its bytes never leave this module in any printable form."""

    __slots__ = ("_bytes", "_root", "_subkeys", "_seg_cache", "_ident_cache", "_datasets", "source",
                 "link_scope", "origin")

    def __init__(self, material: bytes, *, source: str) -> None:
        if len(material) < MIN_KEY_BYTES:
            raise KeyError_(f"key is {len(material)} bytes; at least {MIN_KEY_BYTES} are required",
                            where=source)
        self._bytes = bytes(material)
        self._root = self._bytes  # the key file's key: fingerprint and vault; tokens use _bytes
        self._subkeys: dict[str, bytes] = {}
        self._seg_cache: dict[str, str] = {}
        self._ident_cache: dict[tuple[str, str], str] = {}
        self._datasets: dict[str, Key] = {}  # one dataset's key serves every input of a batch
        self.source = source
        self.link_scope = "global"
        # where the key came from, as the report says it (never its value): the CLI sets `--key-file`,
        # `$AGENTPLAY_REDACT_KEY`, `$AGENTPLAY_REDACT_KEY_FILE` or the default file's path with `~`
        self.origin = "the caller"

    def __repr__(self) -> str:
        return f"Key(fingerprint={self.fingerprint()}, linkScope={self.link_scope})"

    __str__ = __repr__

    def __reduce__(self) -> str:  # never pickled into a worker's log by accident
        raise TypeError("a Key cannot be pickled")

    def fingerprint(self) -> str:
        """Which key file made a map: the same for every link scope of one key."""
        return hmac.new(self._root, _FINGERPRINT_LABEL, hashlib.sha256).hexdigest()[:16]

    def scoped(self, scope: str, session_digest: bytes | None = None) -> "Key":
        """The key whose tokens link only within `scope` (see the module's notes); `global` is this
        key itself. `session` needs `session_digest`: SHA-256 of the input's bytes (32 bytes)."""
        if self._root is not self._bytes:
            raise ValueError("a scoped key is not scoped again")
        if scope == "global":
            return self
        cached = self._datasets.get(scope)
        if cached is not None:
            return cached
        if scope == "session":
            if session_digest is None or len(session_digest) != 32:
                raise ValueError("the session scope needs the input's SHA-256 digest")
            salt: bytes | None = session_digest
        elif scope.startswith("dataset:") and len(scope) > len("dataset:"):
            salt = None
        else:
            raise ValueError("link scope must be global, session or dataset:NAME")
        hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=salt,
                    info=(_SCOPE_INFO + scope).encode("ascii"))
        out = Key(hkdf.derive(self._bytes), source=self.source)
        out._root = self._root
        out.link_scope = scope
        out.origin = self.origin
        if scope != "session" and len(self._datasets) < 64:
            self._datasets[scope] = out
        return out

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

    def program_digest(self, program: str) -> str:
        """The keyed token of a program outside the verb vocabulary under hashed mode
        (`<script:...>`): the one program hasher the map builder, the map walker and the native
        scrubber share."""
        return self.ident_digest("program", program, 10)

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

    def source_digest(self, source: bytes | Path) -> str:
        """The keyed digest of a raw log (its gunzipped bytes, or an uncompressed file read a chunk at
        a time) that a map made from it carries as `sourceDigest`: the same for every link scope."""
        sub = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_SOURCE_INFO).derive(self._root)
        mac = hmac.new(sub, digestmod=hashlib.sha256)
        if isinstance(source, bytes):
            mac.update(source)
        else:
            with Path(source).open("rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    mac.update(chunk)
        return SOURCE_DIGEST_PREFIX + mac.hexdigest()

    def chain_hmac(self, data: bytes) -> str:
        """HMAC-SHA256(key, data), full lowercase hex: a teaagent audit log's `chain_hmac`, when this
        Key is the log's chain key (given by the user for `--to native`; never the redaction key)."""
        return hmac.new(self._bytes, data, hashlib.sha256).hexdigest()


def parse_key_text(data: bytes, *, source: str) -> Key:
    text = data.strip(b" \t\r\n")
    try:
        material = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise KeyError_("key is not hex text (make one with `agentplay-redact keygen PATH`)",
                        where=source) from None
    return Key(material, source=source)


def load_key_file(path: Path, *, allow_unsafe_permissions: bool = False) -> Key:
    data = read_private_file(path, "key", allow_unsafe_permissions=allow_unsafe_permissions)
    return parse_key_text(data, source=str(path))


def key_from_env(environ: dict[str, str] | None = None, *,
                 allow_unsafe_permissions: bool = False) -> Key | None:
    env = os.environ if environ is None else environ
    if env.get(ENV_KEY):
        key = parse_key_text(env[ENV_KEY].encode("utf-8", "replace"), source=f"${ENV_KEY}")
        key.origin = f"${ENV_KEY}"
        return key
    if env.get(ENV_KEY_FILE):
        key = load_key_file(Path(env[ENV_KEY_FILE]), allow_unsafe_permissions=allow_unsafe_permissions)
        key.origin = f"${ENV_KEY_FILE}"
        return key
    return None


def keygen(path: Path) -> str:
    """Write a new 32-byte key as hex with mode 0600; refuse to overwrite. Returns the fingerprint.

    Missing folders are made with mode 0700 (`~/.config/agentplay/` on a fresh machine), so the
    key's folder passes the permission check that loading the key makes."""
    material = secrets.token_bytes(KEY_BYTES)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise KeyError_(f"cannot create the key's folder ({exc.strerror})", where=str(path.parent)) from None
    _create_exclusive(path, (material.hex() + "\n").encode("ascii"), 0o600)
    return Key(material, source=str(path)).fingerprint()


def _create_exclusive(path: Path, data: bytes, mode: int) -> None:
    """A new key file through the one writer (redact/io/write.py): never over an existing file."""
    from redact.io.write import write_atomic

    try:
        write_atomic(path, data, mode=mode, private=mode == 0o600, exclusive=True)
    except UsageError as exc:
        raise KeyError_(exc.what, where=exc.where) from None


def sha256_hex(data: bytes) -> str:
    """Unkeyed SHA-256, for dirs_only names and content hashes (no key material involved)."""
    return hashlib.sha256(data).hexdigest()


# ---- the reveal vault: AES-256-GCM under a key derived with the vault's own label -------------------

VAULT_INFO = b"agentplay-redact/v1/vault"
VAULT_SALT_BYTES = 16
VAULT_NONCE_BYTES = 12


def _vault_key(key: Key, salt: bytes) -> AESGCM:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=VAULT_INFO)
    return AESGCM(hkdf.derive(key._root))


def vault_seal(key: Key, plaintext: bytes, associated: bytes) -> bytes:
    """salt (16) || nonce (12) || AES-GCM ciphertext with its 16-byte tag; `associated` is authenticated."""
    salt = secrets.token_bytes(VAULT_SALT_BYTES)
    nonce = secrets.token_bytes(VAULT_NONCE_BYTES)
    return salt + nonce + _vault_key(key, salt).encrypt(nonce, plaintext, associated)


def vault_open(key: Key, sealed: bytes, associated: bytes) -> bytes | None:
    """The plaintext of `vault_seal`'s output, or None when the key is wrong or a byte was changed."""
    head = VAULT_SALT_BYTES + VAULT_NONCE_BYTES
    if len(sealed) < head + 16:
        return None
    from cryptography.exceptions import InvalidTag

    salt, nonce = sealed[:VAULT_SALT_BYTES], sealed[VAULT_SALT_BYTES:head]
    try:
        return _vault_key(key, salt).decrypt(nonce, sealed[head:], associated)
    except InvalidTag:
        return None


# ---- receipt signing: Ed25519 ------------------------------------------------------------------------

SIGNATURE_ALG = "Ed25519"


class VerifyKey:
    """An Ed25519 public key that checks receipt signatures."""

    __slots__ = ("_key", "raw", "source")

    def __init__(self, key: Ed25519PublicKey, *, source: str) -> None:
        from cryptography.hazmat.primitives import serialization

        self._key = key
        self.raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.source = source

    @property
    def key_id(self) -> str:
        return hashlib.sha256(self.raw).hexdigest()[:16]

    def __repr__(self) -> str:
        return f"VerifyKey(keyId={self.key_id})"

    def verify(self, message: bytes, signature: bytes) -> bool:
        from cryptography.exceptions import InvalidSignature

        try:
            self._key.verify(signature, message)
        except InvalidSignature:
            return False
        return True

    def pem(self) -> bytes:
        from cryptography.hazmat.primitives import serialization

        return self._key.public_bytes(serialization.Encoding.PEM,
                                      serialization.PublicFormat.SubjectPublicKeyInfo)


class SigningKey:
    """An Ed25519 private key for receipts. Never printed, never pickled."""

    __slots__ = ("_key", "source")

    def __init__(self, key: Ed25519PrivateKey, *, source: str) -> None:
        self._key = key
        self.source = source

    def __repr__(self) -> str:
        return f"SigningKey(keyId={self.verify_key().key_id})"

    __str__ = __repr__

    def __reduce__(self) -> NoReturn:
        raise TypeError("a SigningKey cannot be pickled")

    def verify_key(self) -> VerifyKey:
        return VerifyKey(self._key.public_key(), source=self.source)

    def sign(self, message: bytes) -> bytes:
        return self._key.sign(message)


def signing_keygen(private_path: Path, public_path: Path) -> str:
    """A new Ed25519 key pair: PKCS#8 PEM with mode 0600, and the public key's PEM (0644).

    Refuses to overwrite either file (nothing is written then). Returns the public key's id.
    """
    for path in (private_path, public_path):
        if path.exists() or path.is_symlink():
            raise KeyError_("refusing to overwrite an existing file", where=str(path))
    try:  # as keygen: a missing folder is made private, so loading the key passes its check
        private_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise KeyError_(f"cannot create the key's folder ({exc.strerror})", where=str(private_path.parent)) from None
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    private_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
    _create_exclusive(private_path, private_pem, 0o600)
    public = VerifyKey(key.public_key(), source=str(public_path))
    try:
        _create_exclusive(public_path, public.pem(), 0o644)
    except KeyError_:
        private_path.unlink()
        raise
    return public.key_id


def load_signing_key(path: Path, *, allow_unsafe_permissions: bool = False) -> SigningKey:
    """An Ed25519 private key from a PEM (PKCS#8, unencrypted) file that only its owner can read."""
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    data = read_private_file(path, "signing key", allow_unsafe_permissions=allow_unsafe_permissions)
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except TypeError:
        raise KeyError_("the signing key is encrypted; give an unencrypted PKCS#8 PEM key",
                        where=str(path)) from None
    except (ValueError, UnsupportedAlgorithm):
        raise KeyError_("not a PEM private key (make one with `agentplay-redact receipt keygen`)",
                        where=str(path)) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyError_("the signing key is not an Ed25519 key", where=str(path))
    return SigningKey(key, source=str(path))


def parse_verify_key(data: bytes, *, source: str) -> VerifyKey:
    """An Ed25519 public key from PEM (SubjectPublicKeyInfo) or the hex of its 32 raw bytes."""
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    text = data.strip()
    if len(text) == 64:
        try:
            return VerifyKey(Ed25519PublicKey.from_public_bytes(bytes.fromhex(text.decode("ascii"))),
                             source=source)
        except (UnicodeDecodeError, ValueError):
            pass
    try:
        key = serialization.load_pem_public_key(text)
    except (ValueError, UnsupportedAlgorithm):
        raise KeyError_("not a PEM public key or 64 hex characters", where=source) from None
    if not isinstance(key, Ed25519PublicKey):
        raise KeyError_("the public key is not an Ed25519 key", where=source)
    return VerifyKey(key, source=source)


def load_verify_key(path: Path) -> VerifyKey:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise KeyError_("public key file not found", where=str(path)) from None
    except OSError as exc:
        raise KeyError_(f"cannot read public key file ({exc.strerror})", where=str(path)) from None
    return parse_verify_key(data, source=str(path))
