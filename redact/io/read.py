"""Reading input bytes with limits: gzip by content, bombs stopped, sizes capped.

Every failure is a BadInput naming the file and the place; no input text is ever quoted.
"""
from __future__ import annotations

import re
import sys
import zlib
from pathlib import Path
from typing import Any

import orjson

from redact.errors import BadInput

GZIP_MAGIC = b"\x1f\x8b"
MAX_INPUT_BYTES = 4 * 1024**3  # decompressed, per input
MAX_RATIO = 200  # decompressed / compressed, beyond MAX_RATIO_FLOOR bytes
MAX_RATIO_FLOOR = 64 * 1024**2
_CHUNK = 1 << 20
_POS = re.compile(r"line (\d+) column (\d+)")


def display_name(path: str | Path) -> str:
    return "<stdin>" if str(path) == "-" else str(path)


def _gunzip(data: bytes, where: str, limit: int) -> bytes:
    out = bytearray()
    d = zlib.decompressobj(wbits=31)
    view = memoryview(data)
    pos = 0
    try:
        while pos < len(view) or d.unconsumed_tail:
            chunk = d.unconsumed_tail or view[pos:pos + _CHUNK]
            if not d.unconsumed_tail:
                pos += _CHUNK
            out += d.decompress(chunk, _CHUNK)
            if len(out) > limit:
                raise BadInput(f"decompressed size exceeds the limit of {limit} bytes", where=where)
            if len(out) > MAX_RATIO_FLOOR and len(out) > MAX_RATIO * len(data):
                raise BadInput(f"compression ratio above {MAX_RATIO}:1 (a gzip bomb?)", where=where)
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


def read_input(path: str | Path, *, limit: int = MAX_INPUT_BYTES) -> bytes:
    """All bytes of `path` (`-` for stdin), gunzipped when the content is gzip."""
    where = display_name(path)
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            p = Path(path)
            if p.is_dir():
                raise BadInput("is a directory", where=where)
            with p.open("rb") as fh:
                data = fh.read(limit + 1)
    except FileNotFoundError:
        raise BadInput("no such file", where=where) from None
    except PermissionError:
        raise BadInput("permission denied", where=where) from None
    except OSError as exc:
        raise BadInput(f"cannot read ({exc.strerror})", where=where) from None
    if len(data) > limit:
        raise BadInput(f"input exceeds the limit of {limit} bytes", where=where)
    if data[:2] == GZIP_MAGIC:
        return _gunzip(data, where, limit)
    if str(path).endswith(".gz"):
        raise BadInput("name ends in .gz but the content is not gzip", where=where)
    return data


def parse_json(data: bytes, where: str) -> Any:
    """Parse one JSON document; errors give line and column, never the text."""
    if not data.strip():
        raise BadInput("empty input", where=where)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        m = _POS.search(str(exc))
        at = f"{where}:{m.group(1)}:{m.group(2)}" if m else where
        kind = "invalid UTF-8" if "utf-8" in str(exc).lower() else "invalid JSON"
        if "recursion" in str(exc).lower() or "depth limit" in str(exc).lower():
            kind = "JSON nested too deeply"
        raise BadInput(kind, where=at) from None
