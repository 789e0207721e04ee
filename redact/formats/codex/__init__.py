"""Codex CLI rollouts: table.py, reader.py (with calls.py, events.py, layouts.py, tools.py, keys.py),
native_table.py, native.py."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="codex",
    description="Codex CLI rollout (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl; also the August-2025 "
                "layout and the single-JSON .json rollout)",
    package=__name__,
    document=True,
    sessions="reader:list_sessions",
    homes=("~/.codex/sessions", "~/.codex/archived_sessions"),
)
