"""The phrase shape the taint layer searches for: three consecutive words, one white-space character
apart, at least one of them a word of 4 or more letters that is not a glue word.

Shared (redact/contract/): the taint layer (audit/taint.py) builds its automaton from the phrases of
the output strings and reports the ones the source holds; the redactor asks `has_phrase` about each
name it would keep and writes a fallback when the name holds one. A name of a path or identifier
comes from the source, so a phrase in it is always in the source too: the redactor needs no source
to know the taint layer would flag it.

Everything works on the "byte view" of a text: its UTF-8 bytes (ASCII lower-cased, white space made
spaces) decoded as Latin-1, one character per byte, so raw source bytes and decoded strings are
searched alike. Bytes >= 0x80 (parts of non-ASCII characters) count as letters.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from redact.contract.words import FUNCTION_WORDS

# starts only where a word starts: the same matches, in linear time on a long run of letters
WORD_RUN = re.compile("(?<![a-z\x80-\xff])[a-z\x80-\xff]+(?: [a-z\x80-\xff]+){2,}")
SPACES = re.compile(" {2,}")
_LOWER_WS = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ\t\n\r\x0b\x0c",
                            b"abcdefghijklmnopqrstuvwxyz     ")


def byte_view(value: str) -> str:
    """UTF-8 bytes of `value`, ASCII lower-cased, white space made spaces, one char per byte."""
    return value.encode("utf-8", "surrogatepass").translate(_LOWER_WS).decode("latin-1")


def phrases(view: str) -> Iterator[str]:
    """The 3-word phrases of a byte view (runs of spaces already collapsed)."""
    for run in WORD_RUN.findall(view):
        words = run.split(" ")
        for i in range(len(words) - 2):
            three = words[i:i + 3]
            if any(len(w) >= 4 and w not in FUNCTION_WORDS for w in three):
                yield " ".join(three)


def has_phrase(value: str) -> bool:
    """Whether `value` holds a phrase the taint layer would search the source for."""
    view = SPACES.sub(" ", byte_view(value))
    return next(phrases(view), None) is not None


__all__ = ["SPACES", "WORD_RUN", "byte_view", "has_phrase", "phrases"]
