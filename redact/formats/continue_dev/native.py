"""Continue sessions scrubbed in their own format (`--to native`): one pretty-printed JSON document."""
from __future__ import annotations

import orjson

from redact.formats.common import json_doc
from redact.formats.continue_dev.native_table import SESSION, TABLE
from redact.formats.continue_dev.reader import root_of
from redact.keys.material import Key
from redact.native.scrub import DROP, Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    doc = json_doc(data, name)
    session = doc if isinstance(doc, dict) else {}
    root = root_of(session)
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=(root,) if root else ())
    out = scrubber.value(SESSION, session, "session")
    return orjson.dumps(out if out is not DROP else {}, option=orjson.OPT_INDENT_2) + b"\n"
