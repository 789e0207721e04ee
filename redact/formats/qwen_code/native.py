"""Qwen Code sessions scrubbed in their own format (`--to native`), in whichever layout they came:
the chat record stays one (pretty-printed) document, the JSON Lines layout stays JSON Lines, record
for record. The repository root is the records' working directory (the JSON Lines layout) or the
chat record's first directory, when it is a repository (redact/formats/roots.py); a record type the table
does not know is dropped and counted."""
from __future__ import annotations

from typing import Any

import orjson

from redact.formats.common import label
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.qwen_code.keys import BRANCH, CWD, KIND, RECORD, RECORD_TYPES
from redact.formats.qwen_code.native_table import DOCUMENT, TABLE
from redact.formats.qwen_code.reader import document_of
from redact.keys.material import Key
from redact.native.scrub import DROP, Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport
from redact.formats.roots import choose_roots
from redact.formats.typed_lines import scrub_typed


def _known(message: Any, report: RedactionReport) -> bool:
    kind = message.get(RECORD.message_type) if isinstance(message, dict) else None
    if isinstance(kind, str) and kind in RECORD.message_kinds:
        return True
    report.skipped_records[label("message", kind if isinstance(kind, str) else None)] += 1
    return False


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    doc = document_of(data)
    if doc is not None:
        dirs = doc.get(RECORD.directories)
        cwd = dirs[0] if isinstance(dirs, list) and dirs and isinstance(dirs[0], str) else None
        scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report,
                            roots=choose_roots((cwd,), git=True))
        scrubber.cwd = cwd
        messages = doc.get(RECORD.messages)
        doc = {**doc, RECORD.messages: [m for m in messages if _known(m, report)] if isinstance(messages, list) else []}
        out = scrubber.value(DOCUMENT, doc, "document")
        return orjson.dumps(out if out is not DROP else {RECORD.messages: []}, option=orjson.OPT_INDENT_2) + b"\n"
    cwd, git = None, False
    for n, (_, record) in enumerate(iter_objects(data, name, skip_bad_lines=True, stats=LineStats())):
        if cwd is None and isinstance(record.get(CWD), str) and record[CWD]:
            cwd = record[CWD]
        git = git or isinstance(record.get(BRANCH), str) and bool(record[BRANCH])
        if cwd is not None or n > 50:
            break
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=choose_roots((cwd,), git=git))
    scrubber.cwd = cwd
    return scrub_typed(data, name, scrubber, report=report, type_key=KIND, types=RECORD_TYPES,
                       skip_bad_lines=skip_bad_lines)
