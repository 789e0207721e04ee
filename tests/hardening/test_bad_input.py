"""The bad-input matrix (DESIGN.md section 14): every malformed input fails through the CLI with exit 2,
one line naming the file and the place, no traceback, no output and the input untouched.

Cases whose input is odd but valid (a `\\u0000` escape, a valid 100 MB prompt) must succeed without
the odd content reaching the map; those say so in their docstring.
"""
from __future__ import annotations

import gzip
import json
import time
from pathlib import Path
from typing import Any

import orjson
import pytest

from redact.formats import jsonl
from redact.io import read as io_read
from tests.hardening.helpers import (
    assert_one_line,
    assert_refused,
    cli,
    example_map,
    example_transcript,
    snapshot,
)

MB = 1024 * 1024


def _map_bytes(m: dict[str, Any] | None = None) -> bytes:
    return json.dumps(m if m is not None else example_map(), indent=1).encode()


def _lines() -> list[bytes]:
    return [line for line in example_transcript().split(b"\n") if line.strip()]


# ---- empty, truncated -----------------------------------------------------------------------------

@pytest.mark.parametrize("name,content", [("empty.json", b""), ("empty.jsonl", b""),
                                          ("blank.json", b" \n\t\r\n"), ("empty.json.gz", gzip.compress(b"", mtime=0))],
                         ids=["empty.json", "empty.jsonl", "blank.json", "empty.json.gz"])
def test_empty_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: bytes) -> None:
    src = tmp_path / name
    src.write_bytes(content)
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=src, says="empty input")


def test_empty_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert_refused(capsys, tmp_path, "-", "-o", tmp_path / "out.json", names="<stdin>", says="empty input")


@pytest.mark.parametrize("cut", [0.1, 0.5, 0.97])
def test_truncated_json_map(tmp_path: Path, capsys: pytest.CaptureFixture[str], cut: float) -> None:
    data = _map_bytes()
    src = tmp_path / "map.json"
    src.write_bytes(data[: int(len(data) * cut)])
    line = assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}:",
                          says="invalid JSON (truncated)")
    assert "Globex" not in line and "orders" not in line  # a place, never the text


def test_truncated_jsonl_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _lines()
    src = tmp_path / "s.jsonl"
    src.write_bytes(b"\n".join(lines[:5]) + b"\n" + lines[5][: len(lines[5]) // 2])
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}:6", says="invalid JSON")


def test_truncated_gzip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = gzip.compress(_map_bytes())
    src = tmp_path / "map.json.gz"
    src.write_bytes(data[: len(data) // 2])
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=src, says="truncated")


# ---- huge lines -------------------------------------------------------------------------------------

def test_a_100mb_line_of_garbage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _lines()
    src = tmp_path / "s.jsonl"
    src.write_bytes(lines[0] + b"\n" + lines[2] + b"\n" + b"x" * (100 * MB) + b"\n" + lines[3] + b"\n")
    started = time.monotonic()
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}:3", says="invalid JSON")
    assert time.monotonic() - started < 10


def test_a_100mb_prompt_is_redacted_away(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A valid record whose prompt is 100 MB: the map is written, none of the prompt is in it."""
    lines = _lines()
    record = orjson.loads(lines[2])
    assert record["type"] == "user"
    record["message"]["content"] = "Zq" + "confidential words " * (100 * MB // 19)
    src = tmp_path / "s.jsonl"
    src.write_bytes(b"\n".join([lines[0], orjson.dumps(record)] + lines[3:]) + b"\n")
    before = src.read_bytes()
    out = tmp_path / "out.json"
    started = time.monotonic()
    run = cli(capsys, src, "-o", out)
    assert run.code == 0, run.err
    assert time.monotonic() - started < 30
    data = out.read_bytes()
    assert b"confidential" not in data and len(data) < MB
    assert src.read_bytes() == before


def test_a_line_over_the_line_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonl, "MAX_LINE_BYTES", 10 * MB)
    lines = _lines()
    record = orjson.loads(lines[2])
    record["message"]["content"] = "y" * (12 * MB)
    src = tmp_path / "s.jsonl"
    src.write_bytes(b"\n".join([lines[0], orjson.dumps(record)] + lines[3:]) + b"\n")
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}:2", says="line longer than")


def test_a_100mb_map_string(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A map whose host name is 100 MB: dropped or hashed, never copied; the map is written."""
    m = example_map()
    m["session"]["hostName"] = "Zq" + "h" * (100 * MB)
    src = tmp_path / "map.json"
    src.write_bytes(orjson.dumps(m))
    out = tmp_path / "out.json"
    run = cli(capsys, src, "-o", out)
    assert run.code == 0, run.err
    assert b"Zqhhhh" not in out.read_bytes()


# ---- nesting ----------------------------------------------------------------------------------------

DEEP = 100_000


def test_nesting_100000_deep_in_a_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = _map_bytes(example_map()).replace(b'"truncated": false', b'"truncated": ' + b"[" * DEEP + b"]" * DEEP)
    src = tmp_path / "map.json"
    src.write_bytes(raw)
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}:", says="nested too deeply")


def test_nesting_100000_deep_in_a_transcript_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _lines()
    deep = lines[2][:-1] + b',"extra":' + b'{"a":' * DEEP + b"1" + b"}" * DEEP + b"}"
    src = tmp_path / "s.jsonl"
    src.write_bytes(b"\n".join([lines[0], lines[1], deep] + lines[3:]) + b"\n")
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}:3", says="nested too deeply")


def test_nesting_100000_deep_top_level_array(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "deep.json"
    src.write_bytes(b"[" * DEEP + b"]" * DEEP)
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=src)


def test_nesting_just_under_the_parser_limit_is_handled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """1000 levels parse (orjson allows 1024): every walker must cope without Python recursion."""
    lines = _lines()
    deep = lines[2][:-1] + b',"toolUseResult":' + b"[" * 1000 + b"1" + b"]" * 1000 + b"}"
    src = tmp_path / "s.jsonl"
    src.write_bytes(b"\n".join([lines[0], lines[1], deep] + lines[3:]) + b"\n")
    run = cli(capsys, src, "-o", tmp_path / "out.json")
    assert run.code == 0, run.err
    m = example_map()
    src2 = tmp_path / "m.json"
    src2.write_bytes(_map_bytes(m).replace(b'"truncated": false', b'"x": ' + b"[" * 1000 + b"]" * 1000))
    run = cli(capsys, src2, "-o", tmp_path / "out2.json")
    assert run.code == 0, run.err


# ---- encodings, NUL -------------------------------------------------------------------------------

def test_invalid_utf8_in_a_map_names_line_and_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _map_bytes()
    at = data.index(b"orders-api")
    src = tmp_path / "map.json"
    src.write_bytes(data[:at] + b"\xff\xfe" + data[at:])
    line_no = data[:at].count(b"\n") + 1
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}:{line_no}:",
                   says="invalid UTF-8")


def test_invalid_utf8_in_a_transcript(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _lines()
    bad = lines[2].replace(b"Globex", b"Glo\xc3\x28bex", 1)
    src = tmp_path / "s.jsonl"
    src.write_bytes(b"\n".join([lines[0], lines[1], bad] + lines[3:]) + b"\n")
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}:3", says="invalid UTF-8")


@pytest.mark.parametrize("escape", [rb"\ud800", rb"\udfff", rb"\udc00\ud800", rb"x\ud83d"])
def test_lone_surrogate_escape_in_a_map(tmp_path: Path, capsys: pytest.CaptureFixture[str], escape: bytes) -> None:
    data = _map_bytes().replace(b'"orders-api"', b'"orders' + escape + b'-api"', 1)
    src = tmp_path / "map.json"
    src.write_bytes(data)
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}:", says="surrogate")


def test_lone_surrogate_escape_in_a_transcript(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _lines()
    bad = lines[2].replace(b"Globex", rb"Glo\udbffbex", 1)
    src = tmp_path / "s.jsonl"
    src.write_bytes(b"\n".join([lines[0], lines[1], bad] + lines[3:]) + b"\n")
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}:3", says="surrogate")


def test_a_valid_surrogate_pair_is_fine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`\\ud83d\\ude00` is one emoji: valid input, redacted normally."""
    lines = _lines()
    ok = lines[2].replace(b"Globex", rb"Glo\ud83d\ude00bex", 1)
    src = tmp_path / "s.jsonl"
    src.write_bytes(b"\n".join([lines[0], lines[1], ok] + lines[3:]) + b"\n")
    run = cli(capsys, src, "-o", tmp_path / "out.json")
    assert run.code == 0, run.err


@pytest.mark.parametrize("kind", ["map", "jsonl"])
def test_raw_nul_byte(tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    if kind == "map":
        src = tmp_path / "map.json"
        src.write_bytes(_map_bytes().replace(b"orders-api", b"orders\x00api", 1))
        names = f"{src}:"
    else:
        lines = _lines()
        src = tmp_path / "s.jsonl"
        src.write_bytes(b"\n".join([lines[0], lines[1], lines[2].replace(b"Globex", b"Glo\x00bex", 1)]
                                   + lines[3:]) + b"\n")
        names = f"{src}:3"
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=names, says="control character")


def test_nul_between_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = _lines()
    src = tmp_path / "s.jsonl"
    src.write_bytes(b"\n".join(lines[:3]) + b"\n\x00\x00\x00\n" + b"\n".join(lines[3:]) + b"\n")
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}:4")


def _every_string(value: Any, fn: Any) -> Any:
    if isinstance(value, dict):
        return {k: _every_string(v, fn) for k, v in value.items()}
    if isinstance(value, list):
        return [_every_string(v, fn) for v in value]
    return fn(value) if isinstance(value, str) else value


@pytest.mark.parametrize("policy", ["default", "internal"])
def test_escaped_nul_and_controls_never_reach_the_output(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         policy: str) -> None:
    """`\\u0000` and other escaped controls are valid JSON: accepted, and none is ever written."""
    m = _every_string(example_map(), lambda s: s if s in ("agentplay/v1",) else s + "\x00\x1b[2J\u202e\x7f")
    src = tmp_path / "map.json"
    src.write_bytes(orjson.dumps(m))
    out = tmp_path / "out.json"
    run = cli(capsys, src, "-o", out, "--policy", policy)
    if run.code == 0:
        data = out.read_bytes()
        for bad in (b"\\u0000", b"\\u001b", b"\xe2\x80\xae", b"\x7f", b"[2J"):
            assert bad not in data, bad
    else:
        assert_one_line(run, code=run.code, names=src)
        assert run.code in (1, 2) and not out.exists()


# ---- gzip -------------------------------------------------------------------------------------------

def test_gzip_bomb_stopped_at_the_size_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(io_read, "LIMITS", io_read.Limits(max_bytes=2 * MB, max_ratio=10**6, ratio_floor=0))
    src = tmp_path / "bomb.json.gz"
    src.write_bytes(gzip.compress(b"{" + b" " * (64 * MB), compresslevel=9))
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=src, says="exceeds the limit")


def test_gzip_bomb_stopped_at_the_ratio(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(io_read, "LIMITS", io_read.Limits(max_bytes=10**10, max_ratio=50, ratio_floor=MB))
    src = tmp_path / "bomb.jsonl.gz"
    src.write_bytes(gzip.compress(b"\n" * (64 * MB), compresslevel=9))
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=src, says="compression ratio")


def test_gzip_bomb_default_limits_stop_early(tmp_path: Path) -> None:
    """With the shipped limits, a 1 KB gzip of zeros never expands past the ratio floor."""
    data = gzip.compress(b"0" * (80 * MB), compresslevel=9)
    started = time.monotonic()
    with pytest.raises(Exception) as info:
        io_read._gunzip(data, "x.gz", io_read.LIMITS)
    assert "ratio" in str(info.value) and time.monotonic() - started < 5


def test_multi_member_gzip_bomb(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(io_read, "LIMITS", io_read.Limits(max_bytes=4 * MB, max_ratio=10**6, ratio_floor=0))
    member = gzip.compress(b" " * MB, compresslevel=9)
    src = tmp_path / "bomb.json.gz"
    src.write_bytes(gzip.compress(b"{") + member * 8)
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=src, says="exceeds the limit")


def test_gz_name_that_is_not_gzip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "map.json.gz"
    src.write_bytes(_map_bytes())
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=src, says="not gzip")


def test_gzip_magic_then_garbage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "map.json"
    src.write_bytes(b"\x1f\x8b" + b"\x00garbage" * 100)
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=src, says="gzip")


def test_input_over_the_size_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(io_read, "LIMITS", io_read.Limits(max_bytes=1000))
    src = tmp_path / "map.json"
    src.write_bytes(_map_bytes())
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=src, says="exceeds the limit")


# ---- numbers ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("raw", [b"1e999", b"-1e999", b"1E400"])
def test_number_that_is_infinite_as_a_double(tmp_path: Path, capsys: pytest.CaptureFixture[str], raw: bytes) -> None:
    data = _map_bytes().replace(b'"tokens": 91512', b'"tokens": ' + raw, 1)
    src = tmp_path / "map.json"
    src.write_bytes(data)
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}:", says="number out of range")


@pytest.mark.parametrize("pointer,value", [
    ("/totals/tokens", 2**53), ("/totals/tokens", 2**64 - 1), ("/totals/calls", -(2**63)),
    ("/totals/tokens", 1.7e308), ("/totals/errorsBySource/tool", 1e300), ("/events/1/in", 2**60),
    ("/files/0/reads", -1e20),
])
def test_integer_out_of_range(tmp_path: Path, capsys: pytest.CaptureFixture[str], pointer: str, value: Any) -> None:
    m = example_map()
    *parents, last = pointer.strip("/").split("/")
    node: Any = m
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    node[last] = value
    src = tmp_path / "map.json"
    src.write_bytes(orjson.dumps(m))
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}#{pointer}",
                   says="number out of range")


def test_large_token_counts_in_a_transcript(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Token counts near 2^64 in a raw log: a clean exit 2 (or a map), never an internal error."""
    lines = [orjson.loads(line) for line in _lines()]
    for rec in lines:
        usage = (rec.get("message") or {}).get("usage") if isinstance(rec.get("message"), dict) else None
        if isinstance(usage, dict):
            usage["input_tokens"] = 2**64 - 1
            usage["output_tokens"] = 2**63
    src = tmp_path / "s.jsonl"
    src.write_bytes(b"\n".join(orjson.dumps(r) for r in lines) + b"\n")
    before = snapshot(tmp_path)
    out = tmp_path / "out.json"
    run = cli(capsys, src, "-o", out)
    if run.code == 0:
        orjson.loads(out.read_bytes())
    else:
        assert_one_line(run, code=2, names=src, says="out of range")
        assert snapshot(tmp_path) == before


# ---- duplicate keys ---------------------------------------------------------------------------------

@pytest.mark.parametrize("old,new,pointer", [
    (b'"schema": "agentplay/v1"', b'"schema": "agentplay/v1", "schema": "agentplay/v1"', "#/schema"),
    (b'"hostName": "alice-mbp.acme.internal"',
     b'"hostName": "alice-mbp.acme.internal", "hostName": "build-01"', "#/session/<field>"),  # not a known name
    (b'"name": "orders-api"', b'"name": "Zq-first-name", "name": "orders-api"', "#/repos/0/name"),
    # the same key spelled with an escape is the same key
    (b'"remote": ', b'"r\\u0065mote": "x", "remote": ', "#/repos/0/remote"),
    # an escaped colon takes the duplicate-aware parse (the fast count cannot compare)
    (b'"name": "orders-api"', b'"name": "a\\u003ab", "name": "orders-api"', "#/repos/0/name"),
])
def test_duplicate_keys_in_a_map(tmp_path: Path, capsys: pytest.CaptureFixture[str], old: bytes, new: bytes,
                                 pointer: str) -> None:
    data = json.dumps(example_map(), indent=1).replace('": ', '": ').encode()
    assert old in data, old
    src = tmp_path / "map.json"
    src.write_bytes(data.replace(old, new, 1))
    line = assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}{pointer}",
                          says="duplicate key")
    assert "Zq" not in line and "build-01" not in line


def test_duplicate_key_deep_in_an_unknown_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Even where the redactor would drop the field: a duplicate is refused wherever it is."""
    data = _map_bytes().replace(b'"truncated": false', b'"truncated": false, "xZq": [{"a b": 1, "a b": 2}]', 1)
    src = tmp_path / "map.json"
    src.write_bytes(data)
    line = assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}#/session/<field>/0/<field>",
                          says="duplicate key")
    assert "a b" not in line


def test_escaped_colons_without_duplicates_are_fine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _map_bytes().replace(b'"truncated": false', b'"truncated": false, "x": "a\\u003ab"', 1)
    src = tmp_path / "map.json"
    src.write_bytes(data)
    assert cli(capsys, src, "-o", tmp_path / "out.json").code == 0


def test_scan_refuses_a_map_with_duplicate_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A viewer that keeps the first value would show what the scanner never saw: `scan` refuses."""
    data = _map_bytes().replace(b'"hostName": "alice-mbp.acme.internal"',
                                b'"hostName": "ghp_leakedToken0000000000000000000000000", "hostName": null', 1)
    src = tmp_path / "map.json"
    src.write_bytes(data)
    run = cli(capsys, "scan", src)
    assert run.code == 2 and "duplicate key" in run.err and "ghp_" not in run.err + run.out


# ---- events[].seq -----------------------------------------------------------------------------------

def test_repeated_seq_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = example_map()
    m["events"][4]["seq"] = m["events"][2]["seq"]
    src = tmp_path / "map.json"
    src.write_bytes(orjson.dumps(m))
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}#/events/4/seq",
                   says="seq repeats")


def test_seq_out_of_step_with_positions_resolves_references_by_seq(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Distinct seqs that disagree with their positions: references follow seq (what they name)."""
    m = example_map()
    events = m["events"]
    retry = next(i for i, e in enumerate(events) if e.get("retryOf") is not None)
    target_kind = events[events[retry]["retryOf"]]["kind"]
    for e in events:
        e["seq"] = e["seq"] * 10 + 7
    for e in events:
        if e.get("retryOf") is not None:
            e["retryOf"] = e["retryOf"] * 10 + 7
    for f in m["files"]:
        if f.get("first") is not None:
            f["first"] = f["first"] * 10 + 7
    src = tmp_path / "map.json"
    src.write_bytes(orjson.dumps(m))
    out = tmp_path / "out.json"
    run = cli(capsys, src, "-o", out)
    assert run.code == 0, run.err
    assert "resolved by seq" in run.err
    got = orjson.loads(out.read_bytes())
    assert [e["seq"] for e in got["events"]] == list(range(len(got["events"])))
    r = next(e for e in got["events"] if e.get("retryOf") is not None)
    assert got["events"][r["retryOf"]]["kind"] == target_kind


# ---- two formats at once ----------------------------------------------------------------------------

def test_a_map_followed_by_transcript_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "both.json"
    src.write_bytes(orjson.dumps(example_map()) + b"\n" + example_transcript())
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}:2:",
                   says="data after the end")


def test_a_transcript_followed_by_a_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A map line inside a transcript is a record of no known type: skipped and counted, not merged."""
    src = tmp_path / "both.jsonl"
    src.write_bytes(example_transcript() + orjson.dumps(example_map()) + b"\n")
    out = tmp_path / "out.json"
    run = cli(capsys, src, "-o", out, "--report", tmp_path / "r.json")
    assert run.code == 0, run.err
    data = out.read_bytes()
    assert b"alice-mbp" not in data and b"orders-api" not in data


def test_one_object_that_is_a_map_and_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A single object carrying a map's `schema` and a transcript record's fields is read as a map;
    the record's fields are unknown to the map and dropped."""
    rec = orjson.loads(_lines()[2])
    m = example_map()
    both = {**rec, **m}
    src = tmp_path / "both.json"
    src.write_bytes(orjson.dumps(both))
    out = tmp_path / "out.json"
    run = cli(capsys, src, "-o", out)
    assert run.code == 0, run.err
    assert b"Globex" not in out.read_bytes() and b"Tr0ub4dor" not in out.read_bytes()


def test_a_forced_format_that_does_not_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "map.json"
    src.write_bytes(_map_bytes())
    assert_refused(capsys, tmp_path, src, "--input-format", "claude-code", "-o", tmp_path / "out.json", names=src)
    src2 = tmp_path / "s.jsonl"
    src2.write_bytes(example_transcript())
    assert_refused(capsys, tmp_path, src2, "--input-format", "agentplay", "-o", tmp_path / "out.json", names=src2)


# ---- issue 23, items 10-12: raw logs with a duplicate key, a byte-order mark, a FIFO ----------------

def test_a_raw_log_line_with_a_duplicate_key_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The last value won silently; a viewer keeping the first would show what was never redacted."""
    lines = _lines()
    record = json.loads(lines[3])
    first = next(iter(record))
    dup = lines[3][:-1] + b', "' + first.encode() + b'": "Zq-second-value"}'
    src = tmp_path / "s.jsonl"
    src.write_bytes(b"\n".join([*lines[:3], dup, *lines[4:]]) + b"\n")
    line = assert_refused(capsys, tmp_path, src, "-o", tmp_path / "out.json", names=f"{src}:4",
                          says="duplicate key")
    assert "Zq" not in line


def test_a_duplicate_key_line_is_skipped_with_skip_bad_lines(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    lines = _lines()
    dup = lines[3][:-1] + b', "type": "user"}'
    data = b"\n".join([*lines[:3], dup, *lines[4:]]) + b"\n"
    stats = jsonl.LineStats()
    got = [n for n, _ in jsonl.iter_objects(data, "s.jsonl", skip_bad_lines=True, stats=stats)]
    assert 4 not in got and stats.bad == 1


def test_a_jsonl_log_with_a_byte_order_mark_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A BOM before the first line (some editors and Windows tools write one) is no format of its own."""
    src = tmp_path / "s.jsonl"
    src.write_bytes(b"\xef\xbb\xbf" + example_transcript())
    out = tmp_path / "out.json"
    assert cli(capsys, src, "-o", out).code == 0
    plain = tmp_path / "plain.jsonl"
    plain.write_bytes(example_transcript())
    assert cli(capsys, plain, "-o", tmp_path / "plain.json").code == 0
    assert json.loads(out.read_bytes())["events"] == json.loads((tmp_path / "plain.json").read_bytes())["events"]


def test_a_fifo_is_refused_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Opening a FIFO waits for a writer: the input is refused before it is opened."""
    import os
    import threading

    fifo = tmp_path / "s.jsonl"
    os.mkfifo(fifo)
    result: list[Any] = []
    worker = threading.Thread(target=lambda: result.append(cli(capsys, fifo, "-o", tmp_path / "out.json")),
                              daemon=True)
    worker.start()
    worker.join(20)
    if worker.is_alive():  # unblock the reader so the suite goes on, then fail
        with open(fifo, "wb"):
            pass
        worker.join(5)
        pytest.fail("reading a FIFO blocked")
    run = result[0]
    assert run.code == 2 and "named pipe" in run.err and str(fifo) in run.err
    assert not (tmp_path / "out.json").exists()
