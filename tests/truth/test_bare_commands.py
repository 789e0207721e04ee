"""Issue 27, "done when": a first run of each command with no arguments tells a new user what to type
next. Every command and subcommand of the typer app is run bare: it prints its usage and a command
to type next on stderr and exits 2, with no traceback, unless it is one that does its whole job
with no arguments (`BARE_ANSWERS`: it answers, and also never with a traceback)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from redact.cli import BARE_ANSWERS, NEXT_STEP, PROG, _register
from tests.hardening.helpers import cli


def _commands() -> list[str]:
    """Every command path of the app ("scan", "receipt sign"), read off typer's own tree."""
    import typer.main

    from redact.cli.common import app

    _register(None)
    out: list[str] = []

    def walk(cmd: Any, ctx: Any, path: list[str]) -> None:
        if hasattr(cmd, "list_commands"):
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                walk(sub, sub.context_class(sub, info_name=name, parent=ctx), [*path, name])
        else:
            out.append(" ".join(path))

    group: Any = typer.main.get_command(app)
    walk(group, group.context_class(group, info_name=PROG), [])
    return sorted(out)


COMMANDS = _commands()


def test_the_app_has_every_command_we_expect() -> None:
    # a new command must say what its bare run does: a next step, or that it answers bare
    assert {"scan", "audit", "receipt sign", "receipt verify", "policy check", "hook install"} <= set(COMMANDS)
    assert set(COMMANDS) == set(NEXT_STEP) | BARE_ANSWERS, set(COMMANDS) ^ (set(NEXT_STEP) | BARE_ANSWERS)


@pytest.mark.parametrize("command", [c for c in COMMANDS if c not in BARE_ANSWERS])
def test_a_bare_command_prints_its_usage_and_a_next_step(command: str, capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run = cli(capsys, *command.split())
    assert run.code == 2, run.err
    assert run.out == ""
    assert f"usage: {PROG} {command}" in run.err
    next_lines = run.err.split("next, for example:\n", 1)
    assert len(next_lines) == 2 and next_lines[1].lstrip().startswith(f"{PROG} ")
    assert "--help` lists every option" in run.err
    assert "Traceback" not in run.err and "Missing argument" not in run.err
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.parametrize("command", sorted(BARE_ANSWERS))
def test_a_command_that_answers_bare_does_so_without_a_traceback(command: str, capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # `sweep` bare looks in the home folder
    monkeypatch.chdir(tmp_path)
    run = cli(capsys, *command.split())
    assert run.code in (0, 2), run.err
    assert "Traceback" not in run.err
    assert run.out or run.err
    if run.code == 2:  # nothing to do here: it says what to give
        assert "name the folders" in run.err or "usage" in run.err
