"""Factory Droid sessions scrubbed in their own format (`--to native`): JSON Lines, line for line. The
repository root is the session's working directory from its `session_start` (on evidence, as the
reader decides); a record type the table does not know is dropped and counted. The settings file
beside the log is not part of the output."""
from __future__ import annotations

from typing import Any

from redact.formats.factory_droid.keys import CWD, KIND, RECORD_TYPES
from redact.formats.common import label
from redact.formats.factory_droid.native_table import TABLE
from redact.formats.jsonl import LineStats, iter_objects, rewrite_lines
from redact.keys.material import Key
from redact.native.scrub import Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport
from redact.formats.roots import choose_roots


def _cwd(data: bytes, name: str) -> str | None:
    for _, record in iter_objects(data, name, skip_bad_lines=True, stats=LineStats()):
        cwd = record.get(CWD) if record.get(KIND) == "session_start" else None
        return cwd if isinstance(cwd, str) and cwd else None
    return None


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    cwd = _cwd(data, name)
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=choose_roots((cwd,)))
    scrubber.cwd = cwd

    def each(record: dict[str, Any]) -> Any:
        kind = record.get(KIND)
        if not isinstance(kind, str) or kind not in RECORD_TYPES:
            report.skipped_records[label(kind) if isinstance(kind, str) else "<no type>"] += 1
            return None
        return scrubber.record(record)

    return rewrite_lines(data, name, each, report=report, skip_bad_lines=skip_bad_lines)
