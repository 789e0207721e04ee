"""What a report may show, decided once for every format (the no-echo rule, issue 4 item 9).

A report shows the identifiers still in clear (that is its point) and names of fields, kinds,
agents and layers. Everything that comes from the audited data passes through here first:

* an identifier longer than 80 characters, or with white space, control or invisible characters,
  an e-mail address, URL credentials, or a secret-shaped value, is shown masked: `abcd…(93 chars)`;
* a name (a pointer segment, an event kind, an agent id, a layer) is shown only when it has the
  shape of a name (at most 40 characters from a small alphabet) and is not secret-shaped;
* a finding's excerpt is shown only when it already has the masked shape; otherwise it is masked
  here, so a scanner that forgot to mask cannot make a report echo.

Text values never reach a report at all: the report data holds counts and pointer patterns.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from redact.contract.secrets import find_secrets, is_exempt
from redact.contract.secrets import mask as _mask
from redact.contract.emails import has_email
from redact.model.grammar import has_invisible
from redact.tables.names import is_shown

MAX_IDENT = 80
MAX_NAME = 40
MASKED_RE = re.compile(r"[^\n\u2026]{0,4}\u2026\(\d{1,9} chars\)")
# What audit.findings.excerpt writes for values that are not strings.
_SHAPE_EXCERPT = re.compile(r"<number>|<(?:object|list) of \d{1,9}>|true|false|null")
# A pointer segment audit.findings.safe_key already masked.
_MASKED_KEY = re.compile(r"<key:[^\n\u2026]{0,4}\u2026\(\d{1,9} chars\)>")
# A source-field pattern of a taint finding: `assistant:message.content[].text`, `<type>:<key>`;
# each name in it must pass the shared rule (redact/tables/names.py).
_SOURCE_FIELD = re.compile(r"[A-Za-z0-9_.:*\[\]<>/-]{1,80}")
_SOURCE_FIELD_PARTS = re.compile(r"[.:/]|\[\]")
_SOURCE_PLACEHOLDERS = frozenset({"", "<key>", "<type>"})
_WHITESPACE = re.compile(r"\s")
_URL_USERINFO = re.compile(r"://[^/?#\s]*@")
_NAME_RE = re.compile(r"[A-Za-z0-9_.*~:/-]{1,40}")
_REPORT_LABELS = frozenset({"<unknown field>", "<unknown key>", "<unknown kind>", "<malformed>"})
_LABELLED_NAME = re.compile(r"[A-Za-z0-9_]{1,40} \(malformed\)")
_REASON_RE = re.compile(r"[a-z][a-z0-9_()-]*(?: [a-z0-9_()-]+){0,5}")
_HEX = re.compile(r"[0-9a-f]{8,64}")


def mask(value: str) -> str:
    """The masked form of `value`: at most 4 leading characters and the length."""
    return _mask(value, 4)


@lru_cache(maxsize=65536)
def _secret_shaped(value: str) -> bool:
    if is_exempt(value):
        return False
    return bool(find_secrets([value]))


def ident_mask_reason(value: str) -> str | None:
    """Why an identifier must be shown masked, or None when it may be shown in clear."""
    if len(value) > MAX_IDENT:
        return "longer than 80 characters"
    if _WHITESPACE.search(value) or has_invisible(value):
        return "contains white space or invisible characters"
    if _URL_USERINFO.search(value):
        return "contains URL credentials"
    if has_email(value):
        return "contains an e-mail address"
    if _secret_shaped(value):
        return "looks like a secret"
    return None


def show_ident(value: Any) -> tuple[str, str | None]:
    """(what to show, why it is masked or None) for one identifier value."""
    text = value if isinstance(value, str) else str(value)
    reason = ident_mask_reason(text)
    return (mask(text), reason) if reason else (text, None)


def show_name(value: Any) -> str:
    """A name from the data (kind, agent id, layer, verdict, record type, pointer segment)."""
    text = value if isinstance(value, str) else str(value)
    if text in _REPORT_LABELS or _LABELLED_NAME.fullmatch(text) or _MASKED_KEY.fullmatch(text):
        return text
    if _NAME_RE.fullmatch(text) and not _secret_shaped(text):
        return text
    return mask(text)


def show_reason(value: Any) -> str:
    """A reason label the tool itself wrote (`unknown kind`): a few lowercase words, else masked."""
    text = value if isinstance(value, str) else str(value)
    return text if len(text) <= 40 and _REASON_RE.fullmatch(text) else show_name(text)


def show_pointer(value: Any) -> str:
    """A JSON pointer or pointer pattern, each segment shown as a name."""
    text = value if isinstance(value, str) else str(value)
    if text in ("", "/"):
        return "/"
    lead = "/" if text.startswith("/") else ""
    parts = text[len(lead):].split("/")
    if len(parts) > 32:
        return mask(text)
    return lead + "/".join(show_name(p) if p else "" for p in parts)


def show_excerpt(value: Any) -> str:
    """A finding's excerpt: kept only when already masked, masked here otherwise."""
    text = value if isinstance(value, str) else str(value)
    if MASKED_RE.fullmatch(text) or _SHAPE_EXCERPT.fullmatch(text):
        return text
    return mask(text)


def show_source_field(value: Any) -> str:
    """A taint finding's source-field pattern (a path through the source's records, no values)."""
    text = value if isinstance(value, str) else str(value)
    if _SOURCE_FIELD.fullmatch(text) and all(
            part in _SOURCE_PLACEHOLDERS or is_shown(part) for part in _SOURCE_FIELD_PARTS.split(text)):
        return text
    return mask(text)


def show_hex(value: Any) -> str | None:
    """A hash or fingerprint: shown when it is lowercase hex, masked otherwise; None stays None."""
    if value is None or value == "":
        return None
    text = value if isinstance(value, str) else str(value)
    return text if _HEX.fullmatch(text) else mask(text)


def show_counts(counts: Mapping[Any, Any] | None, *, pointer: bool = False,
                reason: bool = False) -> dict[str, int]:
    """A name -> count mapping with its names made safe; names that mask alike are summed."""
    out: dict[str, int] = {}
    for key, n in (counts or {}).items():
        name = show_pointer(key) if pointer else show_reason(key) if reason else show_name(key)
        out[name] = out.get(name, 0) + _int(n)
    return dict(sorted(out.items()))


def _int(n: Any) -> int:
    if isinstance(n, bool):
        return int(n)
    if isinstance(n, int):
        return n
    if isinstance(n, float) and n.is_integer():
        return int(n)
    return 0


def show_sentences(lines: Iterable[Any]) -> list[str]:
    """The report's own sentences (warnings). Capped in length so a bug cannot paste data."""
    out = []
    for line in lines:
        text = line if isinstance(line, str) else str(line)
        out.append(text if len(text) <= 400 and not has_invisible(text) else mask(text))
    return out
