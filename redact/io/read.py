"""Reading input bytes with limits: gzip by content, bombs stopped, sizes capped, JSON parsed strictly.

Every failure is a BadInput naming the file and the place; no input text is ever quoted.

Limits live in one `Limits` value (`LIMITS`, the default every reader uses); a test or an embedding
program may pass its own to `read_input` or replace `LIMITS`.
"""
from __future__ import annotations

import os
import re
import stat
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from redact.errors import BadInput
from redact.tables.names import shown

GZIP_MAGIC = b"\x1f\x8b"
BOM = b"\xef\xbb\xbf"  # a UTF-8 byte-order mark, which some editors and tools write first
MAX_INPUT_BYTES = 4 * 1024**3  # decompressed, per input
MAX_RATIO = 200  # decompressed / compressed, beyond MAX_RATIO_FLOOR bytes
MAX_RATIO_FLOOR = 64 * 1024**2
_CHUNK = 1 << 20
_POS = re.compile(r"line (\d+) column (\d+)")


@dataclass(frozen=True)
class Limits:
    """How much one input may hold. A gzip stream stops at `max_bytes` decompressed, or as soon as it
    has expanded more than `max_ratio` times its compressed size past `ratio_floor` bytes."""

    max_bytes: int = MAX_INPUT_BYTES
    max_ratio: int = MAX_RATIO
    ratio_floor: int = MAX_RATIO_FLOOR


LIMITS = Limits()


def display_name(path: str | Path) -> str:
    return "<stdin>" if str(path) == "-" else str(path)


def report_name(path: str | Path) -> str:
    """How a report or scan output names an input: the path as given when it is relative and stays
    below the folder it was given from (`maps/a.json`), else the file name only. An absolute path
    would carry its folders into a SARIF uploaded from a laptop (the home folder, a user name)."""
    text = display_name(path)
    if text.startswith("<"):
        return text
    pure = Path(text)
    if not pure.is_absolute() and ".." not in pure.parts and not text.startswith("~") and "\\" not in text \
            and ":" not in text:
        return text
    return text.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1] or text


def shorten(message: str, paths: list[tuple[str, str]]) -> str:
    """`message` with each (full, short) path of `paths` written short."""
    for full, short in sorted(paths, key=lambda p: len(p[0]), reverse=True):
        if full and full != short:
            message = message.replace(full, short)
    return message


def _gunzip(data: bytes, where: str, limits: Limits) -> bytes:
    out = bytearray()
    d = zlib.decompressobj(wbits=31)
    view = memoryview(data)
    pos = 0
    ceiling = max(limits.ratio_floor, limits.max_ratio * len(data))
    try:
        while pos < len(view) or d.unconsumed_tail:
            chunk = d.unconsumed_tail or view[pos:pos + _CHUNK]
            if not d.unconsumed_tail:
                pos += _CHUNK
            out += d.decompress(chunk, _CHUNK)
            if len(out) > limits.max_bytes:
                raise BadInput(f"decompressed size exceeds the limit of {limits.max_bytes} bytes",
                               where=where)
            if len(out) > ceiling:
                raise BadInput(f"compression ratio above {limits.max_ratio}:1 (a gzip bomb?)", where=where)
            if d.eof:
                if d.unused_data[:2] == GZIP_MAGIC:  # a multi-member gzip file
                    rest = d.unused_data
                    d = zlib.decompressobj(wbits=31)
                    view, pos = memoryview(rest), 0
                    continue
                break
    except zlib.error:
        raise BadInput("not a valid gzip stream", where=where) from None
    if not d.eof:
        raise BadInput("gzip stream is truncated", where=where)
    return bytes(out)


def gunzip(data: bytes, where: str, limits: Limits | None = None) -> bytes:
    """`data`, a gzip stream (several members allowed), decompressed within `limits` (BadInput
    naming `where` past them, or when the stream is damaged)."""
    return _gunzip(data, where, limits or LIMITS)


def _read_capped(fh: BinaryIO, limit: int, where: str) -> bytes:
    """Up to `limit` bytes of a stream, in chunks, so a device or pipe that never ends is stopped at
    the limit instead of filling memory."""
    buf = bytearray()
    while True:
        chunk = fh.read(_CHUNK)
        if not chunk:
            return bytes(buf)
        buf += chunk
        if len(buf) > limit:
            raise BadInput(f"input exceeds the limit of {limit} bytes", where=where)


def read_input(path: str | Path, *, limit: int | None = None, limits: Limits | None = None,
               name: str | None = None) -> bytes:
    """All bytes of `path` (`-` for stdin), gunzipped when the content is gzip; errors call it `name`
    (default: the path as given)."""
    limits = limits or LIMITS
    if limit is not None:
        limits = Limits(limit, limits.max_ratio, limits.ratio_floor)
    where = name or display_name(path)
    try:
        if str(path) == "-":
            data = _read_capped(sys.stdin.buffer, limits.max_bytes, where)
        else:
            p = Path(path)
            mode = p.stat().st_mode  # before opening: opening a FIFO waits for a writer, maybe forever
            if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
                raise BadInput("is a named pipe or a socket, not a file (give - to read standard input)",
                               where=where)
            with p.open("rb") as fh:
                st = os.fstat(fh.fileno())
                if stat.S_ISDIR(st.st_mode):
                    raise BadInput("is a directory", where=where)
                if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):  # /dev/zero, a disk, a terminal
                    raise BadInput("is a device, not a file (give - to read standard input)", where=where)
                if stat.S_ISREG(st.st_mode) and st.st_size > limits.max_bytes:
                    raise BadInput(f"input exceeds the limit of {limits.max_bytes} bytes", where=where)
                data = _read_capped(fh, limits.max_bytes, where)
    except FileNotFoundError:
        raise BadInput("no such file", where=where) from None
    except IsADirectoryError:
        raise BadInput("is a directory", where=where) from None
    except PermissionError:
        raise BadInput("permission denied", where=where) from None
    except OSError as exc:
        raise BadInput(f"cannot read ({exc.strerror or type(exc).__name__})", where=where) from None
    if data[:2] == GZIP_MAGIC:
        return _gunzip(data, where, limits)
    if str(path).endswith(".gz"):
        raise BadInput("name ends in .gz but the content is not gzip", where=where)
    return data


# ---- JSON --------------------------------------------------------------------------------------

def _line_col(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column (in bytes) of byte `offset`."""
    line = data.count(b"\n", 0, offset) + 1
    return line, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def json_error(exc: orjson.JSONDecodeError, data: bytes) -> tuple[str, int | None, int | None]:
    """What went wrong in a document orjson refused, and where (line, column), never the text."""
    message = str(exc).lower()
    m = _POS.search(str(exc))
    line, col = (int(m.group(1)), int(m.group(2))) if m else (None, None)
    if "byte order mark" in message:
        return "invalid JSON (starts with a byte order mark)", line, col
    if "utf-8" in message:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as bad:
            line, col = _line_col(data, bad.start)
        return "invalid UTF-8", line, col
    if "surrogate" in message:
        return "invalid JSON (a lone surrogate escape in a string is not Unicode)", line, col
    if "recursion" in message or "depth limit" in message:
        return "JSON nested too deeply", line, col
    if "infinity" in message or "out of range" in message:
        return "invalid JSON (number out of range)", line, col
    if "control character" in message:
        return "invalid JSON (control character, such as NUL, inside a string)", line, col
    if "after document" in message:
        return "invalid JSON (data after the end of the document)", line, col
    if "unexpected end" in message:
        return "invalid JSON (truncated)", line, col
    return "invalid JSON", line, col


def parse_json(data: bytes, where: str, *, parsed: Any = None) -> Any:
    """Parse one JSON document; errors give line and column, never the text.

    A document with a duplicate key in any object is refused (see `duplicate_key`). `parsed`:
    `orjson.loads(data)` already done (by format detection); it is checked, not parsed again.
    """
    if not data.strip():
        raise BadInput("empty input", where=where)
    if parsed is not None:
        doc = parsed
    else:
        try:
            doc = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            what, line, col = json_error(exc, data)
            raise BadInput(what, where=f"{where}:{line}:{col}" if line else where) from None
    try:
        pointer = duplicate_key(data, doc)
    except RecursionError:  # the duplicate-aware parse is Python's, which stops near 1000 levels
        raise BadInput("JSON nested too deeply", where=where) from None
    if pointer is not None:
        raise BadInput("duplicate key in an object (readers disagree on which value counts)",
                       where=f"{where}#{pointer}")
    return doc


# ---- duplicate keys ----------------------------------------------------------------------------
# orjson, like most parsers, keeps the last of two equal keys silently; others keep the first. A map
# whose `hostName` appears twice would be redacted (and scanned) with one value and shown by such a
# viewer with the other: the scanner would have proved nothing about what the reader sees.
#
# The check costs two C-speed passes in the common case. Every `:` of a JSON text is either a member
# separator or a character inside a string. orjson writes both back as a literal `:`, so without
# `\u003a`-style escapes in the input (checked), `data.count(":")` equals the same count over the
# re-serialized document exactly when no member was dropped; a dropped duplicate takes at least its
# own separator with it. Only when the counts differ, or an escape makes them incomparable, does a
# second, duplicate-aware parse run to find the place.

_ESCAPED_COLON = re.compile(rb"\\u003[aA]")


class _Dup(dict):  # type: ignore[type-arg]
    """An object that had a duplicate key (the name of the first one repeated, or None)."""

    duplicate: str | None = None


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            dup = _Dup(out)
            dup.duplicate = key
            return dup
        out[key] = value
    return out


def _find_dup(doc: Any) -> str | None:
    stack: list[tuple[Any, str]] = [(doc, "")]
    while stack:
        node, ptr = stack.pop()
        if isinstance(node, _Dup):
            return f"{ptr}/{shown(node.duplicate, '<field>')}"
        if isinstance(node, dict):
            items = [(v, f"{ptr}/{shown(k, '<field>')}") for k, v in node.items()]
        elif isinstance(node, list):
            items = [(v, f"{ptr}/{i}") for i, v in enumerate(node)]
        else:
            continue
        stack.extend(reversed(items))
    return None


def _colons(doc: Any) -> int:
    """How many `:` a serialization of `doc` holds: one per member, plus those inside strings."""
    try:
        return orjson.dumps(doc).count(b":")
    except orjson.JSONEncodeError:  # orjson writes at most 255 levels; walk deeper documents here
        pass
    count = 0
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            count += node.count(":")
        elif isinstance(node, dict):
            count += len(node) + sum(key.count(":") for key in node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return count


def duplicate_key(data: bytes, doc: Any) -> str | None:
    """The JSON pointer of the first duplicate key in `data` (already parsed as `doc`), or None."""
    # `in` is a C substring search, much faster than the regex over a line with no `\u003`
    escaped = b"\\u003" in data and _ESCAPED_COLON.search(data) is not None
    if not escaped and data.count(b":") == _colons(doc):
        return None
    import json

    return _find_dup(json.loads(data, object_pairs_hook=_pairs))
