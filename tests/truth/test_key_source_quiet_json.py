"""Issue 27 item 6: the report and the run's summary say where the key came from (the flag, an
environment variable, the default file by its place with `~`, or none); `--quiet` prints errors
only; `--json` prints a machine summary on every command that prints one."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hardening.helpers import EXAMPLE_CC, EXAMPLE_SESSION, cli

SOURCE = EXAMPLE_CC / f"{EXAMPLE_SESSION}.jsonl"


@pytest.fixture(autouse=True)
def _no_host_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("AGENTPLAY_REDACT_KEY", raising=False)
    monkeypatch.delenv("AGENTPLAY_REDACT_KEY_FILE", raising=False)
    return home


def _key(path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    assert cli(capsys, "keygen", path).code == 0
    return path


def _report_key(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: object) -> tuple[str, str]:
    out, report = tmp_path / "m.json", tmp_path / "r.json"
    run = cli(capsys, "redact", SOURCE, "-o", out, "--report", report, *args)
    assert run.code == 0, run.err
    assert out.is_file()
    return json.loads(report.read_text())["keySource"], run.err


def test_the_report_says_the_key_came_from_the_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = _key(tmp_path / "secret-place" / "k.key", capsys)
    source, said = _report_key(tmp_path, capsys, "--key-file", key)
    assert source == "--key-file" and "key from --key-file" in said
    assert "secret-place" not in (tmp_path / "r.json").read_text()  # the key's path is not the report's


def test_the_report_says_the_key_came_from_the_default_file(tmp_path: Path, _no_host_key: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    _key(_no_host_key / ".config" / "agentplay" / "key", capsys)
    source, said = _report_key(tmp_path, capsys)
    assert source == "~/.config/agentplay/key" and "key from ~/.config/agentplay/key" in said
    assert str(_no_host_key) not in (tmp_path / "r.json").read_text()


def test_the_report_says_the_key_came_from_the_environment(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    key = _key(tmp_path / "k.key", capsys)
    monkeypatch.setenv("AGENTPLAY_REDACT_KEY_FILE", str(key))
    assert _report_key(tmp_path, capsys)[0] == "$AGENTPLAY_REDACT_KEY_FILE"
    monkeypatch.delenv("AGENTPLAY_REDACT_KEY_FILE")
    monkeypatch.setenv("AGENTPLAY_REDACT_KEY", key.read_text().strip())
    assert _report_key(tmp_path, capsys)[0] == "$AGENTPLAY_REDACT_KEY"


def test_the_report_says_there_was_no_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, said = _report_key(tmp_path, capsys)
    assert source == "none" and "no key" in said
    md = tmp_path / "r.md"
    assert cli(capsys, "redact", SOURCE, "-o", tmp_path / "m2.json", "--report", md).code == 0
    assert "| Key from | no key |" in md.read_text()


def test_a_batch_summary_says_where_the_key_came_from(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = _key(tmp_path / "k.key", capsys)
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / SOURCE.name).write_bytes(SOURCE.read_bytes())
    run = cli(capsys, "redact", logs, "--out-dir", tmp_path / "maps", "--key-file", key)
    assert run.code == 0, run.err
    assert "key from --key-file" in run.lines[-1]


def test_quiet_prints_errors_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.json"
    run = cli(capsys, "redact", SOURCE, "-o", out, "--quiet")
    assert run.code == 0 and run.err == "" and run.out == "" and out.is_file()
    loud = cli(capsys, "redact", SOURCE, "-o", tmp_path / "m2.json")
    assert loud.err  # the same run says what it wrote without --quiet
    run = cli(capsys, "-q", "scan", out)
    assert run.code == 0 and run.out == "" and run.err == ""
    run = cli(capsys, "redact", tmp_path / "missing.jsonl", "-o", tmp_path / "x.json", "--quiet")
    assert run.code == 2 and "no such file" in run.err  # errors still said
    bad = tmp_path / "bad.json"
    doc = json.loads(out.read_text())
    doc["session"]["agentTool"] = "please wire the money to account 4242 today"
    bad.write_text(json.dumps(doc))
    run = cli(capsys, "scan", bad, "--quiet")
    assert run.code == 1 and run.out == "" and "error: findings in 1 of 1 map(s)" in run.err


def test_json_summaries(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = _key(tmp_path / "k.key", capsys)
    out = tmp_path / "m.json"
    run = cli(capsys, "redact", SOURCE, "-o", out, "--key-file", key, "--json")
    assert run.code == 0, run.err
    body = json.loads(run.out)
    doc = json.loads(out.read_text())
    assert body["contentHash"] == doc["contentHash"] and body["keySource"] == "--key-file"
    assert body["sourceDigest"] == doc["sourceDigest"] and body["output"] == str(out)
    assert cli(capsys, "redact", SOURCE, "--json").code == 2  # the map would go to stdout too
    for command in ("scan", "audit"):
        run = cli(capsys, command, out, "--json")
        assert run.code == 0, run.err
        assert isinstance(json.loads(run.out), dict)
    signing = tmp_path / "sign.pem"
    assert cli(capsys, "receipt", "keygen", signing).code == 0
    receipt = tmp_path / "m.receipt.json"
    run = cli(capsys, "receipt", "sign", out, "--signing-key", signing, "-o", receipt, "--json")
    assert run.code == 0 and json.loads(run.out)["wrote"] == str(receipt)
    run = cli(capsys, "receipt", "verify", out, receipt, "--pubkey", f"{signing}.pub", "--json")
    assert run.code == 0 and json.loads(run.out)["valid"] is True
    receipt.write_text(receipt.read_text().replace('"pathMode": "relative"', '"pathMode": "hashed"'))
    run = cli(capsys, "receipt", "verify", out, receipt, "--pubkey", f"{signing}.pub", "--json")
    assert run.code == 1 and json.loads(run.out) == {"valid": False, "reason": json.loads(run.out)["reason"],
                                                      "receipt": None}
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "s.jsonl").write_bytes(SOURCE.read_bytes())
    run = cli(capsys, "sweep", logs, "--json")
    assert run.code in (0, 1) and isinstance(json.loads(run.out), dict)
