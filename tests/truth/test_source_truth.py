"""Issue 27 item 2: a map made with a key carries a keyed digest of its raw log (`sourceDigest`);
`scan`, `audit` and `receipt sign` refuse a `--source` it does not match (exit 2, saying why) with or
without a report; a map without one cannot be tied to a log (exit 2 unless --untied-source). No
unkeyed digest of the private log is written anywhere (it would confirm a guessed log)."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.keys.material import Key
from tests.hardening.helpers import EXAMPLE_CC, EXAMPLE_SESSION, cli

SOURCE = EXAMPLE_CC / f"{EXAMPLE_SESSION}.jsonl"


@pytest.fixture()
def key(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))  # no default key from the host
    monkeypatch.delenv("AGENTPLAY_REDACT_KEY", raising=False)
    monkeypatch.delenv("AGENTPLAY_REDACT_KEY_FILE", raising=False)
    path = tmp_path / "k.key"
    assert cli(capsys, "keygen", path).code == 0
    return path


@pytest.fixture()
def made(tmp_path: Path, key: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path, Path]:
    out, report = tmp_path / "m.json", tmp_path / "r.json"
    run = cli(capsys, "redact", SOURCE, "-o", out, "--report", report, "--key-file", key)
    assert run.code == 0, run.err
    assert out.is_file()
    other = tmp_path / "other.jsonl"
    lines = SOURCE.read_bytes().splitlines(keepends=True)
    other.write_bytes(b"".join(lines[:-1]))  # a real log, one record short: not the map's source
    return out, report, other


def _expected(key: Path, data: bytes) -> str:
    return Key(bytes.fromhex(key.read_text().strip()), source="t").source_digest(data)


def test_the_map_carries_a_keyed_digest_and_no_unkeyed_one(made: tuple[Path, Path, Path], key: Path) -> None:
    out, report, _ = made
    doc = json.loads(out.read_text())
    assert doc["sourceDigest"] == _expected(key, SOURCE.read_bytes())
    plain = hashlib.sha256(SOURCE.read_bytes()).hexdigest()
    assert plain not in out.read_text() and plain not in report.read_text()
    assert json.loads(report.read_text())["sourceDigest"] == doc["sourceDigest"]


def test_the_map_with_a_digest_passes_the_strict_schema_and_the_scanner(made: tuple[Path, Path, Path],
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    import jsonschema

    from redact.model.schema import shipped

    out, _, _ = made
    jsonschema.Draft202012Validator(shipped()).validate(json.loads(out.read_text()))
    run = cli(capsys, "scan", out)
    assert run.code == 0, run.out + run.err


@pytest.mark.parametrize("with_report", [False, True])
def test_scan_refuses_another_source(made: tuple[Path, Path, Path], key: Path, with_report: bool,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    out, report, other = made
    extra = ["--report", str(report)] if with_report else []
    run = cli(capsys, "scan", out, "--source", other, "--key-file", key, *extra)
    assert run.code == 2
    assert "not the raw log the map was made from" in run.err and "other.jsonl" in run.err
    good = cli(capsys, "scan", out, "--source", SOURCE, "--key-file", key, *extra)
    assert good.code == 0, good.out + good.err
    assert "taint pass" in good.out


def test_scan_without_the_key_says_which_key_is_needed(made: tuple[Path, Path, Path],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out, _, _ = made
    run = cli(capsys, "scan", out, "--source", SOURCE)
    assert run.code == 2 and "keyed" in run.err and "--key-file" in run.err


def test_a_map_without_a_digest_cannot_be_tied(tmp_path: Path, key: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "nokey.json"
    assert cli(capsys, "redact", SOURCE, "-o", out).code == 0
    assert "sourceDigest" not in json.loads(out.read_text())
    run = cli(capsys, "scan", out, "--source", SOURCE)
    assert run.code == 2 and "nothing ties this log to it" in run.err and "--untied-source" in run.err
    run = cli(capsys, "scan", out, "--source", SOURCE, "--untied-source")
    assert run.code == 0, run.err
    assert "nothing ties --source to this map" in run.err
    audit = cli(capsys, "audit", out, "--source", SOURCE, "-f", "json")
    assert audit.code == 2 and "nothing ties this log to it" in audit.err


def test_audit_refuses_another_source(made: tuple[Path, Path, Path], key: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    out, _, other = made
    run = cli(capsys, "audit", out, "--source", other, "--key-file", key, "-f", "json")
    assert run.code == 2 and "not the raw log" in run.err and run.out == ""
    good = cli(capsys, "audit", out, "--source", SOURCE, "--key-file", key, "-f", "json")
    assert good.code == 0, good.err
    assert json.loads(good.out)["scanner"]["taint"] == "pass"


def test_audit_of_a_map_on_standard_input_ties_its_source(made: tuple[Path, Path, Path], key: Path) -> None:
    """`audit - --source LOG`: the map is read from standard input once, then tied to its log."""
    import subprocess
    import sys

    out, _, other = made
    def run(source: Path) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([sys.executable, "-m", "redact", "audit", "-", "--source", str(source),
                               "--key-file", str(key), "-f", "json"], input=out.read_bytes(),
                              capture_output=True, timeout=300, check=False)
    good = run(SOURCE)
    assert good.returncode == 0, good.stderr.decode()
    assert json.loads(good.stdout)["scanner"]["taint"] == "pass"
    bad = run(other)
    assert bad.returncode == 2 and b"not the raw log" in bad.stderr and bad.stdout == b""


@pytest.mark.parametrize("with_report", [False, True])
def test_receipt_sign_refuses_another_source(made: tuple[Path, Path, Path], key: Path, tmp_path: Path,
                                             with_report: bool, capsys: pytest.CaptureFixture[str]) -> None:
    out, report, other = made
    signing = tmp_path / "sign.key"
    assert cli(capsys, "receipt", "keygen", signing).code == 0
    receipt = tmp_path / "m.receipt.json"
    extra = ["--report-json", str(report)] if with_report else []
    run = cli(capsys, "receipt", "sign", out, "--signing-key", signing, *extra, "--source", other,
              "--key-file", key, "-o", receipt)
    assert run.code == 2 and "not the raw log" in run.err
    assert not receipt.exists()
    run = cli(capsys, "receipt", "sign", out, "--signing-key", signing, *extra, "--source", SOURCE,
              "--key-file", key, "-o", receipt)
    assert run.code == 0, run.err
    body = json.loads(receipt.read_text())
    assert body["sourceDigest"] == json.loads(out.read_text())["sourceDigest"]
    assert "sourceSha256" not in body
    assert body["scanner"]["taint"] == "pass"
    verify = cli(capsys, "receipt", "verify", out, receipt, "--pubkey", f"{signing}.pub")
    assert verify.code == 0, verify.err


def test_receipt_records_what_the_policy_keeps(tmp_path: Path, key: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    policy = tmp_path / "p.toml"
    policy.write_text('extends = "default"\n[text]\nkeep_task_names = true\n')
    signing = tmp_path / "sign.key"
    assert cli(capsys, "receipt", "keygen", signing).code == 0
    out, receipt = tmp_path / "m.json", tmp_path / "m.receipt.json"
    run = cli(capsys, "redact", SOURCE, "-o", out, "--policy", policy, "--key-file", key,
              "--signing-key", signing, "--receipt", receipt)
    assert run.code == 0, run.err
    body = json.loads(receipt.read_text())
    assert "text.keep_task_names" in body["policy"]["keeps"]
    assert "identifiers.repo" in body["policy"]["keeps"]  # the default policy keeps repo names in clear
    assert body["policy"]["hash"] and body["sourceDigest"].startswith("hmac-sha256:")
    assert cli(capsys, "receipt", "verify", out, receipt, "--pubkey", f"{signing}.pub").code == 0


def test_an_untied_receipt_records_no_taint_pass(tmp_path: Path, key: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "nokey.json"
    assert cli(capsys, "redact", SOURCE, "-o", out).code == 0
    signing = tmp_path / "sign.key"
    assert cli(capsys, "receipt", "keygen", signing).code == 0
    receipt = tmp_path / "r.json"
    run = cli(capsys, "receipt", "sign", out, "--signing-key", signing, "--source", SOURCE, "-o", receipt)
    assert run.code == 2 and not receipt.exists()
    run = cli(capsys, "receipt", "sign", out, "--signing-key", signing, "--source", SOURCE,
              "--untied-source", "-o", receipt)
    assert run.code == 0, run.err
    assert json.loads(receipt.read_text())["scanner"]["taint"] == "skipped"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=st.binary(max_size=64), b=st.binary(max_size=64), k=st.binary(min_size=16, max_size=32))
def test_the_digest_is_keyed_and_separates_logs(a: bytes, b: bytes, k: bytes) -> None:
    key = Key(k, source="t")
    other = Key(bytes(x ^ 1 for x in k), source="t")
    da = key.source_digest(a)
    assert da == key.source_digest(a)  # deterministic
    assert da.removeprefix("hmac-sha256:") != hashlib.sha256(a).hexdigest()
    assert da != other.source_digest(a)  # another key, another digest
    assert (da == key.source_digest(b)) == (a == b)
    assert key.scoped("dataset:x").source_digest(a) == da  # the root key's, whatever the link scope
