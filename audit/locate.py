"""Where a JSON pointer's value sits in a file's text: its line, for SARIF `region.startLine`.

    lines_of(text, ["/events/3/verb", "/session/note"])   # -> {"/events/3/verb": 57, ...}

The text is walked once, down only the paths a wanted pointer goes through (every other value is
skipped by the C JSON decoder). A pointer that does not resolve (a finding on a key, or one the
scanner built) gets the line of its deepest ancestor that does; the root is line 1. A map written on
one line (as `.json.gz` maps are) is honestly line 1 for every pointer.
"""
from __future__ import annotations

import contextlib

import json
from collections.abc import Iterable

_DECODER = json.JSONDecoder()
_WS = " \t\n\r"


def _tokens(pointer: str) -> tuple[str, ...]:
    if not pointer or pointer == "/":
        return ()
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in pointer.lstrip("/").split("/"))


def _skip_ws(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in _WS:
        i += 1
    return i


def _skip_value(text: str, i: int) -> int:
    return _DECODER.raw_decode(text, i)[1]


def _walk(text: str, i: int, prefix: tuple[str, ...], wanted: set[tuple[str, ...]],
          found: dict[tuple[str, ...], int]) -> int:
    """Record the offset of every wanted pointer at or under the value at `i`; return its end."""
    i = _skip_ws(text, i)
    found[prefix] = i
    if not any(w[: len(prefix)] == prefix and len(w) > len(prefix) for w in wanted):
        return _skip_value(text, i)
    depth = len(prefix)
    children = {w[depth] for w in wanted if len(w) > depth and w[:depth] == prefix}
    if text[i] == "{":
        i = _skip_ws(text, i + 1)
        if text[i] == "}":
            return i + 1
        while True:
            key, i = json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined]
            i = _skip_ws(text, i) + 1  # the colon
            i = _walk(text, i, prefix + (key,), wanted, found) if key in children else \
                _skip_value(text, _skip_ws(text, i))
            i = _skip_ws(text, i)
            if text[i] == "}":
                return i + 1
            i = _skip_ws(text, i + 1)  # the comma
    if text[i] == "[":
        i = _skip_ws(text, i + 1)
        if text[i] == "]":
            return i + 1
        n = 0
        while True:
            i = _walk(text, i, prefix + (str(n),), wanted, found) if str(n) in children else \
                _skip_value(text, i)
            i = _skip_ws(text, i)
            if text[i] == "]":
                return i + 1
            i = _skip_ws(text, i + 1)
            n += 1
    return _skip_value(text, i)


def lines_of(text: str, pointers: Iterable[str]) -> dict[str, int]:
    """The 1-based line of each pointer's value in `text` (a JSON document); 1 when it cannot tell."""
    pointers = list(pointers)
    wanted = {_tokens(p) for p in pointers}
    found: dict[tuple[str, ...], int] = {}
    with contextlib.suppress(ValueError, IndexError):  # not JSON after all: what was found still holds
        _walk(text, 0, (), wanted, found)
    out: dict[str, int] = {}
    for pointer in pointers:
        tokens = _tokens(pointer)
        while tokens and tokens not in found:
            tokens = tokens[:-1]
        offset = found.get(tokens, 0)
        out[pointer] = text.count("\n", 0, offset) + 1
    return out
