"""Apply a policy to a session map: the walk over the map (`walk.py`) and what it does to each value
(`leaves.py`), path modes and the path guard (`paths.py`, `pathguard.py`, `modes.py`), identifier
scrubbing (`identifiers.py`) and the references between parts of a map (`refs.py`)."""
from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """The names of the old module `redact.apply`, for one release (redact/moved.py)."""
    from redact.moved import forward

    return forward(__name__, name)
