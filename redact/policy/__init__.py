"""Policies: which path mode, which action per identifier category, what (never) to keep."""
from __future__ import annotations

from typing import Any

from redact.policy.load import EffectivePolicy, list_presets, load_policy

__all__ = ["Action", "EffectivePolicy", "Policy", "list_presets", "load_policy"]


def __getattr__(name: str) -> Any:
    """`Action` and `Policy` (the pydantic model), imported when asked for: a run on a preset
    builds no model (redact/policy/load.py)."""
    if name in ("Action", "Policy"):
        from redact.policy import model

        return getattr(model, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
