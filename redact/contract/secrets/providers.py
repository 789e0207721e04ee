"""Provider rules: token formats with a recognisable shape (`ghp_`, `AKIA`, `sk-ant-`, PEM headers,
JWTs, ...), kept as data in providers.toml. The whole match is the secret.

All rules run as one combined regex behind a single start-of-token look-behind, which fails at once
inside words, so a search only tries the rules where a token starts (about 3x faster than without it
on base64 and prose). The first rule that matches at a position names the finding.
"""

from __future__ import annotations

import re
from functools import cache

from redact.contract.secrets.rules import load
from redact.contract.secrets.values import CHUNK, entropy, is_placeholder

_DATA = load("providers.toml")["rule"]
PROVIDER_RULES: tuple[tuple[str, str], ...] = tuple((rule["name"], rule["regex"]) for rule in _DATA)
_PROVIDER = re.compile("(?<![A-Za-z0-9])(?:" + "|".join(pattern for _, pattern in PROVIDER_RULES) + ")")
_RULES_WITHOUT_SANITY = frozenset(rule["name"] for rule in _DATA if not rule.get("sanity", True))
_SKIP = {rule["name"]: rule["skip"] for rule in _DATA if "skip" in rule}


@cache
def _rule_regex(i: int) -> re.Pattern[str]:
    """Rule i's own regex, compiled when a match of the combined one is first named: most runs
    match few provider tokens, and compiling every rule's regex was a tenth of loading the layer."""
    return re.compile(PROVIDER_RULES[i][1])


def _provider_rule(text: str, start: int, end: int) -> str:
    """The name of the first rule that matches text[start:end], as the combined regex chose it."""
    for i, (name, _) in enumerate(PROVIDER_RULES):
        m = _rule_regex(i).match(text, start)
        if m is not None and m.end() == end:
            return name
    return "provider-token"  # unreachable: the combined regex is the union of the rules


def _wordy(value: str) -> bool:
    """Mostly words of four letters or more and no digit: `gloas-checking_Length-Is-...`."""
    chunks = CHUNK.findall(value)
    letters = sum(len(c) for c in chunks if c.isalpha())
    if not letters or any(c.isdigit() for c in value):
        return False
    return sum(len(c) for c in chunks if len(c) >= 4 and c.isalpha()) >= 0.6 * letters


def _plausible_token(value: str, rule: str) -> bool:
    """A provider match that is not a placeholder and is not made of words (after the characters
    its format fixes, when the rule says how many)."""
    value = value[_SKIP.get(rule, 0) :]
    if is_placeholder(value):
        return False
    return rule in _RULES_WITHOUT_SANITY or (entropy(value) >= 3.0 and not _wordy(value))


def provider_findings(text: str) -> list[tuple[int, int, str]]:
    """(start, end, rule) of every plausible provider token in `text`."""
    found = []
    for m in _PROVIDER.finditer(text):
        start, end = m.span()
        rule = _provider_rule(text, start, end)
        if _plausible_token(text[start:end], rule):
            found.append((start, end, rule))
    return found
