"""opencode 1.x: the SQLite store read read-only into one map per session, credentials never read."""
from __future__ import annotations

import hashlib
import os
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from redact.api import redact_file
from redact.cli import main
from redact.errors import BadInput, UsageError
from redact.io.store import split_ref
from tests.formats import storefix
from tests.formats.canary import KEY
from tests.maps import shell_commands

CALLS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


def _kinds(result: Any) -> Counter[str]:
    return Counter(e["kind"] for e in result.session_map["events"])


def _state(path: Path) -> dict[str, tuple[str, int]]:
    out = {}
    for suffix in ("", "-wal", "-shm"):
        p = Path(str(path) + suffix)
        if p.exists():
            out[suffix] = (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
    return out


def test_a_session_becomes_a_map(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    storefix.opencode_db(db)
    result = redact_file(db, policy="default")
    m = result.session_map
    kinds = _kinds(result)
    want = storefix.OPENCODE_COUNTS
    assert m["session"]["agentTool"] == "opencode"
    assert result.report.input_format == "opencode"
    assert kinds["user"] == want["user"] and kinds["llm"] == want["llm"]
    assert sum(kinds[k] for k in CALLS) == want["calls"]
    assert shell_commands(m) == want["shell"]
    tool_made = Counter(e["kind"] for e in m["events"] if "verb" not in e)  # the read and search tools
    assert kinds["edit"] == want["edits"] and tool_made["read"] == want["read"] and tool_made["search"] == want["search"]
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert sum(e.get("in", 0) for e in llm) == want["in"]
    assert sum(e.get("out", 0) for e in llm) == want["out"]
    shells = [e for e in m["events"] if "verb" in e]
    assert {e.get("verb") for e in shells} == {"git status", "pytest"}
    assert any(e.get("exitCode") == 1 and e.get("err") for e in shells)
    edits = [e for e in m["events"] if e["kind"] == "edit"]
    assert any(t.get("op") == "create" for e in edits for t in e.get("targets", []))
    assert any(e.get("err") for e in edits)
    files = m.get("files") or []
    assert files and all(not f.get("path", "").startswith("/") for f in files)  # repo-relative
    assert any(e["kind"] == "error" for e in m["events"])  # the assistant message's APIError


def test_the_store_and_its_wal_are_never_changed(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    writer = storefix.opencode_db(db, keep_open=True)
    assert writer is not None
    try:
        assert Path(str(db) + "-wal").stat().st_size > 0  # the session is in the WAL only
        before = _state(db)
        result = redact_file(db, policy="internal")
        assert _kinds(result)["llm"] == storefix.OPENCODE_COUNTS["llm"]
        assert _state(db) == before
    finally:
        writer.close()


def test_credentials_are_never_read(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    storefix.opencode_db(db)
    for policy, key in (("default", None), ("internal", None), ("public", KEY)):
        result = redact_file(db, policy=policy, key=key)
        for out in (result.data.decode(), str(result.report.as_dict())):
            assert storefix.SECRET not in out and storefix.CRED_EMAIL not in out
    from redact.formats.stores import export

    _, data = export(db, None, where="x")  # the reader's (and the taint layer's) whole input
    assert storefix.SECRET.encode() not in data and storefix.CRED_EMAIL.encode() not in data


def test_several_sessions_one_map_each(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    storefix.opencode_db(db, extra_session=True)
    with pytest.raises(UsageError, match="holds 2 sessions"):
        redact_file(db)
    one = redact_file(f"{db}#ses_22be9f828ffeaiYkWjPssYhKmC")
    assert one.session_map["session"]["agentTool"] == "opencode"
    assert split_ref(f"{db}#ses_x") == (db, "ses_x")
    with pytest.raises(BadInput, match="no such session"):
        redact_file(f"{db}#ses_x")
    out = tmp_path / "out"
    assert main([str(tmp_path), "--out-dir", str(out)]) == 0  # ~/.local/share/opencode
    assert sorted(p.name for p in out.glob("*.json.gz")) == ["ses_12be9f828ffeaiYkWjPssYhKmB.json.gz",
                                                     "ses_22be9f828ffeaiYkWjPssYhKmC.json.gz"]


def test_native_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "opencode.db"
    storefix.opencode_db(db)
    assert main([str(db), "--to", "native", "-o", str(tmp_path / "x")]) == 2
    assert "maps" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_stdin_bytes_of_a_store_are_refused(tmp_path: Path) -> None:
    from redact.api import redact_bytes

    db = tmp_path / "opencode.db"
    storefix.opencode_db(db)
    with pytest.raises(BadInput, match="SQLite"):
        redact_bytes(db.read_bytes())


def test_an_unknown_sqlite_file_is_bad_input(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "other.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    with pytest.raises(BadInput, match="not a session store"):
        redact_file(db)
    os.remove(db)


def test_the_input_limits_hold_for_a_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gzip

    from redact.io import read

    db = tmp_path / "opencode.db"
    storefix.opencode_db(db)
    monkeypatch.setattr(read, "LIMITS", read.Limits(max_bytes=db.stat().st_size // 2))
    with pytest.raises(BadInput, match="exceeds the limit"):
        redact_file(db)
    monkeypatch.undo()
    packed = tmp_path / "opencode.db.gz"
    packed.write_bytes(gzip.compress(db.read_bytes()))
    with pytest.raises(BadInput, match="SQLite"):  # gunzipped in memory: never opened as a database
        redact_file(packed)


def test_a_user_message_of_opencode_s_own_parts_is_no_prompt(tmp_path: Path) -> None:
    """A command the user ran (`!ls`) is stored as a user message whose only part is opencode's own
    note ("The following tool was executed by the user", synthetic): no prompt (issue 25: a session
    of 2 prompts mapped with 4)."""
    db_path = tmp_path / "opencode.db"
    storefix.opencode_db(db_path)
    before = redact_file(db_path, policy="internal").session_map["totals"]["userTurns"]
    with sqlite3.connect(db_path) as db:
        sid = db.execute("SELECT id FROM session").fetchone()[0]
        t = storefix.T0 + 5000
        db.execute("INSERT INTO message VALUES ('msg_note', ?, ?, ?, ?)",
                   (sid, t, t, '{"role": "user", "time": {"created": %d}}' % t))
        db.execute("INSERT INTO part VALUES ('prt_note', 'msg_note', ?, ?, ?, ?)",
                   (sid, t, t, '{"type": "text", "text": "The following tool was executed by the user", '
                               '"synthetic": true}'))
    m = redact_file(db_path, policy="internal").session_map
    assert before == storefix.OPENCODE_COUNTS["user"]
    assert m["totals"]["userTurns"] == before
    assert sum(e["kind"] == "user" for e in m["events"]) == before
