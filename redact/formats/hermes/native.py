"""Hermes Agent sessions scrubbed in their own format (`--to native`), in whichever layout they
came: the session document stays one (pretty-printed) document, the JSON Lines log stays JSON Lines,
line for line. A role the table does not know is dropped and counted."""
from __future__ import annotations

from typing import Any

import orjson

from redact.formats.common import label
from redact.formats.hermes.keys import LINE_ROLES, MESSAGES, ROLE
from redact.formats.hermes.native_table import DOCUMENT, TABLE
from redact.formats.hermes.reader import document_of
from redact.formats.roots import choose_roots
from redact.formats.typed_lines import scrub_typed
from redact.keys.material import Key
from redact.native.scrub import DROP, Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def _known(record: Any, report: RedactionReport) -> bool:
    role = record.get(ROLE) if isinstance(record, dict) else None
    if isinstance(role, str) and role in LINE_ROLES and role != "session_meta":
        return True
    report.skipped_records[label(role) if isinstance(role, str) else "<no role>"] += 1
    return False


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=choose_roots(()))
    doc = document_of(data)
    if doc is not None:
        messages = doc.get(MESSAGES)
        doc = {**doc, MESSAGES: [m for m in messages if _known(m, report)] if isinstance(messages, list) else []}
        out = scrubber.value(DOCUMENT, doc, "document")
        return orjson.dumps(out if out is not DROP else {MESSAGES: []}, option=orjson.OPT_INDENT_2) + b"\n"
    return scrub_typed(data, name, scrubber, report=report, type_key=ROLE, types=LINE_ROLES,
                       skip_bad_lines=skip_bad_lines, untyped="<no role>")
