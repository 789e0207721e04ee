"""`redact` runs the scanner on every output and writes nothing when it finds a leak."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from redact.cli import main
from redact.identifiers import IdentScrubber
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
