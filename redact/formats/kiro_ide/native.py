"""Kiro IDE chat sessions scrubbed in their own format (`--to native`): the session document stays one
pretty-printed document; paths are placed under its workspace directory, as the reader places them.
An execution log is not a session of its own and is not scrubbed here."""
from __future__ import annotations

import orjson

from redact.formats.chatlog import root_of
from redact.formats.common import json_doc
from redact.formats.kiro_ide.keys import WORKSPACE
from redact.formats.kiro_ide.native_table import SESSION, TABLE
from redact.keys.material import Key
from redact.native.scrub import DROP, Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    doc = json_doc(data, name)
    session = doc if isinstance(doc, dict) else {}
    cwd = session.get(WORKSPACE) if isinstance(session.get(WORKSPACE), str) else None
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=root_of(cwd, project=True))
    scrubber.cwd = cwd
    out = scrubber.value(SESSION, session, "session")
    return orjson.dumps(out if out is not DROP else {}, option=orjson.OPT_INDENT_2) + b"\n"
