"""Agent Replay traces (one JSON document): table.py, reader.py, native_table.py, native.py."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="agent-replay",
    description="Agent Replay trace (JSON: a Run with its Steps, from `agent-replay export`)",
    package=__name__,
    jsonl=False,
    document=True,
)
