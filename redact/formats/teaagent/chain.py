"""The hash chain of a teaagent audit log, verified while it is read.

Each record carries `prev_hash` (the previous record's `hash`) and `hash` (SHA-256 of the record).
Two checks, each reported as a warning naming line numbers, never a value:

1. **Links**: every record's `prev_hash` equals the previous record's `hash` (the first record's is
   empty, null, or 64 zeros). A record removed, inserted or reordered breaks a link; so does a
   damaged line skipped with `--skip-bad-lines`.
2. **Content**: `hash` is the SHA-256 of the record itself. The seed does not fix the byte form, so
   the canonical forms a writer is likely to have used are tried (sorted keys, compact or Python's
   default separators, ASCII-escaped or not; without `hash` and `chain_hmac`, or with them null).
   When no record of the log matches any form, the writer's form is unknown and only the links are
   verified (said once); when some match and others do not, the others were altered.

`chain_hmac` needs the chain key, which the log does not hold: it is not verified. A log without
hashes (chaining off, or an older teaagent) is said to be unverified.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from redact.formats.common import canonical_variants
from redact.formats.teaagent.keys import CHAIN_HMAC, HASH, PREV_HASH
from redact.report import RedactionReport

_GENESIS = frozenset({"", "0" * 64, "genesis"})
_HEX = frozenset("0123456789abcdef")


def _is_hash(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and set(value.lower()) <= _HEX


def _bodies(record: dict[str, Any]) -> tuple[dict[str, Any], ...]:
    return (
        {k: v for k, v in record.items() if k not in (HASH, CHAIN_HMAC)},
        {k: v for k, v in record.items() if k != HASH},
        {**record, HASH: None, CHAIN_HMAC: None} if CHAIN_HMAC in record else {**record, HASH: None},
    )


def content_form(record: dict[str, Any], first: tuple[int, int] | None = None) -> tuple[int, int] | None:
    """The form (body, spelling) in which `record["hash"]` is the SHA-256 of the record, or None.
    `first` is tried first (a log keeps one form)."""
    claimed = str(record.get(HASH)).lower()
    bodies = _bodies(record)
    order = [(b, s) for b in range(len(bodies)) for s in range(4)]
    if first is not None:
        order.remove(first)
        order.insert(0, first)
    spellings: dict[int, list[bytes]] = {}
    for b, s in order:
        if b not in spellings:
            spellings[b] = canonical_variants(bodies[b])
        if s < len(spellings[b]) and hashlib.sha256(spellings[b][s]).hexdigest() == claimed:
            return b, s
    return None


@dataclass
class ChainCheck:
    records: int = 0
    hashed: int = 0
    previous: str | None = None  # hash of the previous record (None: it had none)
    started: bool = False
    link_breaks: list[int] = field(default_factory=list)
    content_ok: int = 0
    content_bad: list[int] = field(default_factory=list)
    form: tuple[int, int] | None = None

    def feed(self, lineno: int, record: dict[str, Any]) -> None:
        self.records += 1
        prev, own = record.get(PREV_HASH), record.get(HASH)
        has_own = _is_hash(own)
        link = prev.lower() if isinstance(prev, str) else None
        if not self.started:
            self.started = True
            if prev is not None and (link is None or link not in _GENESIS):
                self.link_breaks.append(lineno)  # the log does not start at its first record
        elif self.previous is not None:
            if link != self.previous:
                self.link_breaks.append(lineno)
        elif link is not None and link not in _GENESIS:
            self.link_breaks.append(lineno)  # it links to a record that has no hash
        if has_own:
            self.hashed += 1
            # a log whose first records match no known form keeps its unknown form: stop trying
            form = content_form(record, self.form) if self.content_ok or len(self.content_bad) < 16 else None
            if form is not None:
                self.form = form
                self.content_ok += 1
            else:
                self.content_bad.append(lineno)
        self.previous = own.lower() if has_own else None  # type: ignore[union-attr]

    def report_to(self, report: RedactionReport) -> None:
        if not self.records:
            return
        if not self.hashed:
            report.warn("teaagent audit log: no hash chain (hash and prev_hash are empty); its "
                        "integrity is not verified")
            return
        if self.link_breaks:
            first, more = self.link_breaks[0], len(self.link_breaks) - 1
            report.warn(f"teaagent hash chain BROKEN: prev_hash does not match the previous record's "
                        f"hash at line {first}" + (f" and {more} more line(s)" if more else "")
                        + " (records removed, inserted, reordered or damaged)")
        if self.hashed < self.records:
            report.warn(f"teaagent hash chain: {self.records - self.hashed} record(s) carry no hash")
        if self.content_ok and self.content_bad:
            first, more = self.content_bad[0], len(self.content_bad) - 1
            report.warn(f"teaagent hash chain BROKEN: a record's hash does not match its content at "
                        f"line {first}" + (f" and {more} more line(s)" if more else "")
                        + " (the record was altered)")
        elif not self.content_ok:
            report.warn("teaagent hash chain: the writer's hash form is not one this tool knows, so "
                        "only the links between records were verified, not each record's content")

    @property
    def intact(self) -> bool:
        return bool(self.hashed) and not self.link_breaks and not (self.content_ok and self.content_bad)
