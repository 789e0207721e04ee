"""Anchors: what every finding of the at-rest scan contains, so that a caller with megabytes of text
(the sweep) runs the detectors only on the strings that hold one.

Every detector family has a necessary condition that is cheap to test over a whole file at once:

* a provider rule: the literal its regex starts with (`ghp_`, `sk-ant-`, `akia`, ...), read from the
  regex itself; a rule that starts with no literal of 3 characters or more is its own anchor;
* a detect-secrets plugin: its hints when they are specific (`akia`, `eyj`, `sg.`), else the gate
  regex that every match of its denylist contains, else its denylist itself;
* a context rule: one of its hints (`pass`, `token`, `://`, ...);
* an at-rest entropy finding: a keyword before it (scan.py `at_rest`), which is a context hint.

`AnchorIndex.positions(text)` gives the offsets of every anchor in `text`, found in two passes (an
Aho-Corasick automaton over the lowercased text for the literals, one combined regex over the text
for the rest). A string with no anchor inside can hold no at-rest finding: that is what
tests/sweep/test_anchors.py checks, on every labeled secret and on generated ones.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from typing import Any

import ahocorasick

from redact.contract.secrets import context, plugins
from redact.contract.secrets.providers import PROVIDER_RULES

#: the shortest literal worth an anchor: shorter ones (`gh`, `ap`, `:`) occur in most strings
_MIN_LITERAL = 3
#: a character class of at most this many literals is expanded into that many anchors
_MAX_CLASS = 6


def _literal_prefixes(pattern: str) -> set[str] | None:
    """The lowercased literal prefixes one of which starts every match of `pattern`, or None when
    some match may start with fewer than `_MIN_LITERAL` fixed characters."""
    try:  # the stdlib's own regex parser, read only
        sre_parse: Any = importlib.import_module("re._parser")
        constants: Any = importlib.import_module("re._constants")
    except ImportError:  # pragma: no cover - another Python: the rule is its own anchor
        return None
    LITERAL, IN, SUBPATTERN, BRANCH = constants.LITERAL, constants.IN, constants.SUBPATTERN, constants.BRANCH

    def walk(items: list[tuple[Any, Any]], prefixes: set[str]) -> set[str]:
        for op, arg in items:
            if op is LITERAL:
                prefixes = {p + chr(arg) for p in prefixes}
            elif op is IN and all(o is LITERAL for o, _ in arg) and len(arg) <= _MAX_CLASS:
                prefixes = {p + chr(c) for p in prefixes for _, c in arg}
            elif op is SUBPATTERN and arg[-1] is not None:
                prefixes = walk(list(arg[-1]), prefixes)
            elif op is BRANCH:
                prefixes = {q for branch in arg[1] for q in walk(list(branch), prefixes)}
            else:
                break
            if len(prefixes) > 64:
                break
        return prefixes

    try:
        found = walk(list(sre_parse.parse(pattern)), {""})
    except (re.error, TypeError, IndexError, AttributeError):  # pragma: no cover
        return None
    if not found or any(len(p) < _MIN_LITERAL for p in found):
        return None
    return {p.lower() for p in found}


# detect-secrets plugins whose hints are too short or common to anchor (`ap`, `cl`, `.`, `:`), with
# what every match of their denylist contains instead (read from detect-secrets 1.5.0's source, as
# plugins.py's hints are): (lowercased literals, case-sensitive literals, regexes). Each regex starts
# with a literal character, which keeps its search fast.
_PLUGIN_ANCHORS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    # `AKC...` or `AP` + a hex digit: case-sensitive
    "artifactory-token": ((), ("AKC", *(f"AP{c}" for c in "0123456789ABCDEF")), ()),
    # `cl...key|pwd|pw|password|pass|token = ...`, or a `https://...cloudant.com` URL
    "cloudant-credentials": (("://", "key", "pwd", "pw", "pass", "token"), (), ()),
    # three dot-separated parts: `...{23,25}.{6}.{27}`
    "discord-bot-token": ((), (), (r"\.[a-zA-Z\d_-]{6}\.",)),
    # `softlayer...key|pwd|password|pass|token = ...` or `api.softlayer.com`
    "softlayer-credentials": (("softlayer", "key", "pwd", "pass", "token"), (), ()),
    # eight digits or more, then `:`
    "telegram-bot-token": ((), (), (r":(?<=\d{8}:)",)),
    # `AC` or `SK` then 32 lowercase letters and digits: case-sensitive
    "twilio-api-key": ((), ("AC", "SK"), ()),
}


# Provider rules whose regex starts with no literal, with what every match contains instead.
_PROVIDER_ANCHORS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "twitter-bearer-token": ((), ("A" * 22,), ()),  # 22 `A`s, then the token
    "facebook-access-token": ((), (), (r"[|%](?<=\d{15}[|%])",)),  # an app id, `|`, the secret
    "terraform-cloud-token": ((".atlasv1.",), (), ()),
    "azure-ad-client-secret": ((), ("Q~",), ()),  # `...3Q~...`
}


def _provider_anchors() -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
    literals: set[str] = set()
    cased: set[str] = set()
    regexes: list[str] = []
    for name, pattern in PROVIDER_RULES:
        prefixes = _literal_prefixes(pattern)
        if prefixes is not None:
            literals |= prefixes
        elif name in _PROVIDER_ANCHORS:
            lowered, sensitive, patterns = _PROVIDER_ANCHORS[name]
            literals |= set(lowered)
            cased |= set(sensitive)
            regexes.extend(patterns)
        else:
            regexes.append(pattern)
    return frozenset(literals), frozenset(cased), tuple(regexes)


PROVIDER_LITERALS, PROVIDER_CASED, PROVIDER_REGEXES = _provider_anchors()


def _collect() -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
    literals: set[str] = set(PROVIDER_LITERALS)
    cased: set[str] = set(PROVIDER_CASED)
    regexes: list[str] = list(PROVIDER_REGEXES)
    for rule, hints, gate, denylist in plugins.anchor_sources():
        if rule in _PLUGIN_ANCHORS:
            lowered, sensitive, patterns = _PLUGIN_ANCHORS[rule]
            literals |= set(lowered)
            cased |= set(sensitive)
            regexes.extend(patterns)
            continue
        if all(len(h) >= _MIN_LITERAL for h in hints):
            literals |= set(hints)
            continue
        derived = [_literal_prefixes(p) for p in denylist]
        if all(d is not None for d in derived):
            literals |= {q for d in derived if d is not None for q in d}
        else:
            regexes.extend([gate] if gate is not None else denylist)
    # `--` starts a flag, but a flag rule also wants a keyword (`--db-password`), itself a hint
    literals |= context.HINTS - {"--"}
    # A JSON writer may escape `/` as `\/`: the URL hint is also searched that way.
    literals |= {h.replace("/", "\\/") for h in literals if "/" in h}
    return frozenset(literals), frozenset(cased), tuple(regexes)


LITERALS, CASED, REGEXES = _collect()


class AnchorIndex:
    """Where the anchors of the at-rest scan sit in a text."""

    def __init__(self, literals: Iterable[str] = LITERALS, cased: Iterable[str] = CASED,
                 regexes: Iterable[str] = REGEXES) -> None:
        self._automaton = _automaton(literals)
        self._cased = _automaton(cased)
        self._regexes = tuple(re.compile(r) for r in dict.fromkeys(regexes))

    def positions(self, text: str) -> list[int] | None:
        """Sorted start offsets of every anchor in `text` (each literal found case-insensitively);
        None when lowercasing moved the offsets (a few rare letters do): then every place counts."""
        lowered = text.lower()
        if len(lowered) != len(text):
            return None
        found = [end - size + 1 for end, size in self._automaton.iter(lowered)]
        found.extend(end - size + 1 for end, size in self._cased.iter(text))
        for regex in self._regexes:
            found.extend(m.start() for m in regex.finditer(text))
        found.sort()
        return found

    def holds(self, text: str, lowered: str | None = None) -> bool:
        """Whether `text` holds an anchor at all (`lowered`: text.lower(), when the caller has it)."""
        if lowered is None:
            lowered = text.lower()
        if len(lowered) != len(text):
            return True
        for _ in self._automaton.iter(lowered):
            return True
        for _ in self._cased.iter(text):
            return True
        return any(regex.search(text) is not None for regex in self._regexes)


def _automaton(words: Iterable[str]) -> ahocorasick.Automaton:
    automaton = ahocorasick.Automaton()
    for word in sorted(set(words)):
        automaton.add_word(word, len(word))
    if len(automaton):
        automaton.make_automaton()
    return automaton


__all__ = ["CASED", "LITERALS", "PROVIDER_CASED", "PROVIDER_LITERALS", "PROVIDER_REGEXES", "REGEXES", "AnchorIndex"]
