"""The CLI through its entry point: exit codes, one-line errors, nothing written on failure."""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from redact.cli import main
from tests.maps import EXAMPLE

KEY_HEX = "5f" * 32


@pytest.fixture()
def key_file(tmp_path: Path) -> Path:
    path = tmp_path / "key"
    path.write_text(KEY_HEX + "\n")
    os.chmod(path, 0o600)
    return path


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_headline_command_writes_a_hashed_gz_map(tmp_path: Path, key_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "map.json.gz"
    code, _, err = cli(capsys, "--mode", "hashed", "--key-file", key_file, EXAMPLE, "-o", out)
    assert code == 0, err
    m = json.loads(gzip.decompress(out.read_bytes()))
    assert m["session"]["pathMode"] == "hashed" and len(m["contentHash"]) == 64
    assert KEY_HEX not in err and KEY_HEX not in out.read_bytes().decode("latin-1")


def test_redact_spelled_out_and_stdout(key_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "redact", "--policy", "internal", EXAMPLE)
    assert code == 0 and json.loads(out)["schema"] == "agentplay/v1"


def test_stdin_to_stdout(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "redact", "-", "-o", "-"], input=EXAMPLE.read_bytes(),
                          capture_output=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["schema"] == "agentplay/v1"


def test_bad_input_is_one_line_exit_2_and_no_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "agentplay/v1", "session": {"id": "x", "startedAt": "SECRETVALUE"}, ')
    out = tmp_path / "out.json"
    code, _, err = cli(capsys, bad, "-o", out)
    assert code == 2 and not out.exists()
    assert len(err.strip().splitlines()) == 1 and str(bad) in err and "SECRETVALUE" not in err


def test_wrong_type_names_the_pointer_not_the_value(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = json.loads(EXAMPLE.read_text())
    m["session"]["startedAt"] = "the customer Globex is angry"
    bad = tmp_path / "m.json"
    bad.write_text(json.dumps(m))
    code, _, err = cli(capsys, bad, "-o", tmp_path / "o.json")
    assert code == 2 and "#/session/startedAt" in err and "Globex" not in err


def test_gz_name_that_is_not_gzip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fake = tmp_path / "m.json.gz"
    fake.write_bytes(EXAMPLE.read_bytes())
    code, _, err = cli(capsys, fake, "-o", tmp_path / "o.json")
    assert code == 2 and "not gzip" in err


def test_output_equal_to_input_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "m.json"
    copy.write_bytes(EXAMPLE.read_bytes())
    code, _, err = cli(capsys, copy, "-o", copy)
    assert code == 2 and copy.read_bytes() == EXAMPLE.read_bytes()


def test_public_without_key_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTPLAY_REDACT_KEY", raising=False)
    monkeypatch.delenv("AGENTPLAY_REDACT_KEY_FILE", raising=False)
    out = tmp_path / "o.json"
    code, _, err = cli(capsys, "--policy", "public", EXAMPLE, "-o", out)
    assert code == 2 and "requires hashed" in err and not out.exists()


def test_hashed_without_key_warns(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTPLAY_REDACT_KEY", raising=False)
    monkeypatch.delenv("AGENTPLAY_REDACT_KEY_FILE", raising=False)
    code, _, err = cli(capsys, "--mode", "hashed", EXAMPLE, "-o", tmp_path / "o.json")
    assert code == 0 and "warning" in err and "dirs_only" in err


def test_unsafe_key_permissions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "k"
    key.write_text(KEY_HEX)
    os.chmod(key, 0o644)
    code, _, err = cli(capsys, "--mode", "hashed", "--key-file", key, EXAMPLE, "-o", tmp_path / "o.json")
    assert code == 2 and "chmod 600" in err and KEY_HEX not in err
    code, _, err = cli(capsys, "--mode", "hashed", "--key-file", key, "--unsafe-key-permissions", EXAMPLE,
                       "-o", tmp_path / "o2.json")
    assert code == 0 and "unsafe" in err


def test_keygen_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "k"
    code, _, err = cli(capsys, "keygen", key)
    assert code == 0 and "fingerprint" in err and key.read_text().strip() not in err
    code, _, err = cli(capsys, "keygen", key)
    assert code == 2 and "overwrite" in err


def test_policy_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "policy", "list")
    assert code == 0 and "public" in out
    code, out, _ = cli(capsys, "policy", "show", "public")
    assert code == 0 and json.loads(out)["policy"]["paths"]["mode"] == "hashed"
    bad = tmp_path / "p.toml"
    bad.write_text('name = "p"\nsurprise = 1\n')
    code, _, err = cli(capsys, "policy", "check", bad)
    assert code == 2 and "surprise" in err


def test_unknown_mode_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "--mode", "scrambled", EXAMPLE)
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_installed_console_script(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "agentplay-redact"
    if not exe.exists():
        pytest.skip("console script not installed in this environment")
    proc = subprocess.run([str(exe), "policy", "list"], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0 and "default" in proc.stdout


def test_internal_error_is_exit_3_without_the_message(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from redact import api

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the prompt said: Globex secret plan")

    monkeypatch.setattr(api, "redact_file", boom)
    code, _, err = cli(capsys, "--verbose", EXAMPLE, "-o", "-")
    assert code == 3 and "RuntimeError" in err and "Globex" not in err
