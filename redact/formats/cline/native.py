"""Cline task logs scrubbed in their own format (`--to native`): one JSON list in, one list out.

The repository root is the working directory the first request names (`# Current Working
Directory (...)`); a message of a subtype the table does not know is dropped and counted.
"""
from __future__ import annotations

from typing import Any

import orjson

from redact.errors import BadInput
from redact.formats.cline.native_table import DOCUMENT, TABLE
from redact.formats.cline.reader import _CWD
from redact.formats.cline.keys import ASK_CASES, KINDS, REQUEST, SAY, SAY_CASES, TEXT, TYPE
from redact.formats.cline.table import sniff_doc
from redact.formats.common import label, parse_json_string
from redact.keys.material import Key
from redact.native.scrub import DROP, Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport
from redact.formats.roots import choose_roots


def _cwd(messages: list[Any]) -> str | None:
    for m in messages:
        if isinstance(m, dict) and m.get(SAY) == "api_req_started":
            info = parse_json_string(m.get(TEXT))
            request = info.get(REQUEST) if isinstance(info, dict) else None
            found = _CWD.search(request[:200_000]) if isinstance(request, str) else None
            if found:
                return found.group(1).strip()
    return None


def _known(m: Any, report: RedactionReport) -> bool:
    kind = m.get(TYPE) if isinstance(m, dict) else None
    sub = m.get(kind) if kind in KINDS else None
    if isinstance(sub, str) and sub in (SAY_CASES if kind == SAY else ASK_CASES):
        return True
    report.skipped_records[label(kind if isinstance(kind, str) else "message",
                                 sub if isinstance(sub, str) else None)] += 1
    return False


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError:
        raise BadInput("not a JSON document", where=name) from None
    if not sniff_doc(doc):
        raise BadInput("not a Cline task log (ui_messages.json)", where=name)
    cwd = _cwd(doc)
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=choose_roots((cwd,)))
    scrubber.cwd = cwd
    out = scrubber.value(DOCUMENT, [m for m in doc if _known(m, report)], "messages")
    return orjson.dumps(out if out is not DROP else [], option=orjson.OPT_INDENT_2) + b"\n"
