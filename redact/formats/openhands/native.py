"""OpenHands V1 conversations scrubbed in their own format (`--to native`): `events.json` stays a
list of events, pretty-printed. An event of an unknown kind is dropped and counted; paths are
placed under the first terminal observation's working directory, as the reader places them."""
from __future__ import annotations

from typing import Any

import orjson

from redact.formats.common import json_doc, label
from redact.formats.openhands.keys import KIND
from redact.formats.openhands.native_table import EVENT, TABLE
from redact.formats.openhands.reader import root_of
from redact.keys.material import Key
from redact.native.scrub import DROP, Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    doc = json_doc(data, name)
    events: list[Any] = doc if isinstance(doc, list) else []
    root = root_of(events)
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=(root,) if root else ())
    scrubber.cwd = root
    out = []
    for e in events:
        kind = e.get(KIND) if isinstance(e, dict) else None
        if not isinstance(kind, str) or kind not in EVENT.cases:
            report.skipped_records[label(kind) if isinstance(kind, str) else "<no kind>"] += 1
            continue
        scrubbed = scrubber.value(EVENT, e, "event")
        if scrubbed is not DROP:
            out.append(scrubbed)
    return orjson.dumps(out, option=orjson.OPT_INDENT_2) + b"\n"
