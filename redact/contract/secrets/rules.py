"""Loading the secrets layer's rule files (TOML data beside this module), once per process."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

import ahocorasick

_FRAGMENT = re.compile(r"\$\{(\w+)\}")


@cache
def load(name: str) -> dict[str, Any]:
    """The parsed rules file `name` (e.g. "providers.toml") shipped in this package."""
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return tomllib.loads(text)


def expand(regex: str, fragments: dict[str, str]) -> str:
    """`regex` with each `${name}` replaced by fragments[name]; an unknown name is an error."""
    return _FRAGMENT.sub(lambda m: fragments[m.group(1)], regex)


class HintIndex:
    """Which of a fixed set of literal hints occur in a lowercased string, in one pass (an
    Aho-Corasick automaton, overlapping matches included). Detectors whose hints are all absent
    skip their regexes: most strings carry none of them."""

    def __init__(self, hints: Iterable[str]) -> None:
        self._automaton = ahocorasick.Automaton()
        for hint in sorted(set(hints)):
            self._automaton.add_word(hint, hint)
        self._automaton.make_automaton()

    def present(self, lowered: str) -> frozenset[str]:
        return frozenset(hint for _, hint in self._automaton.iter(lowered))


def by_hint(hint_sets: Iterable[Iterable[str]]) -> dict[str, tuple[int, ...]]:
    """For each hint, the indices of the detectors it admits (those whose hints include it)."""
    index: dict[str, list[int]] = {}
    for i, hints in enumerate(hint_sets):
        for hint in hints:
            index.setdefault(hint, []).append(i)
    return {hint: tuple(indices) for hint, indices in index.items()}


def admitted(index: dict[str, tuple[int, ...]], present: frozenset[str]) -> list[int]:
    """Indices, in order, of the detectors admitted by the hints `present` in a string."""
    if not present:
        return []
    return sorted({i for hint in present for i in index.get(hint, ())})
