"""Reading a source log's free text for the taint layer, independently of the redactor.

No format table: every string of the source (one JSON document or JSONL, any producer; gzip is
undone) is text, and so is every object key that is not a plain name. The only exceptions are
declared here: values of `STRUCTURAL_KEYS` with the shape of a token, and opaque blobs. A line that
does not parse is text as a whole. Fail closed: a key this module has never heard of is text.
Each text comes with its field pattern (`assistant:message.content[].text`), never more.
"""
from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from typing import Any

import orjson

from redact.errors import BadInput
from redact.formats.registry import formats
from redact.tables.names import shown

MAX_SOURCE_BYTES = 4 * 1024**3

#: Keys whose string values are structure, not text, when they have the shape of a token.
STRUCTURAL_KEYS: frozenset[str] = frozenset({
    "type", "role", "kind", "uuid", "parentUuid", "leafUuid", "logicalParentUuid", "sessionId",
    "session_id", "id", "tool_use_id", "toolUseID", "parentToolUseID", "sourceToolAssistantUUID",
    "requestId", "messageId", "promptId", "call_id", "turn_id", "agentId", "timestamp", "version",
    "cli_version", "formatVersion", "schema", "model", "model_provider", "stop_reason", "stopReason",
    "subtype", "userType", "level", "status", "record_type", "originator", "service_tier",
    "inference_geo", "speed", "entrypoint", "permissionMode", "media_type", "event_type", "run_id",
    "step_id", "prev_hash", "hash",
    "action_id", "tool_call_id", "llm_response_id", "forgotten_event_ids",  # OpenHands
})
#: Keys whose string values are opaque blobs (signatures, encrypted reasoning) unless they hold spaces.
OPAQUE_KEYS: frozenset[str] = frozenset({"signature", "encrypted_content"})

_STRUCT_VALUE = re.compile(r"[A-Za-z0-9._:@/+-]{1,128}")
_BLOB = re.compile(r"[A-Za-z0-9+/=_-]{512,}")
_NO_SPACE = re.compile(r"\S*")
_SAFE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")


def gunzip(data: bytes) -> bytes:
    d = zlib.decompressobj(wbits=31)
    try:
        out = d.decompress(data, MAX_SOURCE_BYTES)
    except zlib.error:
        raise BadInput("the source is not a valid gzip stream", where="--source") from None
    if d.unconsumed_tail:
        raise BadInput("the decompressed source exceeds the size limit", where="--source")
    return out


#: Formats that are JSON Lines (the registry's `jsonl` formats): a source of one of these is read line
#: by line, never parsed whole.
LINE_FORMATS: tuple[str, ...] = ("jsonl", *(fmt.name for fmt in formats() if fmt.jsonl))


def document(source: bytes, source_format: str | None) -> Any:
    """The parsed source when it is one JSON document; None when it is JSONL (or not JSON)."""
    if (source_format or "").lower() in LINE_FORMATS or source.lstrip()[:1] not in (b"{", b"["):
        return None
    head, sep, rest = source.lstrip().partition(b"\n")
    if sep and rest.strip():
        try:
            orjson.loads(head)
        except orjson.JSONDecodeError:
            pass  # the first line is not a whole document: maybe one pretty-printed document
        else:
            return None  # a whole JSON value on the first line and more after it: JSONL
    try:
        return orjson.loads(source)
    except orjson.JSONDecodeError:
        return None


def _record_label(record: object) -> str:
    """`assistant:`, `response_item/function_call:`: the record's type tags, when they are names."""
    if not isinstance(record, dict):
        return ""
    parts = []
    rtype = record.get("type")
    if isinstance(rtype, str):
        parts.append(shown(rtype, "<type>"))
    payload = record.get("payload")
    if isinstance(payload, dict):
        ptype = payload.get("type")
        if isinstance(ptype, str):
            parts.append(shown(ptype, "<type>"))
    return "/".join(parts) + ":" if parts else ""


def record_text(record: object, safe_keys: dict[str, str | None]) -> Iterator[tuple[str, str]]:
    """(field pattern, text) for every piece of free text in one parsed record. Fail closed: every
    string is text unless it sits under a structural key with the shape of a token, or is a blob.

    A key with the shape of a name is not itself text; any other key is (a prose or token key). The
    pattern is shown in findings and reports, so it names a key only by the shared rule
    (redact/tables/names.py): a name-shaped key with digits (`ghp_...`) is still `<key>` there.
    `safe_keys` caches, per key, its pattern segment, or None when the key is text."""
    stack: list[tuple[str, str, object]] = [(_record_label(record), "", record)]
    while stack:
        path, key, item = stack.pop()
        t = type(item)
        if t is str:
            s: str = item  # type: ignore[assignment]
            if key in STRUCTURAL_KEYS and _STRUCT_VALUE.fullmatch(s):
                continue
            if len(s) >= 512 and (key in OPAQUE_KEYS and _NO_SPACE.fullmatch(s) or _BLOB.fullmatch(s)):
                continue
            yield path, s
        elif t is dict:
            items = list(item.items())  # type: ignore[attr-defined]
            for k, v in reversed(items):  # reversed onto the stack: fields come out in order
                if k in safe_keys:
                    seg = safe_keys[k]
                else:
                    seg = safe_keys[k] = shown(k, "<key>") if _SAFE_KEY.fullmatch(k) else None
                if seg is not None:
                    stack.append((f"{path}.{seg}" if path and path[-1] != ":" else path + seg, k, v))
                else:
                    sub = f"{path}.<key>" if path and path[-1] != ":" else path + "<key>"
                    stack.append((sub, "", v))
                    stack.append((sub, "", k))
        elif t is list:
            sub = path + "[]"
            items_: list[Any] = item  # type: ignore[assignment]
            for v in reversed(items_):
                stack.append((sub, key, v))


def iter_source_text(source: bytes, source_format: str | None = None) -> Iterator[tuple[str, str]]:
    """(field pattern, text) for all the source's free text (used by tests and the self-test)."""
    if source[:2] == b"\x1f\x8b":
        source = gunzip(source)
    safe: dict[str, str | None] = {}
    doc = document(source, source_format)
    if doc is not None:
        yield from doc_text(doc, safe)
        return
    for line in source.split(b"\n"):
        yield from line_text(line, safe)


def doc_text(doc: Any, safe: dict[str, str | None]) -> Iterator[tuple[str, str]]:
    for record in doc if isinstance(doc, list) else [doc]:
        yield from record_text(record, safe)


def line_text(line: bytes, safe: dict[str, str | None]) -> Iterator[tuple[str, str]]:
    if not line.strip():
        return
    try:
        record = orjson.loads(line)
    except orjson.JSONDecodeError:
        yield "line(unparsed)", line.decode("utf-8", "replace")
        return
    yield from record_text(record, safe)
