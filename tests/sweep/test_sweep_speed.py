"""The sweep's fast paths give what the slow ones give: the words-outside-strings check told by
one substitution, and a store whose id columns hold random ids reports none of them."""
from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import string
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from redact.keys.material import Key
from redact.sweep.engine import sweep
from redact.sweep.find import _outside_strings
from redact.sweep.targets import sweep_inputs
from tests.sweep.plant import make_secrets

_LIT = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _blanked(text: str) -> str:
    """Every string literal blanked, written here from JSON's own rule (a quote opens a string,
    a backslash escapes the next character, a line ends an unclosed one)."""
    out, at = [], 0
    for m in _LIT.finditer(text):
        out.append(text[at:m.start()])
        out.append(" " * (m.end() - m.start()))
        at = m.end()
    out.append(text[at:])
    return "".join(out)


_PIECES = st.sampled_from(['"a b"', '"k":', ' 12 ', "true", "null", "false", "tru", "e", "x1", "{", "}",
                           "[", "]", ",", ":", '"esc \\" q"', '"\\\\"', "\n", '"open', " ", "1e5", "_z"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=30))
@example(["tru", '"a b"', "e"])  # a literal between two halves of `true`: words, not `true`
@example(["[", "true", ",", "null", "]"])
def test_outside_strings_is_none_exactly_when_only_json_syntax_is_left(pieces: list[str]) -> None:
    text = "".join(pieces)
    gaps = _outside_strings(text)
    reference = _blanked(text)
    words = [w for w in re.findall(r"[A-Za-z0-9_]+", reference) if not w[0].isdigit()]
    has_word = any(w not in ("true", "false", "null") and len(w) > 1 for w in words)
    assert (gaps is not None) == has_word
    if gaps is not None:
        assert gaps == reference and len(gaps) == len(text)


def test_a_store_of_random_ids_reports_none_and_its_secret_once(tmp_path: Path) -> None:
    """opencode's store: ids (`ses_`, `msg_`, `prt_` and 26 random characters) in the id columns
    of every table; only the secret in a part's data is a finding."""
    rng = random.Random(3)

    def rid(prefix: str) -> str:
        return prefix + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(26))

    path = tmp_path / "opencode.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE event (id TEXT PRIMARY KEY, aggregate_id TEXT, data TEXT)")
    db.execute("CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, data TEXT)")
    secret = make_secrets(12)["github-token"]
    for n in range(200):
        ses, msg, prt = rid("ses_"), rid("msg_"), rid("prt_")
        db.execute("INSERT INTO event VALUES (?, ?, ?)", (rid("evt_"), ses, json.dumps({"sessionID": ses, "id": msg})))
        text = f"push with {secret}" if n == 7 else "ran the tests"
        db.execute("INSERT INTO part VALUES (?, ?, ?, ?)", (prt, msg, ses, json.dumps({"type": "text", "text": text})))
    db.commit()
    db.close()
    result = sweep(sweep_inputs([str(path)]), Key(os.urandom(32), source="test"))
    assert [(p.cls, p.where.split(" ")[0]) for _, p in result.places] == [("github-token", "part.data")]
