"""Crush: the project's `.crush/crush.db` read read-only, one map per session, paths under the project."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from redact.api import redact_file
from redact.cli import main
from tests.formats import storefix
from tests.formats.test_opencode import CALLS, _state


def _store(tmp_path: Path) -> Path:
    folder = tmp_path / "shop" / ".crush"
    folder.mkdir(parents=True)
    db = folder / "crush.db"
    storefix.crush_db(db, root=str(tmp_path / "shop"))
    return db


def test_a_session_becomes_a_map(tmp_path: Path) -> None:
    db = _store(tmp_path)
    before = _state(db)
    result = redact_file(db, policy="default")
    assert _state(db) == before
    m = result.session_map
    kinds = Counter(e["kind"] for e in m["events"])
    want = storefix.CRUSH_COUNTS
    assert m["session"]["agentTool"] == "crush" and m["session"]["models"] == ["gpt-4o"]
    assert kinds["user"] == want["user"] and kinds["llm"] == want["llm"]
    assert sum(kinds[k] for k in CALLS) == want["calls"]
    assert kinds["exec"] + kinds["verify"] == want["shell"] and kinds["edit"] == want["edits"]
    assert kinds["error"] == want["errors"]
    assert [e.get("host") for e in m["events"] if e["kind"] == "web"] == ["docs.example.com"]
    # the project folder holding .crush/ is the repository: its files are repo-relative
    assert sorted(f["path"] for f in m["files"]) == ["README.md", "main.go"]
    shells = [e for e in m["events"] if e["kind"] in ("exec", "verify")]
    assert sum(1 for e in shells if e.get("err")) == 1


def test_project_folder_discovery_and_canaries(tmp_path: Path) -> None:
    db = _store(tmp_path)
    out = tmp_path / "out"
    assert main([str(tmp_path / "shop"), "--out-dir", str(out)]) == 0
    assert [p.name for p in out.glob("*.json.gz")] == [storefix.CRUSH_SID + ".json.gz"]
    from redact.formats.stores import export

    _, data = export(db, None, where="x")
    assert b"files content" not in data and b"session title" in data  # the files table is never read


@pytest.mark.parametrize("policy", ["default", "internal", "public"])
def test_no_text_reaches_the_map(tmp_path: Path, policy: str) -> None:
    from tests.formats.canary import KEY

    seen: list[str] = []

    def text(slot: str) -> str:
        value = f"zqcanary{len(seen)}qz and more"
        seen.append(value.split()[0])
        return value

    db = tmp_path / "crush.db"
    storefix.crush_db(db, text)
    result = redact_file(db, policy=policy, key=KEY if policy == "public" else None)
    out = result.data.decode() + str(result.report.as_dict())
    assert not [c for c in seen if c in out]


def test_the_session_tokens_reach_the_map(tmp_path: Path) -> None:
    """Crush keeps tokens on the session row only (prompt 15361, completion 146 in the fixture): the
    map's totals are that row's, carried whole by the last model response (issue 25: maps showed 0)."""
    import sqlite3

    db = _store(tmp_path)
    with sqlite3.connect(db) as con:
        prompt, completion = con.execute("SELECT prompt_tokens, completion_tokens FROM sessions").fetchone()
    m = redact_file(db, policy="default").session_map
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert m["totals"]["tokens"] == prompt + completion > 0
    assert (llm[-1].get("in"), llm[-1].get("out")) == (prompt, completion)
    assert all(e.get("in", 0) == e.get("out", 0) == 0 for e in llm[:-1])


FAILED = '%"reason": "error"%'


def test_a_failed_model_call_is_an_error_not_a_response(tmp_path: Path) -> None:
    """An assistant message that holds only a `finish` of reason `error` (Crush's record of an API
    error: "credit balance is too low") is an llm error event, not a model response, and its model is
    not one the session ran on (issue 25: a session of no response mapped with one)."""
    import sqlite3

    db = _store(tmp_path)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE messages SET model = 'claude-opus-4-1-20250805' WHERE parts LIKE ?", (FAILED,))
        failed = con.execute("SELECT COUNT(*) FROM messages WHERE parts LIKE ?", (FAILED,)).fetchone()[0]
        responses = con.execute("SELECT COUNT(*) FROM messages WHERE role = 'assistant'").fetchone()[0] - failed
    m = redact_file(db, policy="internal").session_map
    kinds = Counter(e["kind"] for e in m["events"])
    assert failed == 1 and kinds["llm"] == m["totals"]["requests"] == responses
    assert [e["source"] for e in m["events"] if e["kind"] == "error"] == ["llm"]
    assert m["session"]["models"] == ["gpt-4o"]
    assert m["totals"]["tokens"] == 15361 + 146  # the session's tokens still land on a response


def test_the_summary_message_is_a_compaction(tmp_path: Path) -> None:
    """Crush's summarize writes the model's summary as an assistant message and names it on the
    session row (`summary_message_id`): that message is a compaction event at its time (issue 25:
    dropped), and still a model response; a session without one has none."""
    import sqlite3

    db = _store(tmp_path)
    assert redact_file(db, policy="internal").session_map["totals"]["compactions"] == 0
    with sqlite3.connect(db) as con:
        sid = con.execute("SELECT id FROM sessions").fetchone()[0]
        at = con.execute("SELECT MAX(created_at) FROM messages").fetchone()[0] + 5
        con.execute("INSERT INTO messages VALUES ('msum', ?, 'assistant', ?, 'gpt-4o', ?, ?, ?, 'openai')",
                    (sid, '[{"type": "text", "data": {"text": "the summary"}}, '
                          '{"type": "finish", "data": {"reason": "end_turn", "time": 0}}]', at, at, at + 3))
        con.execute("UPDATE sessions SET summary_message_id = 'msum'")
    m = redact_file(db, policy="internal").session_map
    compactions = [e for e in m["events"] if e["kind"] == "compaction"]
    assert len(compactions) == m["totals"]["compactions"] == 1
    assert compactions[0]["t"] == max(e["t"] for e in m["events"])  # the last message's time
    assert m["totals"]["requests"] == storefix.CRUSH_COUNTS["llm"] + 1
