"""Qwen Code sessions, both layouts (its JSON Lines chats and the Gemini-style chat record it
inherited): detection (never taken for Claude Code or Gemini CLI, whose records look alike), the
map's events counted from the log, tokens, latency from the telemetry, errors and compactions,
native scrubbing, batch discovery from `~/.qwen`, canaries in every text slot never surviving any
policy, and every corpus file read (or skipped, named, with why) with a map that keeps to the seed."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.batch import run as batch
from redact.api import redact_bytes
from redact.formats.detect import detect
from redact.keys.material import Key
from redact.policy.load import load_policy
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.canary import KEY, POLICIES, Canaries, canary_base, check
from tests.formats.seed_strict import violations
from tests.native.helpers import lines, native, report_text
from tests.native.qwenfix import SESSION_ID, chats, record, record_doc, records

CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


def _map(data: bytes, policy: str = "default") -> dict[str, Any]:
    return redact_bytes(data, name="s.jsonl", policy=policy, key=KEY if policy == "public" else None).session_map


def test_both_layouts_are_detected_from_the_content() -> None:
    assert detect(chats(Canaries("d")), "x") == "qwen-code"
    assert detect(record(Canaries("d")), "x") == "qwen-code"


def test_claude_code_and_gemini_cli_stay_theirs() -> None:
    from tests.formats.make_example import paths
    from tests.native.geminifix import recording

    assert detect(paths()[0].read_bytes(), "x") == "claude-code"
    assert detect(recording(Canaries("g")), "x") == "gemini-cli"
    assert detect(recording(Canaries("g"), layout="json"), "x") == "gemini-cli"


def test_events_agree_with_the_log() -> None:
    """Counted from the fixture's records (not from the reader)."""
    recs = records(Canaries("n"))
    m = _map(chats(Canaries("n")))
    assert m["session"]["agentTool"] == "qwen-code" and m["session"]["id"] == f"local:qwen-code:{SESSION_ID}"
    kinds = Counter(e["kind"] for e in m["events"])
    parts = [p for r in recs if r["type"] == "assistant" for p in r["message"]["parts"]]
    assert sum(kinds[k] for k in CALL_KINDS) == m["totals"]["calls"] == sum("functionCall" in p for p in parts)
    assert kinds["llm"] == sum(r["type"] == "assistant" for r in recs)
    assert kinds["user"] == sum(r["type"] == "user" for r in recs)
    usage = [r["usageMetadata"] for r in recs if r["type"] == "assistant"]
    assert m["totals"]["tokens"] == sum(u["promptTokenCount"] + u["candidatesTokenCount"] + u["thoughtsTokenCount"]
                                        for u in usage)
    latencies = [r["systemPayload"]["uiEvent"]["duration_ms"] for r in recs if r["type"] == "system"
                 and r["systemPayload"].get("uiEvent", {}).get("event.name") == "qwen-code.api_response"]
    assert [e["latency"] for e in m["events"] if e["kind"] == "llm"] == latencies
    assert violations(m) == []


def test_tools_errors_and_outputs() -> None:
    m = _map(chats(Canaries("r")))
    ev = m["events"]
    first = next(e for e in ev if e["kind"] == "llm")
    assert (first["in"], first["cr"], first["out"], first["thinking"], first["toolCalls"]) == (1100, 100, 45, True, 4)
    assert [e["sha"] for e in ev if e["kind"] == "commit"] == ["1a2b3c4"]
    test = next(e for e in ev if e.get("verb") == "npm test")
    assert test["exitCode"] == 1 and test["errClass"] == "exit_code"
    assert next(e for e in ev if e["kind"] == "edit")["errClass"] == "patch_failed"
    assert next(e for e in ev if e["kind"] == "subagent")["subagentType"] == "reviewer"
    mcp = next(e for e in ev if e["kind"] == "mcp")
    assert (mcp["server"], mcp["tool"], mcp["errClass"]) == ("beads", "show", "validation")
    assert [(e["source"], e["errClass"]) for e in ev if e["kind"] == "error"] == [("llm", "rate_limit")]
    comp = next(e for e in ev if e["kind"] == "compaction")
    assert (comp["preTokens"], comp["postTokens"]) == (90000, 12000)
    assert m["repos"][0]["name"] == "shop" and {f["path"] for f in m["files"]} == {"src/app.py", "src/util.py"}


def test_the_chat_record_layout() -> None:
    doc = record_doc(Canaries("c"))
    m = _map(record(Canaries("c")))
    kinds = Counter(e["kind"] for e in m["events"])
    assert kinds["llm"] == sum(x["type"] == "qwen" for x in doc["messages"])
    assert kinds["user"] == sum(x["type"] == "user" for x in doc["messages"])
    llm = next(e for e in m["events"] if e["kind"] == "llm")
    assert (llm["in"], llm["cr"], llm["out"], llm["thinking"]) == (32037, 800, 176, True)
    errors = sorted(e["errClass"] for e in m["events"] if e["kind"] == "error")
    assert errors == ["api_error", "interrupted"] and violations(m) == []


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base, layout=st.sampled_from(["chats", "record"]))
def test_no_canary_in_any_map(base: str, layout: str) -> None:
    for policy, key in POLICIES:
        c = Canaries(base)
        check(chats(c) if layout == "chats" else record(c), c, policy, key)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base, layout=st.sampled_from(["chats", "record"]), policy=st.sampled_from([p for p, _ in POLICIES]))
def test_no_canary_survives_native(base: str, layout: str, policy: str) -> None:
    c = Canaries(base)
    key = KEY if policy == "public" else None
    out, report = native(chats(c) if layout == "chats" else record(c), "qwen-code", policy=policy, key=key)
    body = out.decode()
    assert not [x for x in c.all if x in body] and "linh" not in body
    assert all(x.isascii() and x.replace("_", "").isalnum() for x in c.all if x in report_text(report))
    again = redact_bytes(out, name="native", input_format="qwen-code", policy=policy, key=key)
    assert not [x for x in c.all if x in again.data.decode()]


def test_native_keeps_what_the_table_allows() -> None:
    data = chats(Canaries("k"))
    out, report = native(data, "qwen-code")
    got = lines(out)
    assert len(got) == len(lines(data)) - 1 and report.skipped_records  # the unknown record type
    assert got[0]["cwd"] == "." and got[0]["sessionId"] == SESSION_ID
    shell = next(p["functionCall"] for r in got if r["type"] == "assistant" for p in r["message"]["parts"]
                 if "functionCall" in p)
    assert shell["args"]["command"] == "git commit" and set(shell["args"]["description"]) == {"chars"}
    tool_call = next(r for r in got if r["type"] == "system"
                     and r["systemPayload"].get("uiEvent", {}).get("event.name") == "qwen-code.tool_call")
    assert "function_args" not in tool_call["systemPayload"]["uiEvent"]
    again = redact_bytes(out, name="n", input_format="qwen-code").session_map
    assert again["totals"]["calls"] == 7 and again["totals"]["requests"] == 3
    doc_out, _ = native(record(Canaries("k")), "qwen-code")
    doc = orjson.loads(doc_out)
    assert doc["messages"][1]["toolCalls"][0]["args"]["absolute_path"] == "outside-repo" or \
        doc["messages"][1]["toolCalls"][0]["args"]["absolute_path"].startswith("~")


def _home(tmp_path: Path) -> Path:
    qwen = tmp_path / ".qwen"
    chats_dir = qwen / "projects" / "c--users-linh-src-shop" / "chats"
    chats_dir.mkdir(parents=True)
    (chats_dir / f"{SESSION_ID}.jsonl").write_bytes(chats(Canaries("h1")))
    tmp = qwen / "tmp" / ("0481e01c" * 8)
    (tmp / "chats").mkdir(parents=True)
    (tmp / "chats" / "session-2025-11-08T22-32-c796947e.json").write_bytes(record(Canaries("h2")))
    (tmp / "checkpoint-mytag.json").write_text('[{"role": "user", "parts": [{"text": "zqsecretqz"}]}]')
    (tmp / "logs.json").write_text('[{"message": "zqsecretqz"}]')
    (qwen / "oauth_creds.json").write_text('{"access_token": "zqsecretqz"}')
    (qwen / "settings.json").write_text('{"x": "zqsecretqz"}')
    return qwen


@pytest.mark.parametrize("start", [".qwen", ".qwen/projects", ".qwen/tmp"])
def test_batch_finds_both_layouts_and_skips_the_rest(tmp_path: Path, start: str) -> None:
    _home(tmp_path)
    tasks, other = batch.plan([str(tmp_path / start)], tmp_path / "out")
    names = {Path(t.input).name for t in tasks}
    assert (f"{SESSION_ID}.jsonl" in names) == (start != ".qwen/tmp")
    assert ("session-2025-11-08T22-32-c796947e.json" in names) == (start != ".qwen/projects")
    skipped = {Path(o.input).name for o in other}
    assert all(o.status == batch.SKIPPED for o in other) and all("zqsecretqz" not in o.message for o in other)
    if start != ".qwen/projects":
        assert {"checkpoint-mytag.json", "logs.json"} <= skipped
    outcomes = batch.run(tasks, batch.Settings(policy=load_policy("default")))
    assert {o.status for o in outcomes} == {batch.WRITTEN}


def test_the_format_lists_where_qwen_code_keeps_sessions() -> None:
    from redact.formats.registry import raw_format

    fmt = raw_format("qwen-code")
    assert fmt is not None and fmt.homes == ("~/.qwen/projects", "~/.qwen/tmp") and fmt.native


# -- the shared corpus ------------------------------------------------------------------------------

def _named_not_a_session(path: Path) -> str | None:
    """Why the format names a corpus file as not a session (the corpus flattens its path with `_`:
    the last part is the file's own name), or None."""
    from redact.formats.qwen_code.table import AUXILIARY

    own = path.name.rsplit("_", 1)[-1]
    return next((why for pattern, why in AUXILIARY if pattern.fullmatch(own)), None)


def _corpus() -> list[Path]:
    """The corpus's sessions: the files the format does not name as something else."""
    return sorted(p for p in corpus_dir("qwen-code").iterdir() if _named_not_a_session(p) is None)


def test_the_corpus_files_that_are_not_sessions_are_named_by_the_format() -> None:
    others = [p for p in sorted(corpus_dir("qwen-code").iterdir()) if _named_not_a_session(p) is not None]
    assert {("checkpoint" in p.name or "logs.json" in p.name) for p in others} == {True}
    assert len(others) + len(_corpus()) == len(list(corpus_dir("qwen-code").iterdir()))


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(_corpus), ids=lambda p: getattr(p, "name", str(p))[-60:])
def test_every_corpus_file_is_read_or_skipped_with_a_reason(path: Path) -> None:
    corpus_case(path, "qwen-code")
    data = path.read_bytes()
    assert detect(data, path.name) == "qwen-code"
    for policy in ("default", "public"):
        m = redact_bytes(data, name=path.name, policy=policy,
                         key=Key(bytes(range(32)), source="t") if policy == "public" else None).session_map
        assert violations(m) == [] and m["totals"]["requests"] >= 1
    out, _ = native(data, "qwen-code")
    assert redact_bytes(out, name="n", input_format="qwen-code").session_map["totals"]["requests"] == \
        m["totals"]["requests"]


def _qwen_line(uuid: str, parent: str | None, at: str, kind: str, **more: object) -> bytes:
    import orjson as _orjson

    return _orjson.dumps({"uuid": uuid, "parentUuid": parent, "sessionId": "7e4a45d5-d379-4300-8528-fe2bb00564df",
                          "timestamp": at, "type": kind, "cwd": "/home/dana/src/shop", "version": "0.14.0", **more})


def test_a_new_file_is_a_create_and_a_response_ends_at_its_record() -> None:
    """write_file says "created and wrote to new file" of a file it created (4 in a corpus session
    were edits); a response record is written when it is done, so its telemetry duration lies before
    it (a corpus session lasted 7.5 minutes past its last record)."""
    call = {"functionCall": {"id": "call_1", "name": "write_file",
                             "args": {"file_path": "/home/dana/src/shop/new.py", "content": "x = 1\n"}}}
    data = b"\n".join([
        _qwen_line("u1", None, "2026-04-07T02:00:00.000Z", "user", message={"role": "user", "parts": [{"text": "go"}]}),
        _qwen_line("t1", "u1", "2026-04-07T02:00:09.900Z", "system", subtype="ui_telemetry", systemPayload={
            "uiEvent": {"event.name": "qwen-code.api_response", "event.timestamp": "2026-04-07T02:00:09.900Z",
                        "duration_ms": 9000}}),
        _qwen_line("a1", "t1", "2026-04-07T02:00:10.000Z", "assistant", model="coder-model",
                   message={"role": "model", "parts": [call]}),
        _qwen_line("r1", "a1", "2026-04-07T02:00:11.000Z", "tool_result", message={"role": "user", "parts": [
            {"functionResponse": {"id": "call_1", "name": "write_file", "response": {
                "output": "Successfully created and wrote to new file: /home/dana/src/shop/new.py."}}}]},
            toolCallResult={"callId": "call_1", "status": "success"}),
        _qwen_line("t2", "r1", "2026-04-07T02:00:19.900Z", "system", subtype="ui_telemetry", systemPayload={
            "uiEvent": {"event.name": "qwen-code.api_response", "event.timestamp": "2026-04-07T02:00:19.900Z",
                        "duration_ms": 60000}}),
        _qwen_line("a2", "t2", "2026-04-07T02:00:20.000Z", "assistant", model="coder-model",
                   message={"role": "model", "parts": [{"text": "done"}]}),
    ]) + b"\n"
    m = redact_bytes(data, name="c.jsonl", policy="internal").session_map
    edits = [e for e in m["events"] if e["kind"] == "edit"]
    assert [t.get("op") for e in edits for t in e["targets"]] == ["create"]
    assert m["session"]["durationMs"] == 20000  # the last record's time, never after it
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert [(e["t"], e["latency"]) for e in llm] == [(1000, 9000), (11000, 9000)]  # the second: from its result on
