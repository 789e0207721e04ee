"""The command line as a new user meets it: `-h`, completion, choices and `--version` in the help,
and one meaning for `--format` (the output format of `scan` and `audit`; the input format is
`--input-format`, whose old spelling `--format` still works and warns)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from redact.cli import main
from redact.formats.detect import FORMATS
from tests.hardening.helpers import EXAMPLE_CC, EXAMPLE_MAP, EXAMPLE_SESSION, cli


def _help(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("command", [[], ["redact"], ["scan"], ["audit"], ["verb"], ["receipt"],
                                     ["receipt", "verify"], ["policy"], ["explain"], ["reveal"]])
def test_dash_h_is_help(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    long = _help(capsys, *command, "--help")
    assert long.startswith("Usage:")
    assert _help(capsys, *command, "-h") == long


def test_top_help_lists_version_and_completion(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help(capsys, "--help")
    for option in ("--version", "--install-completion", "--show-completion", "-h, --help"):
        assert option in text
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("agentplay-redact ")


def test_choices_are_shown(capsys: pytest.CaptureFixture[str]) -> None:
    text = "".join(_help(capsys, "redact", "--help").split())  # choices may wrap
    assert "--mode<relative|dirs_only|hashed>" in text
    assert "--to<map|native>" in text
    assert "--input-format<" + "|".join(FORMATS) + ">" in text
    assert "--format" not in text.replace("--input-format", "")  # the old spelling is hidden
    assert "<text|json|sarif>" in "".join(_help(capsys, "scan", "--help").split())
    assert "<terminal|json|md|html>" in "".join(_help(capsys, "audit", "--help").split())
    assert "--input-format" in _help(capsys, "explain", "--help")


def test_a_bad_choice_is_one_usage_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["--mode", "flat"], ["--to", "html"], ["--input-format", "nope"]):
        run = cli(capsys, EXAMPLE_MAP, "-o", tmp_path / "o.json", *args)
        assert run.code == 2 and len(run.lines) == 1, run.err
        assert not (tmp_path / "o.json").exists()


def test_the_old_input_format_spelling_works_and_warns(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    log = EXAMPLE_CC / f"{EXAMPLE_SESSION}.jsonl"
    run = cli(capsys, "--format", "claude-code", log, "-o", tmp_path / "o.json")
    assert run.code == 0, run.err
    assert "--format for the input format is deprecated" in run.err and "--input-format" in run.err
    assert json.loads((tmp_path / "o.json").read_text())["events"]
    run = cli(capsys, "--format", "codex", "--input-format", "claude-code", log, "-o", tmp_path / "p.json")
    assert run.code == 2 and "disagree" in run.err


def test_verb_runs_without_pydantic() -> None:
    """`verb` is what a hook may run per shell command: its plain form never imports pydantic
    (typer 0.29 coerces every parameter through it). Checked in a fresh interpreter."""
    import subprocess
    import sys

    code = ("import sys; from redact.cli import main; main(['verb', 'git commit -m x', '--json']); "
            "sys.exit(3 if 'pydantic' in sys.modules or 'typer' in sys.modules else 0)")
    root = Path(__file__).resolve().parents[1]
    run = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                         env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}, check=False)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["verb"] == "git commit"


def test_completion_is_installable_and_completes(tmp_path: Path) -> None:
    """`--show-completion` was taken for a file to redact (`redact --show-completion`)."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    prog = "import sys; sys.argv[0] = 'agentplay-redact'; from redact.cli import main; sys.exit(main())"
    base = {k: v for k, v in os.environ.items() if not k.endswith("_COMPLETE") and not k.startswith(("COMP_", "_TYPER"))}
    env = {**base, "PYTHONPATH": str(root), "HOME": str(tmp_path), "SHELL": "/bin/bash"}
    # the script `--show-completion bash` prints, asked the way that shell's hook asks for it (the
    # option form depends on detecting the calling shell from the process tree, which a test runner
    # in the background does not always give)
    shown = subprocess.run([sys.executable, "-c", prog], env={**env, "_AGENTPLAY_REDACT_COMPLETE": "source_bash"},
                           capture_output=True, text=True, check=False)
    assert shown.returncode == 0 and "_agentplay_redact_completion" in shown.stdout, shown.stderr
    words = {**env, "_AGENTPLAY_REDACT_COMPLETE": "complete_bash", "COMP_WORDS": "agentplay-redact sc",
             "COMP_CWORD": "1"}
    done = subprocess.run([sys.executable, "-c", prog], env=words, capture_output=True, text=True, check=False)
    assert done.stdout.split() == ["scan"], done.stderr
