"""Zed: the agent threads of `threads.db` read read-only, each thread's zstd-compressed JSON inflated
by the zstandard library under the input size limit, one map per thread, paths under the worktree."""
from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

import pytest
import zstandard

from redact.api import redact_file
from redact.cli import main
from redact.formats.registry import raw_format
from redact.io import read as io_read
from tests.formats import zedfix
from tests.formats.seed_strict import violations

CALLS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


def _state(db: Path) -> tuple[bytes, int]:
    return db.read_bytes(), db.stat().st_mtime_ns


def _store(tmp_path: Path, **kw: object) -> Path:
    folder = tmp_path / "zed" / "threads"
    folder.mkdir(parents=True)
    db = folder / "threads.db"
    zedfix.threads_db(db, **kw)  # type: ignore[arg-type]
    return db


def test_a_thread_becomes_a_map(tmp_path: Path) -> None:
    db = _store(tmp_path)
    before = _state(db)
    result = redact_file(db, policy="default")
    assert _state(db) == before
    m = result.session_map
    assert not violations(m)
    want = zedfix.COUNTS
    kinds = Counter(e["kind"] for e in m["events"])
    assert m["session"]["agentTool"] == "zed" and m["session"]["id"].endswith(zedfix.TID)
    assert m["session"]["models"] == ["claude-sonnet-4"]  # Zed's display name, spelled as a model id
    assert kinds["user"] == want["user"] and kinds["llm"] == want["llm"]
    assert sum(kinds[k] for k in CALLS) == want["calls"]
    assert kinds["exec"] + kinds["verify"] == want["shell"] and kinds["edit"] == want["edits"]
    shells = [e for e in m["events"] if e["kind"] in ("exec", "verify")]
    assert [e.get("err", False) for e in shells] == [True, False]
    assert [e.get("host") for e in m["events"] if e["kind"] == "web"] == ["docs.example.com"]
    # `shop/src/app.py` is under the worktree `/home/dana/src/shop`: repo-relative, read then edited
    assert [(f["path"], f["reads"], f["edits"]) for f in m["files"]] == [("src/app.py", 1, 1)]
    llms = [e for e in m["events"] if e["kind"] == "llm"]
    # each turn's usage is on its last agent message; the cumulative total (99999) is never used
    assert [e["in"] for e in llms] == [0, 3000, 0, 2200]
    assert sum(e["out"] for e in llms) == want["out"] and sum(e["cr"] for e in llms) == want["cr"]
    assert sum(e["cw"] for e in llms) == want["cw"]
    assert [e["thinking"] for e in llms] == [True, False, True, False]
    users = [e for e in m["events"] if e["kind"] == "user"]
    assert [u["images"] for u in users] == [0, 1]
    assert result.report.skipped_records["message:Resume"] == 1


def test_a_json_thread_reads_as_the_compressed_one(tmp_path: Path) -> None:
    packed = redact_file(_store(tmp_path / "a"), policy="default").session_map
    plain = redact_file(_store(tmp_path / "b", data_type="json"), policy="default").session_map
    assert plain["events"] == packed["events"] and plain["totals"] == packed["totals"]


def test_an_older_thread_is_counted_not_read(tmp_path: Path) -> None:
    db = _store(tmp_path, with_legacy=True)
    out = tmp_path / "out"
    assert main([str(db), "--out-dir", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir() if p.name.endswith(".json.gz")) == sorted(
        f"{tid}.json.gz" for tid in (zedfix.TID, zedfix.LEGACY_TID))
    result = redact_file(f"{db}#{zedfix.LEGACY_TID}", policy="default")
    assert result.session_map["events"] == []
    assert result.report.skipped_records["thread:<older version>"] == 1
    assert result.report.skipped_records["message:<thread not read>"] == 1


def _bad(tmp_path: Path, capsys: pytest.CaptureFixture[str], blob: bytes) -> str:
    db = _store(tmp_path, blob=blob)
    out = tmp_path / "map.json"
    assert main([str(db), "-o", str(out)]) == 2
    assert not out.exists()
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "threads.db" in err
    return err


def test_a_zstd_bomb_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # a frame that states no size, inflating to 4 MB of one byte, against a 1 MB limit
    bomb = zstandard.ZstdCompressor(write_content_size=False).compress(b"[" + b" " * (4 << 20) + b"]")
    assert len(bomb) < 4096
    monkeypatch.setattr(io_read, "LIMITS", io_read.Limits(max_bytes=1 << 20, ratio_floor=8 << 20))
    err = _bad(tmp_path, capsys, bomb)
    assert "decompressed size exceeds the limit" in err


def test_a_zstd_bomb_is_stopped_by_its_ratio(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # under the size limit, but expanding far beyond the ratio the gzip reader allows
    bomb = zstandard.ZstdCompressor(write_content_size=False).compress(b"[" + b" " * (4 << 20) + b"]")
    monkeypatch.setattr(io_read, "LIMITS", io_read.Limits(ratio_floor=1 << 20))
    err = _bad(tmp_path, capsys, bomb)
    assert "compression ratio" in err and "zstd bomb" in err


def test_a_damaged_frame_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = zstandard.ZstdCompressor().compress(b'{"version": "0.3.0", "messages": []}')
    err = _bad(tmp_path, capsys, good[:-6] + b"\x00" * 6)
    assert "cannot be decompressed" in err or "not JSON" in err


@pytest.mark.parametrize("policy", ["default", "internal", "public"])
def test_no_text_reaches_the_map(tmp_path: Path, policy: str) -> None:
    from tests.formats.canary import KEY

    seen: list[str] = []

    def text(slot: str) -> str:
        value = f"zqcanary{len(seen)}qz and more"
        seen.append(value.split()[0])
        return value

    db = tmp_path / "threads.db"
    zedfix.threads_db(db, text)
    result = redact_file(db, policy=policy, key=KEY if policy == "public" else None)
    assert result.session_map["events"]
    out = result.data.decode() + str(result.report.as_dict())
    assert not [c for c in seen if c in out]


@pytest.mark.parametrize("home", raw_format("zed").homes if raw_format("zed") else ())  # type: ignore[union-attr]
def test_each_home_of_zed_finds_its_store(tmp_path: Path, home: str) -> None:
    fmt = raw_format("zed")
    assert fmt is not None and fmt.homes
    folder = tmp_path / home.removeprefix("~/")
    folder.mkdir(parents=True)
    zedfix.threads_db(folder / "threads.db")
    assert fmt.list_sessions(folder) == [folder / "threads.db"]
    assert fmt.list_sessions(folder.parent) == [folder / "threads.db"]


def test_the_store_is_never_written(tmp_path: Path) -> None:
    db = _store(tmp_path)
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.close()
    before = _state(db)
    redact_file(db, policy="public", key=__import__("tests.formats.canary", fromlist=["KEY"]).KEY)
    assert _state(db) == before


def test_a_subagent_thread_names_its_parent_and_a_thread_without_snapshot_its_folder(tmp_path: Path) -> None:
    db = _store(tmp_path)
    doc = zedfix.thread()
    doc.pop("initial_project_snapshot")
    con = sqlite3.connect(db)
    con.execute("UPDATE threads SET parent_id = ?, data = ? WHERE id = ?",
                (zedfix.LEGACY_TID, zstandard.ZstdCompressor().compress(__import__("json").dumps(doc).encode()),
                 zedfix.TID))
    con.commit()
    con.close()
    m = redact_file(db, policy="default").session_map
    assert m["session"]["role"] == "subagent" and m["session"]["parentSessionId"].endswith(zedfix.LEGACY_TID)
    # the row's folder_paths (the project Zed opened) is the root; the thread still starts at created_at
    assert [f["path"] for f in m["files"]] == ["src/app.py"]
    assert m["session"]["startedAt"] == "2026-03-01T10:00:00.000Z"
