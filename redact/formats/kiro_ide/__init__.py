"""Kiro IDE chat sessions (`globalStorage/kiro.kiroagent/workspace-sessions/<workspace>/<id>.json`,
joined to the execution logs by `executionId`): table.py (sniffer, assembly, listing),
native_table.py (the one table), keys.py, reader.py, native.py. No sample exists: the layout is taken
from public readers of Kiro's files (docs/formats.md says which parts)."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="kiro-ide",
    description="Kiro IDE chat session (globalStorage/kiro.kiroagent/workspace-sessions/<workspace>/<id>.json "
                "with its execution logs; built from public descriptions, no sample seen)",
    package=__name__,
    jsonl=False,
    document=True,
    sessions="table:list_sessions",
    assembles="table:assemble",
    skips="table:auxiliary",
    homes=("~/.config/Kiro/User/globalStorage/kiro.kiroagent/workspace-sessions/*",
           "~/Library/Application Support/Kiro/User/globalStorage/kiro.kiroagent/workspace-sessions/*",
           "~/AppData/Roaming/Kiro/User/globalStorage/kiro.kiroagent/workspace-sessions/*"),
)
