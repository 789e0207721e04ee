"""Hermes Agent sessions (the session document and the JSON Lines log): detection, the map's events
counted from the log itself, exit codes and errors from Hermes's JSON tool results, times, native
scrubbing in both layouts, batch discovery from `~/.hermes`, canaries in every text slot never
surviving any policy, and every corpus file read with a map that keeps to the seed."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.api import redact_bytes
from redact.batch import run as batch
from redact.formats.detect import detect
from redact.keys.material import Key
from redact.policy.load import load_policy
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.canary import KEY, POLICIES, Canaries, canary_base, check
from tests.formats.seed_strict import violations
from tests.native.helpers import lines, native, report_text
from tests.native.hermesfix import SESSION_ID, document, log, records

CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")
LAYOUTS = {"document": document, "log": log}


def _redact(data: bytes, policy: str = "default", **kw: Any) -> Any:
    return redact_bytes(data, name="s.json", policy=policy, key=KEY if policy == "public" else None, **kw)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_detected_from_the_content(layout: str) -> None:
    assert detect(LAYOUTS[layout](Canaries("d")), "x") == "hermes"


@pytest.mark.parametrize("layout", LAYOUTS)
def test_events_agree_with_the_log(layout: str) -> None:
    """Counted from the fixture's records (not from the reader)."""
    recs = records(Canaries("n"))
    m = _redact(LAYOUTS[layout](Canaries("n"))).session_map
    assert m["session"]["models"] == (["gpt-4o"] if layout == "document" else ["deepseek-v4-pro"])
    kinds = Counter(e["kind"] for e in m["events"])
    calls = [tc for r in recs if r["role"] == "assistant" for tc in r.get("tool_calls") or []]
    assert sum(kinds[k] for k in CALL_KINDS) == m["totals"]["calls"] == len(calls)
    assert kinds["llm"] == m["totals"]["requests"] == sum(r["role"] == "assistant" for r in recs)
    assert kinds["user"] == sum(r["role"] == "user" for r in recs)
    assert m["totals"]["tokens"] == 0  # Hermes's files state none; none is made up
    assert violations(m) == []


@pytest.mark.parametrize("layout", LAYOUTS)
def test_exit_codes_errors_and_outputs(layout: str) -> None:
    m = _redact(LAYOUTS[layout](Canaries("r"))).session_map
    ev = m["events"]
    test = next(e for e in ev if e.get("verb") == "npm test")
    assert test["kind"] == "verify" and test["exitCode"] == 1 and test["errClass"] == "exit_code"
    edit = next(e for e in ev if e["kind"] == "edit")
    assert edit["err"] is True
    assert [e["sha"] for e in ev if e["kind"] == "commit"] == ["1a2b3c4"]
    first = next(e for e in ev if e["kind"] == "llm")
    assert first["thinking"] is True and first["toolCalls"] == 3 and first["stop"] == "tool_use"
    assert m["totals"]["promptUrls"] == 1


def test_the_logs_times_are_its_messages_and_the_documents_its_start() -> None:
    logged = _redact(log(Canaries("t"))).session_map
    times = [e["t"] for e in logged["events"]]
    assert times == sorted(times) and times[-1] > 60_000
    doc = _redact(document(Canaries("t"))).session_map
    assert doc["session"]["startedAt"] == "2026-05-06T19:26:22.550Z"
    assert {e["t"] for e in doc["events"]} == {0}


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base, layout=st.sampled_from(sorted(LAYOUTS)))
def test_no_canary_in_any_map(base: str, layout: str) -> None:
    for policy, key in POLICIES:
        c = Canaries(base)
        check(LAYOUTS[layout](c), c, policy, key, name="s.json")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base, layout=st.sampled_from(sorted(LAYOUTS)), policy=st.sampled_from([p for p, _ in POLICIES]))
def test_no_canary_survives_native(base: str, layout: str, policy: str) -> None:
    c = Canaries(base)
    key = KEY if policy == "public" else None
    out, report = native(LAYOUTS[layout](c), "hermes", policy=policy, key=key)
    body = out.decode()
    assert not [x for x in c.all if x in body] and "dana" not in body
    assert all(x.isascii() and x.replace("_", "").isalnum() for x in c.all if x in report_text(report))
    again = redact_bytes(out, name="native", input_format="hermes", policy=policy, key=key)
    assert not [x for x in c.all if x in again.data.decode()]


def test_native_log_keeps_what_the_table_allows() -> None:
    out, report = native(log(Canaries("k")), "hermes")
    got = lines(out)
    assert len(got) == len(records(Canaries("k")))  # the header stays, the unknown role is dropped
    assert report.skipped_records and got[0]["role"] == "session_meta" and "tools" not in got[0]
    call = next(tc for r in got if r["role"] == "assistant" for tc in r.get("tool_calls") or []
                if tc["function"]["name"] == "terminal")
    assert orjson.loads(call["function"]["arguments"]) == {"command": "npm test", "timeout": 120}
    again = redact_bytes(out, name="n", input_format="hermes").session_map
    assert again["totals"]["calls"] == 6 and again["totals"]["requests"] == 3


def test_native_document_stays_a_document() -> None:
    out, _ = native(document(Canaries("k")), "hermes")
    doc = orjson.loads(out)
    assert doc["session_id"].startswith("id-") and "base_url" not in doc and "tools" not in doc
    assert set(doc["system_prompt"]) == {"chars"}
    assert [m["role"] for m in doc["messages"]] == [r["role"] for r in records(Canaries("k"))
                                                    if r["role"] != "narrator"]
    again = redact_bytes(out, name="n", input_format="hermes").session_map
    assert again["totals"]["calls"] == 6


def _home(tmp_path: Path) -> Path:
    sessions = tmp_path / ".hermes" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / f"session_{SESSION_ID}.json").write_bytes(document(Canaries("h1")))
    (sessions / "20260512_112801_93b631d4.jsonl").write_bytes(log(Canaries("h2")))
    (tmp_path / ".hermes" / ".env").write_text("OPENAI_API_KEY=zqsecretqz\n")
    (tmp_path / ".hermes" / "auth.json").write_text('{"key": "zqsecretqz"}')
    return tmp_path / ".hermes"


@pytest.mark.parametrize("start", [".hermes", ".hermes/sessions"])
def test_batch_finds_the_sessions(tmp_path: Path, start: str) -> None:
    _home(tmp_path)
    tasks, other = batch.plan([str(tmp_path / start)], tmp_path / "out")
    assert {Path(t.input).name for t in tasks} == {f"session_{SESSION_ID}.json", "20260512_112801_93b631d4.jsonl"}
    assert all("zqsecretqz" not in o.message for o in other)
    outcomes = batch.run(tasks, batch.Settings(policy=load_policy("default")))
    assert {o.status for o in outcomes} == {batch.WRITTEN}


def test_the_format_lists_where_hermes_keeps_sessions() -> None:
    from redact.formats.registry import raw_format

    fmt = raw_format("hermes")
    assert fmt is not None and fmt.homes == ("~/.hermes/sessions", "~/.hermes") and fmt.native


# -- the shared corpus ------------------------------------------------------------------------------

def _corpus() -> list[Path]:
    return sorted(p for p in corpus_dir("hermes").glob("*.json*") if p.is_file())


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(_corpus), ids=lambda p: getattr(p, "name", str(p))[:60])
def test_every_corpus_file_is_read_and_keeps_to_the_seed(path: Path) -> None:
    corpus_case(path, "hermes")
    data = path.read_bytes()
    assert detect(data, path.name) == "hermes"
    for policy in ("default", "public"):
        result = redact_bytes(data, name=path.name, policy=policy,
                              key=Key(bytes(range(32)), source="t") if policy == "public" else None)
        assert violations(result.session_map) == []
    msgs = (orjson.loads(data)["messages"] if path.suffix == ".json"
            else [orjson.loads(x) for x in data.splitlines() if x.strip()][1:])
    assert result.session_map["totals"]["requests"] == sum(m["role"] == "assistant" for m in msgs)
    out, _ = native(data, "hermes")
    if path.suffix == ".jsonl":
        assert len(lines(out)) == len(msgs) + 1
    else:
        assert len(orjson.loads(out)["messages"]) == len(msgs)


# -- times as Hermes writes them (issue 26) ---------------------------------------------------------

@pytest.mark.parametrize("zone", ["UTC", "Asia/Tokyo", "America/Los_Angeles"])
def test_zoneless_times_are_read_as_written_whatever_the_machines_zone(zone: str,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Hermes writes `datetime.now().isoformat()`: the digits are kept, never shifted by any zone."""
    import time

    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        logged = _redact(log(Canaries("z"))).session_map["session"]
        doc = _redact(document(Canaries("z"))).session_map["session"]
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    assert logged["startedAt"] == "2026-05-12T19:17:00.000Z"  # its first message, as written
    assert doc["startedAt"] == "2026-05-06T19:26:22.550Z"
    assert doc["durationMs"] == pytest.approx(105483.718, abs=1)  # session_start to last_updated


def test_epoch_seconds_are_read_as_the_instants_they_are() -> None:
    recs = records(Canaries("e"))
    base = 1783385075.25  # 2026-07-07T00:44:35.250Z
    lines_ = [{"role": "session_meta", "model": "gpt-4o", "platform": "cron", "timestamp": base}]
    lines_ += [{**r, "timestamp": base + 5 * (n + 1)} for n, r in enumerate(recs)]
    m = _redact(b"".join(orjson.dumps(x) + b"\n" for x in lines_)).session_map
    assert m["session"]["startedAt"] == "2026-07-07T00:44:40.250Z"  # the first message, 5 s in
    times = [e["t"] for e in m["events"]]
    assert times == sorted(times) and max(times) == pytest.approx(5000 * (len(recs) - 1), abs=1)
