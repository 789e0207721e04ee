"""Kimi CLI wire logs scrubbed in their own format (`--to native`): JSON Lines, event for event (a
subagent's nested events by the same table; a line whose event type the table does not know is
left out and counted); a `context.jsonl` message by its role, by the same table. The wire log names no work dir, so paths go to their
bucket or stay relative; an event type the table does not know is dropped and counted."""
from __future__ import annotations

from typing import Any

from redact.formats.common import label
from redact.formats.jsonl import rewrite_lines
from redact.formats.kimi.keys import CONTEXT_ROLES, EVENT_TYPES, KIND, LINE_TYPE, MESSAGE, ROLE
from redact.formats.kimi.native_table import TABLE
from redact.keys.material import Key
from redact.native.scrub import Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=())

    def each(record: dict[str, Any]) -> Any:
        if LINE_TYPE not in record and MESSAGE not in record and record.get(ROLE) in CONTEXT_ROLES:
            return scrubber.record(record)  # a context.jsonl message, by its role
        event = record.get(MESSAGE)
        kind = event.get(KIND) if isinstance(event, dict) else None
        if record.get(LINE_TYPE) != "metadata" and not (isinstance(kind, str) and kind in EVENT_TYPES):
            report.skipped_records[label(kind) if isinstance(kind, str) else "<no type>"] += 1
            return None
        return scrubber.record(record)

    return rewrite_lines(data, name, each, report=report, skip_bad_lines=skip_bad_lines)
