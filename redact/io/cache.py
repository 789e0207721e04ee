"""A disk cache of tables compiled from what ships with the tool, so a fresh process skips building them.

Building some tables costs more than the run that needs them: the map's field table is derived from
the pydantic models (building those classes is about a quarter of a second), the secrets layer's
second opinion reads detect-secrets' plugin classes (importing that package imports `requests`).
Their result is plain JSON data, written here once and read by later processes.

What may be cached: only tables computed from the tool's own source files and the libraries it
ships with, never anything of a run's input (no value of a session, no path, no key: the callers
pass a builder that takes no argument). Each entry is keyed by the tool's version and a digest of
the source files that produce it, so an entry of other code is never read.

Where: `$XDG_CACHE_HOME/agentplay-redact/<version>/` (else `~/.cache/...`); `AGENTPLAY_REDACT_NO_CACHE=1`
disables it. An entry is written atomically (a temporary file in the folder, then a rename) and
never trusted: it holds the SHA-256 of its payload, and one that does not match, does not parse, or
that the caller's decoder rejects is built again and rewritten. Any failure to read or write the
cache (a read-only home, a full disk) is the same as a miss; the cache is never required.
"""
from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Sequence
from contextlib import suppress
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import orjson

ENV_DISABLE = "AGENTPLAY_REDACT_NO_CACHE"
_FORMAT = b"agentplay-redact cache 1"
T = TypeVar("T")


@cache
def _version() -> str:
    from redact.io.version import installed_version

    return installed_version() or "unknown"  # a source checkout run without installing


def cache_dir() -> Path | None:
    """This version's cache folder, or None when the cache is disabled."""
    if os.environ.get(ENV_DISABLE, "") not in ("", "0"):
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "agentplay-redact" / _version()


def source_digest(files: Sequence[Path | str]) -> str:
    """A digest of the bytes of `files` (the source files a table is computed from)."""
    h = hashlib.sha256(_FORMAT)
    for name in files:
        data = Path(name).read_bytes()
        h.update(b"%d\0" % len(data))
        h.update(data)
    return h.hexdigest()[:24]


def _read(path: Path) -> Any:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb") as f:
            fd = -1
            raw = f.read()
    except OSError:
        return None
    finally:
        if fd >= 0:
            os.close(fd)
    head, _, payload = raw.partition(b"\n")
    if head != hashlib.sha256(payload).hexdigest().encode():
        return None
    try:
        return orjson.loads(payload)
    except orjson.JSONDecodeError:
        return None


def _write(folder: Path, name: str, digest: str, payload: bytes) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        for old in folder.glob(f"{name}-*.json"):  # entries of other source: never read again
            if old.name != f"{name}-{digest}.json":
                old.unlink(missing_ok=True)
        import tempfile  # a write is a first run's only: a hit needs none of it

        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
            os.replace(tmp, folder / f"{name}-{digest}.json")
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return  # a cache that cannot be written is a cache miss next time too


def cached(name: str, sources: Sequence[Path | str], build: Callable[[], Any],
           decode: Callable[[Any], T]) -> T:
    """`decode(build())`, with `build()`'s JSON value read from the cache when an entry of the same
    `sources` is there and `decode` accepts it. `name` is a fixed word naming the table."""
    folder = cache_dir()
    if folder is None:
        return decode(build())
    try:
        digest = source_digest(sources)
    except OSError:
        return decode(build())
    data = _read(folder / f"{name}-{digest}.json")
    if data is not None:
        # a corrupt or foreign entry does not decode: it is built again below
        with suppress(TypeError, ValueError, KeyError, IndexError, AttributeError):
            return decode(data)
    data = build()
    result = decode(data)
    _write(folder, name, digest, orjson.dumps(data))
    return result
