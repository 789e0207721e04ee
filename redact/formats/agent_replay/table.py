"""Agent Replay traces (seed 004): the layouts a trace may take, and the sniffers.

`agent-replay export --format json` writes one JSON document: a Run and its Steps. The seed fixes
the fields, not the envelope, so these layouts are read: `{"run": {...}, "steps": [...]}`,
`{<run fields>, "steps": [...]}`, and JSON Lines holding the Run on one line and one Step per line.
`agent_replay.py` (the reader) reads only fields its native table
(`native_table.py`) classifies; docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

from typing import Any

#: Keys of other formats' records the sniffers rule out, never read: a TeaAgent event names its
#: `event_type` beside a `run_id`; another format's document declares its `schema`.
FOREIGN_KIND, FOREIGN_SCHEMA = "event_type", "schema"


def __getattr__(name: str) -> Any:
    """`STEP_TYPES` (read off the native table) and `USAGE_KEYS` (the usage aliases it is built from)
    live in `native_table.py`, the format's one table; imported on first use."""
    if name in ("STEP_TYPES", "USAGE_KEYS"):
        from redact.formats.agent_replay import native_table

        return getattr(native_table, name)
    raise AttributeError(name)


def _run_like(record: object) -> bool:
    from redact.formats.agent_replay.keys import RUN_ID, RUN_MARKS, STEP_ID

    return isinstance(record, dict) and isinstance(record.get(RUN_ID), str) and STEP_ID not in record \
        and FOREIGN_KIND not in record and any(k in record for k in RUN_MARKS)


def _step_like(record: object) -> bool:
    from redact.formats.agent_replay.keys import STEP_ID, STEP_TYPE, STEP_TYPES

    if not isinstance(record, dict) or not isinstance(record.get(STEP_ID), str):
        return False
    kind = record.get(STEP_TYPE)
    return isinstance(kind, str) and kind in STEP_TYPES


def sniff_doc(doc: object) -> bool:
    """A trace document: `{"run": {...}, "steps": [...]}` or a Run with its `steps`."""
    from redact.formats.agent_replay.keys import RUN, STEPS

    if not isinstance(doc, dict) or not isinstance(doc.get(STEPS), list) or FOREIGN_SCHEMA in doc:
        return False
    run = doc.get(RUN) if isinstance(doc.get(RUN), dict) else doc
    return _run_like(run) or any(_step_like(s) for s in doc[STEPS][:5])


def sniff(records: list[dict[str, Any]]) -> bool:
    """JSON Lines: a Run line and Step lines."""
    return bool(records) and (_run_like(records[0]) or _step_like(records[0])) and \
        any(_step_like(r) for r in records)


def markdown() -> str:
    from redact.formats.agent_replay.native_table import STEP

    lines = ["| step type | handling |", "|---|---|"]
    for kind, node in STEP.cases.items():
        lines.append(f"| `{kind}` | {'mapped: ' + node.use if node.use else 'skipped'} |")
    lines.append("| any other type | skipped, counted by name when it has a safe shape |")
    return "\n".join(lines) + "\n"
