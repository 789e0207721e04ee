"""Is there an e-mail address in this string, in any spelling a file name or an identifier may hide it?

Shared by the redactor (a path segment or an identifier it would keep is replaced when this fires)
and the scanner (a kept string is a finding when this fires); neither transforms data with it. The
string is decoded on a copy before matching, so every spelling below is caught:

- as written: `name@example.com`;
- percent-encoded, also twice (`name%40example.com`, `mailto%3Aname%40example.com`, `name%2540...`);
- HTML character references (`name&#64;example.com`, `name&commat;example.com`);
- compatibility forms folded by NFKC: full-width `＠` and `．`, small `﹫`, and the like;
- spelled out: `name(at)example(dot)com`, `name[at]example.com`, `name {at} example {dot} com`,
  `name at example dot com` (a bare ` at ` only with a spelled-out dot, so `look at example.com`
  and ordinary words do not count).

- internationalized: a local part and a domain in any script (`x@exämple.com`, `почта@пример.рф`,
  `用户@例子.广告`), with every character IDNA reads as a label dot (RFC 3490 section 3.1: `.`,
  the ideographic full stop `。`, the full-width `．` and the half-width `｡`) read as a dot.

One shape is not an address: an image's pixel-density suffix, `icon@2x.png`, `logo@3x.webp`.
"""
from __future__ import annotations

import html
import re
import unicodedata
from urllib.parse import unquote

from redact.model.grammar import EMAIL_RE

_MAX_ROUNDS = 3  # percent-decoding rounds: `%252540` is `@` after three
_AT = r"(?:\s*(?:\(at\)|\[at\]|\{at\}|<at>)\s*)"
_DOT = r"(?:\s*(?:\(dot\)|\[dot\]|\{dot\}|<dot>)\s*|\.)"
_WORD_DOT = r"(?:\s+dot\s+)"
_LOCAL = r"[A-Za-z0-9._%+-]+"
_LABEL = r"[A-Za-z0-9-]+"
#: `name(at)example(dot)com`, `name [at] example.com`: a bracketed "at", dots spelled or written.
_BRACKETED = re.compile(rf"(?<![A-Za-z0-9._%+-]){_LOCAL}{_AT}{_LABEL}(?:{_DOT}{_LABEL})*{_DOT}[A-Za-z]{{2,}}\b",
                        re.IGNORECASE)
#: `name at example dot com`: a bare "at" only together with a spelled-out "dot".
_WORDS = re.compile(rf"(?<![A-Za-z0-9._%+-]){_LOCAL}\s+at\s+{_LABEL}(?:(?:{_WORD_DOT}|{_DOT}){_LABEL})*"
                    rf"{_WORD_DOT}[A-Za-z]{{2,}}\b", re.IGNORECASE)
# `icon@2x.png`: a pixel-density suffix before an image extension, not a mail domain.
_DENSITY = re.compile(r"@[1-4](?:\.5)?x\.(?:png|jpe?g|gif|webp|svg|avif|bmp|ico|tiff?)", re.IGNORECASE)
# The label separators of IDNA (RFC 3490 section 3.1), folded to `.` before matching.
_IDNA_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})
# An address in any script: the local part, the labels and the top-level label may hold any
# character outside ASCII (letters of every script and their combining marks), a label also ASCII
# letters, digits and `-`; a top-level label is two or more letters or non-ASCII characters.
_U = r"[^\x00-\x7f\s\u3001]"
_U_LABEL = rf"(?:[A-Za-z0-9]|{_U})(?:[A-Za-z0-9-]|{_U}){{0,62}}"
_UNICODE_EMAIL = re.compile(rf"(?<![A-Za-z0-9._%+-]|{_U})(?:[A-Za-z0-9._%+-]|{_U})+@{_U_LABEL}(?:\.{_U_LABEL})*"
                            rf"\.(?:[A-Za-z]|{_U}){{2,}}")
# Cheap test for "might hide one": anything to decode, or a spelled-out "at".
_HINT = re.compile(r"[%&]|[\(\[\{<\s]at[\)\]\}>\s]", re.IGNORECASE)


def decoded(value: str) -> str:
    """`value` with percent-encoding (up to three rounds), HTML references and NFKC undone."""
    text = value
    for _ in range(_MAX_ROUNDS):
        if "%" not in text:
            break
        step = unquote(text, errors="replace")
        if step == text:
            break
        text = step
    if "&" in text:
        text = html.unescape(text)
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text).translate(_IDNA_DOTS)
    return text


def _plain(text: str) -> bool:
    if "@" not in text:
        return False
    pattern = EMAIL_RE if text.isascii() else _UNICODE_EMAIL
    if not text.isascii():
        text = text.translate(_IDNA_DOTS)
    for m in pattern.finditer(text):
        at = m.group().index("@")
        if not _DENSITY.fullmatch(m.group(), at):
            return True
    return False


def has_email(value: str) -> bool:
    """Whether `value` holds an e-mail address in any spelling the module's notes list."""
    if _plain(value):
        return True
    if value.isascii() and not _HINT.search(value):
        return False
    text = decoded(value)
    return _plain(text) or bool(_BRACKETED.search(text) or _WORDS.search(text))
