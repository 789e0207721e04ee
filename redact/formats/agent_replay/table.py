"""Agent Replay traces (seed 004), declared: step types and the class of every field.

`agent-replay export --format json` writes one JSON document: a Run and its Steps. The seed fixes
the fields, not the envelope, so these layouts are read: `{"run": {...}, "steps": [...]}`,
`{<run fields>, "steps": [...]}`, and JSON Lines holding the Run on one line and one Step per line.
`agent_replay.py` (the reader) reads only fields its native table
(`native_table.py`) classifies; docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

from typing import Any

#: Step types -> handling.
STEP_TYPES: dict[str, str] = {
    "llm_call": "mapped",  # -> llm event (model, usage, latency, output length)
    "tool_call": "mapped",  # -> tool event (the shared tool table); with child steps: a subagent
    "retrieval": "mapped",  # -> tool event, tool `retrieval`
    "memory_read": "mapped",  # -> tool event, tool `memory_read`
    "memory_write": "mapped",  # -> tool event, tool `memory_write`
}
#: Usage keys read from `usage` (aliases of the same number).
USAGE_KEYS: dict[str, tuple[str, ...]] = {
    "in": ("input_tokens", "prompt_tokens"),
    "cr": ("cache_read_input_tokens", "cached_tokens", "cache_read_tokens"),
    "cw": ("cache_creation_input_tokens", "cache_write_tokens"),
    "out": ("output_tokens", "completion_tokens"),
    "latency": ("latency_ms", "duration_ms"),
}

def _run_like(record: object) -> bool:
    return isinstance(record, dict) and isinstance(record.get("run_id"), str) and "step_id" not in record \
        and "event_type" not in record and any(k in record for k in ("agent_name", "started_at", "task",
                                                                       "status", "schema_version"))


def _step_like(record: object) -> bool:
    if not isinstance(record, dict) or not isinstance(record.get("step_id"), str):
        return False
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
    lines = ["| step type | handling |", "|---|---|"]
    for kind, how in STEP_TYPES.items():
        lines.append(f"| `{kind}` | {how} |")
    lines.append("| any other type | skipped, counted by name when it has a safe shape |")
    return "\n".join(lines) + "\n"
