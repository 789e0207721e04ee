"""Issue 13, item 3: a word from the input in a record type, a subtype, Codex `payload.type`, a
session-record `vcs.action` or `file_change.status`, or an unknown field name of an input map, was
echoed in `skippedRecords` / `droppedFields` and by `explain`, because any name of a plain shape was
shown. Now only names on the closed list this tool derives from its format tables are shown
(redact/formats/vocabulary.py); any other is counted under a placeholder. Each slot is checked in every report
format (json, markdown, html, terminal), in `explain` (text and JSON), and in `--to native`'s report.
"""
from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from audit.render import render
from audit.render.terminal import render_terminal
from redact.api import redact_bytes
from redact.share.explain import explain_map
from redact.tables.names import is_shown
from redact.policy.load import load_policy
from redact.formats.vocabulary import known_names
from tests.formats.ccfix import Transcript, text
from tests.hardening.helpers import example_map
from tests.native import codexfix, srfix
from tests.native.helpers import KEY, native

WORD = "globex-merger-layoffs"


def _words() -> Callable[[], str]:
    n = iter(range(10_000))
    return lambda: f"zqword{next(n)}qz"


def _cc_record_type(word: str = WORD) -> bytes:
    t = Transcript("5b0c9e1d-2f3a-4b5c-8d6e-7f8091a2b3c4", "/Users/dana/src/orders-api", seed=1)
    t.user("hello")
    t.assistant([text("hi")])
    t.add(t.envelope(word))
    return t.bytes()


def _cc_subtype(word: str = WORD) -> bytes:
    t = Transcript("5b0c9e1d-2f3a-4b5c-8d6e-7f8091a2b3c4", "/Users/dana/src/orders-api", seed=1)
    t.user("hello")
    t.assistant([text("hi")])
    t.system(word)
    return t.bytes()


def _codex(kind: str) -> Callable[..., bytes]:
    def make(word: str = WORD) -> bytes:
        data = codexfix.rollout(_words())
        if kind == "type":
            extra = {"timestamp": "2026-01-06T20:05:00.000Z", "type": word, "payload": {}}
        else:
            extra = {"timestamp": "2026-01-06T20:05:00.000Z", "type": kind, "payload": {"type": word}}
        return data + orjson.dumps(extra) + b"\n"
    return make


def _session_record(old: bytes) -> Callable[..., bytes]:
    def make(word: str = WORD) -> bytes:
        data = srfix.stream(_words())
        assert old in data
        return data.replace(old, old.split(b":")[0] + b':"' + word.encode() + b'"', 1)
    return make


def _map_field(word: str = WORD) -> bytes:
    m = example_map()
    m[word] = 1
    m["events"][0][word] = {"a": 1}
    m["session"][word] = "x"
    return orjson.dumps(m)


SLOTS: dict[str, tuple[Callable[..., bytes], str | None]] = {
    "claude-code record type": (_cc_record_type, "claude-code"),
    "claude-code system subtype": (_cc_subtype, "claude-code"),
    "codex record type": (_codex("type"), "codex"),
    "codex response_item payload.type": (_codex("response_item"), "codex"),
    "codex event_msg payload.type": (_codex("event_msg"), "codex"),
    "session-record vcs.action": (_session_record(b'"action":"commit"'), "session-record"),
    "session-record file_change.status": (_session_record(b'"status":"applied"'), "session-record"),
    "map unknown field name": (_map_field, None),
}


def _terminal(report: dict[str, Any], session_map: dict[str, Any] | None) -> str:
    buf = io.StringIO()
    render_terminal(report, session_map, Console(file=buf, width=200, color_system=None))
    return buf.getvalue()


def _explain_text(exp: Any) -> str:
    from redact.cli.explain_cmd import _text

    body = {**exp.header(), "fields": [f.as_dict() for f in exp.fields],
            "dropped": [d.as_dict() for d in exp.dropped]}
    return "\n".join(_text(exp, None)) + json.dumps(body)


def test_the_word_is_not_a_known_name() -> None:
    assert WORD not in known_names() and not is_shown(WORD)
    # the tables' own names still are: a report stays useful
    for name in ("queue-operation", "file-history-snapshot", "turn_duration", "function_call", "commit",
                 "applied", "events", "session"):
        assert is_shown(name), name


@pytest.mark.parametrize("slot", sorted(SLOTS))
@pytest.mark.parametrize("policy", ["default", "internal", "public"])
def test_an_input_word_in_a_name_slot_reaches_no_report(slot: str, policy: str) -> None:
    make, fmt = SLOTS[slot]
    data = make()
    eff = load_policy(policy)
    result = redact_bytes(data, name="input", policy=eff, key=KEY, input_format=fmt)
    report = result.report.as_dict()
    outputs = {
        "map": result.data.decode(),
        "report": json.dumps(report),
        "json": render(report, result.session_map, "json"),
        "md": render(report, result.session_map, "md"),
        "html": render(report, result.session_map, "html"),
        "terminal": _terminal(report, result.session_map),
        "explain": _explain_text(explain_map(result.session_map, result.report, eff)),
    }
    leaked = [where for where, body in outputs.items() if WORD in body]
    assert not leaked, f"{WORD} shown in {leaked}"
    # the dropped thing is still counted, under a placeholder
    counted = sum(report["skippedRecords"].values()) + sum(report["droppedFields"].values()) \
        + sum(report["droppedValues"].values())
    assert counted > 0


@pytest.mark.parametrize("slot", sorted(s for s, (_, fmt) in SLOTS.items() if fmt is not None))
def test_an_input_word_in_a_name_slot_reaches_no_native_report(slot: str) -> None:
    make, fmt = SLOTS[slot]
    assert fmt is not None
    out, report = native(make(), fmt, policy="public", key=KEY)
    as_dict = report.as_dict()
    for body in (out.decode(), json.dumps(as_dict), render(as_dict, None, "md"), render(as_dict, None, "html"),
                 _terminal(as_dict, None)):
        assert WORD not in body


# A plain word the tables do not know, long enough not to occur in a report by chance.
_PLAIN_WORDS = st.from_regex(r"[A-Za-z_][A-Za-z_-]{7,31}", fullmatch=True).filter(
    lambda w: w not in known_names() and not w.startswith("-"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word=_PLAIN_WORDS, slot=st.sampled_from(sorted(SLOTS)), policy=st.sampled_from(["default", "public"]))
def test_no_unknown_plain_word_in_any_name_slot_is_reported(word: str, slot: str, policy: str) -> None:
    make, fmt = SLOTS[slot]
    eff = load_policy(policy)
    result = redact_bytes(make(word), name="input", policy=eff, key=KEY, input_format=fmt)
    report = result.report.as_dict()
    for body in (json.dumps(report), render(report, result.session_map, "md"),
                 _explain_text(explain_map(result.session_map, result.report, eff))):
        assert word not in body
