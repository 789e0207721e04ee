"""JSON Lines for raw logs: split on `\\n` only, one object per line, errors name `file:line`.

`\\n` is the only separator: a raw U+2028 or U+0085 may sit inside a string, and `str.splitlines` or
a text-mode file would cut the record there. A line that is not a JSON object is bad input; with
`skip_bad_lines` the reader carries on and counts it (the caller reports how many).

A writer that raced with itself can leave two whole records on one line with no newline between
them (Pi did). A reader that asks for it (`glued=True`) reads such a line as the records it holds
when every piece is a JSON object and nothing else is on the line, and says so (`LineStats.glued`);
any other line that does not parse stays bad input.

The input is either bytes in memory or a binary file opened for reading, which is streamed line by
line (binary file iteration splits on `\\n` only), so memory does not grow with the log's size.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

import json

import orjson

from redact.errors import BadInput
from redact.io.read import BOM, duplicate_key, json_error

MAX_LINE_BYTES = 256 * 1024**2  # one record; a longer line is bad input


@dataclass
class LineStats:
    lines: int = 0
    bad: int = 0
    first_bad: int | None = None
    glued: int = 0  # lines that held several records with no newline between them (`glued=True`)
    first_glued: int | None = None

    def warn_skipped(self, report: Any) -> None:
        """Tell the report how many bad lines `--skip-bad-lines` skipped, and how many lines held
        records glued together (every reader says it alike)."""
        if self.bad:
            report.warn(f"skipped {self.bad} bad line(s) (--skip-bad-lines); first at line {self.first_bad}")
        if self.glued:
            report.warn(f"{self.glued} line(s) held several records with no newline between them; each "
                        f"record was read; first at line {self.first_glued}")


_DECODER = json.JSONDecoder()


def split_glued(chunk: bytes) -> list[dict[str, Any]] | None:
    """The records of a line holding two or more JSON objects written one after the other with no
    newline (`{...}{...}`), each proven by orjson; None when the line is anything else."""
    try:
        text = chunk.decode("utf-8")
    except UnicodeDecodeError:
        return None
    found: list[dict[str, Any]] = []
    pos, n = 0, len(text)
    while pos < n:
        while pos < n and text[pos] in " \t\r":
            pos += 1
        if pos == n:
            break
        if text[pos] != "{":
            return None
        try:
            _, end = _DECODER.raw_decode(text, pos)
            record = orjson.loads(text[pos:end])  # the stdlib decoder accepts NaN; orjson decides
        except (ValueError, orjson.JSONDecodeError):
            return None
        if not isinstance(record, dict):
            return None
        found.append(record)
        pos = end
    return found if len(found) > 1 else None


def _lines(data: bytes | memoryview | BinaryIO) -> Iterable[bytes | memoryview]:
    if isinstance(data, (bytes, bytearray, memoryview)):
        raw = bytes(data) if isinstance(data, memoryview) else data
        view = memoryview(raw)
        pos, n = 0, len(raw)
        find = raw.find
        while pos < n:
            end = find(b"\n", pos)
            if end == -1:
                end = n
            yield view[pos:end]
            pos = end + 1
        return
    yield from data  # a binary file: lines end at b"\n" only


def iter_objects(data: bytes | memoryview | BinaryIO, where: str, *, skip_bad_lines: bool = False,
                 stats: LineStats | None = None, glued: bool = False) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each non-blank line of `data` (each record of a glued line, with
    `glued`, under the line's number).

    A UTF-8 byte-order mark before the first line is not part of it. A line whose object has a
    duplicate key is bad input: parsers disagree on which value counts (SECURITY.md)."""
    stats = stats if stats is not None else LineStats()
    loads = orjson.loads
    lineno = 0
    for chunk in _lines(data):
        lineno += 1
        if lineno == 1 and bytes(chunk[:3]) == BOM:
            chunk = chunk[3:]
        if not chunk:
            continue
        what = None
        if len(chunk) > MAX_LINE_BYTES:
            what = f"line longer than {MAX_LINE_BYTES} bytes"
        else:
            try:
                obj = loads(chunk)
            except orjson.JSONDecodeError as exc:
                if not bytes(chunk).strip():
                    continue
                pieces = split_glued(bytes(chunk)) if glued else None
                if pieces is not None:
                    stats.lines += 1
                    stats.glued += 1
                    stats.first_glued = stats.first_glued or lineno
                    for piece in pieces:
                        yield lineno, piece
                    continue
                what = json_error(exc, bytes(chunk))[0]
            else:
                stats.lines += 1
                if isinstance(obj, dict):
                    try:
                        dup = duplicate_key(bytes(chunk), obj)
                    except RecursionError:
                        dup, what = None, "JSON nested too deeply"
                    if dup is None and what is None:
                        yield lineno, obj
                        continue
                    what = what or "duplicate key in an object (readers disagree on which value counts)"
                else:
                    what = "line is not a JSON object"
        if not skip_bad_lines:
            raise BadInput(f"{what} (--skip-bad-lines skips such lines)", where=f"{where}:{lineno}")
        stats.bad += 1
        stats.first_bad = stats.first_bad or lineno


def rewrite_lines(data: bytes, where: str, each: Callable[[dict[str, Any]], Any], *, report: Any,
                  skip_bad_lines: bool = False, glued: bool = False) -> bytes:
    """`data`'s JSON Lines, each object replaced by `each(object)` (None: the line is left out), as
    JSON Lines again (the records of a glued line, with `glued`, each on its own line); the lines
    `--skip-bad-lines` skipped are told to the report."""
    stats = LineStats()
    out: list[bytes] = []
    for _, record in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=stats, glued=glued):
        new = each(record)
        if new is not None:
            out.append(orjson.dumps(new))
    stats.warn_skipped(report)
    return b"".join(line + b"\n" for line in out)
