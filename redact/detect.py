"""Format detection from the content, never from the file name alone.

A session map is one JSON document (compact on one line, or pretty-printed); a raw log is JSON Lines.
The first line decides which: when it parses on its own as an object, the input is a map only if that
object is a map (its `schema`); otherwise the first records go to each JSONL format's sniffer.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from redact.errors import BadInput

MAP = "agentplay"
CLAUDE_CODE = "claude-code"
FORMATS: dict[str, str] = {
    MAP: "agentplay/v1 session map (.json, .json.gz); also its earlier name entelligence.session-map/v1",
    CLAUDE_CODE: "Claude Code transcript (~/.claude/projects/<project>/<session>.jsonl, with its "
                 "subagent transcripts; a project folder redacts every session in it)",
}
_MAP_IDS = ("agentplay/v1", "entelligence.session-map/v1")
_SNIFF_LINES = 25
_SNIFF_BYTES = 1 << 20


def _claude_code(records: list[dict[str, Any]]) -> bool:
    from redact.formats.claude_code_table import sniff

    return sniff(records)


#: JSONL formats: name -> predicate over the first records. Checked in order.
SNIFFERS: dict[str, Callable[[list[dict[str, Any]]], bool]] = {CLAUDE_CODE: _claude_code}


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
            out.append(obj)  # type: ignore[arg-type]
    return out, bool(first_ok)


def _sniff(records: list[dict[str, Any]]) -> str | None:
    for name, sniff in SNIFFERS.items():
        if sniff(records):
            return name
    return None


def detect(data: bytes, where: str) -> str:
    body = data.lstrip()
    head = body[:1]
    if head == b"{":
        records, first_ok = head_records(body)
        if first_ok:
            first = records[0]
            if first.get("schema") in _MAP_IDS or (len(records) == 1 and "events" in first):
                return MAP
            found = _sniff(records)
            if found is not None:
                return found
        else:
            # A first line that is not an object: a pretty-printed map, or a log whose first line
            # is damaged (--skip-bad-lines); only a format's sniffer on later lines can say the latter.
            found = _sniff(records) if len(records) >= 2 else None
            return found or MAP
    raise BadInput(f"unknown input format (supported: {', '.join(sorted(FORMATS))})", where=where)
