"""What the `--to native` scrubbers of JSON Lines logs whose every record names its own type share
(Factory Droid, Pi, Qwen Code, Hermes): the header line's working directory, and a rewrite, line
for line, through the format's table in which a record of a type the table does not know is
dropped and counted by its name, never passed through."""
from __future__ import annotations

from collections.abc import Container
from typing import Any

from redact.formats.common import label
from redact.formats.jsonl import LineStats, iter_objects, rewrite_lines
from redact.native.scrub import Scrubber
from redact.report import RedactionReport


def header_cwd(data: bytes, name: str, *, type_key: str, header: str, cwd_key: str,
               glued: bool = False) -> str | None:
    """The working directory (`cwd_key`) of the log's first record when that record is of type
    `header`; None when it is not, names none, or the log holds no record."""
    for _, record in iter_objects(data, name, skip_bad_lines=True, stats=LineStats(), glued=glued):
        cwd = record.get(cwd_key) if record.get(type_key) == header else None
        return cwd if isinstance(cwd, str) and cwd else None
    return None


def scrub_typed(data: bytes, name: str, scrubber: Scrubber, *, report: RedactionReport, type_key: str,
                types: Container[str], skip_bad_lines: bool, glued: bool = False,
                untyped: str = "<no type>") -> bytes:
    """`data` rewritten record by record through `scrubber`; a record whose `type_key` is not one of
    `types` is dropped and counted by its name (`untyped` when it names none)."""
    def each(record: dict[str, Any]) -> Any:
        kind = record.get(type_key)
        if not isinstance(kind, str) or kind not in types:
            report.skipped_records[label(kind) if isinstance(kind, str) else untyped] += 1
            return None
        return scrubber.record(record)

    return rewrite_lines(data, name, each, report=report, skip_bad_lines=skip_bad_lines, glued=glued)
