"""High-entropy tokens: long opaque tokens without a known prefix, calibrated so identifiers, model
names, paths and this tool's own hash tokens stay quiet."""

from __future__ import annotations

import re
from collections.abc import Callable

from redact.contract.secrets.values import (
    HEX_CHARS,
    is_exempt,
    is_placeholder,
    looks_random,
    near_random_entropy,
)

_RUN = re.compile(r"[A-Za-z0-9+/=_\-]{20,}")
_PATH_WORD = re.compile(r"[A-Za-z][a-z0-9_.\-]{2,}|[a-z]{3,}")
_SEPARATOR = re.compile(r"[-_]")
# Random-looking but public: object ids of model APIs, all over agent logs, and subresource
# integrity digests (`sha512-...` in lock files).
_API_OBJECT_ID = re.compile(
    r"(?:(?:mapr|agent)_)?(?:srvtoolu|toolu|msg|req|call|resp|rs|fc|ctc|file|batch|run|thread|asst"
    r"|step|chatcmpl)[_-][A-Za-z0-9]{16,48}(?:_\d+)?|sha(?:1|256|384|512)-[A-Za-z0-9+/]{27,86}={0,2}"
)


def is_opaque(token: str) -> bool:
    """A long token random-looking enough to be a key, for the entropy detector: at least 20
    characters, not an API object id, and a part of 10 or more between `-`/`_` separators that
    looks random (so `gpt-4o-mini-2024-07-18` stays quiet), is not a hex digest, and has an entropy
    near that of random characters of its alphabet."""
    if len(token) < 20:
        return False
    part = max(_SEPARATOR.split(token), key=len)
    if len(part) < 10 or not looks_random(part) or is_exempt(part):
        return False
    if is_exempt(token) or _API_OBJECT_ID.fullmatch(token) or is_placeholder(token):
        return False
    return near_random_entropy(part, 0.5)


# A character no token alphabet or token format holds (unlike `%` of URL encoding, `|` of Facebook
# app tokens, `@` of URLs, `\` of escapes): a run glued to one is a fragment of a longer word
# (`8q?vq8517nx58ja9e7jrhe4uom3qbo3v`, `abc#def...`), not a token. A `?` before `name=` starts a
# URL query parameter instead, whose value is judged on its own.
_FOREIGN = frozenset("?!#$^*~")
_QUERY_PARAM = re.compile(r"[\w.\-]+=")
_ESCAPE_LETTERS = frozenset("ntrbfu")


def _glued(text: str, start: int, end: int) -> bool:
    """Whether the run text[start:end] touches a foreign character on either side."""
    if start > 0 and text[start - 1] in _FOREIGN:
        return not (text[start - 1] == "?" and _QUERY_PARAM.match(text, start))
    if end < len(text) and text[end] in _FOREIGN:
        return not (text[end] == "?" and _QUERY_PARAM.match(text, end + 1))
    return False


# A word, as a token is one: what whitespace, quotes, backticks and the punctuation that separates
# values in code and prose (`,;()[]{}<>|&`) delimit.
_WORD_EDGES = " \t\n\r\f\v\"'`,;()[]{}<>|&"
_WORD_EDGE = re.compile("[" + re.escape(_WORD_EDGES) + "]")
# In a word, the foreign characters that say it is no token; `*` is left out (a masked value,
# `sk-...****`, and a `user:pa*ss` pair hold one), and `?name=` or `#name=` start a URL's query or
# fragment parameters (`#access_token=...`), whose values are judged on their own.
_WORD_REACH = 1024  # how far from the run a word is read, each way (bounded: a long string costs no more per run)
_WORD_FOREIGN = re.compile(r"[?#](?![\w.\-]+=)|[!$^~]")


def _in_foreign_word(text: str, start: int, end: int) -> bool:
    """Whether the run text[start:end] is part of a longer word holding a foreign character
    (`'c?Z32f1...PPagjg8o3N0J'`, `'...Sf1xQ2?rT0...'`): a fragment of that word, not a token."""
    limit = min(len(text), end + _WORD_REACH)
    m = _WORD_EDGE.search(text, end, limit)
    word_end = m.start() if m is not None else limit
    floor = max(0, start - _WORD_REACH)
    word_start = max(floor, 1 + max(text.rfind(edge, floor, start) for edge in _WORD_EDGES))
    if word_start == start and word_end == end:
        return False
    return _WORD_FOREIGN.search(text, word_start, word_end) is not None


def _never(_start: int, _end: int) -> bool:
    return False


def _opaque_spans(text: str, skip: Callable[[int, int], bool]) -> list[tuple[int, int]]:
    """Spans of long opaque tokens. A run with `/` whose segments are mostly words, numbers or hashes
    is a path: its segments are judged one by one, so hashed paths and source paths stay quiet, while
    a base64 blob with slashes is judged whole."""
    spans = []
    for m in _RUN.finditer(text):
        if _glued(text, m.start(), m.end()):
            continue
        run = m.group()
        if m.start() > 0 and text[m.start() - 1] == "\\" and run[:1] in _ESCAPE_LETTERS:
            run = run[1:]  # `\n` of an escaped line break, not a part of the token after it
            m_start = m.start() + 1
        else:
            m_start = m.start()
        foreign: bool | None = None
        parts = [(run, 0)]
        if "/" in run:
            pieces, offset = [], 0
            for piece in run.split("/"):
                pieces.append((piece, offset))
                offset += len(piece) + 1
            named = [p for p, _ in pieces if p]
            words = sum(1 for p in named if p.isdigit() or is_exempt(p) or _PATH_WORD.fullmatch(p))
            if 2 * words >= len(named):
                parts = pieces
        for part, offset in parts:
            token = part.strip("=-_+")
            if len(token) < 20:
                continue
            start = m_start + offset + part.index(token)
            if skip(start, start + len(token)) or not is_opaque(token):
                continue
            if foreign is None:  # asked once per run, and only of a run with an opaque part
                foreign = _in_foreign_word(text, m.start(), m.end())
            if not foreign:
                spans.append((start, start + len(token)))
    return spans


def entropy_findings(text: str, skip: Callable[[int, int], bool] = _never) -> list[tuple[int, int, str]]:
    """(start, end, rule) of each long opaque token: `high-entropy-hex` or `high-entropy-base64`;
    a token whose span `skip` names (one the caller would drop) is not checked."""
    return [
        (start, end, "high-entropy-hex" if HEX_CHARS.issuperset(text[start:end]) else "high-entropy-base64")
        for start, end in _opaque_spans(text, skip)
    ]
