"""VS Code Copilot Chat sessions scrubbed in their own format (`--to native`): one JSON document in,
one (pretty-printed) document out. The repository root is the workspace's folder when
`workspace.json` is beside `chatSessions/` (only from a file on disk); else relative paths are
repository paths and absolute ones go to their bucket.
"""
from __future__ import annotations

from typing import Any

import orjson

from redact.errors import BadInput
from redact.formats.common import label
from redact.formats.copilot_vscode.keys import ENTRY_KIND, PART_KIND, REQUESTS, RESPONSE, VALUE
from redact.formats.copilot_vscode.native_table import DOCUMENT, PART, TABLE
from redact.formats.copilot_vscode.reader import edit_log
from redact.formats.copilot_vscode.table import sniff_doc
from redact.keys.material import Key
from redact.native.scrub import DROP, Scrubber
from redact.tables.spec import Switch
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def _known_parts(request: Any, report: RedactionReport) -> Any:
    """The request with the response parts of a kind the table does not know dropped and counted
    (a part without `kind` is markdown)."""
    assert isinstance(PART, Switch)
    parts = request.get(RESPONSE) if isinstance(request, dict) else None
    if not isinstance(parts, list):
        return request
    kept = []
    for part in parts:
        kind = part.get(PART_KIND) if isinstance(part, dict) else None
        if kind is None or isinstance(kind, str) and kind in PART.cases:
            kept.append(part)
        else:
            report.skipped_records[label("part", kind if isinstance(kind, str) else None)] += 1
    return {**request, RESPONSE: kept}


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    doc = edit_log(data, name, report, skip_bad_lines)
    log = doc is not None
    if doc is None:
        try:
            doc = orjson.loads(data)
        except orjson.JSONDecodeError:
            raise BadInput("not a JSON document", where=name) from None
    if not sniff_doc(doc):
        raise BadInput("not a VS Code Copilot Chat session", where=name)
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report)
    doc = {**doc, REQUESTS: [_known_parts(r, report) for r in doc[REQUESTS]]}
    out = scrubber.value(DOCUMENT, doc, "document")
    out = out if out is not DROP else {REQUESTS: []}
    if log:  # the edit log, replayed: one initial entry
        return orjson.dumps({ENTRY_KIND: 0, VALUE: out}) + b"\n"
    return orjson.dumps(out, option=orjson.OPT_INDENT_2) + b"\n"
