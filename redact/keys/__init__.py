"""Keys: the key material (`material.py`, the only module that holds a key or computes HMAC/HKDF),
how far its tokens link (`linkscope.py`), token recording (`recorder.py`) and the local reveal vault
(`vault.py`)."""
from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """The names of the old module `redact.keys`, for one release (redact/moved.py)."""
    from redact.moved import forward

    return forward(__name__, name)
