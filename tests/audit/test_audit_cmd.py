"""`agentplay-redact audit FILE`: formats, output files and exit codes (0 made, 2 bad input/usage).

The leak scanner has its own tests; here it is replaced by a stand-in (every layer passes, one
finding when the map has a `hostName`), except in the test that runs the real one end to end."""
from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest

from audit.findings import Finding, excerpt
from audit.render import render
from audit.report_of_map import audit_file
from redact.cli import main
from tests.audit.render_fixtures import clean_map

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "session-map.json"
LAYERS = ("grammar", "secrets", "taint", "language")


@dataclass
class _FakeScan:
    findings: tuple[Finding, ...]
    verdicts: dict[str, str]


@pytest.fixture(autouse=True)
def fake_scanner(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.name.startswith("test_audit_runs_the_real_scanner"):
        return

    def scan_map(session_map: dict[str, Any], *, source: bytes | None = None, **_: Any) -> _FakeScan:
        found = tuple(Finding("grammar", "grammar.unknown-field", "/session/hostName", excerpt(v))
                      for v in [session_map["session"].get("hostName")] if v is not None)
        verdicts = {layer: "skipped" if layer == "taint" and source is None else "pass" for layer in LAYERS}
        if found:
            verdicts["grammar"] = "fail"
        return _FakeScan(found, verdicts)

    monkeypatch.setattr("audit.scan.scan_map", scan_map)


@pytest.fixture
def good(tmp_path: Path) -> Path:
    path = tmp_path / "map.json"
    path.write_bytes(orjson.dumps(clean_map()))
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["audit", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_audit_terminal_is_the_default(capsys: pytest.CaptureFixture[str], good: Path) -> None:
    code, out, err = run(capsys, str(good))
    assert code == 0, err
    assert "Pre-upload audit: map.json" in out
    assert "Identifiers in clear" in out and "claude-sonnet-4-5" in out
    assert "Events by kind" in out and "sa-0a1b2c3d4e5f" in out


@pytest.mark.parametrize("fmt", ["json", "md", "html"])
def test_audit_prints_each_format(capsys: pytest.CaptureFixture[str], good: Path, fmt: str) -> None:
    code, out, err = run(capsys, str(good), "--format", fmt)
    assert code == 0, err
    report, m = audit_file(good)
    assert out == render(report, m, fmt)


def test_audit_json_output(capsys: pytest.CaptureFixture[str], good: Path) -> None:
    code, out, _ = run(capsys, str(good), "--format", "json")
    assert code == 0
    view = json.loads(out)
    assert view["contentHashMatches"] is True and view["eventCount"] == 60


@pytest.mark.parametrize("name,marker", [("r.json", '"reportFormat"'), ("r.md", "## Summary"),
                                         ("r.html", "<!DOCTYPE html>")])
def test_audit_writes_the_format_of_the_extension(capsys: pytest.CaptureFixture[str], good: Path,
                                                  tmp_path: Path, name: str, marker: str) -> None:
    out_path = tmp_path / name
    code, out, err = run(capsys, str(good), "-o", str(out_path))
    assert code == 0, err
    assert out == "" and f"wrote {out_path}" in err
    assert marker in out_path.read_text(encoding="utf-8")


def test_audit_reads_gzip_and_the_example(capsys: pytest.CaptureFixture[str], good: Path,
                                          tmp_path: Path) -> None:
    gz = tmp_path / "map.json.gz"
    gz.write_bytes(gzip.compress(good.read_bytes()))
    assert run(capsys, str(gz), "--format", "json")[0] == 0
    code, out, _ = run(capsys, str(EXAMPLE), "--format", "md")
    assert code == 0 and "/session/hostName" in out  # an unknown field in the example
    assert "**Verdict: findings.**" in out and "alice-mbp" not in out


def test_audit_shows_the_scanner_verdicts(capsys: pytest.CaptureFixture[str], good: Path) -> None:
    code, out, _ = run(capsys, str(good), "--format", "json")
    view = json.loads(out)
    assert code == 0 and view["scanner"] == {"grammar": "pass", "secrets": "pass", "taint": "skipped",
                                             "language": "pass"}
    assert view["verdict"]["status"] == "clean"
    code, out, _ = run(capsys, str(good), "--format", "json", "--source", str(good), "--untied-source")
    assert json.loads(out)["scanner"]["taint"] == "pass"


def test_audit_runs_the_real_scanner(capsys: pytest.CaptureFixture[str], good: Path) -> None:
    code, out, err = run(capsys, str(good), "--format", "json")
    assert code == 0, err
    view = json.loads(out)
    assert view["scanner"] == {"grammar": "pass", "secrets": "pass", "taint": "skipped", "language": "pass"}
    assert view["findings"] == [] and view["verdict"]["status"] == "clean"
    code, out, err = run(capsys, str(EXAMPLE), "--format", "json")  # a map with leaks in it
    view = json.loads(out)
    assert code == 0 and view["verdict"]["status"] == "findings" and view["scanner"]["grammar"] == "fail"
    assert "alice" not in out and "Globex" not in out  # the example's user name and customer


@pytest.mark.parametrize("content", [
    b"",  # empty
    b"not json at all",
    b"[1, 2, 3]",  # not an object
    b'{"schema": "something/else", "events": []}',  # not a map
    b'{"schema": "agentplay/v1", "session": {}}',  # no events
])
def test_audit_bad_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, out, err = run(capsys, str(path))
    assert code == 2
    assert out == "" and err.startswith("agentplay-redact: error: ") and err.count("\n") == 1


def test_audit_truncated_file_exits_2_naming_the_place(capsys: pytest.CaptureFixture[str], good: Path,
                                                       tmp_path: Path) -> None:
    data = good.read_bytes()
    cut = tmp_path / "cut.json"
    cut.write_bytes(data[: len(data) // 2])
    code, out, err = run(capsys, str(cut))
    assert code == 2 and out == ""
    assert "invalid JSON" in err and f"{cut}:" in err
    assert "claude" not in err  # a place, never the content
    gz = tmp_path / "cut.json.gz"
    gz.write_bytes(gzip.compress(data)[:-40])
    code, out, err = run(capsys, str(gz))
    assert code == 2 and "truncated" in err


def test_audit_missing_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, str(tmp_path / "absent.json"))
    assert code == 2 and "no such file" in err


@pytest.mark.parametrize("args", [
    ("--format", "pdf"),
    ("-o", "report.txt"),
    ("--format", "terminal", "-o", "report.html"),
])
def test_audit_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], good: Path, tmp_path: Path,
                                   args: tuple[str, ...]) -> None:
    args = tuple(str(tmp_path / a) if a.startswith("report.") else a for a in args)
    code, out, err = run(capsys, str(good), *args)
    assert code == 2 and out == "" and "error:" in err
    assert not any(tmp_path.glob("report.*"))


def test_audit_never_writes_over_its_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    data = orjson.dumps(clean_map())
    path.write_bytes(data)
    code, _, err = run(capsys, str(path), "--format", "json", "-o", str(path))
    assert code == 2 and "refusing to overwrite the input" in err and path.read_bytes() == data
