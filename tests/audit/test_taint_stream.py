"""The taint layer reads a log on disk a chunk at a time (mapped, pages let go as it moves on) and
finds exactly what it finds in the same bytes held in memory: the streamed redaction's scan."""
from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from audit.scan import scan_map
from tests.audit.test_taint import claude_user, jsonl, leaky_map


def _source() -> bytes:
    records = [claude_user(f"filler line {i} about nothing in particular") for i in range(60)]
    records[17] = claude_user("here zq_payroll_export_2291 sits")
    records[41] = claude_user("and the refund rounding logic too \\u00e9")
    records[59] = claude_user("last one mentions orders-api.internal")
    return jsonl(*records)


@pytest.mark.parametrize("chunk", [7, 100, 8 << 20])
def test_a_path_finds_what_bytes_find(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    import audit.taint

    monkeypatch.setattr(audit.taint, "CHUNK", chunk)
    source = _source()
    path = tmp_path / "s.jsonl"
    path.write_bytes(source)
    doc = leaky_map(a="zq_payroll_export_2291", b="[the refund rounding logic]", c="orders-api.internal",
                    d="nothing to see here at all")
    in_memory = scan_map(doc, source=source, source_format="claude-code")
    on_disk = scan_map(doc, source=path, source_format="claude-code")
    assert [f.as_dict() for f in on_disk.findings] == [f.as_dict() for f in in_memory.findings]
    assert {f.pointer for f in on_disk.by_layer("taint")} == {"/session/a", "/session/b", "/session/c"}
    assert on_disk.as_dict() == in_memory.as_dict()


def test_a_path_to_a_document_or_gzip_is_read_whole(tmp_path: Path) -> None:
    source = _source()
    doc = leaky_map(a="zq_payroll_export_2291")
    expected = [f.as_dict() for f in scan_map(doc, source=source).findings]
    (tmp_path / "s.jsonl.gz").write_bytes(gzip.compress(source))
    (tmp_path / "empty.jsonl").write_bytes(b"")
    assert [f.as_dict() for f in scan_map(doc, source=tmp_path / "s.jsonl.gz").findings] == expected
    assert scan_map(doc, source=tmp_path / "empty.jsonl").by_layer("taint") == []
