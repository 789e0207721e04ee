"""Kiro CLI sessions scrubbed in their own format (`--to native`): the `/chat save` export stays one
pretty-printed document, the store's `<uuid>.json` one document (on one line), its `<uuid>.jsonl`
JSON Lines. Paths are placed under the session's working directory, as the reader places them.

The output must still load in Kiro (`/chat load`): a record kind the table does not know is dropped
and counted, and when that leaves two `AssistantMessage` records in a row (Kiro refuses that), the
second one's blocks are merged into the first: Kiro never writes two, so the output never holds two.
A thinking block is dropped whole (never half a block: its signature would no longer match).
"""
from __future__ import annotations

from typing import Any

import orjson

from redact.formats.chatlog import as_object, root_of
from redact.formats.common import label
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.kiro.keys import CONTENT, CWD, DATA, EXPORT_METADATA, KIND, LOG_ENTRIES
from redact.formats.kiro.native_table import ENTRY, EXPORT, METADATA, TABLE
from redact.formats.kiro.reader import _document
from redact.formats.kiro.table import is_metadata
from redact.keys.material import Key
from redact.native.scrub import DROP, Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def known(records: list[Any], report: RedactionReport) -> list[dict[str, Any]]:
    """The records whose kind the table knows (the others counted), with no two `AssistantMessage`
    records in a row: a second one's content blocks are appended to the first's."""
    out: list[dict[str, Any]] = []
    for record in records:
        kind = record.get(KIND) if isinstance(record, dict) else None
        if not isinstance(kind, str) or kind not in ENTRY.cases:
            report.skipped_records[label("record", kind if isinstance(kind, str) else None)] += 1
            continue
        if kind == "AssistantMessage" and out and out[-1].get(KIND) == "AssistantMessage":
            first, second = as_object(out[-1].get(DATA)), as_object(record.get(DATA))
            blocks = [*(first.get(CONTENT) or []), *(second.get(CONTENT) or [])] \
                if isinstance(first.get(CONTENT) or [], list) and isinstance(second.get(CONTENT) or [], list) else []
            out[-1] = {**out[-1], DATA: {**first, CONTENT: blocks}}
            report.skipped_records["record:AssistantMessage:<merged into the one before>"] += 1
            continue
        out.append(record)
    return out


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    doc = _document(data, name) if data.strip() else None
    meta = as_object(doc.get(EXPORT_METADATA)) if isinstance(doc, dict) and LOG_ENTRIES in doc else doc
    cwd = meta.get(CWD) if isinstance(meta, dict) and isinstance(meta.get(CWD), str) else None
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=root_of(cwd, project=True))
    scrubber.cwd = cwd
    if isinstance(doc, dict) and LOG_ENTRIES in doc:
        entries = doc.get(LOG_ENTRIES)
        whole = {**doc, LOG_ENTRIES: known(entries if isinstance(entries, list) else [], report)}
        out = scrubber.value(EXPORT, whole, "export")
        return orjson.dumps(out if out is not DROP else {}, option=orjson.OPT_INDENT_2) + b"\n"
    if is_metadata(doc):
        out = scrubber.value(METADATA, doc, "metadata")
        return orjson.dumps(out if out is not DROP else {}) + b"\n"
    stats = LineStats()
    records = [doc] if isinstance(doc, dict) else \
        [r for _, r in iter_objects(data, name, skip_bad_lines=skip_bad_lines, stats=stats)]
    lines = [scrubber.record(r) for r in known(records, report)]
    stats.warn_skipped(report)
    return b"".join(orjson.dumps(line) + b"\n" for line in lines if line is not None)
