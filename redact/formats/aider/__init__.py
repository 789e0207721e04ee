"""Aider chat histories: table.py (the structured lines, the sniffer), reader.py, native_table.py,
native.py (maps only)."""
from __future__ import annotations

from redact.formats.registry import FormatFolder, PROJECT

FORMAT = FormatFolder(
    name="aider",
    description="Aider chat history (<project>/.aider.chat.history.md, Markdown; versions seen: "
                "0.37.1-dev to 0.83.1)",
    package=__name__,
    sessions="table:list_sessions",
    text=True,
    native=False,
    homes=(PROJECT,),
)
