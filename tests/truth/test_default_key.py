"""Issue 27 item 6: with no key given, the key at $XDG_CONFIG_HOME/agentplay/key is used and said."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.hardening.helpers import EXAMPLE_CC, EXAMPLE_SESSION, KEY_HEX, cli

SOURCE = EXAMPLE_CC / f"{EXAMPLE_SESSION}.jsonl"


@pytest.fixture(autouse=True)
def _no_env_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("AGENTPLAY_REDACT_KEY", "AGENTPLAY_REDACT_KEY_FILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def test_default_key_is_used_and_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "config" / "agentplay"
    folder.mkdir(parents=True, mode=0o700)
    key = folder / "key"
    key.write_text(KEY_HEX + "\n")
    os.chmod(key, 0o600)
    run = cli(capsys, "redact", SOURCE, "-o", tmp_path / "m.json", "--report", tmp_path / "r.json")
    assert run.code == 0, run.err
    assert f"using the key in {key}" in run.err
    assert json.loads((tmp_path / "r.json").read_text())["keyFingerprint"]


def test_no_default_key_means_no_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = cli(capsys, "redact", SOURCE, "-o", tmp_path / "m.json", "--report", tmp_path / "r.json")
    assert run.code == 0, run.err
    assert "using the key" not in run.err
    assert json.loads((tmp_path / "r.json").read_text())["keyFingerprint"] is None
