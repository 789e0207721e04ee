"""Names the input chooses (field names, record types, status tags) reach reports and errors under
one rule (redact/names.py). Each surface is fed keys shaped like secrets and checked for them.

Found by `test_fuzz_map_bytes`: a duplicate key `xZq7Canary` was named in full in the refusal line,
because the duplicate-key check had its own, looser rule (letters and digits). Five other places had
a rule of their own, two of which showed a 32-character Stripe-shaped key in the report.
"""
from __future__ import annotations

import string

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.report_of_map import report_of_map
from redact.api import redact_bytes
from redact.errors import RedactError
from redact.names import MAX_SHOWN, is_shown
from tests.formats.ccfix import Transcript
from tests.hardening.helpers import example_map
from tests.native.helpers import native, report_text

# Shaped like the secrets and places a producer might use as a key: each has a digit, `.`, `/`,
# `@` or a space, or is too long to be a field name.
SECRET_KEYS = (
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "ghp_R2d2C3poBb8AaZz0Yy1Xx2Ww3Vv4Uu5Tt6Ss",
    "deadbeefcafebabe0123456789abcdef01234567",
    "xZq7Canary",
    "ops.acme-internal.example",
    "/home/zorblaxq/plans",
    "zorblaxq@vexmail.example",
    "frumious bandersnatch",
    "Abcdefghijklmnopqrstuvwxyzabcdefg",  # 33 letters: longer than any field name
)


def _dumps(value: object) -> str:
    return orjson.dumps(value, default=str).decode()


@given(st.text(alphabet=string.printable + "é\u00a0\u200b", max_size=40))
def test_a_shown_name_is_short_letters_underscore_and_hyphen_only(name: str) -> None:
    if is_shown(name):
        assert 0 < len(name) <= MAX_SHOWN
        assert set(name) <= set(string.ascii_letters + "_-") and name[0] != "-"


@pytest.mark.parametrize("name", ["hostName", "file-history-snapshot", "tool_use", "_meta", "a" * MAX_SHOWN])
def test_schema_shaped_names_are_shown(name: str) -> None:
    assert is_shown(name)


@pytest.mark.parametrize("key", SECRET_KEYS)
def test_duplicate_key_refusal_does_not_name_the_key(key: str) -> None:
    m = example_map()
    body = orjson.dumps(m).decode()
    dup = body.replace('"kind":', f'"{key}":1,"{key}":2,"kind":', 1)
    with pytest.raises(RedactError) as exc:
        redact_bytes(dup.encode(), name="m.json", policy="default")
    diag = exc.value.diagnostic()
    assert "duplicate key" in diag and key not in diag
    assert diag.startswith("m.json#/agents/0/<field>:")  # the place is still given (first "kind")


@pytest.mark.parametrize("key", SECRET_KEYS)
def test_unknown_map_field_is_counted_but_not_named(key: str) -> None:
    m = example_map()
    m["events"][0][key] = 1
    m["session"][key] = "x"
    m["session"]["debugInfo"] = "x"  # a plain name is shown: the report stays useful
    result = redact_bytes(orjson.dumps(m), name="m.json", policy="default")
    dropped = result.report.as_dict()["droppedFields"]
    assert key not in _dumps(result.report.as_dict())
    assert dropped.get("/session/<unknown field>") == 1 and dropped.get("/events/*/<unknown field>") == 1
    assert dropped.get("/session/debugInfo") == 1


@pytest.mark.parametrize("key", SECRET_KEYS)
def test_audit_of_a_map_does_not_name_unknown_fields(key: str) -> None:
    m = example_map()
    m["session"][key] = "x"
    report = report_of_map(m, scan=False)
    assert key not in _dumps(report)
    assert report["droppedFields"] or report.get("unknownFields"), report.keys()


@pytest.mark.parametrize("key", SECRET_KEYS)
def test_unknown_claude_code_record_type_is_not_named(key: str) -> None:
    t = Transcript("4e5f6071-8293-44a5-b6c7-d8e9f0a1b2c3", "/home/dev/p", seed=3)
    t.user("go")
    t.records.append({**t.records[0], "type": key, "uuid": "9e5f6071-8293-44a5-b6c7-d8e9f0a1b2c3"})
    result = redact_bytes(t.bytes(), name="s.jsonl", policy="default")
    skipped = result.report.as_dict()["skippedRecords"]
    assert key not in _dumps(result.report.as_dict())
    assert skipped.get("<other>") == 1, skipped


@pytest.mark.parametrize("key", SECRET_KEYS)
def test_native_scrub_does_not_name_unknown_record_types(key: str) -> None:
    t = Transcript("4e5f6071-8293-44a5-b6c7-d8e9f0a1b2c3", "/home/dev/p", seed=3)
    t.user("go")
    t.records.append({**t.records[0], "type": key})
    out, report = native(t.bytes(), "claude-code")
    assert key not in report_text(report) and key.encode() not in out
