"""Layer 3, taint against the source: does a distinctive piece of the source's free text appear in
the output?

The source's text is gathered by `audit/source_text.py`, independently of the redactor and of any
format table: every string is text except a small declared set of structural values (type tags,
uuids, timestamps, versions, model names) and opaque blobs; fail closed.

Distinctive pieces of the source's text (ASCII letters lower-cased):

* tokens: runs of `[a-z0-9_.+@-]` and non-ASCII characters of 8 or more characters (compounds such
  as `orders-api.internal`), and their parts between `.+@-` of 8 or more (`ghp_...` inside
  `ghp_...@github.com`), minus the shipped list of common words (`redact/contract/words.py`) and minus pieces
  without a letter;
* phrases: three consecutive words (letters, one white-space character apart) with at least one
  word of 4 or more letters that is not a glue word.

A piece is a leak when it occurs inside an output string. Which output strings are searched:

* for tokens, the strings the grammar rejected. A token inside a disclosed value is not a finding:
  an identifier kept in clear is listed in the report, and a relative or dirs_only path shows its
  names by the mode the report states, so the same name in the source is expected (the repository
  name in the working directory, a file path in a tool call). Proven values (enums, ids, verbs,
  timestamps, `h:` tokens, hashed paths) are closed or opaque and never searched.
* for phrases, the rejected strings and the disclosed identifiers and paths: no identifier or path
  grammar sanctions prose. Only a text field the policy keeps on purpose sanctions it.

How, at the speed of a 100 MB log. ONE Aho-Corasick automaton (pyahocorasick) holds the output
side: every 8-character window of the searched strings' token runs, and every 3-word phrase of them
(also spelt with JSON's `\\n`, `\\t`, `\\r` escapes between the words). It runs twice:

1. over the raw source bytes in one pass (ASCII lower-cased, viewed as Latin-1 so it runs in C with
   no decoding): a window hit at the start of a token (after a non-token character or an escape) is
   extended to the whole token or part, which is kept when an output string holding the window
   contains it. This marks the lines that can hold a leak, and is exact: a token is written
   literally in JSON, except in `\\u` escapes, and lines with `\\u` escapes are always marked;
2. over each text string of the marked lines only, parsed and walked with the structural rules
   above, to find which source field the piece sits in and to apply the rules exactly.

So a source is tokenised in C, and only lines that hold a leak are parsed in Python. When nothing
is left to search (a grammar-clean map without three-word strings), no piece of any source can
match, and the source is not read at all. A source given as the path of a log on disk (what
`redact_file` does for a streamed log) is mapped into memory and read a chunk at a time, each chunk's
pages let go once read: memory does not grow with the log.

Every finding names the source field the piece came from (`assistant:message.content[].text`),
never the piece.
"""
from __future__ import annotations

import mmap
import os
import re
from bisect import bisect_right
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from os import PathLike

import ahocorasick

from audit.findings import Finding, excerpt
from audit.grammar import IDENT, PATH, REJECTED, TEXT, Place
from audit.source_text import (
    LINE_FORMATS,
    OPAQUE_KEYS,
    STRUCTURAL_KEYS,
    doc_text,
    document,
    gunzip,
    iter_source_text,
    line_text,
)
from redact.contract.phrases import SPACES, WORD_RUN, byte_view
from redact.contract.phrases import phrases as phrases_of
from redact.contract.words import COMMON_LONG

GRAM = 8  # the shortest distinctive token, and the window the automaton holds
TOKEN_RULE, PHRASE_RULE = "taint.source-token", "taint.source-phrase"

# Everything below works on the "byte view" of a text (redact/contract/phrases.py): its UTF-8 bytes
# (ASCII lower-cased, white space made spaces) decoded as Latin-1, one character per byte, so raw
# source bytes and decoded strings are searched alike. Bytes >= 0x80 count as letters.
_TC = "a-z0-9_\x80-\xff"  # token characters, separators excluded
_SEPS = ".+@-"
_COMPOUND = re.compile(f"[{_TC}](?:[{_TC}.+@-]*[{_TC}])?")
_PART = re.compile(f"[{_TC}]+")
_RUN = re.compile(f"[{_TC}.+@-]{{{GRAM},}}")
_TOKEN_CHAR = re.compile(f"[{_TC}.+@-]")
_LETTER = re.compile("[a-z\x80-\xff]")
_ESCAPE_LETTERS = frozenset("ntrfb")
_RAW_GAPS = (" ", "\\n", "\\t", "\\r")  # how one white-space character between words looks in JSON
_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
_U_ESCAPE = re.compile(rb"\\u")
_NEWLINE = re.compile(rb"\n")
CHUNK = 8 << 20  # stage 1 reads the raw source in pieces of about this many bytes
_EMPTY: frozenset[int] = frozenset()


def _readable(piece: str) -> str:
    return piece.encode("latin-1").decode("utf-8", "replace")


@dataclass
class TaintResult:
    findings: list[Finding]
    patterns: int = 0  # windows and phrases in the automaton (0: nothing to search)
    searched: int = 0  # output strings searched
    source_lines: int = 0  # source lines (or documents) that could hold a leak, parsed and walked
    source_strings: int = 0  # text strings read from those lines


# -- the output side -------------------------------------------------------------------------------

@dataclass
class _Hay:
    places: list[Place]
    view: str  # byte_view(value), runs of spaces collapsed
    tokens: bool  # searched for tokens (a rejected string)


_GRAM, _PHRASE, _RAW_PHRASE = 0, 1, 2


def _automaton(hay: list[_Hay]) -> tuple[ahocorasick.Automaton, int]:
    """One automaton: 8-character windows of the token runs of rejected strings, and the 3-word
    phrases of every searched string (plain, and as JSON escapes spell them); each pattern maps to
    the indexes of the output strings that hold it."""
    owners: dict[str, list[int]] = {}
    phrases: set[str] = set()
    for i, h in enumerate(hay):
        if h.tokens:
            for run in _RUN.findall(h.view):
                if run in COMMON_LONG:
                    continue
                for j in range(len(run) - GRAM + 1):
                    owners.setdefault(run[j:j + GRAM], []).append(i)
        for phrase in phrases_of(h.view):
            owners.setdefault(phrase, []).append(i)
            phrases.add(phrase)
    automaton = ahocorasick.Automaton()
    for pattern, idx in owners.items():
        automaton.add_word(pattern, (pattern, frozenset(idx), _PHRASE if pattern in phrases else _GRAM))
    for phrase in phrases:
        a, b, c = phrase.split(" ")
        for g1 in _RAW_GAPS:
            for g2 in _RAW_GAPS:
                raw = f"{a}{g1}{b}{g2}{c}"
                if raw != phrase:
                    automaton.add_word(raw, (raw, frozenset(owners[phrase]), _RAW_PHRASE))
    if owners:
        automaton.make_automaton()
    return automaton, len(owners)


def _distinctive(piece: str) -> bool:
    return len(piece) >= GRAM and piece not in COMMON_LONG and _LETTER.search(piece) is not None


class _Search:
    def __init__(self, hay: list[_Hay], automaton: ahocorasick.Automaton) -> None:
        self.hay = hay
        self.automaton = automaton
        self.checked: dict[str, tuple[int, ...]] = {}  # source piece -> output strings holding it
        self.first: dict[int, tuple[str, str, str]] = {}  # output string -> (piece, field, rule)

    def owners_of(self, piece: str, owners: frozenset[int]) -> tuple[int, ...]:
        found = self.checked.get(piece)
        if found is None:
            found = self.checked[piece] = (tuple(sorted(i for i in owners if piece in self.hay[i].view))
                                           if _distinctive(piece) else ())
        return found

    def pieces_at(self, text: str, start: int, escaped_ok: bool) -> list[str]:
        """The source token and part starting at `start`, when a token or part starts there."""
        before = text[start - 1] if start else " "
        compound_start = not _TOKEN_CHAR.match(before) or (
            escaped_ok and before in _ESCAPE_LETTERS and start >= 2 and text[start - 2] == "\\")
        out = []
        if compound_start:
            m = _COMPOUND.match(text, start)
            if m is not None:
                out.append(m.group())
        if compound_start or before in _SEPS:
            m = _PART.match(text, start)
            if m is not None:
                out.append(m.group())
        return out

    # stage 1: raw source, mark lines -----------------------------------------------------------
    def candidate_lines(self, raw: Buffer, size: int, single: bool
                        ) -> tuple[dict[int, set[int] | None], dict[int, int]]:
        """Line start -> the output strings a piece on that line occurs in (None: read it anyway),
        and line start -> line end. Runs over the raw bytes in chunks cut at line ends, each
        tokenised on its own (bounded memory: a file is read a chunk at a time; no pattern spans a
        raw newline). `single`: the source is one document, all of it "line" 0."""
        marked: dict[int, set[int] | None] = {}
        ends: dict[int, int] = {}
        begin = 0
        while begin < size:
            stop = raw.find(b"\n", begin + CHUNK)
            stop = size if stop == -1 else stop + 1
            chunk = raw[begin:stop]
            _release(raw, begin, stop)
            lines = _Lines(chunk, begin, stop, single, ends)
            for m in _U_ESCAPE.finditer(chunk):  # \u escapes can hide characters: such lines are read
                marked[lines.at(m.start())[0]] = None
            text = chunk.translate(_LOWER).decode("latin-1")
            del chunk
            line, line_end, seen = -1, -1, None  # the current line: hits come in text order
            for end, (pattern, owners, kind) in self.automaton.iter(text):
                start = end - len(pattern) + 1
                if start >= line_end:
                    line, line_end = lines.at(start)
                    seen = marked.get(line, _EMPTY)
                if seen is None or seen >= owners:
                    continue
                if kind == _GRAM:
                    found: set[int] = set()
                    for piece in self.pieces_at(text, start, escaped_ok=True):
                        found.update(self.owners_of(piece, owners))
                    if not found:
                        continue
                else:
                    found = set(owners)
                if seen is _EMPTY:
                    seen = marked[line] = found
                else:
                    seen.update(found)  # type: ignore[union-attr]  # a set once marked
            begin = stop
        return marked, ends

    # stage 2: parsed text, exact ---------------------------------------------------------------
    def text(self, where: str, value: str) -> None:
        t = byte_view(value)
        for end, (pattern, owners, kind) in self.automaton.iter(t):
            if kind == _RAW_PHRASE:
                continue
            start = end - len(pattern) + 1
            if kind == _PHRASE:
                if (start and _LETTER.match(t[start - 1])) or (end + 1 < len(t) and _LETTER.match(t[end + 1])):
                    continue
                for i in sorted(owners):
                    self.first.setdefault(i, (pattern, where, PHRASE_RULE))
                continue
            for piece in self.pieces_at(t, start, escaped_ok=False):
                for i in self.owners_of(piece, owners):
                    self.first.setdefault(i, (piece, where, TOKEN_RULE))

    def done(self) -> bool:
        return len(self.first) == len(self.hay)


class _Lines:
    """The lines of one chunk of the source (which starts at `begin` and ends at a line end)."""

    def __init__(self, chunk: bytes, begin: int, stop: int, single: bool, ends: dict[int, int]) -> None:
        self.starts = [0] if single else [0, *(m.end() for m in _NEWLINE.finditer(chunk))]
        self.begin, self.stop, self.single, self.ends = begin, stop, single, ends
        self.past = len(chunk) + 1

    def at(self, pos: int) -> tuple[int, int]:
        """(key, chunk position where the line ends) of the line holding chunk position `pos`; the
        key is the line's start in the source (0 for a document), and its end is noted in `ends`."""
        if self.single:
            return 0, self.past
        starts = self.starts
        i = bisect_right(starts, pos) - 1
        key = self.begin + starts[i]
        following = i + 1 < len(starts)
        if key not in self.ends:
            self.ends[key] = self.begin + starts[i + 1] - 1 if following else self.stop
        return key, starts[i + 1] if following else self.past


# -- the scan ---------------------------------------------------------------------------------------

def taint_scan(strings: Mapping[str, Mapping[tuple[str, ...], Place]], source: bytes | PathLike[str],
               source_format: str | None = None) -> TaintResult:
    """Search the output's open strings (from the grammar walk) for pieces of the source's text.

    `source` is the raw log's bytes, or the path of an uncompressed log on disk: then it is mapped
    into memory and read a chunk at a time (its pages are let go as the scan moves on), so memory
    does not grow with the log; it is opened only when there is something to search."""
    hay: list[_Hay] = []
    for value, by_field in strings.items():
        places = [p for p in by_field.values() if p.kind != TEXT]
        if not places:
            continue  # a text field the policy keeps on purpose sanctions everything in it
        view = SPACES.sub(" ", byte_view(value)).strip(" ")
        rejected = any(p.kind == REJECTED for p in places)
        if len(view) >= GRAM and (rejected or WORD_RUN.search(view)):
            hay.append(_Hay(places, view, rejected))
    result = TaintResult([], searched=len(hay))
    if not hay:
        return result  # nothing left open: no piece of any source can occur in this output
    automaton, result.patterns = _automaton(hay)
    if not result.patterns:
        return result
    with _opened(source, source_format) as raw:
        _scan_source(raw, source_format, hay, automaton, result)
    return result


def _scan_source(raw: Buffer, source_format: str | None, hay: list[_Hay],
                 automaton: ahocorasick.Automaton, result: TaintResult) -> None:
    search = _Search(hay, automaton)
    safe: dict[str, str | None] = {}  # per key: its pattern segment, or None for a text key
    doc = document(raw, source_format) if isinstance(raw, bytes) else None
    marked, ends = search.candidate_lines(raw, len(raw), single=doc is not None)
    for start in sorted(marked):
        reasons = marked[start]
        if reasons is not None and reasons.issubset(search.first):
            continue  # every output string this line could taint has its finding already
        result.source_lines += 1
        if doc is not None:
            texts = doc_text(doc, safe)
        else:
            texts = line_text(raw[start:ends[start]], safe)
            _release(raw, start, ends[start])
        for where, value in texts:
            result.source_strings += 1
            search.text(where, value)
        if search.done():
            break  # every searched string has its finding: the rest cannot add one
    for i in sorted(search.first):
        _judge(hay[i], search.first[i], result)


Buffer = bytes | mmap.mmap


@contextmanager
def _opened(source: bytes | PathLike[str], source_format: str | None) -> Iterator[Buffer]:
    """The source as bytes, or a read-only map of its file. A gzip source is undone in memory; a
    source that is one JSON document (not JSON Lines) is read whole, since it is parsed whole."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        yield gunzip(data) if data[:2] == b"\x1f\x8b" else data
        return
    with open(source, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        if size == 0:
            yield b""
            return
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as view:
            head = view[:2]
            if head == b"\x1f\x8b" or (source_format or "").lower() not in LINE_FORMATS:
                data = view[:]
                yield gunzip(data) if head == b"\x1f\x8b" else data
                return
            yield view


_PAGE = mmap.PAGESIZE


def _release(raw: Buffer, begin: int, stop: int) -> None:
    """Let go of a mapped file's pages once read (they stay in the page cache, out of this
    process's resident memory); nothing for bytes."""
    if isinstance(raw, mmap.mmap) and _DONTNEED is not None:
        first = begin - begin % _PAGE
        try:
            raw.madvise(_DONTNEED, first, stop - first)
        except (OSError, ValueError):  # pragma: no cover - a platform without the advice
            pass


_DONTNEED = getattr(mmap, "MADV_DONTNEED", None)


def _judge(h: _Hay, hit: tuple[str, str, str], result: TaintResult) -> None:
    piece, where, rule = hit
    for place in h.places:
        kind = place.kind
        if kind == REJECTED or (rule == PHRASE_RULE and (kind == PATH or kind.startswith(IDENT))):
            result.findings.append(Finding("taint", rule, place.pointer, excerpt(_readable(piece)),
                                           place.places, source=where))


__all__ = ["GRAM", "OPAQUE_KEYS", "STRUCTURAL_KEYS", "TaintResult", "byte_view", "iter_source_text", "taint_scan"]
