"""The secrets layer of the leak scanner, re-exported from redact/contract/secrets/ (one module per
detector family there), so that the scanner and the redactor use the same detectors."""

from __future__ import annotations

from redact.contract.secrets import (
    CONTEXT_RULES,
    PROVIDER_RULES,
    SecretHit,
    VerificationForbidden,
    find_secrets,
    is_exempt,
    mask,
)

__all__ = [
    "CONTEXT_RULES",
    "PROVIDER_RULES",
    "SecretHit",
    "VerificationForbidden",
    "find_secrets",
    "is_exempt",
    "mask",
]
