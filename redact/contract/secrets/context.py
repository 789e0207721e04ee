"""Context rules: a credential named by what surrounds it (`password=...`, `Authorization: Bearer
...`, `scheme://user:pass@host`, `curl -u user:pass`), kept as data in context.toml and reported
when the value is not a placeholder, a variable reference or an ordinary word."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from redact.contract.secrets.rules import admitted, by_hint, expand, load
from redact.contract.secrets.values import value_ok

_DATA = load("context.toml")
CONTEXT_RULES: tuple[tuple[str, tuple[str, ...], str, str], ...] = tuple(
    (rule["name"], tuple(rule["hints"]), expand(rule["regex"], _DATA["fragments"]), rule["check"])
    for rule in _DATA["rule"]
)


@cache
def _regex(i: int) -> re.Pattern[str]:
    """Rule i's regex, compiled when a string first holds one of its hints (a run compiles only the
    rules its strings admit; compiling them all was a fifth of loading the layer)."""
    return re.compile(CONTEXT_RULES[i][2])


# A case-insensitive rule also runs, about twice as fast, as the same regex without `(?i)` over the
# lowercased string, when lowercasing keeps every character's position: spans are the same, and the
# values are read from the original string. The case-sensitive rules run on the original string.
@cache
def _lowered(i: int) -> re.Pattern[str] | None:
    pattern = CONTEXT_RULES[i][2]
    return re.compile(pattern[4:]) if pattern.startswith("(?i)") else None

HINTS = frozenset(hint for _, hints, _, _ in CONTEXT_RULES for hint in hints)
_BY_HINT = by_hint(hints for _, hints, _, _ in CONTEXT_RULES)
# A key ending in one of these names something about the secret, not the secret: `key_name: ...`.
_KEY_ABOUT = re.compile(
    r"(?:name|id|ids|type|file|path|url|uri|len|length|size|count|format|version|alias|ref|hint|prefix"
    r"|env|var|field|header|param|dir|mode|policy|ttl|timeout|expiry|expires|expires_at|stdin|uri)[\"'\]]*$",
    re.IGNORECASE,
)
# A key that says its value is public names no secret: a .NET `PublicKeyToken` (a hash of a public
# key), a `public_key`, Stripe's `publishable_key`; and the Sentry protocol's `sentry_key` (also
# GlitchTip's `glitchtip_key`), the public half of a DSN that browsers send with every report.
_PUBLIC = re.compile(r"public|publishable|(?:sentry|glitchtip)_key", re.IGNORECASE)


def public_key_name(text: str, start: int, end: int) -> bool:
    """Whether the key text[start:end], with the rest of its word before it (`Public` of
    `PublicKeyToken`), says its value is public."""
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    return _PUBLIC.search(text, start, end) is not None


# `&name=` in a bare value: a URL's next query or fragment parameter
# (`#access_token=...&token_type=bearer`); the value is judged whole first (a password may hold one).
_NEXT_PARAMETER = re.compile(r"&[\w.\-]+=")


# A shell parameter expansion's default: in `${DB_PASSWORD:-hunter22}` the value is what stands
# between `:-` (or `-`, `:=`, `=`) and the closing brace, not the rest of the line after it.
_EXPANSION_OPEN = re.compile(r"\$\{\w*$")
_DEFAULT_OP = re.compile(r"-|=")


def _default_value(text: str, key_start: int, start: int, end: int) -> tuple[int, int]:
    """The span of the value of a key that opens a `${NAME:-default}` expansion; else unchanged."""
    if _EXPANSION_OPEN.search(text, max(0, key_start - 64), key_start) is None:
        return start, end
    op = _DEFAULT_OP.match(text, start)
    close = text.find("}", start, end)
    if op is None or close < 0:
        return start, end
    return op.end(), close


def _never(_start: int, _end: int) -> bool:
    return False


def context_findings(
    text: str,
    present: frozenset[str],
    skip: Callable[[int, int], bool] = _never,
    lowered: str | None = None,
) -> list[tuple[int, int, str]]:
    """(start, end, rule) of each value a context rule reports in `text` (`present`: the `HINTS` it
    contains, lowercased; a rule none of whose hints is present is skipped; `lowered`: text.lower(),
    when the caller has it). A value whose span `skip` names (one the caller would drop) is not
    checked."""
    found = []
    if lowered is None:
        lowered = text.lower()
    same_positions = len(lowered) == len(text)
    for i in admitted(_BY_HINT, present):
        name, _, _, check = CONTEXT_RULES[i]
        fast = _lowered(i) if same_positions else None
        matches = fast.finditer(lowered) if fast is not None else _regex(i).finditer(text)
        for m in matches:
            spans = {g: m.span(g) for g, v in m.groupdict().items() if v is not None}
            if "k" in spans and (_KEY_ABOUT.search(text, *spans["k"]) or public_key_name(text, *spans["k"])):
                continue
            start, end = spans["vq"] if "vq" in spans else spans["v"]
            if "k" in spans and "v" in spans:
                start, end = _default_value(text, spans["k"][0], start, end)
            user = text[slice(*spans["u"])] if "u" in spans else None
            if skip(start, end):
                continue
            if value_ok(text[start:end], check, user):
                found.append((start, end, name))
            elif "v" in spans:  # a URL's next parameter is not part of the value
                cut = _NEXT_PARAMETER.search(text, start, end)
                if cut is not None and value_ok(text[start : cut.start()], check, user):
                    found.append((start, cut.start(), name))
    return found
