"""Amp threads scrubbed in their own format (`--to native`): the thread stays one pretty-printed JSON
document; paths are placed under its first workspace tree, as the reader places them."""
from __future__ import annotations

import orjson

from redact.formats.amp.native_table import TABLE, THREAD
from redact.formats.amp.reader import root_of
from redact.formats.common import json_doc
from redact.keys.material import Key
from redact.native.scrub import DROP, Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    doc = json_doc(data, name)
    thread = doc if isinstance(doc, dict) else {}
    root = root_of(thread)
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=(root,) if root else ())
    out = scrubber.value(THREAD, thread, "thread")
    return orjson.dumps(out if out is not DROP else {}, option=orjson.OPT_INDENT_2) + b"\n"
