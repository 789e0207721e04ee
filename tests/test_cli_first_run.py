"""A first run of each command with no arguments, or with a typo, tells a new user what to type
next (issue 27, item 3): never silence, never an unrelated error."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.hardening.helpers import cli


def test_no_arguments_prints_what_to_type(capsys: pytest.CaptureFixture[str]) -> None:
    run = cli(capsys)
    assert run.code == 2 and run.out == ""
    assert "usage: agentplay-redact" in run.err and "-o map.json.gz" in run.err and "help" in run.err


@pytest.mark.parametrize("group", ["policy", "receipt"])
def test_a_group_without_its_subcommand_prints_its_usage(capsys: pytest.CaptureFixture[str], group: str) -> None:
    run = cli(capsys, group)
    assert run.code == 2
    assert f"agentplay-redact {group} [OPTIONS] COMMAND" in run.err and "Commands" in run.err


def test_help_is_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    run = cli(capsys, "help")
    assert run.code == 0 and "scan" in run.out and "verb" in run.out
    run = cli(capsys, "help", "scan")
    assert run.code == 0 and "agentplay-redact scan" in run.out


def test_a_typo_gets_the_nearest_command(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run = cli(capsys, "scna", "map.json")
    assert run.code == 2 and "did you mean `agentplay-redact scan`" in run.err
    assert "--out-dir" not in run.err
    (tmp_path / "scna").write_text("{}")  # a file of that name is an input, not a typo
    run = cli(capsys, "scna", "-o", "-")
    assert "did you mean" not in run.err


def test_verb_rejects_an_unknown_option(capsys: pytest.CaptureFixture[str]) -> None:
    run = cli(capsys, "verb", "--no-such-flag")
    assert run.code == 2 and "<script>" not in run.out and "unknown option" in run.err
    run = cli(capsys, "verb", "git status")
    assert run.code == 0 and run.out.startswith("git status\tvcs")
