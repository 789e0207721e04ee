"""One spelling per name for matching: what a file system or a reader would take as the same word.

`fold_name` is for comparing a path segment with a known word (`Users`, `home`, `profiles$`), never
for output: the path keeps its own spelling. It undoes
- compatibility forms (NFKC): full-width `Ｕsers`, ligatures, superscripts;
- look-alikes from other scripts (Unicode's confusables data, through `confusable_homoglyphs`):
  the Cyrillic `е` of `Usеrs`, the Greek `ο` of `hοme`;
- what Windows strips from the end of a name: `Users.` and `Users ` open `Users`;
- case (casefold).

`fold_text` folds a whole string the same way (no stripping), for the scanner's shape checks.
Shared by the redactor's home rule (redact/apply/paths.py) and the scanner's home shape
(redact/contract/shapes.py), so both read a look-alike home the same way.
"""
from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def _skeleton() -> dict[int, str]:
    """Non-ASCII character -> the ASCII letter or digit it is confusable with."""
    data = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    out: dict[int, str] = {}
    for char, glyphs in data.items():
        if len(char) != 1 or char.isascii():
            continue
        for glyph in glyphs:
            c = glyph.get("c", "")
            if len(c) == 1 and c.isascii() and c.isalnum():
                out[ord(char)] = c
                break
    return out


def unconfuse(value: str) -> str:
    """`value` with compatibility forms and look-alikes replaced by ASCII; case kept."""
    if value.isascii():
        return value
    text = unicodedata.normalize("NFKC", value)
    return text if text.isascii() else text.translate(_skeleton())


@lru_cache(maxsize=16384)
def fold_text(value: str) -> str:
    """`value` with compatibility forms and look-alikes replaced by ASCII, case folded."""
    return unconfuse(value).casefold()


def fold_name(segment: str) -> str:
    """A path segment as the file system would match it (module doc): also trailing dots and
    spaces removed, as Windows does (`Users.` is `Users`); a name of only dots stays as it is."""
    folded = fold_text(segment)
    stripped = folded.rstrip(". ")
    return stripped if stripped else folded


__all__ = ["fold_name", "fold_text", "unconfuse"]
