"""Pi coding-agent sessions: table.py, reader.py, native_table.py, native.py."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="pi",
    description="Pi coding agent session (~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl; versions "
                "seen: v1 linear logs of late 2025 and v3 id/parentId trees of 2026)",
    package=__name__,
    sessions="table:list_sessions",
    homes=("~/.pi/agent/sessions",),
)
