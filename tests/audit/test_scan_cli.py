"""`agentplay-redact scan`: exit codes (0 clean, 1 findings, 2 bad input), formats, --source,
--self-test."""
from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import orjson
import pytest

import audit.scan
from redact.cli import main
from tests.audit.scanner_maps import SECRETS, redacted_example


def cli(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture()
def clean(tmp_path: Path) -> Path:
    path = tmp_path / "clean.json"
    path.write_bytes(orjson.dumps(redacted_example("default")))
    return path


@pytest.fixture()
def leaky(tmp_path: Path) -> Path:
    doc = redacted_example("default")
    doc["session"]["note"] = "zq_payroll_export_2291 is the file for Globex, please send it"
    doc["repos"][0]["name"] = SECRETS[1]
    path = tmp_path / "leaky.json"
    path.write_bytes(orjson.dumps(doc))
    return path


@pytest.fixture()
def source(tmp_path: Path) -> Path:
    path = tmp_path / "session.jsonl"
    rec = {"type": "user", "message": {"role": "user", "content": "attach zq_payroll_export_2291 now"}}
    path.write_bytes(orjson.dumps(rec) + b"\n")
    return path


def test_clean_map_exits_0(capsys: pytest.CaptureFixture[str], clean: Path) -> None:
    code, out, err = cli(capsys, "scan", clean)
    assert code == 0, err
    assert out.strip().endswith("identifier(s) in clear)") and ": clean (" in out


def test_findings_exit_1_and_name_places(capsys: pytest.CaptureFixture[str], leaky: Path, clean: Path) -> None:
    code, out, _ = cli(capsys, "scan", clean, leaky)
    assert code == 1
    assert f"{leaky.name}#/session/note: grammar grammar.unknown-field" in out
    assert f"{leaky.name}#/repos/0/name: secrets secrets.github-fine-grained-pat" in out
    assert f"{clean.name}: clean" in out


def test_source_adds_the_taint_layer(capsys: pytest.CaptureFixture[str], leaky: Path, source: Path) -> None:
    code, out, _ = cli(capsys, "scan", leaky, "--source", source, "--untied-source")
    assert code == 1
    assert "taint taint.source-token" in out and "(source field user:message.content)" in out
    assert "taint fail" in out


@pytest.mark.parametrize("content,what", [
    (b"{not json", "invalid JSON"),
    (b"[1, 2]", "must be a JSON object"),
    (b'{"schema": "x/v9", "events": []}', "not an agentplay/v1 map"),
    (b"", "empty input"),
])
def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, what: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, out, err = cli(capsys, "scan", path)
    assert code == 2 and what in err and out.startswith(f"{path.name}: not scanned: {path.name}") and what in out
    assert len(out.splitlines()) == 1


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], clean: Path, tmp_path: Path) -> None:
    assert cli(capsys, "scan", clean, "--format", "xml")[0] == 2
    assert cli(capsys, "scan", tmp_path / "missing.json")[0] == 2
    assert cli(capsys, "scan")[0] == 2
    assert cli(capsys, "scan", clean, "--source", tmp_path / "missing.jsonl")[0] == 2


def test_json_format(capsys: pytest.CaptureFixture[str], leaky: Path, clean: Path) -> None:
    code, out, _ = cli(capsys, "scan", "--format", "json", clean, leaky)
    body = json.loads(out)
    assert code == 1 and [f["clean"] for f in body["files"]] == [True, False]
    finding = body["files"][1]["findings"][0]
    assert set(finding) >= {"layer", "rule", "pointer", "excerpt", "message", "places"}


def test_sarif_format(capsys: pytest.CaptureFixture[str], leaky: Path) -> None:
    code, out, _ = cli(capsys, "scan", "-f", "sarif", leaky)
    doc = json.loads(out)
    assert code == 1 and doc["version"] == "2.1.0" and doc["runs"][0]["results"]


def test_gzip_and_stdin(capsys: pytest.CaptureFixture[str], clean: Path, tmp_path: Path,
                        monkeypatch: pytest.MonkeyPatch) -> None:
    gz = tmp_path / "clean.json.gz"
    gz.write_bytes(gzip.compress(clean.read_bytes()))
    assert cli(capsys, "scan", gz)[0] == 0
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(clean.read_bytes())))
    code, out, _ = cli(capsys, "scan", "-")
    assert code == 0 and "<stdin>: clean" in out


def test_self_test_passes_then_scans(capsys: pytest.CaptureFixture[str], clean: Path, source: Path) -> None:
    code, out, err = cli(capsys, "scan", "--self-test", clean, "--source", source, "--untied-source")
    assert code == 0 and "self-test passed" in err and ": clean" in out


def test_a_broken_scanner_fails_the_self_test_loudly(capsys: pytest.CaptureFixture[str], clean: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(audit.scan, "find_secrets", lambda values: [])
    code, out, err = cli(capsys, "scan", "--self-test", clean)
    assert code == 1 and "self-test FAILED" in err and out == ""
    code, out, _ = cli(capsys, "scan", clean)  # without --self-test the broken scanner would say clean
    assert code == 0


def test_one_bad_file_does_not_stop_the_scan(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                              leaky: Path, clean: Path) -> None:
    """The pre-commit hook hands every *.json.gz to one `scan`: a file that is not a map was the end
    of the scan, hiding the other files' findings. Now each is scanned; the worst code wins."""
    bad = tmp_path / "notes.json"
    bad.write_bytes(b"[1, 2]")
    code, out, err = cli(capsys, "scan", bad, leaky, clean)
    assert code == 2, err
    assert f"{leaky.name}#/session/note:" in out and f"{clean.name}: clean" in out
    assert f"{bad.name}: not scanned: " in out and "must be a JSON object" in err
    code, out, err = cli(capsys, "scan", clean, bad)
    assert code == 2 and f"{clean.name}: clean" in out
    code, _, _ = cli(capsys, "scan", clean, leaky)
    assert code == 1


def test_sarif_of_a_bad_file_is_a_notification_never_empty(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path, leaky: Path) -> None:
    from tests.audit.test_sarif import validate

    bad = tmp_path / "other.json.gz"
    bad.write_bytes(b"not gzip")
    for args in ([bad], [bad, leaky]):
        code, out, _ = cli(capsys, "scan", "-f", "sarif", *args)
        assert code == 2
        doc = json.loads(out)
        validate(doc)
        invocation = doc["runs"][0]["invocations"][0]
        assert invocation["executionSuccessful"] is False
        notes = invocation["toolExecutionNotifications"]
        assert len(notes) == 1
        assert notes[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "other.json.gz"
        assert notes[0]["level"] == "error" and "not scanned" in notes[0]["message"]["text"]
        assert bool(doc["runs"][0]["results"]) == (leaky in args)


def test_scan_writes_its_report_with_o(capsys: pytest.CaptureFixture[str], tmp_path: Path, leaky: Path) -> None:
    out_path = tmp_path / "scan.sarif"
    code, out, _ = cli(capsys, "scan", "-f", "sarif", leaky, "-o", out_path)
    assert code == 1 and out == ""
    assert json.loads(out_path.read_text())["runs"][0]["results"]


def test_a_failed_self_test_still_writes_sarif(capsys: pytest.CaptureFixture[str], clean: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(audit.scan, "find_secrets", lambda values: [])
    code, out, err = cli(capsys, "scan", "--self-test", "-f", "sarif", clean)
    assert code == 1 and "self-test FAILED" in err
    doc = json.loads(out)
    assert doc["runs"][0]["invocations"][0]["executionSuccessful"] is False
    assert "self-test failed" in doc["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]


# -- issue 23, item 8: scan output names inputs by file name, never by an absolute path ------------
@pytest.mark.parametrize("fmt", ["json", "sarif", "text"])
def test_scan_output_names_no_absolute_path(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                            clean: Path, leaky: Path, fmt: str) -> None:
    """`notScanned[].error` named the full `--source` path: a SARIF uploaded from a laptop carried
    the home folder. Every name in the output is the file's name (or the relative path given)."""
    bad = tmp_path / "zqhome" / "broken.json"
    bad.parent.mkdir()
    bad.write_text("{")
    code, out, _ = cli(capsys, "scan", clean, leaky, bad, "--format", fmt)
    assert code in (1, 2) and out
    assert str(tmp_path) not in out and "zqhome" not in out
    assert "clean.json" in out and "broken.json" in out
    missing = tmp_path / "zqhome" / "missing.jsonl"
    code, out, _ = cli(capsys, "scan", clean, "--source", missing, "--format", fmt)
    assert code == 2 and str(tmp_path) not in out and "zqhome" not in out and "missing.jsonl" in out


def test_a_report_title_names_a_windows_input_by_file_name() -> None:
    from audit.render.view import _source

    assert _source("C:\\Users\\zqalice\\logs\\s.jsonl") == "s.jsonl"
