"""Provider rules: token formats with a recognisable shape (`ghp_`, `AKIA`, `sk-ant-`, PEM headers,
JWTs, ...), kept as data in providers.toml. The whole match is the secret.

All rules run as one combined regex behind a single start-of-token look-behind, which fails at once
inside words, so a search only tries the rules where a token starts (about 3x faster than without it
on base64 and prose). The first rule that matches at a position names the finding.
"""

from __future__ import annotations

import base64
import json
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


# A PEM block closed within a few lines whose body holds no key material: an example `.env`'s
# `-----BEGIN PRIVATE KEY-----\nyour-private-key\n-----END PRIVATE KEY-----`, or `...`. The body
# counts as empty with fewer than 20 base64 characters (the shortest key, Ed25519 in PKCS#8, has
# 64), or when it is a placeholder without a run of 16 (a key shown cut short, `MIIEvQ...`, is
# still part of a key).
_PEM_CLOSED = re.compile(r"(.{0,300}?)-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----", re.DOTALL)
_PEM_ESCAPES = re.compile(r"\\[nr]|[^A-Za-z0-9+/=]")
_PEM_RUN = re.compile(r"[A-Za-z0-9+/=]{16}")


def empty_pem(text: str, end: int) -> bool:
    """Whether the PEM header ending at `end` opens a block whose body holds no key."""
    m = _PEM_CLOSED.match(text, end)
    if m is None:
        return False
    body = _PEM_ESCAPES.sub(" ", m.group(1))
    return len(body.replace(" ", "")) < 20 or (is_placeholder(m.group(1)) and _PEM_RUN.search(body) is None)


def public_jwt(token: str) -> bool:
    """Whether a JWT is a key its issuer publishes by design: a Supabase `anon` key (its payload
    says `"iss": "supabase", "role": "anon"`), which a web app ships to every browser; its
    `service_role` key is a secret."""
    parts = token.split(".")
    if len(parts) < 2:
        return False
    try:
        payload = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except ValueError:
        return False
    return isinstance(payload, dict) and payload.get("iss") == "supabase" and payload.get("role") == "anon"


def provider_findings(text: str) -> list[tuple[int, int, str]]:
    """(start, end, rule) of every plausible provider token in `text`."""
    found = []
    for m in _PROVIDER.finditer(text):
        start, end = m.span()
        rule = _provider_rule(text, start, end)
        if _plausible_token(text[start:end], rule) and not (rule == "private-key" and empty_pem(text, end)):
            found.append((start, end, rule))
    return found
