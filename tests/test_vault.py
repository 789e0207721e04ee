"""The reveal vault (redact/keys/recorder.py, redact/keys/vault.py, redact/share/reveal.py, `reveal`): tokens recorded
where they are made, encrypted under the user's key, useless without it, never written by default."""
from __future__ import annotations

import inspect
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from redact import api
from redact.apply.walk import redact_map
from redact.cli import main
from redact.errors import BadInput, UsageError
from redact.apply.identifiers import IdentScrubber
from redact.keys.material import Key, load_key_file
from redact.policy.load import load_policy
from redact.keys.recorder import TokenLog
from redact.report import RedactionReport
from redact.share.reveal import reveal_map
from redact.keys.vault import MAGIC, read_vault, vault_bytes, write_vault
from tests.maps import EXAMPLE

KEY_HEX = "6a" * 32
OTHER_HEX = "6b" * 32
REPO = "Zq7CanaryRepo"
DIR = "Zq7CanaryDir"
FILE = "Zq7CanaryFile.py"
SCRIPT = "zq7canary-deploy.sh"


def _key_file(folder: Path, hex_text: str, name: str) -> Path:
    path = folder / name
    path.write_text(hex_text + "\n")
    os.chmod(path, 0o600)
    return path


@pytest.fixture()
def key(tmp_path: Path) -> Key:
    return load_key_file(_key_file(tmp_path, KEY_HEX, "key"))


def canary_map() -> dict[str, Any]:
    doc = json.loads(EXAMPLE.read_text())
    doc["repos"][0]["name"] = REPO
    doc["files"][0]["path"] = f"{DIR}/{FILE}"
    for ev in doc["events"]:
        if ev.get("kind") == "exec":
            ev["verb"] = f"./scripts/{SCRIPT} --prod"
            break
    else:  # pragma: no cover - the example has exec events
        raise AssertionError("no exec event")
    return doc


def redact_recording(doc: dict[str, Any], key: Key | None, log: TokenLog | None,
                     policy: str = "public") -> dict[str, Any]:
    """What `redact` does for a map input, with the recorder passed (until api.py takes it)."""
    report = RedactionReport(source="<test>")
    out = api.finish_map(redact_map(doc, load_policy(policy), key, report, recorder=log), report)
    api.scan_output(out, report, load_policy(policy), source=None, source_format=None)
    return out


def test_recording_does_not_change_the_output(key: Key) -> None:
    log = TokenLog()
    assert redact_recording(canary_map(), key, log) == redact_recording(canary_map(), key, None)
    assert {"segment", "id", "program", "ident:repo"} <= set(log.entries)
    assert log.entries["ident:repo"][key.ident_token("repo", REPO)] == REPO
    assert log.entries["segment"][key.segment_token(DIR)] == DIR
    assert log.entries["program"][key.ident_digest("program", SCRIPT, 10)] == SCRIPT
    assert REPO not in repr(log)


def test_the_recorder_is_off_by_default(key: Key) -> None:
    assert inspect.signature(redact_map).parameters["recorder"].default is None
    assert IdentScrubber(load_policy("public"), key).recorder is None


def test_round_trip(tmp_path: Path, key: Key) -> None:
    log = TokenLog()
    out = redact_recording(canary_map(), key, log)
    path = tmp_path / "s.vault"
    assert write_vault(log, key, path, content_hash=out["contentHash"]) == len(log)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    data = path.read_bytes()
    assert data.startswith(MAGIC) and data[8] == 1 and data[9:25] == key.fingerprint().encode()
    for original in (REPO, DIR, FILE, SCRIPT):
        assert original.encode() not in data
    vault = read_vault(path, key)
    assert vault.entries == log.entries and vault.content_hash == out["contentHash"]
    assert REPO not in repr(vault)
    assert vault_bytes(log, key) != vault_bytes(log, key)  # a fresh salt and nonce every time


def test_wrong_key_fails_with_one_clear_line(tmp_path: Path, key: Key) -> None:
    log = TokenLog()
    redact_recording(canary_map(), key, log)
    path = tmp_path / "s.vault"
    write_vault(log, key, path)
    other = load_key_file(_key_file(tmp_path, OTHER_HEX, "other"))
    with pytest.raises(BadInput, match="cannot open the vault") as info:
        read_vault(path, other)
    assert REPO not in info.value.diagnostic() and KEY_HEX not in info.value.diagnostic()


def test_every_changed_byte_fails(tmp_path: Path, key: Key) -> None:
    log = TokenLog()
    redact_recording(canary_map(), key, log)
    path = tmp_path / "s.vault"
    write_vault(log, key, path)
    data = path.read_bytes()
    for i in range(len(data)):
        path.write_bytes(data[:i] + bytes([data[i] ^ 0x01]) + data[i + 1:])
        with pytest.raises(BadInput):
            read_vault(path, key)
    for cut in (0, 8, 25, 53, len(data) - 1):
        path.write_bytes(data[:cut])
        with pytest.raises(BadInput):
            read_vault(path, key)


def test_write_vault_refuses_to_overwrite_a_file_that_is_not_a_vault(tmp_path: Path, key: Key) -> None:
    precious = tmp_path / "notes.txt"
    precious.write_text("precious")
    with pytest.raises(UsageError, match="not a vault"):
        write_vault(TokenLog(), key, precious)
    assert precious.read_text() == "precious"
    write_vault(TokenLog(), key, tmp_path / "v")
    write_vault(TokenLog(), key, tmp_path / "v")  # an earlier vault may be replaced


def test_reveal_puts_the_originals_back(key: Key) -> None:
    log = TokenLog()
    out = redact_recording(canary_map(), key, log)
    text = json.dumps(out)
    assert all(c not in text for c in (REPO, DIR, FILE, SCRIPT))
    from redact.keys.vault import Vault

    revealed = reveal_map(out, Vault(key.fingerprint(), None, log.entries))
    shown = json.dumps(revealed.session_map)
    assert f'"{REPO}"' in shown and f'"{DIR}/{FILE}"' in shown and SCRIPT in shown
    assert not revealed.unknown and revealed.replaced["segment"] >= 2
    assert json.dumps(out) == text  # the input map is not changed


def test_reveal_command(tmp_path: Path, key: Key, capsys: pytest.CaptureFixture[str]) -> None:
    log = TokenLog()
    out = redact_recording(canary_map(), key, log)
    map_path, vault_path = tmp_path / "m.json", tmp_path / "m.vault"
    map_path.write_text(json.dumps(out))
    write_vault(log, key, vault_path, content_hash=out["contentHash"])
    key_path = tmp_path / "key"

    code = main(["reveal", str(map_path), "--vault", str(vault_path), "--key-file", str(key_path)])
    stdout, stderr = capsys.readouterr()
    assert code == 0, stderr
    assert REPO in stdout and f"{DIR}/{FILE}" in stdout and "revealed" in stderr

    other = _key_file(tmp_path, OTHER_HEX, "other")
    code = main(["reveal", str(map_path), "--vault", str(vault_path), "--key-file", str(other)])
    stdout, stderr = capsys.readouterr()
    assert code == 2 and stdout == "" and len(stderr.strip().splitlines()) == 1
    assert "cannot open the vault" in stderr and REPO not in stderr

    tampered = tmp_path / "t.vault"
    data = vault_path.read_bytes()
    tampered.write_bytes(data[:-5] + bytes([data[-5] ^ 0x80]) + data[-4:])
    code = main(["reveal", str(map_path), "--vault", str(tampered), "--key-file", str(key_path)])
    stdout, stderr = capsys.readouterr()
    assert code == 2 and stdout == "" and "changed" in stderr and len(stderr.strip().splitlines()) == 1

    revealed = tmp_path / "revealed.json"
    code = main(["reveal", str(map_path), "--vault", str(vault_path), "--key-file", str(key_path),
                 "-o", str(revealed)])
    capsys.readouterr()
    assert code == 0 and stat.S_IMODE(revealed.stat().st_mode) == 0o600 and REPO in revealed.read_text()


def test_no_vault_is_written_by_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.json"
    src.write_text(json.dumps(canary_map()))
    key_path = _key_file(tmp_path, KEY_HEX, "key")
    before = set(os.listdir(tmp_path))
    code = main(["--policy", "public", "--key-file", str(key_path), str(src),
                 "-o", str(tmp_path / "out.json.gz")])
    capsys.readouterr()
    assert code == 0
    assert set(os.listdir(tmp_path)) - before == {"out.json.gz"}
    for name in os.listdir(tmp_path):
        with open(tmp_path / name, "rb") as fh:
            assert not fh.read().startswith(MAGIC)


def test_redact_with_vault_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "in.json"
    src.write_text(json.dumps(canary_map()))
    key_path = _key_file(tmp_path, KEY_HEX, "key")
    out, vault = tmp_path / "out.json", tmp_path / "out.vault"
    code = main(["--policy", "public", "--key-file", str(key_path), str(src), "-o", str(out),
                 "--vault", str(vault)])
    assert code == 0, capsys.readouterr().err
    assert REPO not in out.read_text() and stat.S_IMODE(vault.stat().st_mode) == 0o600
    code = main(["reveal", str(out), "--vault", str(vault), "--key-file", str(key_path)])
    assert code == 0 and REPO in capsys.readouterr().out
