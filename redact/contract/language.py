"""The natural-language detector: does a string read like words of text?

Shared (redact/contract/): the scanner's layer 4 (audit/scan.py, audit/native.py) flags a string it
finds; the redactor asks it first, about every name it would keep (redact/contract/detectors.py), and
writes a fallback instead of a name this would flag.

For maps from other producers there is no source to compare against, so this layer asks a question
of shape: several words in a row, separated by white space, with the glue words of a sentence
(`the`, `for`, `to`...) or sentence punctuation, or a long run of ideographs. Names are not text:
`orders-api`, `claude-sonnet-4-5`, `src/orders/service.py`, `git commit`, `/tmp (scratch)`,
camelCase and snake_case never qualify, because their words are not separated by white space.

The thresholds were tuned on this project's clean outputs (no string qualifies) against planted
sentences (tests/audit/test_language.py); see docs/scanner.md for what this cannot see.
"""
from __future__ import annotations

import re

from redact.contract.words import FUNCTION_WORDS

# One white-space separated chunk that is a word: letters (any script), inner ' or -, optional
# surrounding quotes/brackets and trailing punctuation.
_WORD = re.compile(r"[\"'(\[«“‘]*([^\W\d_]+(?:['’-][^\W\d_]+)*)[\"')\].,;:!?»”’…]*")
_SENTENCE_END = re.compile(r"[.!?…。！？]")
_IDEOGRAPHS = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{8,}")
_CJK_PUNCT = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]{3,}[，。？！、：；]")
_SPACE = re.compile(r"\s")
_QUOTED_WORDS = re.compile(r"[\"“«`]\s*[^\W\d_]+(?:\s+[^\W\d_]+)+\s*[\"”»`]")

MIN_RUN_WITH_GLUE = 3  # "fix for acme": three words with a glue word
MIN_RUN_PLAIN = 4  # "Refund Rounding Globex Orders": four words in a row
MIN_WORDS_TOTAL = 5  # five words in all, one of them a glue word


def looks_like_text(value: str) -> bool:
    """True when `value` reads as natural-language text (a sentence or a phrase of prose)."""
    if len(value) < 8:
        return False
    if _IDEOGRAPHS.search(value) or _CJK_PUNCT.search(value):
        return True
    if not _SPACE.search(value):
        return False
    if _QUOTED_WORDS.search(value):  # "two words" in quotes: a message, a commit subject
        return True
    run = longest = total = 0
    glue_in_run = glue_any = punct_run = False
    best_glue = best_punct = False
    for chunk in value.split():
        m = _WORD.fullmatch(chunk)
        if m is None:
            run, glue_in_run, punct_run = 0, False, False
            continue
        word = m.group(1).lower()
        total += 1
        run += 1
        if word in FUNCTION_WORDS:
            glue_in_run = glue_any = True
        if _SENTENCE_END.search(chunk[-1:]) and run >= 2:
            punct_run = True
        if run > longest or (run == longest and (glue_in_run or punct_run)):
            longest, best_glue, best_punct = run, glue_in_run, punct_run
    if longest >= MIN_RUN_PLAIN:
        return True
    if longest >= MIN_RUN_WITH_GLUE and (best_glue or best_punct):
        return True
    return total >= MIN_WORDS_TOTAL and glue_any
