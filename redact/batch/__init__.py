"""Many inputs at once: which sessions a list of files, folders and globs holds and where each map
goes (`inputs.py`), the run over all cores (`run.py`) and `redact.plan_batch` (`plan.py`)."""
from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """The names of the old module `redact.batch`, for one release (redact/moved.py)."""
    from redact.moved import forward

    return forward(__name__, name)
