"""Policies: which path mode, which action per identifier category, what (never) to keep."""
from redact.policy.load import EffectivePolicy, list_presets, load_policy
from redact.policy.model import Action, Policy

__all__ = ["Action", "EffectivePolicy", "Policy", "list_presets", "load_policy"]
