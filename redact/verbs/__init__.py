"""Shell-command verbs: "the program plus a subcommand for multi-verb tools. Never flags, paths or values."

    >>> extract("cd web && FOO=1 npx -y vitest run src/a.test.ts").verb
    'vitest run'
    >>> extract("./scripts/deploy-acme.sh --prod").verb
    '<script>'

The engine is fail-closed: every verb it emits is a member of a closed vocabulary (`is_valid_verb`),
a program outside it becomes `<script>` (or `<script:HASH>` with a keyed hasher), and a line that does
not parse becomes `<unparsed>`. See docs/verbs.md.
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from redact.verbs.classify import is_vcs_action
    from redact.verbs.engine import VerbResult, clear_cache, extract, extract_argv, is_valid_verb, operands
    from redact.verbs.grammar import EMPTY, SCRIPT, UNPARSED, VERB_CATEGORIES, VERIFY_KINDS
    from redact.verbs.vocab import Vocabulary, VocabularyError, default_vocabulary, extend_vocabulary

# Loaded on first use (PEP 562): the scanner imports the vocabulary and grammar submodules without
# loading the engine, the redactor's transform (tests/test_boundaries.py), and `--help` stays quick.
_HOME = {
    "is_vcs_action": "classify",
    **dict.fromkeys(("VerbResult", "clear_cache", "extract", "extract_argv", "is_valid_verb", "operands"), "engine"),
    **dict.fromkeys(("EMPTY", "SCRIPT", "UNPARSED", "VERB_CATEGORIES", "VERIFY_KINDS"), "grammar"),
    **dict.fromkeys(("Vocabulary", "VocabularyError", "default_vocabulary", "extend_vocabulary"), "vocab"),
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'redact.verbs' has no attribute {name!r}")
    value = getattr(import_module(f"redact.verbs.{home}"), name)
    globals()[name] = value
    return value


__all__ = [
    "EMPTY",
    "SCRIPT",
    "UNPARSED",
    "VERB_CATEGORIES",
    "VERIFY_KINDS",
    "VerbResult",
    "Vocabulary",
    "VocabularyError",
    "clear_cache",
    "default_vocabulary",
    "extend_vocabulary",
    "extract",
    "is_vcs_action",
    "extract_argv",
    "is_valid_verb",
    "operands",
]
