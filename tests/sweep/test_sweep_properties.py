"""Invariants of the scrub, for any JSON Lines file (hypothesis): every planted token is gone,
decoded; each line still parses to the same record with only the token's strings changed; lines
without a token keep their bytes; the vault's spans give back the original bytes exactly."""
from __future__ import annotations

import base64
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from redact.keys.material import Key
from redact.sweep.engine import _rewrite, fingerprinter, residue
from redact.sweep.find import scan_text
from redact.sweep.vault import restored_bytes
from tests.sweep.plant import make_secrets

FP = fingerprinter(Key(bytes(range(32)), source="test"))
TOKENS = [v for k, v in make_secrets(99).items() if k not in ("database-url",)]

text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
leaf = st.one_of(st.integers(), st.booleans(), st.none(), text)
record = st.dictionaries(st.sampled_from(["type", "uuid", "content", "text", "input", "id"]),
                         st.one_of(leaf, st.lists(leaf, max_size=3)), min_size=1, max_size=5)


def _plant(rec: dict[str, object], token: str, where: int) -> dict[str, object]:
    keys = sorted(rec)
    key = keys[where % len(keys)]
    rec = dict(rec)
    rec[key] = f"{rec[key] if isinstance(rec[key], str) else 'note'} {token} end"
    return rec


@settings(max_examples=60, deadline=None)
@given(st.lists(record, min_size=1, max_size=6), st.lists(st.integers(0, 50), min_size=1, max_size=4),
       st.booleans())
def test_scrub_invariants(records: list[dict[str, object]], plants: list[int], ascii_only: bool) -> None:
    rng = random.Random(sum(plants))
    planted: dict[int, str] = {}
    for p in plants:
        i = p % len(records)
        token = rng.choice(TOKENS)
        records[i] = _plant(records[i], token, p)
        planted[i] = token
    lines = [json.dumps(r, ensure_ascii=ascii_only) for r in records]
    original = ("\n".join(lines) + "\n").encode("utf-8")
    body = original.decode("utf-8", "surrogateescape")
    scan = scan_text(body, FP)
    new, spans = _rewrite(body, scan.edits)
    new_text = new.decode("utf-8", "surrogateescape")
    values = {FP(v): v for e in scan.edits for _, v in e.originals}
    for token in set(planted.values()):
        assert token not in new_text
    assert residue(new_text, values, FP) == []
    out_lines = new_text.split("\n")
    assert len(out_lines) == len(lines) + 1
    for i, (before, after) in enumerate(zip(lines, out_lines)):
        b, a = json.loads(before), json.loads(after)
        assert b.keys() == a.keys()
        for key in b:
            assert b[key] == a[key] or "[REDACTED:" in json.dumps(a[key])
        if "[REDACTED:" not in after:
            assert before == after
    assert restored_bytes(new, [[o, n, base64.b64encode(x).decode()] for o, n, x in spans]) == original
