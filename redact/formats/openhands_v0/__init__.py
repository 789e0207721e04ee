"""OpenHands V0 conversations (the older event stream: a trajectory export, a JSON list of
`action` / `observation` events, and the file store `~/.openhands/sessions/<id>/events/<n>.json`):
table.py, tree.py, reader.py, native_table.py, native.py."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="openhands-v0",
    description="OpenHands V0 conversation (a trajectory export: a JSON list of action/observation events; "
                "the file store ~/.openhands/sessions/<id>/events/<n>.json, read as one session; "
                "versions seen: 0.5x file store of 2025-10)",
    package=__name__,
    jsonl=False,
    document=True,
    assembles="tree:assemble",
    sessions="tree:list_sessions",
    skips="tree:auxiliary",
    homes=("~/.openhands/sessions",),
)
