"""What the secrets detectors share: the finding type, masking, exemptions and value heuristics.

`SecretHit` and `mask` are what callers see; `is_exempt` proves a string harmless (this tool's own
tokens, UUIDs, digests, timestamps); the rest judges a candidate value: a placeholder or a variable
reference is no secret, a random-looking token may be, and `value_ok` combines these for detectors
that find a value next to a keyword.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from redact.model.grammar import LOCAL_ID_TOOLS


@dataclass(frozen=True, slots=True)
class SecretHit:
    """One credential-shaped value found in one input string. Never holds the value itself."""

    index: int  # index into the input sequence
    rule: str  # detector name, e.g. "github-token", "aws-access-key", "high-entropy-base64"
    masked: str  # at most the first 4 characters kept, plus the length: "ghp_…(40 chars)"


def mask(value: str, keep: int = 4) -> str:
    """`value` with at most `keep` leading characters kept (fewer for short values) and its length.

    At most a quarter of the value is ever shown, so a short password keeps one character or none.
    """
    if keep < 0:
        raise ValueError("keep must be >= 0")
    shown = min(keep, len(value) // 4)
    return f"{value[:shown]}\u2026({len(value)} chars)"


# ---------------------------------------------------------------------------------------------
# Exemptions: strings proven harmless.

_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_ISO_TIME = r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
# This tool's own tokens: identifier hash, dirs_only file name, script token, agent id, session id.
_OWN_TOKEN = (
    rf"h:[0-9a-f]{{12}}|\u2022[0-9a-f]{{6}}|<script:[0-9a-f]{{10}}>|sa-[0-9a-f]{{6,32}}"
    rf"|local:(?:{'|'.join(LOCAL_ID_TOOLS)}):{_UUID}"
)
# sha1/sha256/sha512/git short shas; 10-hex hashed segments
_HEX_DIGEST = r"[0-9a-f]{128}|[0-9A-F]{128}|[0-9a-f]{7,64}|[0-9A-F]{7,64}"
_ATOM = rf"(?:{_OWN_TOKEN}|{_UUID}|{_HEX_DIGEST}|{_ISO_TIME})"
_EXEMPT = re.compile(rf"{_ATOM}(?:/{_ATOM})*")  # an atom, or a hashed path made of atoms
OWN_OR_TIME = re.compile(rf"(?:{_OWN_TOKEN}|{_ISO_TIME})")


def is_exempt(value: str) -> bool:
    """True when `value` is proven harmless: one of this tool's own tokens (`h:` + 12 hex, 10-hex
    path segments, `•` + 6 hex, `<script:` + 10 hex + `>`, `sa-` + hex, `local:<tool>:<uuid>`), a
    UUID, a hex digest of 7-64 or 128 characters, an ISO-8601 timestamp, or a `/`-path made only of these."""
    return _EXEMPT.fullmatch(value) is not None


# ---------------------------------------------------------------------------------------------
# Value heuristics.

# Templates count when well formed (`${DB_PASS}`, `$(pass show db)`, `{{ .Values.token }}`): a value
# that merely contains `${` or `{{` among other symbols is a literal. Matched against the lowercased
# value (the same as ignoring case, and about twice as fast).
_PLACEHOLDER = re.compile(
    r"x{4}|\*{3}|\.{3}|(.)\1{5}|\$\{[a-z_#!][^{}\s()\[\]]*\}|\$\([^()]*\)|\{\{[^{}]*\}\}|%[sd(]|<[^>]*>"
    r"|example|placeholder|changeme|change_me|change[_-]?this|redacted|dummy|your[_-]|insert[_-]|replace[_-]|fake"
)
# A variable, template, path or call rather than a literal value; and an attribute chain.
# A URL names where a key lives (`k8s://ns/key`, `vault://...`); a password in one is the URL
# rule's, judged on its own.
_REFERENCE = re.compile(r"[$%@&*<{\[(]|~?\.{0,2}/|[A-Za-z_][\w.]*[(\[]|[a-z][a-z0-9+.\-]*://")
# A name closing a call is code too (`Bearer(token = inferenceKey)).url(...)`), when it reads as
# a name and not as a random token.
_CLOSING_NAME = re.compile(r"([A-Za-z_]\w*)\)")
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
HOSTNAME = re.compile(r"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}")
CHUNK = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
HEX_CHARS = frozenset("0123456789abcdefABCDEF")
_DIGIT = re.compile(r"[0-9]")
_LETTER = re.compile(r"[A-Za-z]")
_UPPER = re.compile(r"[A-Z]")
_LOWER = re.compile(r"[a-z]")
_PLACEHOLDER_WORD = re.compile(
    r"(?:my|your|the)?[_-]?(?:pass(?:word|wd)?|pwd|secret|token|user(?:name)?|login|admin|test|foo|bar)",
    re.IGNORECASE,
)
# The sample password of a test or a tutorial: the word `password` (or `secret`) with the words
# fixtures put before it and the digits and symbols a policy asks for after it (`Password123!`,
# `testpassword123`, `securepassword123`). Its letters say nothing but what it is.
_SAMPLE_PASSWORD = re.compile(
    r"(?:(?:my|your|the|a|test|testing|secure|strong|super|new|old|default|demo|sample|dummy|valid"
    r"|wrong|bad|good|user|admin)[_-]?)*(?:pass(?:word|wd)?|pwd|secret)",
    re.IGNORECASE,
)
_POLICY_TAIL = re.compile(r"[0-9!@#$%^&*?._\-]*$")
_KEBAB_OR_SNAKE = re.compile(r"[a-z]+(?:[_-][a-z]+)+")
# Words joined by `_`, `-`, `.` or `:`, two of them of three letters or more, digits only as a
# counter (`luks2_block_device`, `key_id_1:key_1`, `server_password`): a name written where a
# value goes, as help pages and examples write them, not a token or a password.
_NAMED_PARTS = re.compile(r"[a-z0-9]+(?:[_\-.:][a-z0-9]+)+")
_WORD_PART = re.compile(r"[a-z]{3,12}[0-9]?")
_SHORT_PART = re.compile(r"[a-z]{1,12}[0-9]{0,2}|[0-9]{1,3}")
_IPV4 = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?")
# Letters written as digits or symbols (`s3cret`, `P@ssw0rd`): read back before the placeholder match
_DELEET = str.maketrans({"0": "o", "3": "e", "4": "a", "5": "s", "@": "a", "$": "s"})
# An UPPER_SNAKE_CASE name of letters is a constant or an environment variable: `password=VM_PASSWORD`.
_CONSTANT = re.compile(r"[A-Z]+(?:_[A-Z]+)+")


def _named_parts(value: str) -> bool:
    if _NAMED_PARTS.fullmatch(value) is None:
        return False
    parts = re.split(r"[_\-.:]", value)
    if not all(_SHORT_PART.fullmatch(part) for part in parts):  # `test_pub_7668a5c7...`: a token
        return False
    return sum(1 for part in parts if _WORD_PART.fullmatch(part)) >= 2


def is_placeholder(value: str) -> bool:
    return _PLACEHOLDER.search(value.lower()) is not None


def is_reference(value: str) -> bool:
    """`$DB_PASS`, `{{ token }}`, `./key.pem`, `get_secret()`, `var.db_password`; not a dotted token
    such as a JWT or a Discord bot token, whose parts are long or look random."""
    if _REFERENCE.match(value):
        return True
    closing = _CLOSING_NAME.match(value)
    if closing is not None and not looks_random(closing.group(1)):
        return True
    if _DOTTED.fullmatch(value) is None:
        return False
    return not any(len(part) > 32 or looks_random(part) for part in value.split("."))


_C_LOG_C = tuple(c * math.log2(c) if c else 0.0 for c in range(4097))


def entropy(value: str) -> float:
    """Shannon entropy in bits per character: log2(n) - sum(c log2 c) / n over the counts c."""
    n = len(value)
    if n > 4096:
        return -sum(c / n * math.log2(c / n) for c in Counter(value).values())
    return math.log2(n) - sum(map(_C_LOG_C.__getitem__, Counter(value).values())) / n


def looks_random(value: str) -> bool:
    """Letters and digits mixed in short chunks, as in a random token, not words and numbers.

    `n7r27svaq5hi1alylhvcsc` splits into chunks of mean length 2.4, `claude-3-5-sonnet-20241022`
    into chunks of mean length 4.8 (and its separators split it further, see `entropy.is_opaque`)."""
    chunks = CHUNK.findall(value)
    alnum = sum(map(len, chunks))
    if alnum < 10 or _DIGIT.search(value) is None or _LETTER.search(value) is None:
        return False
    # In random mixed-case text chunks are short (99th percentile 3.0); with one case only, letter
    # runs between digits are longer (97th percentile 4.5 for 20-40 characters).
    # A capital or two in a lowercase token (`ACf3...`) do not make it mixed-case.
    upper, lower = len(_UPPER.findall(value)), len(_LOWER.findall(value))
    mixed_case = 0.1 < upper / (upper + lower) < 0.9
    return alnum / len(chunks) <= (3.0 if mixed_case else 4.5)


def unpronounceable(value: str) -> bool:
    """16 letters or more with few vowels (random lowercase has 19%, English words about 40%) and
    a digit: `lujs8uilmoppwjfcrdgwaw8xywulgrjt`. Used only where a keyword already points at a secret."""
    letters = [c for c in value.lower() if c.isalpha()]
    if len(letters) < 16 or not any(c.isdigit() for c in value):
        return False
    return sum(c in "aeiouy" for c in letters) < 0.25 * len(letters) and entropy(value) >= 3.5


def _expected_entropy(n: int, alphabet: int) -> float:
    """About the Shannon entropy of n characters drawn uniformly from `alphabet` symbols: the log of
    the expected number of distinct characters."""
    return math.log2(alphabet * (1 - (1 - 1 / alphabet) ** n))


def near_random_entropy(value: str, margin: float) -> bool:
    """Entropy within `margin` bits of random characters from the value's alphabet (hex, one case
    and digits, or both cases); repeated patterns such as `abcd1234abcd1234` fall far below."""
    if HEX_CHARS.issuperset(value):
        alphabet = 16
    elif value.isupper() or value.islower():
        alphabet = 36
    else:
        alphabet = 62
    return entropy(value) >= _expected_entropy(min(len(value), 40), alphabet) - margin


def _password_like(value: str) -> bool:
    """Two character classes or more, and not a `snake_case` or `kebab-case` word."""
    classes = (
        any(c.islower() for c in value)
        + any(c.isupper() for c in value)
        + any(c.isdigit() for c in value)
        + any(not c.isalnum() for c in value)
    )
    return classes >= 2 and not value.isalpha() and not _KEBAB_OR_SNAKE.fullmatch(value)


def value_ok(value: str, check: str, user: str | None = None) -> bool:
    """Whether a value found next to a keyword (or in a URL, header, flag) is worth reporting.

    Checks: `any` reports anything but a placeholder, a reference or user == password; `password`
    wants more than a bare word; `random` wants a random-looking token or a symbol-rich literal."""
    value = value.strip("\"'`")
    if is_placeholder(value) or is_reference(value):
        return False
    value = value.strip("<>()[]{}")
    if len(value) < 4 or len(set(value)) == 1 or value == user or OWN_OR_TIME.fullmatch(value):
        return False
    if _PLACEHOLDER_WORD.fullmatch(value.translate(_DELEET)) is not None:
        return False
    if check == "any":
        return True
    if _PLACEHOLDER_WORD.fullmatch(value.rstrip("0123456789").translate(_DELEET)) is not None:
        return False  # `s3cret2` after `--password2`; in a URL (`any`) `secret123` may be real
    if _SAMPLE_PASSWORD.fullmatch(_POLICY_TAIL.sub("", value)) is not None:
        return False
    if _CONSTANT.fullmatch(value) or _IPV4.fullmatch(value) or _named_parts(value):
        return False
    if value.isdigit():
        return check == "random" and len(value) >= 24  # a long number next to `secret`, not a count
    if HOSTNAME.fullmatch(value):
        return False
    if check == "password":
        return len(value) >= 6 and _password_like(value)
    if _symbolic(value):
        return True
    # a token is written in a token alphabet: one or two stray symbols make a fragment of a longer
    # word or a mangled value, neither a token nor a symbol-rich password
    if _SYMBOL.search(value):
        return False
    return (looks_random(value) and near_random_entropy(value, 1.0)) or unpronounceable(value)


_SYMBOL = re.compile(r"[^\w\s.\-/:+=~]")


def _symbolic(value: str) -> bool:
    """Letters mixed with three or more symbols that no identifier, path, URL or version holds
    (`m{{h}o)p${e]nob(ody...`): a literal password, not a name."""
    return len(value) >= 8 and len(_SYMBOL.findall(value)) >= 3 and any(c.isalpha() for c in value)
