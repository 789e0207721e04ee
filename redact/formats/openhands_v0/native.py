"""OpenHands V0 events scrubbed in their own format (`--to native`): a trajectory stays a list of
events, an event file one event, `metadata.json` itself; pretty-printed. An event of an unknown kind
is dropped and counted; paths are placed under the first shell result's working directory, as the
reader places them."""
from __future__ import annotations

from typing import Any

import orjson

from redact.formats.common import json_doc
from redact.formats.openhands_v0.native_table import EVENT, TABLE
from redact.formats.openhands_v0.reader import root_of
from redact.keys.material import Key
from redact.native.scrub import DROP, Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    doc = json_doc(data, name)
    events: list[Any] = doc if isinstance(doc, list) else [doc]
    root = root_of(events)
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=(root,) if root else ())
    scrubber.cwd = root
    out = [one for e in events if (one := scrubber.value(EVENT, e, "")) is not DROP]
    if isinstance(doc, list):
        return orjson.dumps(out, option=orjson.OPT_INDENT_2) + b"\n"
    return orjson.dumps(out[0] if out else {}, option=orjson.OPT_INDENT_2) + b"\n"
