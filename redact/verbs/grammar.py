"""The verb grammar: the shapes a verb may take, independent of any vocabulary.

A verb is a program name followed by subcommand words, joined by single spaces. Every word is
lower-case ASCII (letters, digits, `.`, `_`, `+`, `-`), starts with a letter or a digit, is not all
digits, and so holds no `/`, `\\`, `=`, `@`, `:`, quote or space. Whether a well-shaped verb is *allowed* is a separate question answered by
the vocabulary (a set lookup); this module only says what a word can look like, and names the three
tokens that stand for "no verb could be given".
"""
from __future__ import annotations

import re

UNPARSED = "<unparsed>"
EMPTY = "<empty>"
SCRIPT = "<script>"

#: The special tokens `is_valid_verb` accepts besides vocabulary verbs and hashed script tokens.
SPECIAL_TOKENS: frozenset[str] = frozenset({UNPARSED, EMPTY, SCRIPT})

#: `<script:` + 10 lower-case hex + `>`: a program outside the vocabulary, named by a keyed hash.
HASHED_SCRIPT_RE = re.compile(r"<script:[0-9a-f]{10}>")
HASH_RE = re.compile(r"[0-9a-f]{10}")

#: One word of a verb.
WORD_RE = re.compile(r"[a-z0-9][a-z0-9_.+-]*")

#: Event categories a verb can be filed under (the map's `cat` values that shell commands use).
VERB_CATEGORIES: frozenset[str] = frozenset(
    {"vcs", "test", "build", "package", "cloud", "http", "fs", "shell", "file", "tool"}
)

#: Kinds of verification a command can be recognised as.
VERIFY_KINDS: frozenset[str] = frozenset({"test", "build", "lint", "typecheck"})


def is_word(word: str) -> bool:
    """True when `word` has the shape of one verb word (not whether any vocabulary holds it)."""
    return (
        word.isascii()
        and WORD_RE.fullmatch(word) is not None
        and not word.isdigit()
    )


def hashed_script(digest: str) -> str:
    """The neutral token for an unknown program under a keyed hash; refuses anything but 10 hex."""
    if not isinstance(digest, str) or HASH_RE.fullmatch(digest) is None:
        raise ValueError("a verb hasher must return exactly 10 lower-case hex characters")
    return f"<script:{digest}>"
