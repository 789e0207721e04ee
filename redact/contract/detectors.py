"""Which scanner rule would fire on a value the redactor is about to keep? One question, asked of the
same detectors the leak scanner runs (docs/scanner.md), so redactor and proof agree.

    rule_of(value)            # "language", "taint-phrase", "home", "email", "command" or None
    secret_rules(values)      # per value: the secrets layer's rule ids that fire on it (batched)

The rule names are the classes a fallback is counted under in the redaction report (never the
value). `rule_of` skips the secrets layer, the slow one: callers batch `secret_rules` over every
value of a decision and ask it once.
"""
from __future__ import annotations

from collections.abc import Sequence

from redact.contract.language import looks_like_text
from redact.contract.phrases import has_phrase
from redact.contract.shapes import COMMAND_RE, has_home, has_opaque
from redact.contract.emails import has_email

SECRETS, HOME, EMAIL, COMMAND, LANGUAGE, PHRASE, OPAQUE = (
    "secrets", "home", "email", "command", "language", "taint-phrase", "opaque-id")
RULES = (SECRETS, HOME, EMAIL, COMMAND, LANGUAGE, PHRASE, OPAQUE)


def rule_of(value: str, *, command: bool = True) -> str | None:
    """The first rule (besides secrets) the scanner would flag `value` under, or None.

    `command`: also command-line syntax (paths; an identifier has no such rule, and instead no long
    bare hex or UUID, `has_opaque`)."""
    if not command and has_opaque(value):
        return OPAQUE

    if has_home(value):
        return HOME
    if has_email(value):  # also percent-encoded, full-width, `(at)` spellings
        return EMAIL
    if command and COMMAND_RE.search(value):
        return COMMAND
    if looks_like_text(value):
        return LANGUAGE
    if has_phrase(value):
        return PHRASE
    return None


def secret_rules(values: Sequence[str]) -> list[tuple[str, ...]]:
    """For each of `values`, the ids of the secrets layer's detectors that fire on it ((): none)."""
    from redact.contract.secrets import find_secrets  # the secrets layer loads on first use

    out: list[list[str]] = [[] for _ in values]
    for hit in find_secrets(values):
        out[hit.index].append(hit.rule)
    return [tuple(rules) for rules in out]


__all__ = ["COMMAND", "EMAIL", "HOME", "LANGUAGE", "OPAQUE", "PHRASE", "RULES", "SECRETS", "rule_of", "secret_rules"]
