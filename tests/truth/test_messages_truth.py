"""Issue 27 item 4: messages name the problem the user has."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.hardening.helpers import EXAMPLE_CC, EXAMPLE_SESSION, assert_refused, cli

SOURCE = EXAMPLE_CC / f"{EXAMPLE_SESSION}.jsonl"


def test_missing_folder_is_said_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no-such-projects"
    line = assert_refused(capsys, tmp_path, "redact", missing, "--out-dir", tmp_path / "out", names=missing,
                          says="no such file or folder")
    assert "-o" not in line.split(str(missing), 1)[1]


def test_quoted_tilde_is_said_unexpanded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = assert_refused(capsys, tmp_path, "redact", "~/no-such-agent-dir/projects", "--out-dir",
                          tmp_path / "out", names="~/no-such-agent-dir/projects", says="did not expand `~`")
    assert "for one file use -o" not in line


def test_drop_line_points_at_a_report_only_when_asked(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    run = cli(capsys, "redact", SOURCE, "-o", tmp_path / "a.json")
    assert run.code == 0, run.err
    skipped = [line for line in run.lines if "skipped" in line]
    assert skipped and "add --report" in skipped[0] and "the audit report" not in skipped[0]
    run = cli(capsys, "redact", SOURCE, "-o", tmp_path / "b.json", "--report", tmp_path / "r.json")
    assert run.code == 0, run.err
    skipped = [line for line in run.lines if "skipped" in line]
    assert skipped and "the audit report" in skipped[0]


def test_scan_of_a_raw_log_says_what_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    run = cli(capsys, "scan", SOURCE)
    assert run.code == 2
    assert "raw log (Claude Code" in run.err and "agentplay-redact redact" in run.err
    assert "invalid JSON" not in run.err


def test_a_bad_flag_beside_a_preset_blames_the_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.hardening.helpers import write_key

    key = write_key(tmp_path)
    line = assert_refused(capsys, tmp_path, "redact", "--policy", "public", "--key-file", key, "--link-scope",
                          "not a scope", SOURCE, "-o", tmp_path / "m.json", names="--link-scope")
    assert "public.toml" not in line


def test_several_missing_inputs_are_said_missing_not_blamed_on_o(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    first = tmp_path / "gone-a.jsonl"
    line = assert_refused(capsys, tmp_path, "redact", first, tmp_path / "gone-b.jsonl", "-o", tmp_path / "m.json",
                          names=first, says="no such file or folder")
    assert "--out-dir" not in line


@pytest.mark.parametrize("out", ["-o", "--out-dir"])
def test_a_pattern_that_matches_nothing_is_said_so(tmp_path: Path, out: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    pattern = str(tmp_path / "nothing-*.jsonl")
    line = assert_refused(capsys, tmp_path, "redact", pattern, out, tmp_path / "maps", names=pattern,
                          says="no file matches this pattern")
    assert "give --out-dir" not in line
    assert not (tmp_path / "maps").exists()
