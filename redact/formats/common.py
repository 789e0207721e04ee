"""Small helpers the raw-log readers share: times, ids, numbers, shapes of text, safe labels.

Nothing here keeps text: each helper returns a number, a bool, an id in the map's id grammar, a URL's
host, or a label of a strict shape. Every reader, Claude Code's too, takes these from here.
"""
from __future__ import annotations

import json
import math
import re
from datetime import UTC, datetime
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import orjson

from redact.formats.ids import fallback_id, native_id, session_id
from redact.tables.names import is_plain_name, shown

if TYPE_CHECKING:
    from redact.build.facts import SessionFacts

__all__ = [
    "LogClock", "MODEL_NAME", "as_float", "as_int", "byte_len", "canonical_variants", "count_urls", "epoch_ms", "fallback_id",
    "host_of", "is_model_name", "json_doc", "label", "native_id", "parse_json_string", "positive_int",
    "safe_name", "session_id", "status_tag", "text_chars",
]

#: A model name as harnesses spell them (`gpt-5.1-codex`, `claude-opus-4-5-20251101`,
#: `openai/gpt-4o`): a short token without white space. Anything else is not read as a model.
MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,99}")


_MINUTES: dict[str, float] = {}
_FAST = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z")


#: 2200-01-01 in epoch ms: a later (or pre-1970) time is not a time a log can mean (a map's times must
#: stay writable); the one bound every reader uses
LATEST_MS = 7_258_118_400_000.0


def epoch_ms(value: object) -> float | None:
    """An ISO-8601 time with a zone (`Z`, `+02:00`) as epoch milliseconds; None otherwise.

    A time without a zone is taken as UTC only when it carries the `T` separator of ISO-8601 (Python
    writers often omit the zone); anything else is not a time, and neither is one before 1970 or
    from 2200 on (a map's times must stay writable). The common `...THH:MM:SS.mmmZ` form takes a fast
    path (the minute's epoch is cached, the seconds added)."""
    found = _epoch_ms(value)
    return found if found is not None and 0.0 <= found < LATEST_MS else None


def _epoch_ms(value: object) -> float | None:
    if not isinstance(value, str) or len(value) > 64:
        return None
    if _FAST.fullmatch(value):
        minute = value[:16]
        base = _MINUTES.get(minute)
        if base is None:
            base = _iso(minute + ":00+00:00")
            if base is None:
                return None
            if len(_MINUTES) > 4096:
                _MINUTES.clear()
            _MINUTES[minute] = base
        seconds = int(value[17:19])
        if seconds > 59:
            return _iso(value)
        micros = int((value[20:-1] + "000000")[:6]) if len(value) > 20 else 0
        return base + seconds * 1000.0 + micros / 1000.0
    return _iso(value)


def _iso(value: str) -> float | None:
    text = value[:-1] + "+00:00" if value.endswith("Z") else value
    try:
        dt = datetime.fromisoformat(text)
    except ValueError:
        return None
    if dt.tzinfo is None:
        if "T" not in value:
            return None
        dt = dt.replace(tzinfo=UTC)
    return dt.timestamp() * 1000.0


_LABELS: dict[tuple[str, object], str] = {}


def label(kind: str, sub: object = None) -> str:
    """A record type name that is safe to show in a report (names only of a strict shape).

    Cached: the same few record types repeat thousands of times in one transcript."""
    key = (kind, sub if sub is None or isinstance(sub, str) else "<other>")
    found = _LABELS.get(key)
    if found is None:
        head = shown(kind, "<other>")
        if sub is None:
            found = head
        else:
            found = f"{head}:{shown(sub, '<other>')}"
        if len(_LABELS) < 4096:
            _LABELS[key] = found
    return found


def host_of(url: object) -> str | None:
    """The host of a URL, lower-cased (never its path or query); None when it has none."""
    if not isinstance(url, str):
        return None
    try:
        host = urlsplit(url.strip()).hostname
    except ValueError:
        return None
    return host.lower() if host else None


def byte_len(text: str) -> int:
    """The UTF-8 byte count of a text (lone surrogates counted as written)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


_URL = re.compile(r"https?://", re.I)


def count_urls(text: str) -> int:
    """How many `http(s)://` URLs a text holds."""
    return len(_URL.findall(text)) if "://" in text else 0


_INT_LIMIT = 2**53  # beyond it a number is not a count a log can mean (and JSON readers lose it)
_COUNT_CAP = 10**15


def as_int(value: object) -> int | None:
    """A JSON integer (not a bool) of a sane size, or None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if -_INT_LIMIT < value < _INT_LIMIT else None
    if isinstance(value, float) and value.is_integer() and abs(value) < _INT_LIMIT:
        return int(value)
    return None


def positive_int(value: object) -> int:
    """A count: a positive integer (capped), else 0."""
    found = as_int(value)
    return min(found, _COUNT_CAP) if found is not None and found > 0 else 0


def as_float(value: object) -> float | None:
    """A finite JSON number (not a bool), or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) and abs(number) < 1e15 else None


def is_model_name(value: object) -> bool:
    return isinstance(value, str) and MODEL_NAME.fullmatch(value) is not None


def safe_name(value: object) -> str | None:
    """`value` when it is a plain name (redact/tables/names.py), else None: the first filter for an enum
    value (a stop reason, a status tag) before the model's closed set of values."""
    return value if isinstance(value, str) and is_plain_name(value) else None


def parse_json_string(value: object) -> Any:
    """A JSON document held inside a string (Codex `arguments`, `output`); None when it is not one."""
    if isinstance(value, (dict, list)):
        return value
    if not isinstance(value, str):
        return None
    head = value.lstrip()[:1]
    if head not in ("{", "["):
        return None
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:
        return None


def json_doc(data: bytes, where: str) -> Any:
    """One JSON document (a raw log that is not JSON Lines), or bad input naming the file only."""
    from redact.errors import BadInput

    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        raise BadInput("not a JSON document", where=where) from None


def json_document(data: bytes, accept: Callable[[Any], bool]) -> dict[str, Any] | None:
    """The one JSON object `data` holds when `accept` takes it for the format's document, else None
    (JSON Lines, say, or not JSON at all: never an error)."""
    body = data.lstrip()
    if body[:1] != b"{":
        return None
    try:
        doc = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    return doc if accept(doc) else None


def text_chars(content: object) -> int:
    """Characters of text in a message's content: a string, or a list of parts with `text`."""
    if isinstance(content, str):
        return len(content)
    total = 0
    if isinstance(content, list):
        for part in content:
            if isinstance(part, dict):
                text = part.get("text")
                if isinstance(text, str):
                    total += len(text)
            elif isinstance(part, str):
                total += len(part)
    return total


def status_tag(value: object) -> str | None:
    """The tag of a status written as `"running"` or as `{"completed": ...}` (serde enums); never
    the payload, which may be text."""
    if isinstance(value, str):
        return safe_name(value)
    if isinstance(value, dict) and len(value) == 1:
        key = next(iter(value))
        return safe_name(key)
    return None


def canonical_variants(record: dict[str, Any]) -> list[bytes]:
    """The byte spellings a writer may have hashed for `record`: JSON with sorted keys, compact or
    with Python's default separators, with non-ASCII escaped or not."""
    out: list[bytes] = []
    for separators in ((",", ":"), (", ", ": ")):
        for ascii_only in (True, False):
            try:
                text = json.dumps(record, sort_keys=True, separators=separators, ensure_ascii=ascii_only)
            except (TypeError, ValueError, RecursionError):
                continue
            out.append(text.encode("utf-8", "surrogatepass"))
    return out


class LogClock:
    """Times in log order: a record's own time, else the last one the log showed (a record without
    one sits where the record before it did); the first time shown starts the session."""

    def __init__(self, facts: SessionFacts) -> None:
        self.facts = facts
        self.last: float | None = None

    def at(self, t: float | None) -> float | None:
        if t is None:
            return self.last
        self.last = t
        if self.facts.first_seen is None:
            self.facts.first_seen = t
        self.facts.saw_late(t)
        return t
