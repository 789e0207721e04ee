"""One test per bug the hardening work found, named after it (docs/fuzzing.md lists them).

Each docstring says how the bug showed and how it was found. Every case goes through the CLI entry
point or the library call that failed, with the smallest input that showed it.
"""
from __future__ import annotations

import errno
import json
import time
from pathlib import Path
from typing import Any

import orjson
import pytest

from redact.api import redact_bytes
from redact.formats.detect import detect
from redact.errors import BadInput
from redact.io.read import parse_json
from tests.formats.ccfix import Transcript, tool_use
from tests.hardening.helpers import assert_one_line, assert_refused, cli, example_map, example_transcript


def _lines() -> list[bytes]:
    return [line for line in example_transcript().split(b"\n") if line.strip()]


def test_symlink_loop_output_path_was_an_internal_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """same_file() fell back to Path.resolve(), which raises RuntimeError on a symlink loop: exit 3.
    Found by the bad-input matrix (directory loop)."""
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    assert_refused(capsys, tmp_path, tmp_path / "a", "-o", tmp_path / "out.json", names=tmp_path / "a")


def test_integral_float_beyond_int64_in_an_integer_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`"tokens": 1.7e308` became int(1.7e308), which orjson cannot write: TypeError, exit 3.
    Integers are now held to JavaScript's safe range (2^53 - 1). Found by the bad-input matrix."""
    m = example_map()
    m["totals"]["tokens"] = 1.7e308
    m["totals"]["errorsBySource"] = {"tool": 1e300}
    src = tmp_path / "m.json"
    src.write_bytes(orjson.dumps(m))
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "o.json", names=f"{src}#/totals/",
                   says="number out of range")


def test_duplicate_key_check_on_a_map_deeper_than_255_levels(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The duplicate-key check re-serialized the map with orjson, which stops at 255 levels: exit 3 on
    a map nested 256-1024 deep (which orjson parses). Found by the bad-input matrix."""
    data = json.dumps(example_map()).encode().replace(b'"truncated": false',
                                                      b'"x": ' + b"[" * 600 + b"]" * 600, 1)
    src = tmp_path / "m.json"
    src.write_bytes(data)
    assert cli(capsys, src, "-o", tmp_path / "o.json").code == 0


def test_audit_of_a_deeply_nested_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`audit` computed the contentHash with a recursive encoder: RecursionError, exit 3, on a map with a
    1000-deep unknown field. Now the hash is reported as not computable. Found by the bad-input matrix."""
    data = json.dumps(example_map()).encode().replace(b'"truncated": false',
                                                      b'"x": ' + b"[" * 1000 + b"]" * 1000, 1)
    src = tmp_path / "m.json"
    src.write_bytes(data)
    run = cli(capsys, "audit", src, "--format", "json")
    assert run.code == 0, run.err


def test_email_pattern_was_quadratic_on_long_identifiers(tmp_path: Path) -> None:
    """EMAIL_RE.search took O(n^2) on a long run of local-part characters: a 50 KB MCP server name cost
    10 s, a megabyte hours. Found by the adversarial "very long tokens" case."""
    from redact.model.grammar import EMAIL_RE

    started = time.monotonic()
    assert EMAIL_RE.search("s" * 300_000) is None
    assert EMAIL_RE.search("x" * 300_000 + " bob@acme.test").group() == "bob@acme.test"
    t = Transcript("2c3d4e5f-6071-4283-94a5-b6c7d8e9f0a1", "/home/dev/p", seed=1)
    tid = t.tool_id()
    t.assistant([tool_use(tid, "mcp__" + "s" * 200_000 + "__run", {})])
    t.result(tid, "ok")
    redact_bytes(t.bytes(), name="s.jsonl", policy="default")
    assert time.monotonic() - started < 10


def test_output_over_a_subagent_transcript(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`-o` naming one of the session's subagent transcripts replaced that input with the map: only the
    main transcript was checked. Found by the bad-input matrix (output path equal to the input)."""
    import shutil

    from tests.hardening.helpers import EXAMPLE_CC, EXAMPLE_SESSION

    project = tmp_path / "p"
    shutil.copytree(EXAMPLE_CC, project)
    side = next((project / EXAMPLE_SESSION / "subagents").glob("agent-*.jsonl"))
    assert_refused(capsys, tmp_path, project / f"{EXAMPLE_SESSION}.jsonl", "-o", side, names=side,
                   says="refusing to overwrite")


def test_unhashable_record_type_crashed_format_detection(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A first record whose `type` is a list made the Claude Code sniffer raise TypeError (unhashable):
    exit 3 before any reader ran. Found by the fuzzer (test_fuzz_claude_code_bytes)."""
    rec = orjson.loads(_lines()[2])
    rec["type"] = ["user"]
    data = orjson.dumps(rec) + b"\n" + b"\n".join(_lines()[3:]) + b"\n"
    assert detect(data, "s.jsonl") == "claude-code"  # later records decide
    src = tmp_path / "s.jsonl"
    src.write_bytes(orjson.dumps({"type": [], "sessionId": {}}) + b"\n")
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "o.json", names=src)


def test_unhashable_hook_event_crashed_the_reader() -> None:
    """A hook attachment whose `hookEvent` is a list: `event in HOOK_EVENTS` raised TypeError, exit 3.
    Found by the fuzzer (test_fuzz_claude_code_records)."""
    t = Transcript("3d4e5f60-7182-4394-a5b6-c7d8e9f0a1b2", "/home/dev/p", seed=2)
    t.user("go")
    t.add(t.envelope("attachment", attachment={"type": "hook_non_blocking_error", "hookName": "PostToolUse:Edit",
                                                "hookEvent": ["PostToolUse"], "stderr": "x"}))
    result = redact_bytes(t.bytes(), name="s.jsonl", policy="default")
    assert any(e["kind"] == "error" for e in result.session_map["events"])


def test_ctrl_c_exited_130_without_a_word(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """typer turns KeyboardInterrupt into Exit(130) and, in the mode the CLI runs it, returns it
    silently: the user saw nothing. Found by the bad-input matrix (Ctrl-C mid-write)."""
    import os

    real = os.write

    def interrupted(fd: int, data: Any) -> int:
        if fd > 2:
            raise KeyboardInterrupt
        return real(fd, data)

    monkeypatch.setattr(os, "write", interrupted)
    src = tmp_path / "m.json"
    src.write_bytes(orjson.dumps(example_map()))
    before = sorted(p.name for p in tmp_path.iterdir())
    run = cli(capsys, src, "-o", tmp_path / "o.json")
    assert_one_line(run, code=130, names="interrupted", says="nothing written")
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_broken_stdout_pipe_exited_1_like_a_finding(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A closed stdout (`| head`) raised BrokenPipeError; typer answered with sys.exit(1), the exit
    code that means "the scanner found a leak", and no message. Now: exit 2 and one line."""
    import sys

    from redact.cli import main

    class Closed:
        def write(self, data: bytes) -> int:
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")

        def flush(self) -> None:
            pass

    class Stdout:
        buffer = Closed()

        def fileno(self) -> int:
            raise OSError("no fd")

    src = tmp_path / "m.json"
    src.write_bytes(orjson.dumps(example_map()))
    monkeypatch.setattr(sys, "stdout", Stdout())
    code = main([str(src)])
    err = capsys.readouterr().err
    assert code == 2 and "pipe closed" in err


def test_invalid_utf8_was_placed_at_1_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """orjson reports invalid UTF-8 at line 1 column 1 whatever the byte: the error named the wrong
    place. Now the first bad byte's line and column. Found by the bad-input matrix."""
    data = b'{\n  "schema": "agentplay/v1",\n  "x": "\xff"\n}'
    with pytest.raises(BadInput) as info:
        parse_json(data, "m.json")
    assert info.value.where == "m.json:3:9"


def test_jsonl_depth_limit_was_called_invalid_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """orjson says "depth limit exceeded" (not "recursion"), so a too-deep record was "invalid JSON".
    Found by the bad-input matrix (nesting 100,000 deep)."""
    lines = _lines()
    deep = lines[2][:-1] + b',"x":' + b"[" * 2000 + b"]" * 2000 + b"}"
    src = tmp_path / "s.jsonl"
    src.write_bytes(b"\n".join([lines[0], lines[1], deep]) + b"\n")
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "o.json", names=f"{src}:3", says="nested too deeply")


def test_empty_input_was_an_unknown_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An empty file said "unknown input format": true, but not the problem. Found by the matrix."""
    src = tmp_path / "empty.jsonl"
    src.write_bytes(b"\n\n")
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "o.json", names=src, says="empty input")


def test_duplicate_keys_were_accepted_silently(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """orjson keeps the last of two equal keys; a viewer keeping the first would show a value neither
    the redactor nor the scanner saw. Maps with a duplicate key are now refused (redact, scan, audit)."""
    data = b'{"schema":"agentplay/v1","schema":"agentplay/v1","session":{},"totals":{},"events":[]}'
    src = tmp_path / "m.json"
    src.write_bytes(data)
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "o.json", names=f"{src}#/schema", says="duplicate key")


def test_oversized_regular_file_was_read_whole_before_the_limit(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """read_input() read `limit + 1` bytes into memory before comparing: a huge file cost the whole
    limit in memory to refuse. Now the size is checked first and streams are read in chunks."""
    from redact.io import read as io_read

    src = tmp_path / "big.json"
    with open(src, "wb") as fh:
        fh.truncate(50 * 1024 * 1024)  # sparse: 50 MB on paper, nothing on disk
    calls: list[int] = []
    real_open = Path.open

    def spy(self: Path, *args: Any, **kwargs: Any) -> Any:
        fh = real_open(self, *args, **kwargs)
        real_read = fh.read

        class Spy:
            def __enter__(self) -> Any:
                return self

            def __exit__(self, *exc: Any) -> None:
                fh.close()

            def fileno(self) -> int:
                return fh.fileno()

            def read(self, n: int = -1) -> bytes:
                calls.append(n)
                return real_read(n)

        return Spy()

    monkeypatch.setattr(Path, "open", spy)
    with pytest.raises(BadInput, match="exceeds the limit"):
        io_read.read_input(src, limits=io_read.Limits(max_bytes=1024 * 1024))
    assert calls == []  # refused from its size, not read


@pytest.mark.skipif(not hasattr(__import__("os"), "mknod") or __import__("os").geteuid() != 0,
                    reason="making a device node needs root")
def test_output_to_a_device_replaced_the_device(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`-o /dev/null` (or any device or FIFO) was written like a file: a temporary file renamed over it.
    As root that replaces the device itself (/dev/null became a regular file). Devices, pipes and
    sockets are now written in place. Found by reviewing the writer for the full-disk cases."""
    import os
    import stat

    dev = tmp_path / "null"
    os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    src = tmp_path / "m.json"
    src.write_bytes(orjson.dumps(example_map()))
    run = cli(capsys, src, "-o", dev)
    assert run.code == 0, run.err
    assert stat.S_ISCHR(os.stat(dev).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json", "null"]


def test_flag_secret_patterns_were_cubic_on_dashes() -> None:
    """The scanner's `--...password...=` and `--...token...=` patterns backtracked over every dash of a
    long run: 200 KB of dashes in one string cost minutes (`scan` of a hostile map, or a long path kept
    in relative mode). Flag names are now bounded and must start a word. Found by timing every slot
    of a map with huge strings of each filler (the fuzzers' `huge` mutation)."""
    from audit.scan import scan_map
    from redact.contract.secrets import find_secrets

    started = time.monotonic()
    m = example_map()
    m["session"]["id"] = "Zq" + "-" * 200_000
    scan_map(m)
    assert time.monotonic() - started < 10
    hits = find_secrets(["mysql --password=Tr0ub4dor-horse-battery", "x --api-token=9f8e7d6c5b4a39281706f5e4"])
    assert {h.index for h in hits} == {0, 1}


def test_taint_phrase_pattern_was_quadratic_on_long_words(tmp_path: Path) -> None:
    """The taint layer's word-run pattern retried from every letter of a long word: a 200 KB relative
    path of letters, kept under `default`, made every redaction of it take many minutes (quadratic).
    Matches now start only where a word starts. Found by timing every slot of a map with huge strings."""
    m = example_map()
    m["files"][0]["path"] = "Zq" + "A" * 200_000
    started = time.monotonic()
    try:
        redact_bytes(orjson.dumps(m), name="m.json", policy="default")
    except Exception as exc:  # a finding (exit 1) is fine here; only the time is the point
        assert type(exc).__name__ == "LeakFound", exc
    assert time.monotonic() - started < 10


def test_tree_sitter_bash_was_quadratic_on_some_runs() -> None:
    """A command of 12,000 characters of `a@` took about 1.5 s to parse, 200 KB about 8 minutes: a
    hostile log of such commands stalled redaction (nothing leaked; it never finished). Found by timing
    every slot of a map with huge strings. A long line is now parsed under a time budget
    (redact/verbs/parse.py) and is `<unparsed>` past it, as the slow parse would have ended anyway."""
    from redact.verbs import extract
    from redact.verbs.parse import PARSE_BUDGET_S

    for command in ("a@" * 100_000, ")" * 200_000, "|" * 200_000):
        started = time.monotonic()
        assert extract(command).verb == "<unparsed>"
        assert time.monotonic() - started < PARSE_BUDGET_S + 10  # unbounded before: minutes


def test_one_budget_per_line_not_one_per_nested_script() -> None:
    """64 nested `bash -c` strings, each slow to parse, would cost 64 budgets; once one nested parse
    runs out of time, the line's other nested scripts are left unparsed."""
    from redact.verbs import extract
    from redact.verbs.parse import PARSE_BUDGET_S

    slow = "a@" * 100_000
    command = "; ".join(f"bash -c '{slow}'" for _ in range(64))
    started = time.monotonic()
    extract(command)
    assert time.monotonic() - started < 2 * PARSE_BUDGET_S + 10  # 64 budgets (32 s) without the rule


def test_long_real_scripts_still_parse_within_the_budget() -> None:
    """The budget must sit far above real commands: a 60 KB heredoc script and a pipeline of 1,000
    stages (longer than anything in the shared corpus) still give their verbs. Pipelines are
    quadratic in tree-sitter-bash too, valid or not: 4,000 stages take about 0.7 s and are cut."""
    from redact.verbs import extract

    script = "bash <<'EOF'\n" + "git status --short && make -C build test\n" * 1500 + "EOF"
    assert len(script) > 60_000
    assert extract(script).verbs[:2] == ("git status", "make")
    pipeline = " | ".join(["grep -v x"] * 1000)
    assert extract("cat f | " + pipeline).verb == "cat"


def test_timestamp_rounding_into_year_10000_crashed_the_claude_code_reader() -> None:
    """`9999-12-31T23:59:59.999999999Z` rounds to 253402300800000 ms, which is year 10000: the map
    builder raised ValueError, exit 3. The reader now takes only times a map can write (1970-2200, as
    the other readers do). Found by the fuzzer (test_fuzz_claude_code_records, long run)."""
    t = Transcript("4e5f6071-8293-44a5-b6c7-d8e9f0a1b2c3", "/home/dev/p", seed=3)
    t.user("go")
    t.tick(5000)
    t.user("again")
    data = t.bytes().replace(t.records[0]["timestamp"].encode(), b"9999-12-31T23:59:59.999999999Z", 1)
    result = redact_bytes(data, name="s.jsonl", policy="default")
    assert result.session_map["session"]["startedAt"].startswith("2026-")


@pytest.mark.parametrize("value", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
def test_timestamp_overflowing_utc_crashed_map_redaction(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         value: str) -> None:
    """A map time whose UTC form is before year 1 or after 9999 raised OverflowError in astimezone:
    exit 3. Now it is not a timestamp (exit 2 for a required one). Found while fixing the case above."""
    m = example_map()
    m["session"]["startedAt"] = value
    src = tmp_path / "m.json"
    src.write_bytes(orjson.dumps(m))
    assert_refused(capsys, tmp_path, src, "-o", tmp_path / "o.json", names=f"{src}#/session/startedAt",
                   says="not an ISO-8601 timestamp")


def test_year_1_was_written_as_a_malformed_timestamp(tmp_path: Path) -> None:
    """strftime("%Y") writes year 1 as "1", so `0001-01-01T00:00:00Z` came out as `1-01-01T...`, which
    the scanner rightly refused (exit 1 on a valid input). Found with the case above."""
    m = example_map()
    m["session"]["startedAt"] = "0001-01-01T00:00:00Z"
    result = redact_bytes(orjson.dumps(m), name="m.json", policy="default")
    assert result.session_map["session"]["startedAt"] == "0001-01-01T00:00:00.000Z"
