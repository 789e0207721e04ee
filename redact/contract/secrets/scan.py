"""Scanning strings for secrets: every detector family over each distinct string, overlapping
findings merged by precedence (provider rules, then detect-secrets' plugins, then context rules,
then the entropy check)."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from functools import lru_cache

from redact.contract.secrets import context, plugins
from redact.contract.secrets.context import context_findings
from redact.contract.secrets.entropy import entropy_findings
from redact.contract.secrets.plugins import detect_secrets_findings
from redact.contract.secrets.providers import provider_findings
from redact.contract.secrets.rules import HintIndex
from redact.contract.secrets.values import SecretHit, is_exempt, mask

_HINTS = HintIndex(plugins.HINTS | context.HINTS)


class _Accepted:
    """Disjoint findings of one string, by start. A finding that overlaps one already accepted is
    dropped; the families run in order of precedence, and each skips the value checks of what
    this would drop anyway (`overlaps`), which changes no result."""

    def __init__(self) -> None:
        self.findings: list[tuple[int, int, str]] = []
        self._starts: list[int] = []

    def overlaps(self, start: int, end: int) -> bool:
        i = bisect.bisect_right(self._starts, start)
        return (i > 0 and self.findings[i - 1][1] > start) or (
            i < len(self.findings) and self.findings[i][0] < end
        )

    def add_all(self, found: list[tuple[int, int, str]]) -> None:
        """Add one family's findings, earlier (then shorter) first, each unless it overlaps."""
        for start, end, rule in sorted(found):
            if not self.overlaps(start, end):
                i = bisect.bisect_right(self._starts, start)
                self.findings.insert(i, (start, end, rule))
                self._starts.insert(i, start)


def _scan(text: str) -> list[tuple[int, int, str]]:
    """All findings in one string as (start, end, rule), disjoint and ordered by start; of
    overlapping findings the one of the family with precedence wins, then the earlier one."""
    if len(text) < 8 or is_exempt(text):
        return []
    lowered = text.lower()
    present = _HINTS.present(lowered)
    accepted = _Accepted()
    accepted.add_all(provider_findings(text))
    accepted.add_all(detect_secrets_findings(text, present, accepted.overlaps))
    accepted.add_all(context_findings(text, present, accepted.overlaps, lowered))
    accepted.add_all(entropy_findings(text, accepted.overlaps))
    return accepted.findings


def secret_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, rule) of every finding in one string, disjoint and in order: what `find_secrets`
    reports for it, with where each value sits. For callers that must replace the values in place
    (the sweep's scrub); the spans index `text`, which they must not print."""
    return list(_scan(text))


def find_secrets(strings: Sequence[str]) -> list[SecretHit]:
    """Credential-shaped values in `strings`, ordered by index and then by position in the string.

    Each distinct string is scanned once; every index that holds it gets its hits. A string that
    `is_exempt` yields nothing. Nothing is sent anywhere: no plugin verification, no network.
    """
    where: dict[str, list[int]] = {}
    for index, text in enumerate(strings):
        where.setdefault(text, []).append(index)
    hits: list[SecretHit] = []
    for text, indices in where.items():
        found = _found(text) if len(text) <= _CACHED_LEN else _masked(text)
        hits.extend(SecretHit(index, rule, masked) for index in indices for rule, masked in found)
    hits.sort(key=lambda hit: hit.index)  # stable: findings keep their order within a string
    return hits


# A short string is often asked about twice per map (the redactor's path guard asks about each
# path it keeps, then the leak scanner about the same path in the map) and again in the next map
# (the same directories, models, tool names): its findings, a function of the string alone, are
# kept for the process in a bounded cache. Long strings (free text) are rarely repeated; not kept.
_CACHED_LEN = 256


def _masked(text: str) -> tuple[tuple[str, str], ...]:
    return tuple((rule, mask(text[start:end])) for start, end, rule in _scan(text))


@lru_cache(maxsize=8192)
def _found(text: str) -> tuple[tuple[str, str], ...]:
    return _masked(text)
