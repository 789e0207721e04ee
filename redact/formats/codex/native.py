"""Codex CLI rollouts scrubbed in their own format (`--to native`), in whichever layout they came.

The repository root is the session's working directory as the reader finds it (`session_meta`, else
the first `turn_context`, else the `<cwd>` of an `<environment_context>` message of the August-2025
layout); relative paths are taken from the current turn's working directory. A record type or payload
type the table does not know is dropped and counted by name.
"""
from __future__ import annotations

from typing import Any

import orjson

from redact.formats.codex.keys import (
    CHAT_CONTENT, CHAT_ROLE, CONTENT, DOC_ITEMS, DOC_SESSION, HEADER_GIT, ITEM_TYPE, KIND, META_CWD,
    META_GIT, PART_TEXT, PAYLOAD, ROLE, TURN_CWD,
)
from redact.formats.codex.reader import env_cwd
from redact.formats.codex.table import sniff_doc
from redact.formats.common import label
from redact.formats.jsonl import LineStats, iter_objects, rewrite_lines
from redact.keys.material import Key
from redact.native.scrub import DROP, Scrubber
from redact.tables.spec import Switch
from redact.formats.codex.native_table import DOCUMENT, EVENT_MSGS, RECORD, RESPONSE_ITEMS, TABLE
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport
from redact.formats.roots import choose_roots

_PAYLOADS = {"response_item": RESPONSE_ITEMS, "event_msg": EVENT_MSGS}
_HEAD_RECORDS = 400


def _document(data: bytes) -> Any:
    """The single-JSON rollout in `data`, or None when `data` is JSON Lines."""
    head = data.lstrip()
    if head[:1] != b"{":
        return None
    first, sep, rest = head.partition(b"\n")
    if sep and rest.strip():
        try:
            orjson.loads(first)
            return None  # a whole JSON value on its first line and more after it: JSON Lines
        except orjson.JSONDecodeError:
            pass
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    return doc if sniff_doc(doc) else None


def _env_cwd(content: Any) -> str | None:
    parts = content if isinstance(content, list) else [content]
    for part in parts:
        text = part.get(PART_TEXT) if isinstance(part, dict) else part
        found = env_cwd(text) if isinstance(text, str) else None
        if found:
            return found
    return None


def _has_git(git: object) -> bool:
    return isinstance(git, dict) and any(isinstance(v, str) and v for v in git.values())


def _git_info(records: Any) -> bool:
    """Whether the first `session_meta` carries git info, as the reader's evidence of git."""
    for n, record in enumerate(records):
        if n >= _HEAD_RECORDS:
            break
        payload = record.get(PAYLOAD)
        if record.get(KIND) == "session_meta" and isinstance(payload, dict):
            return _has_git(payload.get(META_GIT))
    return False


def _root_dir(records: Any) -> str | None:
    """The session's working directory, from the first records."""
    env: str | None = None
    turn: str | None = None
    for n, record in enumerate(records):
        if n >= _HEAD_RECORDS:
            break
        payload = record.get(PAYLOAD) if isinstance(record.get(PAYLOAD), dict) else record
        kind = record.get(KIND)
        cwd = payload.get(META_CWD) if isinstance(payload, dict) else None  # session_meta's, turn_context's
        if kind == "session_meta" and isinstance(cwd, str) and cwd:
            return cwd
        if kind == "turn_context" and isinstance(cwd, str) and cwd and turn is None:
            turn = cwd
        if env is None and isinstance(payload, dict) and payload.get(ITEM_TYPE) == "message" and \
                payload.get(ROLE) == "user":
            env = _env_cwd(payload.get(CONTENT))
    return turn or env


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    doc = _document(data)
    if doc is not None:
        return _scrub_document(doc, policy=policy, key=key, mode=mode, report=report)
    cwd = _root_dir(r for _, r in iter_objects(data, name, skip_bad_lines=True, stats=LineStats()))
    git = _git_info(r for _, r in iter_objects(data, name, skip_bad_lines=True, stats=LineStats()))
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=choose_roots((cwd,), git=git))
    scrubber.cwd = cwd
    assert isinstance(RECORD, Switch)

    def each(record: dict[str, Any]) -> Any:
        kind = record.get(KIND)
        if kind is not None and (not isinstance(kind, str) or kind not in RECORD.cases):
            report.skipped_records[label(kind) if isinstance(kind, str) else "<no type>"] += 1
            return None
        payload = record.get(PAYLOAD)
        cases = _PAYLOADS.get(kind) if isinstance(kind, str) else None
        if isinstance(kind, str) and cases is not None:
            ptype = payload.get(ITEM_TYPE) if isinstance(payload, dict) else None  # an item's or event's
            if not isinstance(ptype, str) or ptype not in cases:
                report.skipped_records[label(kind, ptype if isinstance(ptype, str) else None)] += 1
                return None
        if kind == "turn_context" and isinstance(payload, dict) and isinstance(payload.get(TURN_CWD), str):
            scrubber.cwd = payload[TURN_CWD]
        return scrubber.record(record)

    return rewrite_lines(data, name, each, report=report, skip_bad_lines=skip_bad_lines)


def _scrub_document(doc: dict[str, Any], *, policy: EffectivePolicy, key: Key | None, mode: str,
                    report: RedactionReport) -> bytes:
    items: list[Any] = doc[DOC_ITEMS] if isinstance(doc.get(DOC_ITEMS), list) else []
    cwd = next((c for c in (_env_cwd(i.get(CHAT_CONTENT)) for i in items[:50]
                            if isinstance(i, dict) and i.get(CHAT_ROLE) == "user") if c), None)
    session = doc.get(DOC_SESSION)
    git = _has_git(session.get(HEADER_GIT) if isinstance(session, dict) else None)
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=choose_roots((cwd,), git=git))
    scrubber.cwd = cwd
    out = scrubber.value(DOCUMENT, doc, "document")
    # pretty-printed, as Codex writes this layout (and as readers tell it from JSON Lines)
    return orjson.dumps(out if out is not DROP else {"items": []}, option=orjson.OPT_INDENT_2)
