"""Pi coding-agent sessions (v1 linear logs, v2/v3 id/parentId trees): detection, the map's events
counted from the log itself, tokens, latency, errors and compactions, two records glued on one line,
bad lines, native scrubbing, batch discovery from `~/.pi`, canaries in every text slot never
surviving any policy, and every corpus file read with a map that keeps to the seed."""
from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.batch import run as batch
from redact.api import redact_bytes
from redact.formats.detect import detect
from redact.errors import BadInput
from redact.keys.material import Key
from redact.policy.load import load_policy
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.canary import KEY, POLICIES, Canaries, canary_base, check
from tests.formats.seed_strict import violations
from tests.native.helpers import lines, native, report_text
from tests.native.pifix import SESSION_ID, records, session

CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


def _redact(data: bytes, policy: str = "default", **kw: Any) -> Any:
    return redact_bytes(data, name="s.jsonl", policy=policy, key=KEY if policy == "public" else None, **kw)


@pytest.mark.parametrize("version", [1, 3])
@pytest.mark.parametrize("glued", [False, True])
def test_detected_from_the_content(version: int, glued: bool) -> None:
    assert detect(session(Canaries("d"), version=version, glued=glued), "x") == "pi"


@pytest.mark.parametrize("version", [1, 3])
def test_events_agree_with_the_log(version: int) -> None:
    """Counted from the fixture's records (not from the reader)."""
    recs = records(Canaries("n"), version=version)
    m = _redact(session(Canaries("n"), version=version)).session_map
    assert m["session"]["agentTool"] == "pi" and m["session"]["id"] == f"local:pi:{SESSION_ID}"
    msgs = [r["message"] for r in recs if r["type"] == "message"]
    kinds = Counter(e["kind"] for e in m["events"])
    calls = [b for x in msgs if x["role"] == "assistant" for b in x["content"] if b["type"] == "toolCall"]
    assert sum(kinds[k] for k in CALL_KINDS) == m["totals"]["calls"] == len(calls)
    answered = [x for x in msgs if x["role"] == "assistant" and (x["content"] or x["usage"]["output"])]
    assert kinds["llm"] == m["totals"]["requests"] == len(answered)
    assert kinds["user"] == sum(x["role"] == "user" for x in msgs)
    tokens = sum(x["usage"][k] for x in answered for k in ("input", "output", "cacheRead", "cacheWrite"))
    assert m["totals"]["tokens"] == tokens
    failed = {x["toolCallId"] for x in msgs if x["role"] == "toolResult" and x["isError"]}
    assert sum(1 for e in m["events"] if e["kind"] in CALL_KINDS and e.get("err")) == len(failed)
    assert kinds["compaction"] == sum(r["type"] == "compaction" for r in recs) == 1
    assert violations(m) == []


def test_tokens_latency_errors_and_outputs() -> None:
    m = _redact(session(Canaries("r"))).session_map
    ev = m["events"]
    first = next(e for e in ev if e["kind"] == "llm")
    assert (first["in"], first["out"], first["cr"], first["cw"]) == (120, 40, 3000, 500)
    assert first["latency"] == 3000 and first["stop"] == "tool_use" and first["thinking"] is True
    assert first["toolCalls"] == 4 and first["model"] == "claude-sonnet-4-5"
    assert [e["sha"] for e in ev if e["kind"] == "commit"] == ["1a2b3c4"]
    test = next(e for e in ev if e.get("verb") == "npm test")
    assert test["kind"] == "verify" and test["exitCode"] == 1 and test["errClass"] == "exit_code"
    edit = next(e for e in ev if e["kind"] == "edit" and e.get("err"))
    assert edit["errClass"] == "patch_failed"
    errors = [(e["source"], e["errClass"]) for e in ev if e["kind"] == "error"]
    assert errors == [("llm", "rate_limit"), ("orchestration", "interrupted")]
    assert next(e for e in ev if e["kind"] == "compaction")["preTokens"] == 52000
    switch = next(e for e in ev if e["kind"] == "model_switch")
    assert (switch["from"], switch["to"]) == ("claude-sonnet-4-5", "gpt-5.1-codex")
    assert m["repos"][0]["name"] == "shop"
    assert {f["path"] for f in m["files"]} == {"src/app.py", "src/util.py", "src/new.py"}
    assert m["totals"]["promptImages"] == 1 and m["totals"]["promptUrls"] == 1


def test_a_branch_of_the_tree_is_read_in_file_order() -> None:
    """An entry whose parent is an earlier entry (not the one before it) is read where it stands:
    the abandoned branch's events stay, and nothing is read twice."""
    recs = records(Canaries("b"))
    branch = next(r for r in recs if r["type"] == "branch_summary")
    before = recs[recs.index(branch) - 1]
    assert branch["parentId"] != before["id"]  # the fixture does branch
    m = _redact(session(Canaries("b"))).session_map
    times = [e["t"] for e in m["events"]]
    assert times == sorted(times) and m["totals"]["userTurns"] == 3


@pytest.mark.parametrize("version", [1, 3])
def test_two_records_glued_on_one_line_are_both_read_and_said(version: int) -> None:
    plain = _redact(session(Canaries("g"), version=version))
    glued = _redact(session(Canaries("g"), version=version, glued=True))
    assert glued.session_map["events"] == plain.session_map["events"]
    said = [w for w in glued.report.warnings if "no newline between them" in w]
    assert said and "line 7" in said[0] if version == 3 else said
    assert not [w for w in plain.report.warnings if "no newline" in w]


def test_a_line_that_is_not_records_is_bad_input_naming_its_place() -> None:
    data = session(Canaries("x")).split(b"\n")
    data[5] = data[5][:-20] + b'}{"type": "mes'  # a record cut short, then the start of another
    bad = b"\n".join(data)
    with pytest.raises(BadInput) as exc:
        _redact(bad)
    assert exc.value.where == "s.jsonl:6" and "zqx" not in str(exc.value)
    kept = _redact(bad, skip_bad_lines=True)
    assert kept.session_map["totals"]["requests"] >= 2  # the rest of the file is read
    assert any("skipped 1 bad line" in w for w in kept.report.warnings)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base, version=st.sampled_from([1, 3]), glued=st.booleans())
def test_no_canary_in_any_map(base: str, version: int, glued: bool) -> None:
    for policy, key in POLICIES:
        c = Canaries(base)
        check(session(c, version=version, glued=glued), c, policy, key)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base, version=st.sampled_from([1, 3]), policy=st.sampled_from([p for p, _ in POLICIES]))
def test_no_canary_survives_native(base: str, version: int, policy: str) -> None:
    c = Canaries(base)
    key = KEY if policy == "public" else None
    out, report = native(session(c, version=version, glued=True), "pi", policy=policy, key=key)
    body = out.decode()
    assert not [x for x in c.all if x in body] and "dana" not in body
    assert all(x.isascii() and x.replace("_", "").isalnum() for x in c.all if x in report_text(report))
    again = redact_bytes(out, name="native", input_format="pi", policy=policy, key=key)
    assert not [x for x in c.all if x in again.data.decode()]


def test_native_keeps_what_the_table_allows() -> None:
    data = session(Canaries("k"), glued=True)
    out, report = native(data, "pi")
    got = lines(out)
    assert len(got) == len(records(Canaries("k"))) - 1  # the glued line is two again; the unknown entry left
    assert report.skipped_records
    head = got[0]
    assert head["id"] == SESSION_ID and head["cwd"] == "." and "parentSession" not in head
    call = next(b for r in got if r["type"] == "message" and r["message"]["role"] == "assistant"
                for b in r["message"]["content"] if b["type"] == "toolCall")
    assert call["arguments"]["command"] == "git commit" and call["arguments"]["timeout"] == 60
    think = next(b for r in got if r["type"] == "message" and r["message"]["role"] == "assistant"
                 for b in r["message"]["content"] if b["type"] == "thinking")
    assert set(think) == {"type", "thinking"} and set(think["thinking"]) == {"chars"}
    assert [r["parentId"] for r in got[1:3]] == [None, got[1]["id"]]  # the tree stays
    again = redact_bytes(out, name="n", input_format="pi").session_map
    assert again["totals"]["calls"] == 7 and again["totals"]["requests"] == 3


def _home(tmp_path: Path) -> Path:
    sessions = tmp_path / ".pi" / "agent" / "sessions"
    one = sessions / "--home-dana-src-shop--"
    one.mkdir(parents=True)
    (one / f"2026-09-04T22-33-33-740Z_{SESSION_ID}.jsonl").write_bytes(session(Canaries("h1")))
    other = sessions / "--home-dana--"
    other.mkdir()
    (other / "2025-11-20T23-33-50-805Z_d703a1a9-1b7b-4fb1-b512-c9738b1fe617.jsonl").write_bytes(
        session(Canaries("h2"), version=1))
    (tmp_path / ".pi" / "agent" / "auth.json").write_text('{"anthropic": {"key": "zqsecretqz"}}')
    (tmp_path / ".pi" / "agent" / "settings.json").write_text('{"defaultModel": "zqsecretqz"}')
    return tmp_path / ".pi"


@pytest.mark.parametrize("start", [".pi", ".pi/agent/sessions", ".pi/agent/sessions/--home-dana-src-shop--"])
def test_batch_finds_the_sessions(tmp_path: Path, start: str) -> None:
    _home(tmp_path)
    tasks, other = batch.plan([str(tmp_path / start)], tmp_path / "out")
    found = {Path(t.input).name[:24] for t in tasks}
    assert "2026-09-04T22-33-33-740Z" in found
    assert ("2025-11-20T23-33-50-805Z" in found) == (not start.endswith("shop--"))
    assert all("zqsecretqz" not in o.message for o in other)
    outcomes = batch.run(tasks, batch.Settings(policy=load_policy("default")))
    assert {o.status for o in outcomes} == {batch.WRITTEN}


def test_the_format_lists_where_pi_keeps_sessions() -> None:
    from redact.formats.registry import raw_format

    fmt = raw_format("pi")
    assert fmt is not None and fmt.homes == ("~/.pi/agent/sessions",) and fmt.native


# -- the shared corpus ------------------------------------------------------------------------------

def _corpus() -> list[Path]:
    return sorted(corpus_dir("pi").glob("*.jsonl"))


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(_corpus), ids=lambda p: getattr(p, "name", str(p))[:60])
def test_every_corpus_file_is_read_and_keeps_to_the_seed(path: Path) -> None:
    corpus_case(path, "pi")
    data = path.read_bytes()
    assert detect(data, path.name) == "pi"
    for policy in ("default", "public"):
        result = redact_bytes(data, name=path.name, policy=policy,
                              key=Key(bytes(range(32)), source="t") if policy == "public" else None)
        assert violations(result.session_map) == []
        assert result.session_map["totals"]["userTurns"] == data.count(b'"role":"user"')
    glued = sum(1 for line in data.split(b"\n") if b'}{"type"' in line)
    said = [w for w in result.report.warnings if "no newline between them" in w]
    assert bool(said) == bool(glued)
    out, _ = native(data, "pi")  # every entry type of the corpus is known: line for line (glued: two)
    assert len(lines(out)) == sum(1 for line in data.split(b"\n") if line.strip()) + glued


def test_the_glued_fixture_really_has_two_records_on_a_line() -> None:
    data = session(Canaries("z"), glued=True)
    with pytest.raises(orjson.JSONDecodeError):
        for line in data.split(b"\n"):
            if line:
                orjson.loads(line)


def test_a_response_runs_from_its_request_to_its_record_never_past_the_last_record() -> None:
    # Pi writes an assistant record when the response is done; the message's own `timestamp` is
    # when the request was sent. The session ends at its last record, not a response's length later.
    base = 1_788_561_600_000

    def at(ms: int) -> str:
        return datetime.fromtimestamp((base + ms) / 1000, tz=UTC).strftime("%Y-%m-%dT%H:%M:%S.") + \
            f"{(base + ms) % 1000:03d}Z"

    lines = [
        {"type": "session", "version": 3, "id": "0a1b2c3d-0000-4000-8000-000000000001", "timestamp": at(0),
         "cwd": "/home/dana/work/app"},
        {"type": "message", "id": "u1", "parentId": None, "timestamp": at(1006),
         "message": {"role": "user", "content": [{"type": "text", "text": "hello"}], "timestamp": base + 1000}},
        {"type": "message", "id": "a1", "parentId": "u1", "timestamp": at(54_000),
         "message": {"role": "assistant", "content": [{"type": "text", "text": "hi"}], "model": "claude-sonnet-4-5",
                     "usage": {"input": 10, "output": 5, "cacheRead": 0, "cacheWrite": 0}, "stopReason": "stop",
                     "timestamp": base + 1002}},  # sent 4 ms before its prompt's record was written
    ]
    data = b"\n".join(json.dumps(line).encode() for line in lines) + b"\n"
    m = redact_bytes(data, name="s.jsonl", policy="internal").session_map
    assert m["session"]["startedAt"] == at(1006)
    assert m["session"]["durationMs"] == 54_000 - 1006
    (llm,) = [e for e in m["events"] if e["kind"] == "llm"]
    assert llm["t"] == 0 and llm["latency"] == 54_000 - 1006
