"""Scanning strings for secrets: every detector family over each distinct string, overlapping
findings merged by precedence (provider rules, then detect-secrets' plugins, then context rules,
then the entropy check)."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from redact.contract.secrets import context, plugins
from redact.contract.secrets.context import context_findings
from redact.contract.secrets.entropy import entropy_findings
from redact.contract.secrets.plugins import detect_secrets_findings
from redact.contract.secrets.providers import provider_findings
from redact.contract.secrets.rules import HintIndex
from redact.contract.secrets.values import SecretHit, is_exempt, mask


_HINTS = HintIndex(plugins.HINTS | context.HINTS)


def _scan(text: str) -> list[tuple[int, int, str]]:
    """All findings in one string as (start, end, rule), disjoint and ordered by start; of
    overlapping findings the one of the family with precedence wins, then the earlier one."""
    if len(text) < 8 or is_exempt(text):
        return []
    present = _HINTS.present(text.lower())
    candidates: list[tuple[int, int, int, str]] = []  # (priority, start, end, rule)
    for priority, found in enumerate(
        (
            provider_findings(text),
            detect_secrets_findings(text, present),
            context_findings(text, present),
            entropy_findings(text),
        )
    ):
        candidates.extend((priority, start, end, rule) for start, end, rule in found)
    accepted: list[tuple[int, int, str]] = []  # disjoint, by start
    starts: list[int] = []
    for _, start, end, rule in sorted(candidates):
        i = bisect.bisect_right(starts, start)
        if (i > 0 and accepted[i - 1][1] > start) or (i < len(accepted) and accepted[i][0] < end):
            continue  # overlaps a finding already accepted
        accepted.insert(i, (start, end, rule))
        starts.insert(i, start)
    return accepted


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
        found = [(rule, mask(text[start:end])) for start, end, rule in _scan(text)]
        hits.extend(SecretHit(index, rule, masked) for index in indices for rule, masked in found)
    hits.sort(key=lambda hit: hit.index)  # stable: findings keep their order within a string
    return hits
