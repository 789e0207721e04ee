"""Kiro's session store scrubbed in its own format (`--to native`): `messages.jsonl` event for event
(an event type the table does not know is left out and counted), or `session.json` as one document
(always with its `workspacePaths`, the key that tells it from an event). Paths are placed under the
session's working directory when `session.json` is the input; the log alone names none."""
from __future__ import annotations

from typing import Any

import orjson

from redact.formats.chatlog import root_of
from redact.formats.common import label
from redact.formats.jsonl import rewrite_lines
from redact.formats.kiro_ide_log.keys import PAYLOAD, ROOTS, TYPE, TYPES, WORKSPACES
from redact.formats.kiro_ide_log.native_table import DOCUMENT_KEY, SESSION, TABLE
from redact.formats.kiro_ide_log.table import is_session_doc
from redact.keys.material import Key
from redact.native.scrub import Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def _cwd(doc: dict[str, Any]) -> str | None:
    for key in (WORKSPACES, ROOTS):
        paths = doc.get(key)
        found = next((p for p in paths if isinstance(p, str) and p), None) if isinstance(paths, list) else None
        if found is not None:
            return found
    return None


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    body = data.strip()
    doc: Any = None
    if body[:1] == b"{" and b"\n{" not in body:  # one document (a pretty-printed session.json), not lines
        try:
            doc = orjson.loads(body)
        except orjson.JSONDecodeError:
            doc = None
    if is_session_doc(doc):
        cwd = _cwd(doc)
        scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report,
                            roots=root_of(cwd, project=True))
        scrubber.cwd = cwd
        out = scrubber.value(SESSION, doc, "session")
        out = out if isinstance(out, dict) else {}
        out.setdefault(DOCUMENT_KEY, [])
        return orjson.dumps(out, option=orjson.OPT_INDENT_2) + b"\n"
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=())

    def each(record: dict[str, Any]) -> Any:
        payload = record.get(PAYLOAD)
        kind = payload.get(TYPE) if isinstance(payload, dict) else None
        if not (isinstance(kind, str) and kind in TYPES):
            report.skipped_records[label(kind) if isinstance(kind, str) else "<no type>"] += 1
            return None
        return scrubber.record(record)

    return rewrite_lines(data, name, each, report=report, skip_bad_lines=skip_bad_lines)
