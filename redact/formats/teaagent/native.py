"""teaagent run audit logs (seed 003) scrubbed in their own format (`--to native`).

Each event is reduced by the table (`native_table.py`, audit level L2) and then to
the chosen audit level (`level`: L0, L1 or L2). The hash chain cannot survive redaction (every
record's content changes), so it is recomputed over the output: `prev_hash` is the previous output
record's `hash` (null for the first), `hash` the SHA-256 of the record in the form the table module
documents. `chain_hmac` is recomputed only with the log's chain key (`chain_key`, a Key the user
loaded from a file); without it the field is removed and the report says so. Paths in arguments are
workspace-relative, placed under the workspace root as the reader places them.
"""
from __future__ import annotations

import json
from typing import Any

import orjson

from redact.errors import UsageError
from redact.formats.common import label
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.teaagent.keys import CHAIN_HMAC, EVENT_TYPE, HASH, PAYLOAD, PREV_HASH
from redact.formats.teaagent.reader import WORKSPACE
from redact.keys.material import Key, sha256_hex
from redact.native.scrub import Scrubber
from redact.tables.spec import Switch
from redact.formats.teaagent.native_table import DEFAULT_LEVEL, L1_PAYLOAD, LEVELS, RECORD, TABLE
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport

_CHAIN = (PREV_HASH, HASH, CHAIN_HMAC)


def canonical(record: dict[str, Any]) -> bytes:
    """The bytes `hash` and `chain_hmac` are computed over: the record without them, keys sorted,
    compact, ASCII (one of the forms the reader verifies, `canonical_variants`)."""
    body = {k: v for k, v in record.items() if k not in (HASH, CHAIN_HMAC)}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def at_level(record: dict[str, Any], level: str) -> dict[str, Any]:
    keep = LEVELS[level]
    out = {k: v for k, v in record.items() if k in keep}
    if level == "L1" and isinstance(out.get(PAYLOAD), dict):
        out[PAYLOAD] = {k: v for k, v in out[PAYLOAD].items() if k in L1_PAYLOAD}
    return out


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False, level: str = DEFAULT_LEVEL,
          chain_key: Key | None = None) -> bytes:
    if level not in LEVELS:
        raise UsageError(f"--level must be one of {', '.join(LEVELS)} (teaagent audit levels)")
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=(WORKSPACE,))
    scrubber.cwd = WORKSPACE
    assert isinstance(RECORD, Switch)
    out: list[bytes] = []
    stats = LineStats()
    previous: str | None = None
    had_hmac = False
    for _, record in iter_objects(data, name, skip_bad_lines=skip_bad_lines, stats=stats):
        kind = record.get(EVENT_TYPE)
        if not isinstance(kind, str) or kind not in RECORD.cases:
            report.skipped_records[label(kind) if isinstance(kind, str) else "<no event_type>"] += 1
            continue
        had_hmac = had_hmac or record.get(CHAIN_HMAC) is not None
        scrubbed = scrubber.record({k: v for k, v in record.items() if k not in _CHAIN})
        if scrubbed is None:
            continue
        event = at_level(scrubbed, level)
        event[PREV_HASH] = previous
        body = canonical(event)
        event[HASH] = previous = sha256_hex(body)
        if chain_key is not None:
            event[CHAIN_HMAC] = chain_key.chain_hmac(body)
        out.append(orjson.dumps(event))
    stats.warn_skipped(report)
    report.warn(f"teaagent: written at audit level {level}; prev_hash and hash recomputed over the "
                "scrubbed records")
    if chain_key is None and had_hmac:
        report.warn("teaagent: chain_hmac removed (it needs the log's chain key; give it to recompute)")
    return b"".join(line + b"\n" for line in out)
