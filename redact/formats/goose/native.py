"""Goose's JSON Lines sessions scrubbed in their own format (`--to native`): line for line, in the
generation they were written in. The repository root is the metadata line's working directory (on
evidence, as the reader decides); a session of the older generations has none, so its absolute paths
go to their bucket. The SQLite store has no native copy (the API refuses a store)."""
from __future__ import annotations

from typing import Any

from redact.formats.goose.keys import ROLE, WORKING_DIR
from redact.formats.goose.native_table import TABLE
from redact.formats.jsonl import LineStats, iter_objects, rewrite_lines
from redact.keys.material import Key
from redact.native.scrub import Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport
from redact.formats.roots import choose_roots


def _cwd(data: bytes, name: str) -> str | None:
    for _, record in iter_objects(data, name, skip_bad_lines=True, stats=LineStats()):
        cwd = record.get(WORKING_DIR) if ROLE not in record else None
        return cwd if isinstance(cwd, str) and cwd else None
    return None


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    cwd = _cwd(data, name)
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=choose_roots((cwd,)))
    scrubber.cwd = cwd

    def each(record: dict[str, Any]) -> Any:
        return scrubber.record(record)

    return rewrite_lines(data, name, each, report=report, skip_bad_lines=skip_bad_lines)
