"""Agent Replay traces (seed 004): the layouts a trace may take, and the sniffers.

`agent-replay export --format json` writes one JSON document: a Run and its Steps. The seed fixes
the fields, not the envelope, so these layouts are read: `{"run": {...}, "steps": [...]}`,
`{<run fields>, "steps": [...]}`, and JSON Lines holding the Run on one line and one Step per line.
`agent_replay.py` (the reader) reads only fields its native table
(`native_table.py`) classifies; docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

from typing import Any

def __getattr__(name: str) -> Any:
    """`STEP_TYPES` (read off the native table) and `USAGE_KEYS` (the usage aliases it is built from)
    live in `native_table.py`, the format's one table; imported on first use."""
    if name in ("STEP_TYPES", "USAGE_KEYS"):
        from redact.formats.agent_replay import native_table

        return getattr(native_table, name)
    raise AttributeError(name)


def _run_like(record: object) -> bool:
    return isinstance(record, dict) and isinstance(record.get("run_id"), str) and "step_id" not in record \
        and "event_type" not in record and any(k in record for k in ("agent_name", "started_at", "task",
                                                                       "status", "schema_version"))


def _step_like(record: object) -> bool:
    if not isinstance(record, dict) or not isinstance(record.get("step_id"), str):
        return False
    from redact.formats.agent_replay.native_table import STEP_TYPES

    kind = record.get("type")
    return isinstance(kind, str) and kind in STEP_TYPES


def sniff_doc(doc: object) -> bool:
    """A trace document: `{"run": {...}, "steps": [...]}` or a Run with its `steps`."""
    if not isinstance(doc, dict) or not isinstance(doc.get("steps"), list) or "schema" in doc:
        return False
    run = doc.get("run") if isinstance(doc.get("run"), dict) else doc
    return _run_like(run) or any(_step_like(s) for s in doc["steps"][:5])


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
