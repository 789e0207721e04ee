"""Cline task logs (and its forks Roo Code and Kilo Code): table.py, reader.py, native_table.py,
native.py."""
from __future__ import annotations

from redact.formats.registry import FormatFolder, VSCODE_APPS, app_data

FORMAT = FormatFolder(
    name="cline",
    description="Cline task (globalStorage/saoudrizwan.claude-dev/tasks/<id>/ui_messages.json; also Roo "
                "Code and Kilo Code, which write the same; seen: Cline 3.x tasks of late 2025 to 2026)",
    package=__name__,
    jsonl=False,
    document=True,
    sessions="table:list_sessions",
    skips="table:auxiliary",
    homes=tuple(place for app in (*VSCODE_APPS, "Cursor") for place in app_data(app, "User", "globalStorage", "*", "tasks")),
)
