"""Format detection from the content, never from the file name alone.

A session map is one JSON document (compact on one line, or pretty-printed); a raw log is JSON Lines,
or one JSON document for the formats that have one (the single-JSON Codex rollout, an Agent Replay
trace). The first line decides which: when it parses on its own as an object, the input is a map only
if that object is a map (its `schema`); otherwise the first records go to each JSONL format's sniffer
(and a lone object to each document sniffer), asked in the registry's order
(redact/formats/registry.py). When the first line is not a whole object, the input
is one pretty-printed document, parsed whole and given to the document sniffers; so is an input that
is a JSON array (Cline's ui_messages.json, an OpenHands events.json). An input no sniffer claims is
bad input naming the formats there are.

An input that is not JSON goes to each format's `sniff_bytes` (a Markdown chat history). A SQLite
store is never detected from bytes: it is read from its file (`redact/io/store.py`).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from redact.errors import BadInput
from redact.formats.registry import MAP as MAP, formats, input_formats
from redact.io.read import BOM
from redact.io.store import SQLITE_HEADER

#: Every input format this tool reads: the session map, then the raw formats of the registry.
FORMATS: dict[str, str] = input_formats()
_MAP_IDS = ("agentplay/v1", "entelligence.session-map/v1")
_SNIFF_LINES = 25
_SNIFF_BYTES = 1 << 20


def head_records(data: bytes, lines: int = _SNIFF_LINES) -> tuple[list[dict[str, Any]], bool]:
    """The first records of a JSONL input, and whether its first line parsed as a JSON object."""
    out: list[dict[str, Any]] = []
    first_ok: bool | None = None
    pos = 0
    n = min(len(data), _SNIFF_BYTES)
    while pos < n and len(out) < lines:
        end = data.find(b"\n", pos, n)
        if end == -1:
            if n != len(data):
                break
            end = n
        line = data[pos:end]
        pos = end + 1
        if not line.strip():
            continue
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError:
            obj = None
        ok = isinstance(obj, dict)
        if first_ok is None:
            first_ok = ok
        if ok:
            out.append(obj)
    return out, bool(first_ok)


def _claims(sniff: Callable[[Any], bool], value: Any) -> bool:
    """A sniffer's verdict; one that trips over a hostile record (a list where a type name belongs)
    has not recognised its format."""
    try:
        return bool(sniff(value))
    except (TypeError, ValueError, AttributeError, KeyError, IndexError):
        return False


def _sniff(records: list[dict[str, Any]]) -> str | None:
    for fmt in formats():
        if _claims(fmt.sniff, records):
            return fmt.name
    return None


def _sniff_doc(doc: Any) -> str | None:
    for fmt in formats():
        if _claims(fmt.sniff_doc, doc):
            return fmt.name
    return None


def _sniff_long_first_line(body: bytes) -> str | None:
    """The JSONL format whose first line is longer than the sniffing window (VS Code's chat edit log
    starts with the whole session on one line), when `body` holds that line whole."""
    end = body.find(b"\n")
    if end == -1:
        return None
    try:
        first = orjson.loads(body[:end])
    except orjson.JSONDecodeError:
        return None
    return _sniff([first]) if isinstance(first, dict) else None


def _is_map(doc: Any) -> bool:
    return isinstance(doc, dict) and (doc.get("schema") in _MAP_IDS or "events" in doc or
                                      ("session" in doc and "totals" in doc))


def _unknown(where: str) -> BadInput:
    return BadInput(f"unknown input format (supported: {', '.join(sorted(FORMATS))}; "
                    "--input-format NAME forces one)", where=where)


def _sniff_bytes(data: bytes) -> str | None:
    head = data[:_SNIFF_BYTES]
    for fmt in formats():
        if _claims(fmt.sniff_bytes, head):
            return fmt.name
    return None


#: Windsurf (Cascade) keeps each conversation as `~/.codeium/windsurf/cascade/<uuid>.pb`: protobuf
#: encrypted with AES-GCM under a key the program holds, so nothing in it can be read offline.
ENCRYPTED_PB = ("a Windsurf Cascade conversation (.pb: AES-encrypted protobuf): encrypted: cannot be read; "
                "nothing in it can be redacted")


def _encrypted_pb(data: bytes, where: str) -> bool:
    """A `.pb` file that is not JSON (nor any format a sniffer claims): Windsurf's encrypted store."""
    if not where.lower().endswith(".pb"):
        return False
    try:
        orjson.loads(data)
    except orjson.JSONDecodeError:
        return _sniff_bytes(data) is None
    return False


def detect(data: bytes, where: str, *, parsed: list[Any] | None = None) -> str:
    """The format of `data`. When telling a map took parsing the whole input (a pretty-printed or
    very long one), the document is appended to `parsed` (when given): the caller that goes on to
    redact it takes it instead of parsing the input a second time."""
    if _encrypted_pb(data, where):
        raise BadInput(ENCRYPTED_PB, where=where)
    if data.startswith(SQLITE_HEADER):
        raise BadInput("a SQLite session store is read from its file: give its path (not standard "
                       "input or bytes)", where=where)
    body = (data[len(BOM):] if data.startswith(BOM) else data).lstrip()  # a JSONL reader skips it too
    if not body:
        raise BadInput("empty input", where=where)
    head = body[:1]
    if head not in (b"{", b"["):
        found = _sniff_bytes(data)
        if found is not None:
            return found
    if head == b"{":
        records, first_ok = head_records(body)
        if first_ok:
            first = records[0]
            if first.get("schema") in _MAP_IDS or (len(records) == 1 and "events" in first):
                return MAP
            found = _sniff(records)
            if found is not None:
                return found
            if len(records) == 1:
                found = _sniff_doc(first)
                if found is not None:
                    return found
        else:
            # A first line that is not an object: a pretty-printed document, or a log whose first
            # line is damaged (--skip-bad-lines); only a format's sniffer on later lines can say the
            # latter. A document too large for `data` (the head of a file) does not parse here:
            # it is taken for a map, and the caller detects again on the whole input.
            try:
                doc = orjson.loads(body)
            except orjson.JSONDecodeError:
                doc = None
            if doc is not None:
                if _is_map(doc):
                    if parsed is not None:
                        parsed.append(doc)
                    return MAP
                found = _sniff_doc(doc)
                if found is not None:
                    return found
                raise _unknown(where)
            found = _sniff(records) if len(records) >= 2 else None
            if found is None and not records:
                found = _sniff_long_first_line(body)
            return found or MAP
    elif head == b"[":
        # A top-level array: a one-document format that is a list (Cline's ui_messages.json). One
        # too large for `data` does not parse here: as above, it is taken for a map and the caller
        # detects again on the whole input.
        try:
            doc = orjson.loads(body)
        except orjson.JSONDecodeError:
            return MAP
        found = _sniff_doc(doc)
        if found is not None:
            return found
    raise _unknown(where)


def looks_like(data: bytes, where: str) -> str | None:
    """The format detection finds in `data` (None: none), for an error about a forced format."""
    try:
        return detect(data, where)
    except BadInput:
        return None


def describe(fmt: str | None) -> str:
    """A format's short name for a person ("a Claude Code transcript"), or that none matched."""
    if fmt is None or fmt not in FORMATS:
        return "matches no known format"
    short = FORMATS[fmt].split(" (", 1)[0]
    return f"looks like {'an' if short[:1].lower() in 'aeiou' else 'a'} {short} (--input-format {fmt})"


def check_forced(head: bytes, fmt: str, where: str) -> None:
    """BadInput when a log that gave nothing under `fmt` is, to detection, another format (`--input-format
    codex` on a Claude Code transcript read nothing). A log of `fmt` that is truly empty passes, and
    so does one detection cannot place (forcing a format is what `--input-format` is for)."""
    seen = looks_like(head, where)
    if seen is not None and seen != fmt:
        raise BadInput(f"nothing in it is a {fmt} record (the format asked for); it {describe(seen)}",
                       where=where)
