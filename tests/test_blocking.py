"""`redact` runs the scanner on every output and writes nothing when it finds a leak."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from redact.cli import main
from redact.apply.identifiers import IdentScrubber
from tests.maps import EXAMPLE


@pytest.fixture()
def broken_redactor(monkeypatch: pytest.MonkeyPatch) -> None:
    """A redactor bug: identifiers pass through untouched, credentials and all."""

    def scrub(self: IdentScrubber, category: str, value: Any) -> Any:
        return value

    monkeypatch.setattr(IdentScrubber, "scrub", scrub)


def test_a_leaking_output_is_not_written(broken_redactor: None, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "map.json"
    report = tmp_path / "report.json"
    code = main([str(EXAMPLE), "--policy", "internal", "-o", str(out), "--report", str(report)])
    err = capsys.readouterr().err
    assert code == 1
    assert not out.exists()
    assert "finding:" in err and "ghp_exampleNotARealToken" not in err
    data = json.loads(report.read_text())
    assert data["findings"] and "ghp_exampleNotARealToken" not in report.read_text()


def test_a_clean_output_is_written_with_its_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "map.json"
    report = tmp_path / "report.md"
    assert main([str(EXAMPLE), "--policy", "default", "-o", str(out), "--report", str(report)]) == 0
    assert out.exists() and report.exists()
    assert json.loads(out.read_text())["contentHash"] in report.read_text()


def test_unsupported_report_extension_fails_before_writing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "map.json"
    assert main([str(EXAMPLE), "-o", str(out), "--report", str(tmp_path / "r.docx")]) == 2
    assert not out.exists()


def test_a_blocked_runs_html_report_draws_the_refused_map(broken_redactor: None, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The person reading why a run was refused sees the session's picture too (of the map as redacted,
    never written), and the findings' pointers wrap only at a `/`."""
    out = tmp_path / "map.json"
    report = tmp_path / "report.html"
    assert main([str(EXAMPLE), "--policy", "internal", "-o", str(out), "--report", str(report)]) == 1
    assert not out.exists()
    page = report.read_text()
    example = json.loads(EXAMPLE.read_text())
    assert page.count('<g class="lane"') == len(example["agents"])
    assert '<rect class="ev ' in page and "No map was given" not in page
    assert "ghp_exampleNotARealToken" not in page
    assert "The public policy with a key is flagged too" in page  # what to do when nothing passes
    assert '<code class="ptr">' in page and "/<wbr>" in page
    for ptr in page.split('<code class="ptr">')[1:]:
        cell = ptr.split("</code>", 1)[0]
        assert all(not part or "/" not in part for part in cell.split("/<wbr>")[1:]), cell
