"""Agent Replay traces (seed 004) scrubbed in their own format (`--to native`).

A trace document stays one document (pretty-printed, as `agent-replay export --format json` writes
it); a JSON Lines trace stays JSON Lines. A step of an unknown type is dropped and counted. The log
names no working directory, so paths are placed as the reader places them: relative paths are
repository paths, absolute ones go to their bucket.
"""
from __future__ import annotations

from typing import Any

import orjson

from redact.formats.agent_replay.keys import STEP_ID, STEP_TYPE, STEP_TYPES, STEPS
from redact.formats.agent_replay.native_table import DOCUMENT, RUN, STEP, TABLE
from redact.formats.agent_replay.table import sniff_doc
from redact.formats.common import label
from redact.formats.jsonl import rewrite_lines
from redact.keys.material import Key
from redact.native.scrub import DROP, Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def _known(step: Any, report: RedactionReport) -> bool:
    kind = step.get(STEP_TYPE) if isinstance(step, dict) else None
    if isinstance(kind, str) and kind in STEP_TYPES:
        return True
    report.skipped_records[label("step", kind if isinstance(kind, str) else None)] += 1
    return False


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report)
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError:
        doc = None
    if sniff_doc(doc):
        assert isinstance(doc, dict)
        doc = {**doc, STEPS: [s for s in doc[STEPS] if _known(s, report)]}
        out = scrubber.value(DOCUMENT, doc, "document")
        return orjson.dumps(out if out is not DROP else {STEPS: []}, option=orjson.OPT_INDENT_2) + b"\n"

    def each(record: dict[str, Any]) -> Any:
        spec = RUN if STEP_ID not in record and STEP_TYPE not in record else STEP
        if spec is STEP and not _known(record, report):
            return None
        scrubbed = scrubber.value(spec, record, "run" if spec is RUN else "step")
        return None if scrubbed is DROP else scrubbed

    return rewrite_lines(data, name, each, report=report, skip_bad_lines=skip_bad_lines)
