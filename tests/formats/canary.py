"""Canaries for the contract property tests of the raw formats: a fresh, unique string per text slot,
and the check that none of them reaches a map (or a report, except as a safe-shaped record name)."""
from __future__ import annotations

import orjson
from hypothesis import strategies as st

from redact.api import redact_bytes
from redact.keys.material import Key

KEY = Key(bytes(range(32)), source="t")
POLICIES = (("default", None), ("internal", None), ("public", KEY))
_ALPHA = "abcdefghijklmnopqrstuvwxyz0123456789"
canary_base = st.text(alphabet=_ALPHA, min_size=4, max_size=8)
flips = st.lists(st.booleans(), max_size=20)


class Canaries:
    def __init__(self, base: str) -> None:
        self.base = base
        self.all: list[str] = []

    def __call__(self, extra: str = "") -> str:
        value = f"zq{self.base}{len(self.all)}qz{extra}"
        self.all.append(value)
        return value


def check(data: bytes, canaries: Canaries, policy: str, key: Key | None, *, name: str = "session.jsonl",
          input_format: str | None = None) -> None:
    """No canary in the map; the report names a canary only as a record type of a strict, safe shape."""
    result = redact_bytes(data, name=name, policy=policy, key=key, input_format=input_format)
    out = result.data.decode("utf-8")
    leaked = [c for c in canaries.all if c in out]
    assert not leaked, (policy, leaked[:3])
    report = orjson.dumps(result.report.as_dict()).decode()
    in_report = [c for c in canaries.all if c in report]
    assert all(c.isascii() and c.replace("_", "").isalnum() for c in in_report), in_report


def check_file(path: object, canaries: Canaries, policy: str, key: Key | None) -> None:
    """`check` for an input read from its file (a SQLite store, `STORE#SESSION`): no canary in the
    map; the report names one only as a record type of a strict, safe shape."""
    from redact.api import redact_file

    result = redact_file(str(path), policy=policy, key=key)
    out = result.data.decode("utf-8")
    leaked = [c for c in canaries.all if c in out]
    assert not leaked, (policy, leaked[:3])
    report = orjson.dumps(result.report.as_dict()).decode()
    in_report = [c for c in canaries.all if c in report]
    assert all(c.isascii() and c.replace("_", "").isalnum() for c in in_report), in_report
