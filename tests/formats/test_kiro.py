"""Kiro CLI and Amazon Q Developer CLI sessions, on fixtures of our own (tests/formats/kirofix.py):
the `/chat save` export, the store's `.json` + `.jsonl` pair, the `/save` ConversationState and the
v1 `data.sqlite3`; Windsurf's encrypted `.pb` and Kiro's credential file refused by what they are."""
from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from redact.batch import run as batch
from redact.api import redact_bytes, redact_file
from redact.api_native import scrub_file, scrub_native
from redact.cli import main
from redact.formats.detect import detect
from redact.errors import BadInput, RedactError
from redact.formats.kiro.reader import NO_RECORDS
from redact.formats.stores import export, sessions_of
from redact.keys.material import Key
from redact.policy.load import load_policy
from redact.report import RedactionReport
from tests.formats import kirofix
from tests.formats.jsonfix import plain
from tests.formats.seed_strict import violations

KEY = Key(bytes(range(3, 35)), source="test")


def canaries() -> tuple[kirofix.C, list[str]]:
    made: list[str] = []

    def c() -> str:
        made.append(f"zqkiro{len(made)}qz")
        return made[-1]
    return c, made


def kinds(m: dict[str, Any]) -> Counter[str]:
    return Counter(e["kind"] for e in m["events"])


CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


# -- the export and the store pair -----------------------------------------------------------------

def test_the_export_gives_the_session_it_holds() -> None:
    data = kirofix.export(plain())
    assert detect(data, "bug.md") == "kiro"  # a save is JSON whatever its name
    result = redact_bytes(data, name="bug.md")
    m = result.session_map
    assert violations(m) == []
    found = kinds(m)
    want = kirofix.EXPORT_COUNTS
    assert found["user"] == want["user"] and found["llm"] == want["llm"]
    assert sum(found[k] for k in CALL_KINDS) == want["calls"]
    assert sum(1 for e in m["events"] if e["kind"] == "llm" and e["thinking"]) == want["thinking"]
    assert m["totals"]["errors"] == want["errors"]
    assert m["session"]["id"] == f"local:kiro:{kirofix.SID}" and m["session"]["agentTool"] == "kiro"
    assert m["session"]["models"] == ["claude-opus-4.7"]
    assert m["session"]["startedAt"] == "2026-05-11T19:43:41.000Z"  # the first prompt's meta.timestamp
    verbs = [e.get("verb") for e in m["events"] if e["kind"] in ("exec", "verify")]
    assert "git status" in verbs and any(v and v.startswith("pytest") for v in verbs)
    failed = [e for e in m["events"] if e.get("exitCode") == 1]
    assert len(failed) == 1 and failed[0]["err"] is True  # `exit status: 1` under a success status
    stops = [e.get("stop") for e in m["events"] if e["kind"] == "llm"]
    assert stops[-1] is None and "end_turn" in stops  # ToolUseRejected: no stop reason; UserTurnEnd
    assert result.report.warnings == []


def test_credits_are_never_taken_for_tokens() -> None:
    m = redact_bytes(kirofix.export(plain()), name="x.json").session_map
    assert m["totals"]["tokens"] == 0 and m["totals"]["costUsd"] == 0
    assert all(e.get(k, 0) == 0 for e in m["events"] if e["kind"] == "llm" for k in ("in", "out", "cw", "cr"))
    assert b"0.16886991346600336" not in orjson.dumps(m)


def test_the_store_pair_is_read_as_the_export(tmp_path: Path) -> None:
    meta = kirofix.write_store(tmp_path / ".kiro" / "sessions" / "cli", plain())
    whole = redact_bytes(kirofix.export(plain()), name="x.json").session_map
    for given_path in (meta, meta.with_suffix(".jsonl")):
        m = redact_file(given_path).session_map
        assert m["events"] == whole["events"] and m["session"]["id"] == whole["session"]["id"]


def test_a_session_with_no_records_is_said_to_have_none(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "cli"
    kirofix.write_store(folder, plain())
    empty = folder / "002b28fa-6155-43f6-a39d-cd9d19074bac.json"
    result = redact_file(empty)  # its .jsonl is empty: a session, not an error
    assert result.session_map["events"] == [] and NO_RECORDS in result.report.warnings
    log = redact_file(empty.with_suffix(".jsonl"))  # the empty .jsonl given alone: the same session
    assert log.session_map["events"] == [] and log.session_map["session"]["id"] == result.session_map["session"]["id"]
    lone = tmp_path / "empty.jsonl"
    lone.write_bytes(b"")
    with pytest.raises(BadInput):  # an empty file that is no part of a session stays an empty input
        redact_file(lone)
    empty.with_suffix(".jsonl").unlink()  # metadata only
    out = tmp_path / "out.json"
    assert main([str(empty), "-o", str(out)]) == 0 and out.is_file()
    assert orjson.loads(out.read_bytes())["events"] == []
    assert "no records" in capsys.readouterr().err


def test_batch_finds_the_store_sessions_and_says_why_it_skips_the_rest(tmp_path: Path) -> None:
    folder = tmp_path / "cli"
    kirofix.write_store(folder, plain())
    sessions = sorted(p.name for p in batch.sessions_in(folder))
    assert sessions == sorted(p.name for p in folder.glob("*.json"))
    skipped = {Path(o.input).name: o.message for o in batch.skipped_in(folder)}
    assert set(skipped) == {p.name for p in folder.iterdir()} - set(sessions)
    assert all("skipped (" in why for why in skipped.values())


# -- thinking blocks and --to native ---------------------------------------------------------------

def _native(data: bytes, policy: str = "default") -> bytes:
    report = RedactionReport(source="in")
    return scrub_native(data, "kiro", name="in", policy=load_policy(policy, mode="hashed"), key=KEY,
                        mode="hashed", report=report)


def test_thinking_blobs_are_never_kept() -> None:
    c, made = canaries()
    data = kirofix.export(c)
    out = _native(data)
    doc = orjson.loads(out)
    blocks = [b for e in doc["log_entries"] for b in e["data"].get("content", [])]
    assert blocks and all(b["kind"] != "thinking" for b in blocks)  # dropped whole, never half
    assert b"signature" not in out and b"redactedContent" not in out and b"EqkCClkI" not in out
    mapped = redact_bytes(data, name="in", policy="public", key=KEY).data
    for text in (out, mapped):
        assert not [x for x in made if x.encode() in text]


def test_native_output_keeps_the_shape_kiro_loads() -> None:
    doc = orjson.loads(_native(kirofix.export(plain())))
    assert doc["format"] == "kiro-session-export-v1" and doc["metadata"]["session_id"] == kirofix.SID
    assert [e["kind"] for e in doc["log_entries"]] == [e["kind"] for e in kirofix.entries(plain())]
    assert all(e["version"] == "v1" and e["data"]["message_id"] for e in doc["log_entries"])
    log = _native(kirofix.store_pair(plain())[1])
    assert [orjson.loads(line)["kind"] for line in log.splitlines()] == [e["kind"] for e in kirofix.entries(plain())]
    meta = _native(kirofix.store_pair(plain())[0])
    assert meta.count(b"\n") == 1 and orjson.loads(meta)["cwd"] == "."


_KINDS = ("Prompt", "AssistantMessage", "ToolResults", "Clear", "Checkpoint", "Summary")


@settings(max_examples=60, deadline=None)
@given(order=st.lists(st.sampled_from(_KINDS), min_size=1, max_size=12), as_lines=st.booleans())
def test_native_never_writes_two_assistant_messages_in_a_row(order: list[str], as_lines: bool) -> None:
    """Whatever record kinds sit between them (unknown kinds are dropped), the output never holds two
    AssistantMessage records in a row (Kiro refuses to load that), and no tool call is lost."""
    entries = []
    for n, kind in enumerate(order):
        content: list[dict[str, Any]] = [{"kind": "text", "data": "words"}]
        if kind == "AssistantMessage":
            content.append({"kind": "toolUse", "data": {"toolUseId": f"tooluse_{n:04d}", "name": "shell",
                                                        "input": {"command": "ls"}}})
        entries.append({"version": "v1", "kind": kind, "data": {"message_id": f"m-{n}", "content": content}})
    data = orjson.dumps({"format": "kiro-session-export-v1", "metadata": kirofix.metadata(plain(), turns=False),
                         "log_entries": entries}) if not as_lines else \
        b"".join(orjson.dumps(e) + b"\n" for e in entries)
    out = _native(data)
    written = orjson.loads(out)["log_entries"] if not as_lines else [orjson.loads(x) for x in out.splitlines()]
    got = [e["kind"] for e in written]
    assert not any(a == b == "AssistantMessage" for a, b in zip(got, got[1:]))
    uses = sum(1 for e in written for b in e.get("data", {}).get("content", []) if b["kind"] == "toolUse")
    assert uses == order.count("AssistantMessage")
    assert set(got) <= {"Prompt", "AssistantMessage", "ToolResults", "Clear"}


def test_no_canary_survives_under_public() -> None:
    for build in (kirofix.export, lambda c: kirofix.store_pair(c)[1], kirofix.legacy):
        c, made = canaries()
        data = build(c)
        fmt = detect(data, "in")
        result = redact_bytes(data, name="in", policy="public", key=KEY)
        assert result.session_map["events"]  # a map was written
        report = RedactionReport(source="in")
        out = scrub_native(data, fmt, name="in", policy=load_policy("public", mode="hashed"), key=KEY,
                           mode="hashed", report=report)
        for text in (result.data, out, orjson.dumps(result.report.as_dict())):
            assert not [x for x in made if x.encode() in text], fmt


# -- ConversationState (/save) and data.sqlite3 -----------------------------------------------------

@pytest.mark.parametrize("writer", ["kiro", "amazon-q"])
@pytest.mark.parametrize("name", ["chat.json", "session.md", "screenshot"])
def test_a_save_is_read_whatever_its_name(tmp_path: Path, writer: str, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(kirofix.legacy(plain(), writer=writer))
    result = redact_file(path)
    m = result.session_map
    assert violations(m) == []
    assert m["session"]["agentTool"] == "kiro" and m["session"]["id"] == f"local:kiro:{kirofix.LEGACY_ID}"
    found, want = kinds(m), kirofix.LEGACY_COUNTS
    assert found["user"] == want["user"] and found["llm"] == want["llm"]
    assert sum(found[k] for k in CALL_KINDS) == want["calls"] and m["totals"]["errors"] == want["errors"]
    assert [e.get("errClass") for e in m["events"] if e.get("err")][-1] == "interrupted"  # CancelledToolUses
    said = " ".join(result.report.warnings)
    assert ("Amazon Q" in said) == (writer == "amazon-q") and ("Kiro CLI" in said) == (writer == "kiro")
    assert m["session"]["startedAt"] == "2025-09-06T04:09:42.624Z"  # the +09:00 time in UTC
    assert m["totals"]["tokens"] == 0
    out = scrub_file(path).data
    prompt = orjson.loads(out)["history"][0]["user"]["content"]["Prompt"]["prompt"]
    assert isinstance(prompt, str) and "plain words" not in prompt  # a string, as `/load` reads it; no text


def test_the_v1_store_gives_each_conversation_and_never_reads_auth_kv(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    db = kirofix.legacy_db(tmp_path / "data.sqlite3")
    read: set[str] = set()
    real = sqlite3.connect

    def tracing(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = real(*args, **kwargs)

        def authorize(action: int, table: str | None, *_: Any) -> int:
            if action == sqlite3.SQLITE_READ and table:
                read.add(table)
            return sqlite3.SQLITE_OK
        conn.set_authorizer(authorize)
        return conn

    monkeypatch.setattr(sqlite3, "connect", tracing)
    ids = sessions_of(db)
    assert ids == [kirofix.LEGACY_ID, "2f83607e-97a1-4b2c-8d3e-4f5a6b7c8d9e", "3a94718f-08b2-4c3d-9e4f-5a6b7c8d9e0f"]
    for sid in ids:
        fmt, data = export(db, sid, where="data.sqlite3")
        assert fmt == "kiro-legacy" and kirofix.AUTH_CANARY.encode() not in data
        m = redact_file(f"{db}#{sid}").session_map
        assert m["session"]["id"] == f"local:kiro:{sid}" and m["events"]
    assert read and not read & {"auth_kv", "history", "state"}, read
    found = [p.name for p in batch.sessions_in(tmp_path)]
    assert len(found) == 3


def test_a_store_with_no_conversation_is_refused_by_name(tmp_path: Path) -> None:
    db = tmp_path / "data.sqlite3"
    conn = sqlite3.connect(db)
    conn.executescript("CREATE TABLE migrations (id INTEGER); CREATE TABLE state (key TEXT, value BLOB);"
                       "CREATE TABLE history (id INTEGER); CREATE TABLE auth_kv (key TEXT, value TEXT);")
    conn.close()
    with pytest.raises(BadInput) as caught:
        redact_file(db)
    assert "kiro-legacy store holds no session" in str(caught.value)


def test_a_batch_passes_over_a_store_with_no_conversation_and_names_it(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Kiro installed and never used: a batch of its folder writes the other sessions, exit 0, and
    lists the empty store as skipped with why (not a failed input)."""
    home = tmp_path / "kiro"
    home.mkdir()
    conn = sqlite3.connect(home / "data.sqlite3")
    conn.executescript("CREATE TABLE migrations (id INTEGER); CREATE TABLE state (key TEXT, value BLOB);"
                       "CREATE TABLE history (id INTEGER); CREATE TABLE auth_kv (key TEXT, value TEXT);")
    conn.close()
    (home / "saved.json").write_bytes(kirofix.legacy(plain()))
    out = tmp_path / "maps"
    capsys.readouterr()
    code = main([str(home), "--out-dir", str(out)])
    _, err = capsys.readouterr()
    assert code == 0, err
    index = orjson.loads((out / "index.json").read_bytes())
    statuses = sorted(e["status"] for e in index["entries"])
    assert statuses == ["skipped", "written"], statuses
    skipped = next(e for e in index["entries"] if e["status"] == "skipped")
    assert "holds no session" in skipped["why"]
    assert "failed" not in err


# -- Windsurf and credentials -----------------------------------------------------------------------

def test_windsurf_pb_is_said_to_be_encrypted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / ".codeium" / "windsurf" / "cascade" / "0a1b2c3d-1111-2222-3333-444455556666.pb"
    path.parent.mkdir(parents=True)
    path.write_bytes(bytes((n * 151 + 7) % 256 for n in range(4096)))  # as good as random bytes
    out = tmp_path / "out.json"
    for args in ([str(path), "-o", str(out)], [str(path), "--to", "native", "-o", str(out)]):
        assert main(args) == 2 and not out.exists()
        err = capsys.readouterr().err
        assert "encrypted: cannot be read" in err and "unknown input format" not in err
        assert err.count("\n") == 1 and path.name in err
    path.write_bytes(kirofix.export(plain()))  # a .pb name on a format this tool reads: read as it is
    assert redact_file(path).session_map["events"]


def test_kiros_login_file_is_never_opened(tmp_path: Path) -> None:
    path = tmp_path / "kiro-auth-token.json"
    path.write_bytes(orjson.dumps({"accessToken": kirofix.AUTH_CANARY, "refreshToken": kirofix.AUTH_CANARY}))
    with pytest.raises(RedactError) as caught:
        redact_file(path)
    assert "credential" in str(caught.value) and kirofix.AUTH_CANARY not in str(caught.value)


# -- Kiro IDE (fixtures built from public readers' descriptions) ----------------------------------------

def test_an_ide_session_is_read_with_its_execution_log(tmp_path: Path) -> None:
    session = kirofix.ide_tree(tmp_path / "kiro.kiroagent", plain())
    result = redact_file(session)
    assert result.report.input_format == "kiro-ide"
    m = result.session_map
    assert violations(m) == []
    found, want = kinds(m), kirofix.IDE_COUNTS
    assert found["user"] == want["user"] and found["llm"] == want["llm"]
    assert sum(found[k] for k in CALL_KINDS) == want["calls"]
    assert m["session"]["agentTool"] == "kiro" and m["session"]["id"] == f"local:kiro:{kirofix.IDE_ID}"
    assert m["session"]["startedAt"] == "2025-08-01T00:00:00.000Z" and m["session"]["models"] == ["claude-sonnet-4"]
    verbs = [e.get("verb") for e in m["events"] if e["kind"] == "exec"]
    assert verbs == ["git status", "git log"]
    # the three `tool` messages of the log close the log's three calls, in order; the calls of the
    # reply whose log is not there have no result
    calls = [e for e in m["events"] if e["kind"] in CALL_KINDS]
    assert [e.get("errClass") for e in calls] == [None, None, None, "no_result", "no_result"]
    assert all("dur" in e for e in calls[:3])


def test_an_ide_session_without_its_log_is_read_from_its_own_file(tmp_path: Path) -> None:
    session = kirofix.ide_tree(tmp_path / "kiro.kiroagent", plain())
    for log in (tmp_path / "kiro.kiroagent").glob(f"{'ab' * 16}/*/*"):
        other = orjson.loads(log.read_bytes())
        other["executionId"] = "11111111-2222-4333-8444-555555555555"  # some other execution's log
        log.write_bytes(orjson.dumps(other))
    m = redact_file(session).session_map
    assert kinds(m)["llm"] == 2 and sum(kinds(m)[k] for k in CALL_KINDS) == 2  # the two replies, as written
    assert redact_file(session).report.input_format == "kiro-ide"


def test_a_session_with_no_execution_ids_is_continues(tmp_path: Path) -> None:
    """Kiro's IDE is built on Continue: a session whose replies name no execution log is Continue's shape."""
    doc = kirofix.ide_session(plain())
    for entry in doc["history"]:
        entry.pop("executionId", None)
    assert detect(orjson.dumps(doc), "s.json") == "continue-dev"
    assert detect(kirofix.ide_session_bytes(plain()), "s.json") == "kiro-ide"


def test_batch_reads_the_ide_sessions_and_skips_the_index(tmp_path: Path) -> None:
    session = kirofix.ide_tree(tmp_path / "kiro.kiroagent", plain())
    assert [p.name for p in batch.sessions_in(session.parent)] == [session.name]
    skipped = [Path(o.input).name for o in batch.skipped_in(session.parent)]
    assert skipped == ["sessions.json"]


def test_ide_native_output_holds_no_text() -> None:
    c, made = canaries()
    data = kirofix.ide_session_bytes(c)
    report = RedactionReport(source="in")
    out = scrub_native(data, "kiro-ide", name="in", policy=load_policy("public", mode="hashed"), key=KEY,
                       mode="hashed", report=report)
    doc = orjson.loads(out)
    assert [e["message"]["role"] for e in doc["history"]] == ["user", "assistant", "user", "assistant"]
    assert not [x for x in made if x.encode() in out]
    m = redact_bytes(kirofix.ide_assembly(c), name="in", policy="public", key=KEY)
    assert m.session_map["events"] and not [x for x in made if x.encode() in m.data]
