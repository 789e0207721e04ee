"""The value checks of the grammar proof: what a string of each field class may look like.

One `ValueClasses` per scan: a classifier per field class, each with a cache (a map repeats the
same tool names, verbs and paths thousands of times). The predicates are the shared grammar
(`redact/model/grammar.py`, `redact.verbs.is_valid_verb`); the checks no class can waive (e-mail
addresses, home folders, URL credentials, command-line syntax in paths) are added here, the shapes
of home folders and command lines from redact/contract/shapes.py (the redactor asks them too).

A verdict is (kind, rule ids): kind is PROVEN (closed or opaque: nothing else needs to look at it),
a disclosed kind (`ident:<category>`, PATH, TEXT kept on purpose) or REJECTED.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import Any, Protocol

from redact.model.canonical import content_hash
from redact.contract.emails import has_email
from redact.contract.identshape import CATEGORIES as SENTENCE_CATEGORIES, sentence_rule
from redact.contract.shapes import COMMAND_RE, has_home, has_opaque
from redact.model import grammar as g
from redact.model.fieldclass import Kind
from redact.verbs.classify import is_vcs_action


class Spec(Protocol):
    """What a value check reads of a compiled field (`audit.grammar.Spec`; named here so this module
    does not import the grammar, which imports it)."""

    @property
    def tag(self) -> str: ...
    @property
    def kind(self) -> Kind: ...
    @property
    def category(self) -> str | None: ...
    @property
    def values(self) -> frozenset[str] | None: ...
    @property
    def text_key(self) -> str | None: ...

PROVEN = "proven"
REJECTED = "rejected"
PATH = "path"
TEXT = "text"
IDENT = "ident:"  # + category

_URL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)([^?#]*)(.*)$")

Verdict = tuple[str, tuple[str, ...]]  # (kind of string, rule ids of its findings)
_OK: Verdict = (PROVEN, ())


def url_rules(value: str) -> tuple[str, ...]:
    """Credentials, query strings and fragments never survive in a URL (DESIGN.md section 6)."""
    m = _URL_RE.match(value)
    if m is None:
        return ()
    rules: list[str] = []
    if "@" in m.group(1):
        rules.append("grammar.url-credentials")
    if m.group(3):
        rules.append("grammar.url-query")
    return tuple(rules)


def extra_rules(value: str) -> tuple[str, ...]:
    """Checks every string that is not proven gets, whatever its field: e-mail, home folders."""
    rules: tuple[str, ...] = ()
    if has_email(value):  # also percent-encoded, full-width, `(at)` spellings (redact/contract/emails.py)
        rules += ("grammar.email",)
    if has_home(value):
        rules += ("grammar.path-home",)
    return rules


class ValueClasses:
    """The per-scan string classifiers, one per field class, each with its own verdict cache."""

    def __init__(self, path_mode: str, verb_ok: Callable[[str], bool],
                 kept_identifiers: Mapping[str, Collection[str]] | None,
                 keep_text: frozenset[str]) -> None:
        self.path_mode = path_mode
        self.verb_ok = verb_ok
        self.kept = kept_identifiers
        self.keep_text = keep_text
        self.caches: dict[str, dict[str, Verdict]] = {}
        self.expected_hash: str | None = None
        self.session_map: dict[str, Any] = {}

    def verdict(self, spec: Spec, value: str) -> Verdict:
        if spec.kind is Kind.ENUM:
            if spec.values is not None and value in spec.values:
                return _OK
            return self._rejected(value, "grammar.enum")
        cache = self.caches.get(spec.tag)
        if cache is None:
            cache = self.caches[spec.tag] = {}
        out = cache.get(value)
        if out is None:
            out = cache[value] = self._classify(spec, value)
        return out

    @staticmethod
    def _rejected(value: str, rule: str) -> Verdict:
        return (REJECTED, (rule,) + tuple(r for r in extra_rules(value) if r != rule))

    def _classify(self, spec: Spec, value: str) -> Verdict:
        kind = spec.kind
        if kind is Kind.TIMESTAMP:
            return _OK if g.is_timestamp(value) else self._rejected(value, "grammar.timestamp")
        if kind is Kind.ID:
            return _OK if g.is_id(value) else self._rejected(value, "grammar.id")
        if kind is Kind.VERSION:
            return _OK if g.VERSION_RE.fullmatch(value) else self._rejected(value, "grammar.version")
        if kind is Kind.LABEL:
            return _OK if g.is_bucket_label(value) else self._rejected(value, "grammar.label")
        if kind is Kind.VERB:
            return _OK if self.verb_ok(value) else self._rejected(value, "grammar.verb")
        if kind is Kind.ACTION:
            return _OK if is_vcs_action(value, self.verb_ok) else self._rejected(value, "grammar.action")
        if kind is Kind.PATH:
            return self._path(value)
        if kind is Kind.IDENT:
            return self._ident(spec.category or "", value)
        if kind is Kind.TEXT:
            if spec.text_key in self.keep_text:
                rules = extra_rules(value)
                return (REJECTED, rules) if rules else (TEXT, ())
            return self._rejected(value, "grammar.text")
        if kind is Kind.DIGEST:  # an opaque keyed digest; `scan --source` checks it against the log
            return _OK if g.SOURCE_DIGEST_RE.fullmatch(value) else self._rejected(value, "grammar.source-digest")
        if kind is Kind.HASH:
            if g.CONTENT_HASH_RE.fullmatch(value) and value == self._expected_hash():
                return _OK
            return self._rejected(value, "grammar.content-hash")
        # NUMBER and BOOL fields never reach here with a string (the walk reports the type)
        return self._rejected(value, "grammar.type")  # pragma: no cover

    def _path(self, value: str) -> Verdict:
        verdict: Verdict = path_verdict(value, self.path_mode, _OK)
        return verdict

    def _ident(self, category: str, value: str) -> Verdict:
        verdict: Verdict = ident_verdict(category, value, self.kept, _OK)
        return verdict

    def _expected_hash(self) -> str:
        if self.expected_hash is None:
            try:
                self.expected_hash = content_hash(self.session_map)
            except (TypeError, ValueError):  # a value canonical JSON refuses: no hash can match
                self.expected_hash = ""
        return self.expected_hash


def declared_mode(session_map: Mapping[str, Any]) -> str:
    """The path grammar to check against: the declared mode; absent -> relative (the format's
    default); a value that is not a mode -> hashed, the strictest (and the enum check reports it)."""
    session = session_map.get("session")
    mode = session.get("pathMode") if isinstance(session, dict) else None
    if mode is None:
        return "relative"
    return mode if mode in g.PATH_MODES else "hashed"


def _reject(value: str, rule: str) -> Verdict:
    return (REJECTED, (rule,) + tuple(r for r in extra_rules(value) if r != rule))


def path_verdict(value: str, mode: str, proven: Any) -> Any:
    """A path-class value under the map's (or log's) path mode; `proven` is the caller's marker.

    Shared by the map grammar and the native grammar, so a rule fixed here holds for both.
    """
    if g.is_bucket_label(value):
        return proven
    if mode == "hashed":
        return proven if g.is_hashed_path(value) else _reject(value, "grammar.path")
    ok = g.is_dirs_only_path(value) if mode == "dirs_only" else g.is_relative_path(value)
    if not ok:
        return _reject(value, "grammar.path")
    rules = extra_rules(value)
    if COMMAND_RE.search(value):
        rules += ("grammar.command-in-path",)
    if _sentence_segment(value, dirs_only=mode == "dirs_only"):
        rules += ("grammar.path-sentence",)
    return (REJECTED, rules) if rules else (PATH, ())


def _sentence_segment(path: str, *, dirs_only: bool) -> bool:
    """Whether a shown name of a path is a sentence in identifier clothing (a file name also
    without its extension)."""
    segs = path.split("/")
    shown = segs[:-1] if dirs_only else segs
    for i, seg in enumerate(shown):
        if seg.startswith("\u2022"):
            continue  # a digest token
        if sentence_rule(seg) is not None:
            return True
        stem, dot, _ = seg.rpartition(".")
        if i == len(segs) - 1 and dot and stem and sentence_rule(stem) is not None:
            return True
    return False


def ident_verdict(category: str, value: str, kept: Any, proven: Any) -> Any:
    """An identifier of `category`: a hash token, or a clean value listed as kept in clear."""
    if g.HASH_TOKEN_RE.fullmatch(value):
        return proven
    if not g.IDENT_RE.fullmatch(value):
        return _reject(value, "grammar.identifier")
    rules = url_rules(value) + extra_rules(value)
    if has_opaque(value):
        rules += ("grammar.identifier-opaque",)
    if category in SENTENCE_CATEGORIES and sentence_rule(value) is not None:
        rules += ("grammar.identifier-sentence",)
    if kept is not None and value not in kept.get(category, ()):
        rules += ("grammar.identifier-undeclared",)
    return (REJECTED, rules) if rules else (IDENT + category, ())
