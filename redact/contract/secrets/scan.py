"""Scanning strings for secrets: every detector family over each distinct string, overlapping
findings merged by precedence (provider rules, then detect-secrets' plugins, then context rules,
then the entropy check)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from redact.contract.secrets import context, plugins
from redact.contract.secrets.anchors import PROVIDER_CASED, PROVIDER_LITERALS, PROVIDER_REGEXES, AnchorIndex
from redact.contract.secrets.context import context_findings
from redact.contract.secrets.entropy import entropy_findings
from redact.contract.secrets.plugins import detect_secrets_findings
from redact.contract.secrets.providers import provider_findings, public_jwt
from redact.contract.secrets.rules import HintIndex
from redact.contract.secrets.values import SecretHit, is_exempt, mask

_HINTS = HintIndex(plugins.HINTS | context.HINTS)
# At rest (a log as it sits on disk, not a map), a long opaque token is reported only after a word
# that names a credential, on its line and at most `_KEYWORD_REACH` characters before it
# (`api_key: "..."`, `Bearer ...`, `<secret>...`): logs are full of random ids, hashes and blobs
# that a map would never hold. Each keyword is also an anchor (anchors.py).
# `auth`, `key` and `pass` as words of their own (`api_key`, `X-Auth`), not `authorize`, `keyboard`.
_KEYWORD_BEFORE = re.compile(
    r"passw(?:or)?d|passphrase|pass(?![a-z])|pwd|secret|token|apikey|key(?![a-z])|cred|auth(?![a-z])"
    r"|authorization|bearer",
    re.IGNORECASE,
)
_KEYWORD_REACH = 48
# What may stand between the keyword's word and the token: an assignment, quotes, brackets, and a
# scheme word (`Authorization: Api-Key ...`), not another word (`auth-fea4...<hash>.rcgu.o` is a
# build artefact's name, `<secret>{name ...}` names something else).
_WORD_REST = re.compile(r"\w*")
_ASSIGNING = re.compile(
    r"""[\s"'`:=>(){}\[\],|*\-]*(?:(?:bearer|basic|token|api-?key|key)\b[\s"'`:=]*)?""", re.IGNORECASE
)
# the hints one of which every `_KEYWORD_BEFORE` match contains (a string without one skips it)
_KEYWORD_HINTS = frozenset({"pass", "pwd", "secret", "token", "key", "cred", "auth", "bearer"})
assert _KEYWORD_HINTS <= context.HINTS


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

    def drop(self, which: Callable[[int, int, str], bool]) -> None:
        """Leave out the findings `which` names (the spans they held are free again)."""
        self.findings = [f for f in self.findings if not which(*f)]
        self._starts = [start for start, _, _ in self.findings]

    def add_all(self, found: list[tuple[int, int, str]]) -> None:
        """Add one family's findings, earlier (then shorter) first, each unless it overlaps."""
        for start, end, rule in sorted(found):
            if not self.overlaps(start, end):
                i = bisect.bisect_right(self._starts, start)
                self.findings.insert(i, (start, end, rule))
                self._starts.insert(i, start)


def _named(text: str, found: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The entropy findings that a credential keyword on their line assigns (`_KEYWORD_BEFORE`,
    `_ASSIGNING`)."""
    kept = []
    for start, end, rule in found:
        line_start = text.rfind("\n", 0, start) + 1
        for m in _KEYWORD_BEFORE.finditer(text, max(line_start, start - _KEYWORD_REACH), start):
            word = _WORD_REST.match(text, m.end(), start)
            word_end = word.end() if word is not None else m.end()
            if context.public_key_name(text, m.start(), word_end):
                continue  # `VAPID_PUBLIC_KEY: ...` names a public key, not a secret
            if _ASSIGNING.fullmatch(text, word_end, start):
                kept.append((start, end, rule))
                break
    return kept


def _scan(text: str, at_rest: bool = False) -> list[tuple[int, int, str]]:
    """All findings in one string as (start, end, rule), disjoint and ordered by start; of
    overlapping findings the one of the family with precedence wins, then the earlier one.
    `at_rest`: the string is part of a log on disk; entropy findings need a keyword before them."""
    if len(text) < 8 or is_exempt(text):
        return []
    lowered = text.lower()
    present = _HINTS.present(lowered)
    accepted = _Accepted()
    if not at_rest or _provider_index().holds(text, lowered):  # at rest, most strings hold no prefix
        accepted.add_all(provider_findings(text))
    accepted.add_all(detect_secrets_findings(text, present, accepted.overlaps))
    accepted.add_all(context_findings(text, present, accepted.overlaps, lowered))
    if at_rest:
        if present & _KEYWORD_HINTS:
            accepted.add_all(_named(text, entropy_findings(text, accepted.overlaps)))
        public = [(start, end) for start, end, rule in accepted.findings
                  if rule == "jwt" and public_jwt(text[start:end])]
        if public:  # a published key, and whatever was found inside it
            accepted.drop(lambda start, end, _rule: any(s < end and start < e for s, e in public))
    else:
        accepted.add_all(entropy_findings(text, accepted.overlaps))
    return accepted.findings


# A long string at rest is searched only around its anchors (anchors.py): from `_BEFORE` characters
# before one to `_AFTER` after it, each end pushed out to whitespace so no token is cut. Every
# at-rest finding holds an anchor and ends within `_AFTER` of it unless it is one long token, which
# the push to whitespace keeps whole; an entropy finding starts within `_KEYWORD_REACH` of its
# keyword.
_LONG, _BEFORE, _AFTER = 4096, 320, 1024
_SPACE = re.compile(r"\s")
_ANCHOR_INDEX: list[AnchorIndex] = []


_PROVIDER_INDEX: list[AnchorIndex] = []


def _provider_index() -> AnchorIndex:
    if not _PROVIDER_INDEX:
        _PROVIDER_INDEX.append(AnchorIndex(PROVIDER_LITERALS, PROVIDER_CASED, PROVIDER_REGEXES))
    return _PROVIDER_INDEX[0]


def _windows(text: str, positions: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for at in positions:
        if out and at - _BEFORE <= out[-1][1]:
            start = out[-1][0]
            out.pop()
        else:
            start = max(0, at - _BEFORE)
            while start > 0 and not text[start - 1].isspace():
                start -= 1
        m = _SPACE.search(text, min(len(text), at + _AFTER))
        out.append((start, m.start() if m is not None else len(text)))
    return out


def _at_rest(text: str) -> list[tuple[int, int, str]]:
    if len(text) <= _LONG:
        return _scan(text, True)
    if not _ANCHOR_INDEX:
        _ANCHOR_INDEX.append(AnchorIndex())
    positions = _ANCHOR_INDEX[0].positions(text)
    if positions is None:
        return _scan(text, True)
    found: list[tuple[int, int, str]] = []
    for start, end in _windows(text, positions):
        found.extend((start + s, start + e, rule) for s, e, rule in _scan(text[start:end], True))
    return found


def secret_spans(text: str, *, at_rest: bool = False) -> list[tuple[int, int, str]]:
    """(start, end, rule) of every finding in one string, disjoint and in order: what `find_secrets`
    reports for it, with where each value sits. For callers that must replace the values in place
    (the sweep's scrub); the spans index `text`, which they must not print. `at_rest`: `text` is
    (part of) a log on disk, not a map: a long opaque token counts only after a credential keyword
    (anchors.py lists what every such finding contains; a long string is searched around them)."""
    return _at_rest(text) if at_rest else list(_scan(text))


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
