"""Hermes Agent's SQLite store (`~/.hermes/state.db`): each session's rows read as its log, the
full-text shadow tables never selected, rows still in the `-wal` read, canaries never surviving, and
the corpus store read session by session with maps that keep to the seed."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import orjson
import pytest

from redact.api import redact_file
from redact.batch import run as batch
from redact.formats.hermes import store
from redact.policy.load import load_policy
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.canary import Canaries
from tests.formats.seed_strict import violations
from tests.native.hermesfix import records

SCHEMA = """
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, model TEXT, system_prompt TEXT,
  parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, input_tokens INTEGER, cwd TEXT, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
  content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, token_count INTEGER,
  finish_reason TEXT, reasoning TEXT, active INTEGER DEFAULT 1);
CREATE VIRTUAL TABLE messages_fts USING fts5(content);
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts(rowid, content) VALUES (new.id, COALESCE(new.content, ''));
END;
"""
SID = "20260705_112145_f8a75403"
T0 = 1_783_250_505.5


def make_db(path: Path, c: Canaries, *, keep_open: bool = False) -> sqlite3.Connection | None:
    db = sqlite3.connect(path)
    if keep_open:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
    db.executescript(SCHEMA)
    db.execute("INSERT INTO sessions (id, source, user_id, model, system_prompt, started_at, cwd, title) "
               "VALUES (?, 'telegram', ?, 'gemini-flash-lite-latest', ?, ?, NULL, ?)", (SID, c(), c(), T0, c()))
    for n, r in enumerate(records(c)):
        calls = r.get("tool_calls")
        db.execute("INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, timestamp, "
                   "finish_reason, reasoning) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (SID, r["role"], r.get("content"), r.get("tool_call_id"),
                    orjson.dumps(calls).decode() if calls else None, T0 + 10 * (n + 1), r.get("finish_reason"),
                    r.get("reasoning")))
    db.commit()
    if keep_open:
        return db
    db.close()
    return None


def _expected(c: Canaries) -> tuple[int, int]:
    recs = records(c)
    return (sum(r["role"] == "assistant" for r in recs),
            sum(len(r.get("tool_calls") or []) for r in recs))


def test_the_store_is_read_as_its_log(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    c = Canaries("s")
    make_db(path, c)
    out = tmp_path / "m.json"
    result = redact_file(f"{path}#{SID}", out)
    assert out.is_file()
    m = result.session_map
    assert m["session"]["models"] == ["gemini-flash-lite-latest"] and violations(m) == []
    assert (m["totals"]["requests"], m["totals"]["calls"]) == _expected(c)
    assert m["session"]["startedAt"] == "2026-07-05T11:21:55.500Z"  # the first message, ten seconds in
    body = out.read_text()
    assert not [x for x in c.all if x in body]


def test_the_full_text_tables_are_never_selected(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    make_db(path, Canaries("f"))
    db = sqlite3.connect(path)
    said: list[str] = []
    db.set_trace_callback(said.append)
    assert store.sniff(db) and store.sessions(db) == [SID]
    store.export(db, SID)
    db.close()
    assert said and not [q for q in said if "fts" in q.lower()]
    assert [q for q in said if "FROM messages" in q]  # the trace did see the export's reads


def test_rows_still_in_the_wal_are_read(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    c = Canaries("w")
    db = make_db(path, c, keep_open=True)
    assert db is not None
    try:
        assert Path(str(path) + "-wal").stat().st_size > 0
        out = tmp_path / "m.json"
        m = redact_file(f"{path}#{SID}", out).session_map
        assert out.is_file() and (m["totals"]["requests"], m["totals"]["calls"]) == _expected(c)
    finally:
        db.close()


def test_batch_finds_the_store_and_the_files(tmp_path: Path) -> None:
    home = tmp_path / ".hermes"
    (home / "sessions").mkdir(parents=True)
    make_db(home / "state.db", Canaries("b"))
    (home / "sessions" / "20260512_112801_93b631d4.jsonl").write_bytes(b'{"role":"session_meta","model":"m",'
                                                                      b'"timestamp":"2026-05-12T19:16:43"}\n')
    tasks, _ = batch.plan([str(home)], tmp_path / "out")
    names = sorted(Path(str(t.input)).name for t in tasks)
    assert names == ["20260512_112801_93b631d4.jsonl", f"state.db#{SID}"]
    outcomes = batch.run(tasks, batch.Settings(policy=load_policy("default")))
    assert {o.status for o in outcomes} == {batch.WRITTEN}


def _corpus() -> list[Path]:
    return sorted(corpus_dir("hermes").glob("*/.hermes/state.db"))


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(_corpus), ids=lambda p: getattr(p, "parent", p).__str__()[-40:])
def test_every_corpus_store_session_is_read(path: Path, tmp_path: Path) -> None:
    corpus_case(path, "hermes")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        sids = store.sessions(db)
        counts = {s: db.execute("SELECT count(*) FROM messages WHERE session_id = ? AND role = 'assistant'",
                                (s,)).fetchone()[0] for s in sids}
    finally:
        db.close()
    assert sids
    for sid in sids:
        m = redact_file(f"{path}#{sid}", tmp_path / f"{len(sid)}.json").session_map
        assert violations(m) == [] and m["totals"]["requests"] == counts[sid]


# -- the session's token columns and its end (issue 26) -------------------------------------------

FULL = """
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL,
  ended_at REAL, input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0, cache_read_tokens INTEGER DEFAULT 0,
  cache_write_tokens INTEGER DEFAULT 0, reasoning_tokens INTEGER DEFAULT 0, cwd TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL,
  content TEXT, tool_call_id TEXT, tool_calls TEXT, timestamp REAL NOT NULL, finish_reason TEXT, reasoning TEXT);
"""


def _full_db(path: Path, tokens: tuple[int, int, int, int, int], *, ended: float | None, replies: int = 2) -> None:
    db = sqlite3.connect(path)
    db.executescript(FULL)
    db.execute("INSERT INTO sessions VALUES (?, 'cron', 'gemini-flash-latest', ?, ?, ?, ?, ?, ?, ?, NULL)",
               (SID, T0, ended, *tokens))
    db.execute("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', 'go', ?)", (SID, T0))
    for n in range(replies):
        db.execute("INSERT INTO messages (session_id, role, content, timestamp, finish_reason) "
                   "VALUES (?, 'assistant', 'done', ?, 'stop')", (SID, T0 + 2 + n))
    db.commit()
    db.close()


@pytest.mark.parametrize("tokens", [(300183, 2558, 438962, 17, 40), (5365, 250, 0, 0, 0)])
def test_the_sessions_token_columns_are_the_maps_tokens(tmp_path: Path, tokens: tuple[int, int, int, int, int]) -> None:
    path = tmp_path / "state.db"
    _full_db(path, tokens, ended=T0 + 30)
    out = tmp_path / "m.json"
    m = redact_file(f"{path}#{SID}", out).session_map
    assert out.is_file() and violations(m) == []
    inp, outp, cr, cw, _reasoning = tokens
    assert m["totals"]["tokens"] == inp + outp + cr + cw  # reasoning is a part of the output tokens
    assert m["totals"]["outputTokens"] == outp
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert sum(e["in"] for e in llm) == inp and sum(e["cr"] for e in llm) == cr and sum(e["cw"] for e in llm) == cw


def test_a_store_without_token_columns_states_no_tokens(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    make_db(path, Canaries("n"))
    assert redact_file(f"{path}#{SID}", tmp_path / "m.json").session_map["totals"]["tokens"] == 0


def test_the_duration_runs_to_the_sessions_end(tmp_path: Path) -> None:
    """A one-reply cron session: its messages sit within a second, the store says it ended 12 s in."""
    path = tmp_path / "state.db"
    _full_db(path, (0, 0, 0, 0, 0), ended=T0 + 12.25, replies=1)
    s = redact_file(f"{path}#{SID}", tmp_path / "m.json").session_map["session"]
    assert s["startedAt"] == "2026-07-05T11:21:45.500Z"
    assert s["durationMs"] == pytest.approx(12250, abs=1)


def test_no_end_gives_the_duration_of_the_messages(tmp_path: Path) -> None:
    path = tmp_path / "state.db"
    _full_db(path, (0, 0, 0, 0, 0), ended=None, replies=3)
    assert redact_file(f"{path}#{SID}", tmp_path / "m.json").session_map["session"]["durationMs"] == \
        pytest.approx(4000, abs=1)
