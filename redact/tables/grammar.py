"""Value grammars of native outputs, beyond the map's (`redact/model/grammar.py`).

Shared by the scrubber (to decide whether an input value may stay as written) and by the native scan
(to prove an output value conforms). Pure predicates and constants: nothing here transforms data.
"""
from __future__ import annotations

import re
from typing import Any

# Opaque ids as harnesses write them. Anything else in an id field is hashed (`h:` + 12 hex with a
# key, `id-` + 12 hex of SHA-256 without), so a word or a URL cannot ride along in an id. Ids with a
# harness prefix (`toolu_01...`, `call_...`) keep the prefix, but their base-62 body could spell
# anything (`toolu_01AcmeGlobexMerger`), so the body is replaced by 12 hex of its digest: readers
# still see a tool-use id, and every reference to it still pairs.
_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
ID_PREFIXES: tuple[str, ...] = (
    "toolu", "toolu_vrtx", "srvtoolu", "msg", "msg_vrtx", "req", "mapr_msg", "agent_msg", "call", "fc",
    "rs", "resp", "ws", "run", "evt", "item", "turn", "inf", "sess",
)
AGENT_PREFIXES: tuple[str, ...] = ("acompact", "aside_question", "aprompt_suggestion")
_PREFIX_ALT = "|".join(sorted(ID_PREFIXES, key=len, reverse=True))
#: A harness id as written: its head and tail are kept, its body becomes a digest (see above).
PREFIXED_ID_RE = re.compile(
    rf"(?P<head>(?:{_PREFIX_ALT})_|run_\d{{8}}(?:_\d{{6}})?_)(?P<body>[A-Za-z0-9]{{4,64}}?)(?P<tail>_\d{{1,4}})?"
)
NATIVE_ID_RE = re.compile(
    rf"{_UUID}"
    r"|[0-9a-f]{6,64}|[0-9A-F]{6,64}"
    rf"|(?:{_PREFIX_ALT})_[0-9a-f]{{12}}(?:_\d{{1,4}})?"
    rf"|(?:{'|'.join(AGENT_PREFIXES)})-[0-9a-f]{{6,32}}"
    r"|bash-progress-\d{1,6}"
    r"|run_\d{8}(?:_\d{6})?_[0-9a-f]{12}"  # teaagent run ids (body digested too)
    r"|(?:llm_call|tool_call|retrieval|memory_read|memory_write)_\d{1,6}"  # Agent Replay step ids
    r"|[rt]\d{1,6}|h|main"
    r"|sa-[0-9a-f]{6,32}"
    r"|h:[0-9a-f]{12}|id-[0-9a-f]{12}"
)
HASH_TOKEN_RE = re.compile(r"h:[0-9a-f]{12}|id-[0-9a-f]{12}")

# ISO-8601 as logs write it: a date, a time, optional fraction, `Z`, an offset, or no zone.
NATIVE_TIMESTAMP_RE = re.compile(
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?"
)
# What a native output may hold: the same, in UTC (`Z`) or with no zone. An offset (`+05:30`) says
# where the user lives, so the scrubber moves every timestamp with one to UTC, as the map does.
NATIVE_UTC_TIMESTAMP_RE = re.compile(
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z?"
)

# Branch names common enough to say nothing about a project; every other branch is hashed or dropped.
KNOWN_BRANCHES: frozenset[str] = frozenset({"main", "master", "develop", "dev", "trunk", "HEAD", "gh-pages"})

#: The working directory at the repository root.
ROOT_CWD = "."

#: The keys of a shape marker, the one form text takes in a native output.
SHAPE_KEYS: frozenset[str] = frozenset({"chars", "exitCode"})
#: A tool name the identifier policy dropped.
DROPPED_TOOL = "<tool>"
#: An MCP server or tool name the identifier policy dropped, inside `mcp__<server>__<tool>`.
DROPPED_PART = "<redacted>"


def is_native_id(value: str) -> bool:
    return NATIVE_ID_RE.fullmatch(value) is not None


def is_native_timestamp(value: str) -> bool:
    """A timestamp as an input log may write it (any zone)."""
    return NATIVE_TIMESTAMP_RE.fullmatch(value) is not None


def is_native_utc_timestamp(value: str) -> bool:
    """A timestamp as a native output may hold it: UTC `Z` or no zone, never an offset."""
    return NATIVE_UTC_TIMESTAMP_RE.fullmatch(value) is not None


def is_shape(value: Any) -> bool:
    """`{"chars": N}` with an optional `"exitCode": N`: non-negative int chars, int exit code."""
    if type(value) is not dict or "chars" not in value or not set(value) <= SHAPE_KEYS:
        return False
    chars = value["chars"]
    if type(chars) is not int or chars < 0:
        return False
    code = value.get("exitCode", 0)
    return type(code) is int


def split_mcp(name: str) -> tuple[str, str] | None:
    """`mcp__server__tool` -> (server, tool); None when `name` is not an MCP tool name."""
    if not name.startswith("mcp__"):
        return None
    server, sep, tool = name[5:].partition("__")
    return (server, tool) if sep else (server, "")
