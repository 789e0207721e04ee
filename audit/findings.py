"""What the leak scanner reports: findings that name places, never values (STYLE.md, principle 6).

A `Finding` holds the layer that made it, a rule id from `RULES`, the JSON pointer of the first place
the offending value sits (and how many places hold the same value), a masked excerpt of at most four
characters, and a fixed message taken from the rule: no message is ever built from a value. Taint
findings also name the source field the value came from, as a pattern such as
`assistant:message.content[].text`, never the source text.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from redact.contract.secrets import mask
from redact.tables.names import is_plain_name

LAYERS: tuple[str, ...] = ("grammar", "secrets", "taint", "language")
EXCERPT_KEEP = 4


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    layer: str
    message: str


def _rules(*rows: tuple[str, str, str]) -> dict[str, Rule]:
    return {rid: Rule(rid, layer, message) for rid, layer, message in rows}


RULES: dict[str, Rule] = _rules(
    # layer 1: grammar proof (audit/grammar.py)
    ("grammar.unknown-field", "grammar", "a field the agentplay/v1 table does not define"),
    ("grammar.unknown-event-kind", "grammar", "an event whose kind the format does not define"),
    ("grammar.type", "grammar", "a value of the wrong JSON type for its field"),
    ("grammar.number-range", "grammar", "an integer beyond 2^53 - 1, which a JavaScript reader changes"),
    ("grammar.enum", "grammar", "a value outside its field's closed set"),
    ("grammar.unknown-key", "grammar", "a key outside the closed set of this counter object"),
    ("grammar.timestamp", "grammar", "not an ISO-8601 UTC timestamp"),
    ("grammar.id", "grammar", "not an opaque id (uuid, hex, sa-..., r0, t1, h: token)"),
    ("grammar.version", "grammar", "not a version string"),
    ("grammar.path", "grammar", "not a path in the map's declared path mode, nor a bucket label"),
    ("grammar.path-home", "grammar", "a path or identifier that holds a home folder (a user name)"),
    ("grammar.path-sentence", "grammar",
     "a path name over 64 characters or with five dictionary words (a sentence, not a name)"),
    ("grammar.command-in-path", "grammar", "a path that holds command-line syntax (quotes, flags, pipes)"),
    ("grammar.label", "grammar", "not a bucket label"),
    ("grammar.verb", "grammar", "not a verb of the shipped vocabulary (arguments, flags or a script name?)"),
    ("grammar.action", "grammar", "not a vcs action (a subcommand or noun_verb)"),
    ("grammar.identifier", "grammar", "not an identifier shape (white space, control or invisible characters)"),
    ("grammar.identifier-opaque", "grammar",
     "an identifier that holds a long bare hex run or a UUID (a key or an id, not a name)"),
    ("grammar.identifier-sentence", "grammar",
     "an identifier over 64 characters or with five dictionary words (a sentence, not a name)"),
    ("grammar.url-credentials", "grammar", "a URL that carries credentials"),
    ("grammar.url-query", "grammar", "a URL that carries a query string or a fragment"),
    ("grammar.identifier-undeclared", "grammar",
     "an identifier in clear that the redaction report does not list"),
    ("grammar.email", "grammar", "an e-mail address"),
    ("grammar.text", "grammar", "a text field the policy does not keep"),
    ("grammar.content-hash", "grammar", "contentHash is not the SHA-256 of the map's canonical JSON"),
    ("grammar.source-digest", "grammar", "sourceDigest is not a keyed digest (hmac-sha256: and 64 hex)"),
    ("grammar.not-object", "grammar", "expected a JSON object here"),
    ("grammar.not-list", "grammar", "expected a JSON list here"),
    # layer 2: secrets (redact/contract/secrets/ detectors; the rule suffix is the detector's name)
    ("secrets.secret", "secrets", "a credential-shaped value"),
    # layer 3: taint against the source (audit/taint.py)
    ("taint.source-token", "taint", "a distinctive token of the source's free text"),
    ("taint.source-phrase", "taint", "three consecutive words of the source's free text"),
    # layer 4: natural language (redact/contract/language.py)
    ("language.text", "language", "a string that reads as natural-language text"),
)


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem at one place. `excerpt` shows at most 4 characters of the value, never more."""

    layer: str
    rule: str  # an id of RULES, or `secrets.<detector>` for the secrets layer
    pointer: str  # RFC 6901 JSON pointer of the first place; `/` parts that are not safe are masked
    excerpt: str  # redact.contract.secrets.mask(value): a few leading characters and the length
    places: int = 1  # how many places in the map hold the same offending value
    source: str | None = None  # taint: the source field pattern the piece came from
    detail: str | None = None  # a fixed word from the detector (the secret rule name), never a value

    @property
    def message(self) -> str:
        base = RULES.get(self.rule) or RULES[f"{self.layer}.secret"]
        return base.message

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "layer": self.layer,
            "rule": self.rule,
            "pointer": self.pointer,
            "excerpt": self.excerpt,
            "message": self.message,
            "places": self.places,
        }
        if self.source is not None:
            out["sourceField"] = self.source
        return out


def excerpt(value: object) -> str:
    """The only way a value reaches a finding: at most 4 characters (a quarter of it) and its length."""
    if isinstance(value, str):
        return mask(value, keep=EXCERPT_KEEP)
    if isinstance(value, bool) or value is None:
        return str(value).lower() if value is not None else "null"
    if isinstance(value, (int, float)):
        return "<number>"
    if isinstance(value, dict):
        return f"<object of {len(value)}>"
    if isinstance(value, list):
        return f"<list of {len(value)}>"
    return f"<{type(value).__name__}>"


def escape_token(name: str) -> str:
    """One reference token of a JSON pointer (RFC 6901: `~` -> `~0`, `/` -> `~1`)."""
    return name.replace("~", "~0").replace("/", "~1")


def safe_key(name: str) -> str:
    """A field name as it may appear in a pointer: schema-like names in full, anything else masked.

    Field names are usually schema (`hostName`, `description`), but a producer can put text or a
    secret in a key. A key is shown in full only when it is a short name of ASCII letters, `_` and
    `-` (no digits, no white space, at most 32 characters); any other key is shown as `<key:` +
    masked excerpt + `>`, so a pointer cannot echo a token, a path or a sentence.
    """
    if not isinstance(name, str):  # a caller's dict (not JSON) may have other keys
        name = str(name)
    if is_plain_name(name):
        return escape_token(name)
    return f"<key:{mask(name, keep=EXCERPT_KEEP)}>"
