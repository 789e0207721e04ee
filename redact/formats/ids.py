"""Ids in the map's id grammar, for every reader: a session's native id as it is when it has an id's
shape, else hashed; the id of a log that names none (never its path); a subagent lane's id."""
from __future__ import annotations

import hashlib
import re
from typing import BinaryIO

#: a uuid, or hex of 7 to 64 digits: an id as harnesses write them, kept as it is
ID_SHAPE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{7,64}")
_HEX_AGENT = re.compile(r"[0-9a-f]{6,32}")


def native_id(value: str) -> str:
    """A session id in the map's id grammar: a uuid or hex as is, anything else hashed (sha256)."""
    if ID_SHAPE.fullmatch(value):
        return value
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def fallback_id(data: bytes | BinaryIO, stem: str | None = None) -> str:
    """The id of a session whose log names none: its file stem when that is an id (a uuid, hex),
    else the digest of the log's bytes (32 hex).

    Never its path or a file name that is not an id: a path names the user and the project, and an
    unkeyed digest of a string someone can guess confirms the guess (`/home/dana/acme/...`). The
    digest of the content is the same wherever the file sits, and a guess of it needs the content."""
    if stem and ID_SHAPE.fullmatch(stem):
        return stem
    digest = hashlib.sha256()
    if isinstance(data, bytes | bytearray | memoryview):
        digest.update(data)
    else:
        with open(data.name, "rb") as f:  # a streamed log, read from its file once more
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
    return digest.hexdigest()[:32]


def session_id(found: object, data: bytes | BinaryIO, stem: str | None = None) -> str:
    """A session's id: the one its log names (`found`, a non-empty string), else `fallback_id`."""
    if isinstance(found, str) and found:
        return native_id(found)
    return fallback_id(data, stem)


def lane_id(agent_id: str) -> str:
    """The map's lane id for a subagent's id: `sa-` + hex (hashed when not hex already)."""
    if _HEX_AGENT.fullmatch(agent_id):
        return "sa-" + agent_id
    return "sa-" + hashlib.sha256(agent_id.encode("utf-8", "surrogatepass")).hexdigest()[:12]
