"""Fuzzing every input format with structure-aware mutations (tests/hardening/fuzzlib.py).

Budget: `HYPOTHESIS_PROFILE=ci` (default) keeps this file under a minute; `HYPOTHESIS_PROFILE=long`
is the long run documented in docs/fuzzing.md. Every finding so far is a named case in
test_regressions.py.
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.render import render
from audit.report_of_map import report_of_map
from audit.scan import check_map_shape, scan_map
from redact.api import redact_bytes
from redact.formats.detect import FORMATS, MAP, detect
from redact.errors import BadInput, RedactError
from redact.io.read import Limits, _gunzip, duplicate_key, parse_json
from redact.keys.material import Key
from tests.formats.test_claude_code_contract import STEPS, transcript
from tests.hardening.fuzzlib import FUZZ, check_outcome, dumps, mutate, mutate_bytes
from tests.maps import CANARY, maps

KEY = Key(bytes(range(7, 39)), source="fuzz")
ROOT = Path(__file__).resolve().parents[2]
POLICIES = st.sampled_from([("default", None), ("internal", None), ("public", KEY)])
STRUCTURE_AWARE = {MAP, "claude-code"}


def _seed_transcript(data: st.DataObject) -> tuple[list[Any], list[str]]:
    steps = data.draw(st.lists(st.sampled_from(STEPS), min_size=1, max_size=8), label="steps")
    base = data.draw(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=4, max_size=6))
    raw, canaries = transcript(steps, base, data.draw(st.lists(st.booleans(), max_size=8)))
    return [orjson.loads(line) for line in raw.splitlines()], list(canaries.all)


# ---- Claude Code ------------------------------------------------------------------------------------

@FUZZ
@given(st.data())
def test_fuzz_claude_code_records(data: st.DataObject) -> None:
    """Mutated records: the map holds no canary from a text slot, or the input is refused in one line."""
    records, canaries = _seed_transcript(data)
    mutate(data, records)
    raw = b"".join(dumps(r) + b"\n" for r in records)
    policy, key = data.draw(POLICIES, label="policy")
    skip = data.draw(st.booleans(), label="skip_bad_lines")
    check_outcome(lambda: redact_bytes(raw, name="fuzz.jsonl", policy=policy, key=key,
                                       input_format="claude-code", skip_bad_lines=skip),
                  canaries, label="cc-records")


@FUZZ
@given(st.data())
def test_fuzz_claude_code_bytes(data: st.DataObject) -> None:
    """Damaged bytes (format detected, not forced). Under `public` no canary may survive even where the
    damage moved it into another field; under `default` the outcome must only be clean."""
    records, canaries = _seed_transcript(data)
    if data.draw(st.booleans(), label="also structure"):
        mutate(data, records)
    raw, _ = mutate_bytes(data, b"".join(dumps(r) + b"\n" for r in records))
    check_outcome(lambda: redact_bytes(raw, name="fuzz.jsonl", policy="public", key=KEY), canaries,
                  label="cc-bytes-public")
    check_outcome(lambda: redact_bytes(raw, name="fuzz.jsonl", policy="default"), [], label="cc-bytes-default")


# ---- agentplay/v1 maps ------------------------------------------------------------------------------

def _audit_is_clean(raw: bytes) -> None:
    """The `scan` and `audit` paths over the same bytes: a result, or a RedactError."""
    try:
        doc = parse_json(raw, "fuzz.json")
        check_map_shape(doc, "fuzz.json")
        scan_map(doc)
        report = report_of_map(doc, source="fuzz.json", scan=False)
    except RedactError as exc:
        assert "\n" not in exc.diagnostic()
        return
    for fmt in ("json", "md", "html"):
        render(report, doc, fmt)


@FUZZ
@given(st.data())
def test_fuzz_map_structure(data: st.DataObject) -> None:
    """Mutated maps carrying canaries in identifier, path, id and text slots: under `public` with a key
    none survives; under every policy the outcome is clean; `scan` and `audit` cope with the same map."""
    m = data.draw(maps(), label="map")
    mutate(data, [m], record_level=False)
    raw = dumps(m)
    check_outcome(lambda: redact_bytes(raw, name="fuzz.json", policy="public", key=KEY), [CANARY],
                  label="map-public")
    policy, key = data.draw(POLICIES, label="policy")
    check_outcome(lambda: redact_bytes(raw, name="fuzz.json", policy=policy, key=key), [], label="map-any")
    _audit_is_clean(raw)


@FUZZ
@given(st.data())
def test_fuzz_map_bytes(data: st.DataObject) -> None:
    m = data.draw(maps(), label="map")
    pretty = data.draw(st.booleans(), label="pretty")
    raw = json.dumps(m, indent=1).encode() if pretty else orjson.dumps(m)
    raw, _ = mutate_bytes(data, raw)
    check_outcome(lambda: redact_bytes(raw, name="fuzz.json", policy="public", key=KEY), [CANARY],
                  label="map-bytes-public")
    check_outcome(lambda: redact_bytes(raw, name="fuzz.json", policy="default"), [], label="map-bytes-default")
    _audit_is_clean(raw)


# ---- the readers' own pieces ------------------------------------------------------------------------

def _dupes_by_python(raw: bytes) -> bool:
    found = []

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            found.append(True)
        return dict(pairs)

    json.loads(raw, object_pairs_hook=hook)
    return bool(found)


_JSON_TEXT = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.sampled_from('ab:"\\u003A:\u00e9 '), max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.lists(
        st.tuples(st.text(alphabet=st.sampled_from("ab:\u00e9"), max_size=3), inner), max_size=4),
    max_leaves=20,
)


def _render(value: Any, draw_escape: Any) -> str:
    """JSON text of a value whose objects are lists of pairs (so keys may repeat), colons sometimes
    written as \\u003a escapes."""
    if isinstance(value, list) and value and all(isinstance(p, tuple) for p in value):
        return "{" + ",".join(f"{_key(k, draw_escape)}:{_render(v, draw_escape)}" for k, v in value) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_render(v, draw_escape) for v in value) + "]"
    if isinstance(value, str):
        return _key(value, draw_escape)
    return json.dumps(value)


def _key(text: str, draw_escape: Any) -> str:
    body = json.dumps(text, ensure_ascii=False)[1:-1]
    if draw_escape(st.booleans()):
        body = body.replace(":", "\\u003a")
    return '"' + body + '"'


@FUZZ
@given(st.data())
def test_fuzz_duplicate_key_check_agrees_with_a_duplicate_aware_parser(data: st.DataObject) -> None:
    """The fast duplicate check (colon counts) against Python's parser with a pairs hook."""
    value = data.draw(_JSON_TEXT, label="doc")
    raw = _render(value, data.draw).encode()
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return
    assert (duplicate_key(raw, doc) is not None) == _dupes_by_python(raw)


@FUZZ
@given(st.data())
def test_fuzz_gzip_streams(data: st.DataObject) -> None:
    body = data.draw(st.binary(max_size=4096), label="body") * data.draw(st.integers(1, 64), label="times")
    raw, _ = mutate_bytes(data, gzip.compress(body))
    limits = Limits(max_bytes=64 * 1024, max_ratio=20, ratio_floor=4096)
    try:
        out = _gunzip(raw, "fuzz.gz", limits)
    except BadInput as exc:
        assert "\n" not in exc.diagnostic()
        return
    assert len(out) <= limits.max_bytes


# ---- formats without a structure-aware fuzzer here ----------------------------------------------------

def _seed_files() -> dict[str, list[Path]]:
    """Example and fixture files by detected format (the seeds of the generic fuzzer)."""
    found: dict[str, list[Path]] = {}
    for folder in (ROOT / "examples", ROOT / "tests" / "fixtures"):
        for path in sorted(folder.rglob("*")):
            if not path.is_file() or not path.name.endswith((".json", ".jsonl", ".gz")):
                continue
            try:
                raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
                fmt = detect(raw, "x")
            except (RedactError, OSError):
                continue
            found.setdefault(fmt, []).append(path)
    return found


SEEDS = _seed_files()
#: Markdown, not JSON: fuzzed line by line below
TEXT_FORMATS = {"aider"}
OTHER_FORMATS = sorted(set(FORMATS) - STRUCTURE_AWARE - TEXT_FORMATS)


def _prose(value: Any) -> list[str]:
    """Strings that read as sentences (four words or more): text, which `public` never writes."""
    out: list[str] = []
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str) and len(node) >= 20 and len(node.split()) >= 4:
            out.append(node)
    return out


@pytest.mark.parametrize("fmt", OTHER_FORMATS)
@FUZZ
@given(data=st.data())
def test_fuzz_other_formats(fmt: str, data: st.DataObject) -> None:
    """Every other registered format is fuzzed from its example and fixture files: their records (or
    their one document) are mutated like the others', then maybe damaged byte-wise. The sentences of
    the seed are its canaries: under `public` with a key none may survive; under `default` the outcome
    must only be clean. New formats are picked up without editing this file."""
    seeds = SEEDS.get(fmt)
    assert seeds, f"no example or fixture file of format {fmt} to fuzz from: add one"
    path = data.draw(st.sampled_from(seeds), label="seed")
    raw = path.read_bytes()
    if path.suffix == ".gz":
        raw = gzip.decompress(raw)
    try:
        records, one_doc = [orjson.loads(raw)], True
    except orjson.JSONDecodeError:
        records = [orjson.loads(line) for line in raw.splitlines() if line.strip()]
        one_doc = False
    canaries = [c for c in _prose(records) if len(c) < 2000]
    mutate(data, records, record_level=not one_doc)
    mutated = dumps(records[0]) if one_doc else b"".join(dumps(r) + b"\n" for r in records)
    if data.draw(st.booleans(), label="damage bytes"):
        mutated, _ = mutate_bytes(data, mutated)
    check_outcome(lambda: redact_bytes(mutated, name=f"fuzz-{fmt}", policy="public", key=KEY,
                                       input_format=fmt), canaries, label=f"{fmt}-public")
    check_outcome(lambda: redact_bytes(mutated, name=f"fuzz-{fmt}", policy="default", input_format=fmt),
                  [], label=f"{fmt}-default")


# ---- Aider's Markdown history -----------------------------------------------------------------------

_AIDER_LINES = (
    "# aider chat started at 2025-05-04 17:02:36", "> Aider v0.82.2", "> Main model: {w} with diff edit format",
    "#### {t}", "#### /run {t}", "#### /add {w}", "> Added {w} to the chat.", "> Applied edit to {t}",
    "> Applied edit to {w}", "> Commit 1a2b3c4 {t}", "> Tokens: 9.9k sent, 682 received. {t}", "> {t}",
    "> Run shell command? [Y/n] y", "<<<<<<< SEARCH", "{t}", "", "####", "> litellm.RateLimitError: {t}",
)


@FUZZ
@given(data=st.data())
def test_fuzz_aider_history(data: st.DataObject) -> None:
    """Aider histories made of its structured lines in any order, with made-up sentences and words in
    every slot: under `public` no sentence survives; under `default` the outcome is only clean."""
    lines, canaries = [], []
    for template in data.draw(st.lists(st.sampled_from(_AIDER_LINES), max_size=40), label="lines"):
        n = len(canaries)
        sentence, word = f"zqaid{n} said the Globexian layoffs plan", f"zqaidw{n}"
        canaries += [sentence, word]
        lines.append(template.format(t=sentence, w=word))
    raw = ("# aider chat started at 2025-05-04 17:02:36\n" + "\n".join(lines)).encode()
    if data.draw(st.booleans(), label="damage bytes"):
        raw, _ = mutate_bytes(data, raw)
    sentences = [c for c in canaries if " " in c]
    check_outcome(lambda: redact_bytes(raw, name="fuzz-aider", policy="public", key=KEY, input_format="aider"),
                  sentences + [c for c in canaries if " " not in c], label="aider-public")
    check_outcome(lambda: redact_bytes(raw, name="fuzz-aider", policy="default", input_format="aider"), [],
                  label="aider-default")
