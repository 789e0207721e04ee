"""Replace, do not refuse: a path name the leak scanner would flag is written as a digest token.

Under `relative` and `dirs_only` a path shows its names; a name that reads as prose (notes-style
repositories: `Meetings/2025-03-04 Call with Dana about the budget.md`), holds a secret, a home
folder, an e-mail address or command-line syntax would make the scanner refuse the whole map. Before
such a path is written, `guard_path` asks the scanner's own detectors (redact/contract/detectors.py)
about each shown segment and about the whole path, and replaces what would fire:

- a segment becomes `•` + 6 hex: of SHA-256 over the UTF-8 repo-relative path up to and including
  that segment (as a dirs_only file name is made), or, with a key, of its keyed hash;
- a file name keeps a known extension (`•3f57d6.md`): the type of a file is structure, not a name;
  it is asked about with and without that extension (stricter than the scanner, which sees it whole);
- when the whole path would still be flagged (a rule that spans segments), every segment becomes a
  token; when even that would be flagged, the path becomes the `outside-repo` bucket.

A name longer than any file system allows (255 UTF-8 bytes) is replaced as well (`path/long-name`),
and a path longer than the map grammar's 4096 characters becomes tokens, then the bucket.

Each replaced path is counted once (per distinct value) in `fallbacks` under `path/<rule>`, the
first rule that fired; never the value. Hashed paths are opaque already and pass unchanged.
"""
from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from redact.contract.detectors import rule_of, secret_rules
from redact.contract.identshape import sentence_rule
from redact.keys.material import Key, sha256_hex
from redact.model.grammar import is_bucket_label
from redact.keys.recorder import TokenRecorder

TOKEN_RE = re.compile("\u2022[0-9a-f]{6}(?:\\.[a-z0-9]{1,10})?")
# Extensions that say what type a file is and nothing else; any other suffix is part of the name.
KNOWN_EXTENSIONS = frozenset("""
md markdown txt rst org adoc tex pdf doc docx odt rtf xls xlsx ods csv tsv ppt pptx odp key pages
numbers json jsonl yaml yml toml ini cfg conf xml html htm css scss sass less svg png jpg jpeg gif
webp bmp ico tif tiff heic mp3 mp4 mov wav webm m4a zip gz tgz tar bz2 xz 7z py pyi ipynb js mjs cjs
ts tsx jsx vue svelte rb go rs java kt kts swift c h cc cpp hpp cs m mm php pl lua r sh bash zsh fish
ps1 bat sql graphql proto lock log env canvas excalidraw base
""".split())  # noqa: SIM905 - a word list reads better as text
FALLBACK_BUCKET = "outside-repo"
MAX_NAME_BYTES = 255  # the longest file name any common file system takes
MAX_PATH_CHARS = 4096  # the map grammar's limit (redact/model/grammar.py)
LONG_NAME = "long-name"


def _extension(name: str) -> str:
    stem, dot, ext = name.rpartition(".")
    return f".{ext}" if dot and stem and ext in KNOWN_EXTENSIONS else ""


def segment_token(prefix: str, key: Key | None) -> str:
    """The digest token of the segment ending the repo-relative path `prefix`."""
    if key is None:
        return "\u2022" + sha256_hex(prefix.encode("utf-8", "surrogatepass"))[:6]
    return "\u2022" + key.ident_digest("path-fallback", prefix, 6)


def _rule(value: str, secrets: tuple[str, ...]) -> str | None:
    return "secrets" if secrets else rule_of(value)


@lru_cache(maxsize=16384)
def _name_rule(name: str) -> str | None:
    """`rule_of` a path segment, then the sentence shape of identifiers (over 64 characters, five
    dictionary words: redact/contract/identshape.py): a function of the name alone, and the same
    directory names come back in path after path, so each distinct one is asked once (bounded, per
    process)."""
    return rule_of(name) or sentence_rule(name)


def _stem(name: str) -> str:
    ext = _extension(name)
    return name[:-len(ext)] if ext else name


def guard_path(path: str, mode: str, key: Key | None, fallbacks: Counter[str] | None = None,
               recorder: TokenRecorder | None = None) -> str:
    """`path` (already in `mode`) with every name the scanner would flag replaced (module doc).

    `recorder` (the reveal vault's) is told each token made, as kind "fallback" -> the segment."""
    if mode not in ("relative", "dirs_only") or is_bucket_label(path):
        return path
    segs = path.split("/")
    shown = len(segs) - 1 if mode == "dirs_only" else len(segs)  # a dirs_only file name is a token
    names = segs[:shown]
    # the scanner runs its secrets layer on the whole path: only when that fires are the segments
    # asked one by one (a name it accepts whole stays, as before)
    whole_secrets = secret_rules([path])[0]
    secrets: list[tuple[str, ...]] = ([*secret_rules(names), whole_secrets] if whole_secrets
                                      else [()] * (len(names) + 1))
    first: str | None = None
    out = list(segs)
    for i, seg in enumerate(names):
        if TOKEN_RE.fullmatch(seg):
            continue
        # a file name is asked with and without its extension: `Call with Dana.md` reads as a phrase
        rule = LONG_NAME if len(seg.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES else (
            ("secrets" if secrets[i] else _name_rule(seg)) or (
                _name_rule(_stem(seg)) if i == len(segs) - 1 else None))
        if rule is None:
            continue
        first = first or rule
        out[i] = _token(segs, i, key, last=i == len(segs) - 1, recorder=recorder)
    new = "/".join(out)
    whole = _rule(new, secrets[-1] if new == path else secret_rules([new])[0])
    if whole is None and len(new) > MAX_PATH_CHARS:
        whole = LONG_NAME
    if whole is not None:
        first = first or whole
        out = [seg if TOKEN_RE.fullmatch(seg) else
               _token(segs, i, key, last=i == len(segs) - 1, recorder=recorder) for i, seg in enumerate(out)]
        new = "/".join(out)
        if len(new) > MAX_PATH_CHARS:
            new = FALLBACK_BUCKET  # more segments than 4096 characters of tokens hold
        elif _rule(new, secret_rules([new])[0]) is not None:  # pragma: no cover - tokens never read as text
            new = FALLBACK_BUCKET
    if first is not None and fallbacks is not None:
        fallbacks[f"path/{first}"] += 1
    return new


def _token(segs: list[str], i: int, key: Key | None, *, last: bool,
           recorder: TokenRecorder | None = None) -> str:
    token = segment_token("/".join(segs[:i + 1]), key)
    if last:
        token += _extension(segs[i])
    if recorder is not None:
        recorder.record("fallback", token, segs[i])
    return token


__all__ = ["FALLBACK_BUCKET", "KNOWN_EXTENSIONS", "TOKEN_RE", "guard_path", "segment_token"]
