"""`redact --to native` through the CLI: same format out, scanned, nothing written on a leak."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from redact.cli import main

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "claude-code" / "5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77.jsonl"


def test_native_claude_code_keeps_records_and_drops_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "scrubbed.jsonl"
    assert main([str(EXAMPLE), "--to", "native", "-o", str(out)]) == 0
    src = [json.loads(line) for line in EXAMPLE.read_text().splitlines() if line.strip()]
    got = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    assert len(got) > 0 and [r.get("uuid") for r in got if r.get("uuid")][:5] == [r.get("uuid") for r in src if r.get("uuid")][:5]
    text = out.read_text()
    for record in src:
        content = record.get("message", {}).get("content")
        if isinstance(content, str) and len(content) > 30:
            assert content not in text


def test_native_refuses_a_map_and_batch_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    the_map = Path(__file__).resolve().parents[1] / "examples" / "session-map.json"
    assert main([str(the_map), "--to", "native", "-o", str(tmp_path / "o.json")]) == 2
    assert main([str(EXAMPLE), "--to", "sideways", "-o", str(tmp_path / "o.json")]) == 2
    assert not (tmp_path / "o.json").exists()
