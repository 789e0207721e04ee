"""Sentences in identifier clothing: a name kept in clear must read as a name, not as a sentence
with its spaces replaced (`we-moved-the-payroll-export-to-the-new-bucket-on-friday`).

Asked of the name categories (`CATEGORIES`; path names: redact/apply/pathguard.py asks it of each shown
segment). Shared by the redactor (an identifier a keep rule would show is hashed, and counted, when this
fires: redact/apply/identifiers.py) and the scanner (audit/values.py flags one a producer left). Two
rules, on the value as written:

- longer than `MAX_CHARS` (64) characters: no tool, model, skill, server or repository name of the
  shipped lists is that long; a longer one is a description;
- `MIN_WORDS` (5) or more dictionary words among its chunks (split at `-`, `_`, `.`, `:`, `/`,
  `+`, `#`, `@`): words of three letters or more found in the English word list that
  `english-words` ships (web2), also with a plural or past ending removed.

The word list is loaded on first use, and only for a value with five chunks or more that could be
words at all (so ordinary names never load it).
"""
from __future__ import annotations

import re
from functools import lru_cache

# The categories whose values are names (a URL-shaped PR, ticket, remote or host has rules of its own).
CATEGORIES = frozenset({"repo", "mcp_server", "mcp_tool", "skill", "subagent_type", "model", "hook", "tool",
                        "agent_tool", "tracker", "artifact"})
MAX_CHARS = 64
MIN_WORDS = 5
_CHUNKS = re.compile(r"[-_.:/+#@\s]+")
_ALPHA = re.compile(r"[A-Za-z]{3,}")
LONG, WORDS = "long-identifier", "sentence-identifier"


@lru_cache(maxsize=1)
def _dictionary() -> frozenset[str]:
    from english_words import get_english_words_set

    return frozenset(get_english_words_set(["web2"], lower=True, alpha=True))


def _is_word(chunk: str, words: frozenset[str]) -> bool:
    low = chunk.lower()
    if low in words:
        return True
    for ending in ("s", "es", "ed", "d", "ing"):
        if low.endswith(ending) and len(low) - len(ending) >= 3 and low[:-len(ending)] in words:
            return True
    return False


@lru_cache(maxsize=16384)
def sentence_rule(value: str) -> str | None:
    """LONG or WORDS when the identifier `value` reads as a sentence (module doc), else None."""
    if len(value) > MAX_CHARS:
        return LONG
    candidates = [c for c in _CHUNKS.split(value) if _ALPHA.fullmatch(c)]
    if len(candidates) < MIN_WORDS:
        return None
    words = _dictionary()
    return WORDS if sum(1 for c in candidates if _is_word(c, words)) >= MIN_WORDS else None


__all__ = ["CATEGORIES", "LONG", "MAX_CHARS", "MIN_WORDS", "WORDS", "sentence_rule"]
