"""Kiro CLI sessions: the `/chat save` export (`kiro-session-export-v1`) and the CLI's own store
`~/.kiro/sessions/cli/<uuid>.json` + `<uuid>.jsonl` (the same records, once as one document, once as
a pair of files): table.py (sniffers, the pair's assembly, session listing), native_table.py (the one
table), keys.py, reader.py, native.py. Kiro's `/save` ConversationState is `kiro_legacy/`."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="kiro",
    description="Kiro CLI session (the /chat save export kiro-session-export-v1, or the store "
                "~/.kiro/sessions/cli/<uuid>.json + .jsonl; seen: session_state v1, May 2026)",
    package=__name__,
    jsonl=False,  # the export is one document, the store's log JSON Lines: decided by the content
    document=True,
    sessions="table:list_sessions",
    assembles="table:assemble",
    skips="table:auxiliary",
    homes=("~/.kiro/sessions/cli",),
)
