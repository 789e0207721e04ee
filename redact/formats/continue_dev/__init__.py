"""Continue sessions (`~/.continue/sessions/<uuid>.json`): table.py, reader.py, native_table.py, native.py.
The folder is `continue_dev` (and the format `continue-dev`): `continue` is a Python keyword."""
from __future__ import annotations

from redact.formats.registry import FormatFolder

FORMAT = FormatFolder(
    name="continue-dev",
    description="Continue session (~/.continue/sessions/<uuid>.json, VS Code extension and cn CLI; "
                "versions seen: extension 1.2.16)",
    package=__name__,
    jsonl=False,
    document=True,
    sessions="table:list_sessions",
    homes=("~/.continue/sessions",),
)
