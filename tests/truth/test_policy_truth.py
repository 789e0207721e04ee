"""Issue 27 item 1: a map made under a policy that keeps task names is judged under that policy by
`scan --policy` and `audit --policy`, and the reports name the policy and list the kept text."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hardening.helpers import EXAMPLE_MAP, cli, example_map

POLICY = 'name = "keep-tasks"\nextends = "default"\n[text]\nkeep_task_names = true\n'


@pytest.fixture()
def made(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path, Path]:
    policy = tmp_path / "keep.toml"
    policy.write_text(POLICY)
    out, report = tmp_path / "m.json", tmp_path / "r.json"
    run = cli(capsys, "redact", EXAMPLE_MAP, "--policy", policy, "-o", out, "--report", report)
    assert run.code == 0, run.err
    assert out.is_file() and report.is_file()
    return policy, out, report


def _task_names() -> list[str]:
    return sorted(t["name"] for t in example_map()["tasks"] if t.get("name"))


def test_report_names_the_policy_and_lists_kept_task_names(made: tuple[Path, Path, Path]) -> None:
    _, out, report = made
    names = _task_names()
    assert names and sorted(t["name"] for t in json.loads(out.read_text())["tasks"]) == names
    doc = json.loads(report.read_text())
    assert doc["policy"]["name"] == "keep-tasks"
    assert len(doc["policy"]["hash"]) == 64
    assert "text.keep_task_names" in doc["policy"]["keeps"]
    assert doc["textKept"]["task_names"] == names


def test_scan_without_the_policy_flags_and_with_it_passes(made: tuple[Path, Path, Path],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    policy, out, _ = made
    assert cli(capsys, "scan", out).code == 1
    run = cli(capsys, "scan", out, "--policy", policy)
    assert run.code == 0, run.out + run.err
    assert ": clean" in run.out


def test_audit_with_the_policy_names_it_and_lists_the_names(made: tuple[Path, Path, Path],
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    policy, out, _ = made
    before = json.loads(cli(capsys, "audit", out, "-f", "json").out)
    assert before["verdict"]["status"] != "clean"
    run = cli(capsys, "audit", out, "--policy", policy, "-f", "json")
    assert run.code == 0, run.err
    doc = json.loads(run.out)
    assert doc["verdict"]["status"] == "clean"
    assert doc["policy"]["name"] == "keep-tasks" and "text.keep_task_names" in doc["policy"]["keeps"]
    assert doc["textKept"]["task_names"] == _task_names()
    md = cli(capsys, "audit", out, "--policy", policy, "-f", "md").out
    assert all(name in md for name in _task_names())


def test_default_policy_keeps_no_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "r.json"
    run = cli(capsys, "redact", EXAMPLE_MAP, "-o", tmp_path / "m.json", "--report", report)
    assert run.code == 0, run.err
    doc = json.loads(report.read_text())
    assert "text.keep_task_names" not in doc["policy"]["keeps"]
    assert doc["textKept"] == {}
