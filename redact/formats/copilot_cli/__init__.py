"""GitHub Copilot CLI session logs: table.py, reader.py, tools.py, native_table.py, native.py."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="copilot-cli",
    description="GitHub Copilot CLI session (~/.copilot/session-state/<id>/events.jsonl with its folder, "
                "or the legacy flat <id>.jsonl; seen: copilotVersion 1.0.10 and legacy `unknown`)",
    package=__name__,
    companions="table:find_companions",
    sessions="table:list_sessions",
    skips="table:auxiliary",
    homes=("~/.copilot/session-state", "~/.copilot/history-session-state"),
)
