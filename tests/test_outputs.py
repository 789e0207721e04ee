"""A run with its side outputs, in the library (redact/share/outputs.py), as the CLI runs it: the
report is written when the scanner blocks the map, the vault and the receipt only with the map, and
a side output that cannot be made fails before anything is written."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from redact.apply.identifiers import IdentScrubber
from redact.errors import LeakFound, RedactError
from redact.keys.material import Key, keygen, signing_keygen
from redact.share.outputs import Outputs, redact_with_outputs
from tests.maps import EXAMPLE


def test_a_blocked_run_writes_its_report_and_nothing_else(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def scrub(self: IdentScrubber, category: str, value: Any) -> Any:
        return value  # a redactor bug: identifiers pass through, credentials and all

    monkeypatch.setattr(IdentScrubber, "scrub", scrub)
    out, report, vault = tmp_path / "m.json", tmp_path / "r.json", tmp_path / "m.vault"
    keygen(tmp_path / "k")
    from redact.keys.material import load_key_file

    with pytest.raises(LeakFound):
        redact_with_outputs(EXAMPLE, out, Outputs(report=report, vault=vault), policy="internal",
                            key=load_key_file(tmp_path / "k"), mode="hashed")
    assert json.loads(report.read_text())["findings"]
    assert not out.exists() and not vault.exists()


def test_the_map_its_report_vault_and_receipt(tmp_path: Path) -> None:
    keygen(tmp_path / "k")
    signing_keygen(tmp_path / "s.pem", tmp_path / "s.pub")
    from redact.keys.material import load_key_file

    key = load_key_file(tmp_path / "k")
    out = tmp_path / "m.json"
    done = redact_with_outputs(EXAMPLE, out, Outputs(report=tmp_path / "r.md", receipt=tmp_path / "m.receipt.json",
                                                     signing_key=tmp_path / "s.pem", vault=tmp_path / "m.vault"),
                               policy="default", key=key, mode="hashed")
    assert [what for what, _ in done.wrote] == ["report", "vault", "receipt"]
    assert out.exists() and done.vault_tokens > 0
    receipt = json.loads((tmp_path / "m.receipt.json").read_text())
    assert receipt["map"]["contentHash"] == done.result.report.content_hash


def test_a_signing_key_that_does_not_load_fails_before_anything_is_written(tmp_path: Path) -> None:
    bad = tmp_path / "s.pem"
    bad.write_text("not a key\n")
    bad.chmod(0o600)
    out = tmp_path / "m.json"
    with pytest.raises(RedactError):
        redact_with_outputs(EXAMPLE, out, Outputs(receipt=tmp_path / "m.receipt.json", signing_key=bad),
                            policy="default", key=Key(bytes(range(32)), source="<test>"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.pem"]
