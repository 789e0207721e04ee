"""Gemini CLI chat recordings scrubbed in their own format (`--to native`), in whichever layout
they came: a single-JSON recording stays one (pretty-printed) document, a JSONL recording stays
JSON Lines, line for line (each writing of a message is scrubbed on its own).

The repository root is the first of the session's `directories` when the recording names them
(newer clients); else relative paths are repository paths and absolute ones go to their bucket.
"""
from __future__ import annotations

from typing import Any

import orjson

from redact.formats.common import label
from redact.formats.gemini_cli.keys import DIRECTORIES, MESSAGE_KINDS, MESSAGE_TYPE, MESSAGES, SET, TYPE
from redact.formats.gemini_cli.native_table import DOCUMENT, TABLE
from redact.formats.gemini_cli.reader import document_of
from redact.formats.jsonl import LineStats, iter_objects, rewrite_lines
from redact.keys.material import Key
from redact.native.scrub import DROP, Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport
from redact.formats.roots import choose_roots


def _dirs(record: dict[str, Any]) -> str | None:
    for holder in (record, record.get(SET)):
        dirs = holder.get(DIRECTORIES) if isinstance(holder, dict) else None
        if isinstance(dirs, list) and dirs and isinstance(dirs[0], str) and dirs[0]:
            return dirs[0]
    return None


def _known(message: Any, report: RedactionReport) -> bool:
    kind = message.get(MESSAGE_TYPE) if isinstance(message, dict) else None
    if isinstance(kind, str) and kind in MESSAGE_KINDS:
        return True
    report.skipped_records[label("message", kind if isinstance(kind, str) else None)] += 1
    return False


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    doc = document_of(data)
    if doc is not None:
        cwd = _dirs(doc)
        scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=choose_roots((cwd,)))
        scrubber.cwd = cwd
        doc = {**doc, MESSAGES: [m for m in doc[MESSAGES] if _known(m, report)]}
        out = scrubber.value(DOCUMENT, doc, "document")
        return orjson.dumps(out if out is not DROP else {MESSAGES: []}, option=orjson.OPT_INDENT_2) + b"\n"
    cwd = None
    for _, record in iter_objects(data, name, skip_bad_lines=True, stats=LineStats()):
        cwd = _dirs(record)
        if cwd is not None or SET not in record and TYPE in record:
            break
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=choose_roots((cwd,)))
    scrubber.cwd = cwd
    return rewrite_lines(data, name, lambda record: None if TYPE in record and not _known(record, report)
                         else scrubber.record(record), report=report, skip_bad_lines=skip_bad_lines)
