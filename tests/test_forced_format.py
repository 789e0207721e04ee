"""`--input-format NAME` forces the input format. A forced format that reads nothing it recognises is bad
input (exit 2, one line saying what the file looks like), not an empty map with exit 0."""
from __future__ import annotations

from pathlib import Path

import pytest

from redact.formats.detect import FORMATS, MAP, detect
from tests.hardening.helpers import EXAMPLE_CC, EXAMPLE_SESSION, cli, snapshot

FIXTURES = Path(__file__).parent / "fixtures"
LOGS = {
    "claude-code": EXAMPLE_CC / f"{EXAMPLE_SESSION}.jsonl",
    "codex": FIXTURES / "codex" / "rollout-2026-03-02T09-00-00-019c0a11-2b3c-7d4e-8f50-61728394a5b6.jsonl",
    "session-record": FIXTURES / "session-record" / "fix-parser.jsonl",
    "teaagent": FIXTURES / "teaagent" / "run_20260602_abc123.jsonl",
    "agent-replay": FIXTURES / "agent-replay" / "trace.json",
}
CASES = [(real, forced) for real in LOGS for forced in FORMATS if forced not in (real, MAP)]


@pytest.mark.parametrize("real,forced", CASES, ids=[f"{r}-as-{f}" for r, f in CASES])
def test_a_wrong_forced_format_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            real: str, forced: str) -> None:
    log = LOGS[real]
    assert detect(log.read_bytes(), str(log)) == real  # the fixture is what it claims
    out = tmp_path / "out.json"
    before = snapshot(tmp_path)
    run = cli(capsys, "--input-format", forced, log, "-o", out)
    if run.code == 0:
        # some readers do read another format's records; then the map must hold events, never be empty
        import json

        assert json.loads(out.read_text())["events"], f"--input-format {forced} wrote an empty map"
        return
    assert run.code == 2, run.err
    lines = [line for line in run.err.splitlines() if line.strip()]
    assert len(lines) == 1 and str(log) in lines[0], run.err
    assert snapshot(tmp_path) == before


def test_the_line_names_what_the_file_looks_like(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = cli(capsys, "--input-format", "codex", LOGS["claude-code"], "-o", tmp_path / "out.json")
    assert run.code == 2
    assert "nothing in it is a codex record" in run.err and "Claude Code transcript" in run.err
    assert "--input-format claude-code" in run.err
    assert not (tmp_path / "out.json").exists()


def test_a_truly_empty_session_of_the_right_format_is_still_a_map(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Detection agrees with the format: an empty session is a map without events, not an error."""
    log = FIXTURES / "session-record" / "summary-only.jsonl"
    run = cli(capsys, "--input-format", "session-record", log, "-o", tmp_path / "out.json")
    assert run.code == 0, run.err


@pytest.mark.parametrize("real,forced", [("claude-code", "codex"), ("codex", "session-record"),
                                         ("teaagent", "claude-code")])
def test_a_wrong_forced_format_is_bad_input_for_native_output_too(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                  real: str, forced: str) -> None:
    out = tmp_path / "out.jsonl"
    run = cli(capsys, "--input-format", forced, LOGS[real], "--to", "native", "-o", out)
    if run.code == 0:
        assert out.read_bytes().strip(), f"--input-format {forced} wrote an empty native log"
        return
    assert run.code == 2 and "nothing in it is a" in run.err, run.err
    assert not out.exists()
