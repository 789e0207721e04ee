from __future__ import annotations

import io
import json

import pytest

from redact.cli import main


def test_verb_command_prints_verbs_never_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["verb", 'git -C /Users/alice/x commit -m "fix Globex"', "./deploy-acme.sh --prod"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines()[0].split("\t")[0] == "git commit"
    assert out.splitlines()[1].split("\t")[0] == "<script>"
    assert "alice" not in out and "Globex" not in out and "acme" not in out


def test_verb_command_reads_stdin_as_json(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("gh pr view 42\npytest -q tests/\n"))
    assert main(["verb", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[0]["verb"] == "gh pr view" and rows[0]["vcs"]["number"] == 42
    assert rows[1]["verify"] == "test"
