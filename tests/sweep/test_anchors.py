"""The at-rest scan and its prefilter (redact/contract/secrets/anchors.py): every at-rest finding
holds an anchor, so skipping the strings without one loses nothing; a long string searched around
its anchors gives what a whole search gives; an opaque token needs a credential keyword before it."""
from __future__ import annotations

import json
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from redact.contract.secrets.anchors import REGEXES, AnchorIndex
from redact.contract.secrets.providers import PROVIDER_RULES
from redact.contract.secrets.scan import _scan, secret_spans
from redact.keys.material import Key
from redact.sweep.engine import fingerprinter
from redact.sweep.find import scan_text
from tests.conftest import SHARED
from tests.sweep.plant import make_secrets, secret_value

INDEX = AnchorIndex()
FP = fingerprinter(Key(bytes(range(32)), source="test"))
LABELED = SHARED / "benchmarks" / "secrets" / "labeled.jsonl"
SECRETS = make_secrets(7)


def _random_token(rng: random.Random, n: int = 40) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(n))


def test_every_provider_rule_has_a_literal_or_listed_anchor() -> None:
    # a rule that falls back to its own regex as an anchor would be searched over whole files
    assert not set(REGEXES) & {pattern for _, pattern in PROVIDER_RULES}


@pytest.mark.skipif(not LABELED.is_file(), reason="../shared/benchmarks/secrets is absent")
def test_every_at_rest_finding_on_the_labeled_rows_holds_an_anchor() -> None:
    rows = [json.loads(line) for line in LABELED.read_text(encoding="utf-8").splitlines() if line.strip()]
    checked = 0
    for row in rows:
        found = _scan(row["text"], True)
        if found:
            checked += 1
            assert INDEX.holds(row["text"]), (row["source"], row["rule"])
    assert checked > 5000  # the check ran on the rows that matter


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=string.printable, max_size=300), st.sampled_from(sorted(SECRETS)), st.integers(0, 300))
def test_a_finding_implies_an_anchor(filler: str, cls: str, at: int) -> None:
    text = filler[:at] + " " + secret_value(cls, SECRETS[cls]) + " " + filler[at:]
    if _scan(text, True):
        assert INDEX.holds(text)
    if _scan(filler, True):
        assert INDEX.holds(filler)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(sorted(SECRETS)), min_size=1, max_size=4), st.integers(0, 2**32))
def test_a_long_string_searched_around_its_anchors_finds_what_a_whole_search_finds(
        classes: list[str], seed: int) -> None:
    rng = random.Random(seed)
    words = ["the", "build", "passed", "token", "count", "def", "return", "{", "}", "x = 1", "\n", "path/to"]
    parts = []
    for cls in classes:
        parts.append(" ".join(rng.choice(words) for _ in range(rng.randint(200, 900))))
        parts.append(secret_value(cls, SECRETS[cls]))
    parts.append(" ".join(rng.choice(words) for _ in range(1200)))
    text = " ".join(parts)
    assert len(text) > 4096
    assert secret_spans(text, at_rest=True) == _scan(text, True)


def test_an_opaque_token_at_rest_needs_a_keyword_before_it() -> None:
    token = _random_token(random.Random(3))
    assert secret_spans(f"result {token} done") == [(7, 47, "high-entropy-base64")]  # a map: reported
    assert secret_spans(f"result {token} done", at_rest=True) == []  # a log: an id, a hash, a blob
    assert [r for _, _, r in secret_spans(f"export API_KEY_VALUE {token}", at_rest=True)] == ["high-entropy-base64"]
    assert [r for _, _, r in secret_spans(f"Bearer {token}", at_rest=True)] == ["authorization-header"]
    assert [r for _, _, r in secret_spans(f"-H 'Authorization: Api-Key {token}'", at_rest=True)] == [
        "high-entropy-base64"]
    # the keyword must assign the token, not name something else on the way to it
    assert secret_spans(f"target/debug/deps/auth-fea4fa50b387056b.{token}.rcgu.o", at_rest=True) == []
    assert secret_spans(f"the keyboard layout {token}", at_rest=True) == []


def test_the_sweep_skips_strings_without_an_anchor_but_finds_escaped_ones() -> None:
    github = secret_value("github-token", SECRETS["github-token"])
    url = "postgres://app:Xk29-pLq7vRt@db.internal:5432/app"
    lines = [
        json.dumps({"type": "note", "text": "nothing to see " * 50}),
        json.dumps({"type": "tool", "output": f"cloned with {github} ok"}),
        # a writer that escapes `/` and one that escapes an ASCII letter
        '{"type": "tool", "output": "' + url.replace("/", "\\/") + '"}',
        '{"type": "tool", "output": "DB_\\u0050ASSWORD=Zq8!vR2#kLm9 rest"}',
    ]
    scan = scan_text("\n".join(lines) + "\n", FP)
    assert sorted((p.line, p.cls) for p in scan.places) == [
        (2, "github-token"), (3, "database-url"), (4, "password-assignment")]
