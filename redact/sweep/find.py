"""Finding the secrets in one file at rest, with the edits that would scrub them.

A file is read whole and decoded as UTF-8 (bytes that are not are kept as they are, by
`surrogateescape`, so writing the text back gives the same bytes). What it holds decides how it is
searched:

* JSON and JSON Lines (the first character is `{` or `[`): every string literal is decoded and the
  secrets layer (redact/contract/secrets/) runs over the decoded string, so a token written with
  JSON escapes is found as the agent saw it. A scrub replaces the secret inside the decoded string
  and re-encodes that one literal: every other byte of the file stays, the records and their ids
  stay, and the file stays valid JSON.
* anything else (a Markdown chat history, a shell history, a log) is searched as text, whole.

Blobs are not searched and never changed: a thinking block's signature, encrypted reasoning, a
base64 image or any `data:` URL (the keys in `BLOB_KEYS`), a binary payload and an agent's own data
key (`_BLOB_KEY_ENDS`: a store's blobs are encrypted under it; changing it would lose them). An
opaque token under a key that names an identifier (`rule_id`, `group`) is an identifier. A private key's finding (its PEM header)
is widened to the whole block, so a scrub removes the key and not only its first line.

Nothing here prints or returns a secret's value: a `Place` holds the class, the keyed fingerprint,
the line and the length. The values live only in `Edit.original`, which the scrub seals in its
vault and the proof compares against.
"""
from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from redact.contract.secrets.anchors import AnchorIndex
from redact.contract.secrets.scan import secret_spans
from redact.sweep.classes import class_of

#: JSON keys whose string values are opaque blobs: never searched, never changed.
BLOB_KEYS = frozenset({
    "signature", "thoughtSignature", "thought_signature", "encrypted_content", "encryptedContent",
    "encrypted_reasoning", "reasoning_signature",
})
#: keys whose value is a blob when it is long base64 (an image's or a redacted thinking's data)
_DATA_KEYS = frozenset({"data", "image", "image_url", "url", "bytes", "base64", "source", "blob"})
_BASE64_BLOB = re.compile(r"[A-Za-z0-9+/_\-]{200,}={0,2}")
_DATA_URL = re.compile(r"data:[\w.+\-]+/[\w.+\-]+(?:;[\w=.\-]+)*;base64,")
_LITERAL = re.compile(r'("[^"\\\n]*(?:\\.[^"\\\n]*)*")(\s*:)?')
# A JSON escape of an ASCII character (`\u0070`): the decoded string may hold an anchor the
# literal does not show, so such a literal is always searched.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_ASCII_ESCAPE = re.compile(r"\\u00[2-7][0-9a-fA-F]")
_PEM_END = re.compile(r"-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")
_PEM_BODY = re.compile(r"(?:[A-Za-z0-9+/=:\- \t\r\n]|\\[nr])*")
_WHEN = re.compile(
    r'"(?:timestamp|created_at|createdAt|created|time|ts|updated_at|updatedAt|date)"\s*:\s*'
    r'"(\d{4}-\d{2}-\d{2}[T ][0-9:.]{5,15}(?:Z|[+-]\d{2}:?\d{2})?)"')
# A macOS per-user temporary folder (`/var/folders/zj/<random>/T/`): random by design, no secret.
_HARMLESS_BEFORE = re.compile(r"/var/folders/[\w]{2}/$|/private/var/folders/[\w]{2}/$")

Fingerprint = Callable[[str], str]


@dataclass(frozen=True)
class Place:
    """Where one secret sits: never its value."""

    cls: str
    fingerprint: str  # keyed: 12 hex
    line: int | None  # 1-based line in the file, or None (a store's cell)
    length: int  # characters
    when: str | None  # the record's time, when the line has one
    where: str = ""  # inside a store: `table.column` and the row


@dataclass
class Edit:
    """One change of a scrub: text[start:end] becomes `new` (both over the file's decoded text, or
    over one cell's text in a store)."""

    start: int
    end: int
    new: str
    originals: list[tuple[str, str]] = field(default_factory=list)  # (fingerprint, value)


@dataclass
class TextScan:
    places: list[Place] = field(default_factory=list)
    edits: list[Edit] = field(default_factory=list)
    blobs: int = 0  # blob strings left alone


def placeholder(cls: str, fingerprint: str) -> str:
    return f"[REDACTED:{cls}:{fingerprint[:6]}]"


def is_identifier_key(key: str | None) -> bool:
    """A JSON key that names an identifier (`rule_id`, `ruleID`, `group`, `hash`), not a credential."""
    if not key:
        return False
    lowered = key.lower()
    return lowered.endswith(_ID_KEY_ENDS) and not any(word in lowered for word in _SECRET_WORDS)


_SPACE = re.compile(r"\s")
_ID_KEY_ENDS = ("id", "ids", "uuid", "guid", "group", "hash", "digest", "etag", "sha", "checksum",
                "fingerprint", "revision", "version")
_SECRET_WORDS = ("key", "secret", "token", "pass", "cred", "pwd", "auth_code", "cookie", "session")


Known = dict[str, str]  # a value found somewhere in the file -> its class


def _known_spans(text: str, known: Known, found: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """`found` with every other occurrence of a `known` value added (a token found in one record
    sits in another one where no detector would see it: a scrub takes it out there too)."""
    spans = list(found)
    for value, cls in known.items():
        at = text.find(value)
        while at >= 0:
            end = at + len(value)
            if not any(s < end and at < e for s, e, _ in spans):
                spans.append((at, end, cls))
            at = text.find(value, end)
    return sorted(spans)


def _spans(text: str, key: str | None = None, known: Known | None = None) -> list[tuple[int, int, str]]:
    """The secrets layer's findings in `text`, a private key widened to its whole block; left out:
    the harmless random folder names of `_HARMLESS_BEFORE`, and an opaque token (the entropy
    family's finding, no provider's) in the value of a key naming an identifier, when that value
    is one word (`58Bq...:100.00:1`, a rule id; not prose that happens to sit under `id`)."""
    found: list[tuple[int, int, str]] = []
    for start, end, rule in secret_spans(text, at_rest=True):
        if rule.startswith("high-entropy") and is_identifier_key(key) and not _SPACE.search(text):
            continue
        if rule == "private-key":
            m = _PEM_END.search(text, end, end + 20000)
            body = _PEM_BODY.match(text, end)
            end = m.end() if m is not None else (body.end() if body is not None else end)
        elif rule.startswith("high-entropy") and _HARMLESS_BEFORE.search(text, max(0, start - 24), start):
            continue
        if found and start < found[-1][1]:  # a widened key swallowed this one
            continue
        found.append((start, end, rule))
    return _known_spans(text, known, found) if known else found


def _replaced(value: str, spans: list[tuple[int, int, str]], fp: Fingerprint,
              ) -> tuple[str, list[tuple[str, str, int]], list[tuple[str, str]]]:
    """`value` with each span replaced by its placeholder; (class, fingerprint, length) of each; the
    (fingerprint, original) pairs."""
    out, found, originals, at = [], [], [], 0
    for start, end, rule in spans:
        secret = value[start:end]
        cls = class_of(rule, value, start)
        print_ = fp(secret)
        out.append(value[at:start])
        out.append(placeholder(cls, print_))
        found.append((cls, print_, end - start))
        originals.append((print_, secret))
        at = end
    out.append(value[at:])
    return "".join(out), found, originals


class Lines:
    """Line numbers of offsets in a text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self._when: dict[int, str | None] = {}

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)

    def when(self, line: int) -> str | None:
        if line not in self._when:
            self._when[line] = self._find_when(line)
        return self._when[line]

    def _find_when(self, line: int) -> str | None:
        start = self._starts[line - 1]
        end = self._starts[line] if line < len(self._starts) else len(self.text)
        m = _WHEN.search(self.text, start, end)
        return m.group(1) if m is not None else None


def is_json_text(text: str) -> bool:
    return text.lstrip()[:1] in ("{", "[")


#: key endings of binary payloads (Cursor's `toolCallBinary`) and of an agent's own data keys
#: (Cursor's `blobEncryptionKey` encrypts blobs in the same store: changing it would lose them)
_BLOB_KEY_ENDS = ("binary", "blob", "bytes", "base64", "encryptionkey")


def _is_blob(key: str | None, value: str) -> bool:
    if key in BLOB_KEYS or _DATA_URL.match(value) or (key and key.lower().endswith(_BLOB_KEY_ENDS)):
        return True
    return key in _DATA_KEYS and len(value) >= 200 and _BASE64_BLOB.fullmatch(value) is not None


def decode_literal(literal: str) -> str | None:
    if "\\" not in literal:
        return literal[1:-1]
    try:
        value = json.loads(literal)
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def encode_literal(value: str, like: str) -> str:
    """`value` as a JSON string literal in the style of the literal `like`: non-ASCII written
    raw unless `like` escaped it (or `value` holds a lone surrogate escape that only \\u can say)."""
    raw_non_ascii = not like.isascii()
    escaped_non_ascii = re.search(r"\\u(?:00[89a-fA-F]|0[1-9a-fA-F]|[1-9a-fA-F])", like) is not None
    lone = _LONE_SURROGATE.search(value) is not None and "\\ud" in like.lower()
    ascii_only = lone or (escaped_non_ascii and not raw_non_ascii)
    return json.dumps(value, ensure_ascii=ascii_only)


def json_strings(text: str) -> Iterator[tuple[int, int, str | None, str]]:
    """(start, end, key, literal) of each value string literal of a JSON or JSON Lines text; `key` is
    the last key seen before it (the value's own key, or its array's)."""
    key: str | None = None
    for m in _LITERAL.finditer(text):
        literal = m.group(1)
        if m.group(2) is not None:
            key = decode_literal(literal)
            continue
        yield m.start(1), m.end(1), key, literal


_ANCHORS: list[AnchorIndex] = []


def _anchor_index() -> AnchorIndex:
    if not _ANCHORS:
        _ANCHORS.append(AnchorIndex())
    return _ANCHORS[0]


def warm_up() -> None:
    """Load the secrets layer and its anchor index now (before a pool forks: its workers share them)."""
    _anchor_index()
    secret_spans("api_key = 'warm-up'", at_rest=True)


def anchored_strings(text: str, known: Known | None = None) -> Iterator[tuple[int, int, str | None, str]]:
    """What `json_strings` yields, but only the literals that can hold a finding: those with an
    anchor of the secrets layer inside (redact/contract/secrets/anchors.py: every at-rest finding
    contains one), a `known` value, or a JSON escape of an ASCII character. The literal around an
    anchor is found from the anchor (`_enclosing`), and its key from the `"key":` before it; the rest
    of the file is not parsed. An element of an array has no key here."""
    positions = _anchor_index().positions(text)
    if positions is None:
        yield from json_strings(text)
        return
    for value in known or ():
        for needle in {value, json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}:
            at = text.find(needle)
            while at >= 0:
                positions.append(at)
                at = text.find(needle, at + 1)
    for m in _ASCII_ESCAPE.finditer(text):
        positions.append(m.start())
    if not positions:
        return
    positions.sort()
    done = -1  # the end of the last literal yielded
    for at in positions:
        if at < done:
            continue
        found = _enclosing(text, at)
        if found is None:  # not inside a string as JSON writes them: the line, parsed from its start
            yield from _line_strings(text, at, positions)
            done = text.find("\n", at) % (len(text) + 1)
            continue
        start, end, is_key = found
        done = end
        if not is_key:
            yield start, end, _key_of(text, start), text[start:end]


def _unescaped_quote_before(text: str, at: int) -> int:
    """The offset of the last `"` before `at` that no backslash escapes, or -1."""
    q = text.rfind('"', 0, at)
    while q > 0:
        slashes = 0
        while q - slashes > 0 and text[q - slashes - 1] == "\\":
            slashes += 1
        if slashes % 2 == 0:
            return q
        q = text.rfind('"', 0, q)
    return q


def _enclosing(text: str, at: int) -> tuple[int, int, bool] | None:
    """(start, end, is_key) of the string literal that holds offset `at`: in JSON every `"` that no
    backslash escapes opens or closes a string, so the last one before `at` opens the literal an
    anchor (always inside a string) sits in. None when that is not a well-formed literal."""
    q = _unescaped_quote_before(text, at + 1 if text[at:at + 1] == '"' else at)
    if q < 0:
        return None
    m = _LITERAL.match(text, q)
    if m is None or m.end(1) <= at:
        return None
    return m.start(1), m.end(1), m.group(2) is not None


_KEY_END = re.compile(r'"\s*:\s*$')


def _key_of(text: str, start: int) -> str | None:
    """The key of the value literal at `start` (`"key": "value"`), or None (an array's element)."""
    i = start - 1
    while i >= 0 and text[i] in " \t\r\n":
        i -= 1
    if i < 0 or text[i] != ":":
        return None
    i -= 1
    while i >= 0 and text[i] in " \t\r\n":
        i -= 1
    if i < 0 or text[i] != '"':
        return None
    q = _unescaped_quote_before(text, i)
    return decode_literal(text[q:i + 1]) if q >= 0 else None


def _line_strings(text: str, at: int, positions: list[int]) -> Iterator[tuple[int, int, str | None, str]]:
    """The value literals of the line that holds `at` that hold an anchor, parsed from its start."""
    line_start = text.rfind("\n", 0, at) + 1
    line_end = text.find("\n", at)
    if line_end < 0:
        line_end = len(text)
    key: str | None = None
    for m in _LITERAL.finditer(text, line_start, line_end):
        literal = m.group(1)
        if m.group(2) is not None:
            key = decode_literal(literal)
            continue
        start, end = m.start(1), m.end(1)
        j = bisect.bisect_left(positions, start)
        if j < len(positions) and positions[j] < end:
            yield start, end, key, literal


def scan_text(text: str, fp: Fingerprint, *, as_json: bool | None = None, known: Known | None = None) -> TextScan:
    """The places and scrub edits of every secret in `text`, a whole file's (or a cell's) text;
    with `known`, every occurrence of those values too (`known_values` of a first scan). Only the
    strings that hold an anchor of the secrets layer are searched (`anchored_strings`)."""
    result = TextScan()
    lines = Lines(text)
    if as_json is None:
        as_json = is_json_text(text)
    if as_json:
        for start, end, key, literal in anchored_strings(text, known):
            value = decode_literal(literal)
            if value is None or len(value) < 8:
                continue
            if _is_blob(key, value):
                result.blobs += 1
                continue
            spans = _spans(value, key, known)
            if not spans:
                continue
            new_value, found, originals = _replaced(value, spans, fp)
            _add(result, lines, start, found)
            result.edits.append(Edit(start, end, encode_literal(new_value, literal), originals))
        gaps = _outside_strings(text)
        if gaps is None:
            return result
        text = gaps  # words outside every string: a line that is not JSON, a log written after it
    if not known and not _anchor_index().holds(text):
        return result
    spans = _spans(text, None, known)
    for start, end, rule in spans:
        secret = text[start:end]
        cls = class_of(rule, text, start)
        print_ = fp(secret)
        _add(result, lines, start, [(cls, print_, end - start)])
        result.edits.append(Edit(start, end, placeholder(cls, print_), [(print_, secret)]))
    return result


# `_LITERAL` without its key's colon: the same literals, found in the same order.
_PLAIN_LITERAL = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')
_STRAY = re.compile(r"\b(?!(?:true|false|null)\b)[A-Za-z_][A-Za-z0-9_]")


def _outside_strings(text: str) -> str | None:
    """`text` with every JSON string literal blanked (same length, so offsets hold), when what is
    left holds more than JSON's own syntax (numbers, `true`, `false`, `null`, punctuation): a text
    that starts like JSON but is not only JSON. None when it is only JSON (most files: told by one
    substitution in C, the literals replaced by a space each, before any blanking in Python)."""
    if not _STRAY.search(_PLAIN_LITERAL.sub(" ", text)):
        return None
    pieces, at = [], 0
    for m in _LITERAL.finditer(text):
        pieces.append(text[at:m.start(1)])
        pieces.append(" " * (m.end(1) - m.start(1)))
        at = m.end(1)
    pieces.append(text[at:])
    gaps = "".join(pieces)
    return gaps if _STRAY.search(gaps) else None


def known_values(scan: TextScan) -> Known:
    """The values a scan found (of 8 characters or more: shorter ones would match ordinary text),
    with their class."""
    classes = {p.fingerprint: p.cls for p in scan.places}
    return {value: classes.get(print_, "secret") for edit in scan.edits for print_, value in edit.originals
            if len(value) >= 8}


def _add(result: TextScan, lines: Lines, offset: int, found: list[tuple[str, str, int]]) -> None:
    line = lines.line(offset)
    when = lines.when(line)
    result.places.extend(Place(cls, print_, line, length, when) for cls, print_, length in found)


def apply_edits(text: str, edits: list[Edit]) -> str:
    out, at = [], 0
    for edit in sorted(edits, key=lambda e: e.start):
        out.append(text[at:edit.start])
        out.append(edit.new)
        at = edit.end
    out.append(text[at:])
    return "".join(out)
