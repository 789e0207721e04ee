"""Issue 27 item 2: a `--source` that is not the log a map was made from is refused (exit 2, saying
why) by `scan --report` and `receipt sign --report-json`; the map's own source still passes, and the
receipt records the source's SHA-256."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.hardening.helpers import EXAMPLE_CC, EXAMPLE_SESSION, cli

SOURCE = EXAMPLE_CC / f"{EXAMPLE_SESSION}.jsonl"


@pytest.fixture()
def made(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path, Path]:
    out, report = tmp_path / "m.json", tmp_path / "r.json"
    run = cli(capsys, "redact", SOURCE, "-o", out, "--report", report)
    assert run.code == 0, run.err
    assert out.is_file()
    other = tmp_path / "other.jsonl"
    lines = SOURCE.read_bytes().splitlines(keepends=True)
    other.write_bytes(b"".join(lines[:-1]))  # a real log, one record short: not the map's source
    return out, report, other


def test_report_records_the_source_digest(made: tuple[Path, Path, Path]) -> None:
    _, report, _ = made
    assert json.loads(report.read_text())["sourceSha256"] == hashlib.sha256(SOURCE.read_bytes()).hexdigest()


def test_scan_refuses_another_source(made: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    out, report, other = made
    run = cli(capsys, "scan", out, "--source", other, "--report", report)
    assert run.code == 2
    assert "not the raw log the map was made from" in run.err and "other.jsonl" in run.err
    good = cli(capsys, "scan", out, "--source", SOURCE, "--report", report)
    assert good.code == 0, good.out + good.err
    assert "taint pass" in good.out


def test_receipt_sign_refuses_another_source(made: tuple[Path, Path, Path], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out, report, other = made
    key = tmp_path / "sign.key"
    assert cli(capsys, "receipt", "keygen", key).code == 0
    receipt = tmp_path / "m.receipt.json"
    run = cli(capsys, "receipt", "sign", out, "--signing-key", key, "--report-json", report,
              "--source", other, "-o", receipt)
    assert run.code == 2 and "not the raw log the map was made from" in run.err
    assert not receipt.exists()
    run = cli(capsys, "receipt", "sign", out, "--signing-key", key, "--report-json", report,
              "--source", SOURCE, "-o", receipt)
    assert run.code == 0, run.err
    body = json.loads(receipt.read_text())
    assert body["sourceSha256"] == hashlib.sha256(SOURCE.read_bytes()).hexdigest()
    assert body["scanner"]["taint"] == "pass"
    verify = cli(capsys, "receipt", "verify", out, receipt, "--pubkey", f"{key}.pub")
    assert verify.code == 0, verify.err
