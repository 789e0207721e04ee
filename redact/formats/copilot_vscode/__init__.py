"""VS Code Copilot Chat sessions: table.py, reader.py, native_table.py, native.py."""
from __future__ import annotations

from redact.formats.registry import FormatFolder, VSCODE_APPS, app_data

FORMAT = FormatFolder(
    name="copilot-vscode",
    description="VS Code Copilot Chat session (workspaceStorage/<hash>/chatSessions/<uuid>.json, "
                "version 3, or the newer .jsonl edit log, and the \"Export Chat\" .json; seen: Copilot "
                "Chat 0.31.3)",
    package=__name__,
    jsonl=False,
    document=True,
    companions="table:find_companions",
    sessions="table:list_sessions",
    homes=tuple(place for app in VSCODE_APPS for tail in (("User", "workspaceStorage"), ("User", "globalStorage", "emptyWindowChatSessions")) for place in app_data(app, *tail)),
)
