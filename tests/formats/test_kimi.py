"""Kimi CLI sessions (the wire log of `~/.kimi/sessions/<md5>/<id>/`): detection, the map's events
counted from the log, tokens and latency per step, subagent lanes from SubagentEvent, the work dir
from `~/.kimi/kimi.json`, `config.toml` never opened, native scrubbing, batch discovery, canaries in
every text slot never surviving any policy, and every corpus file read or skipped with why."""
from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.batch import run as batch
from redact.api import redact_bytes, redact_file
from redact.formats.detect import detect
from redact.errors import BadInput
from redact.keys.material import Key
from redact.policy.load import load_policy
from tests.conftest import corpus_case, corpus_dir, corpus_params
from tests.formats.canary import KEY, POLICIES, Canaries, canary_base, check
from tests.formats.seed_strict import violations
from tests.native.helpers import lines, native, report_text
from tests.native.kimifix import events, wire

CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")
SESSION = "0be84c98-0aeb-48c3-aa42-0fb8330914ef"


def _map(data: bytes, policy: str = "default") -> dict[str, Any]:
    return redact_bytes(data, name="wire.jsonl", policy=policy, key=KEY if policy == "public" else None).session_map


def test_detected_from_the_content() -> None:
    assert detect(wire(Canaries("d")), "x") == "kimi"


def test_events_agree_with_the_log() -> None:
    """Counted from the fixture's events (not from the reader)."""
    evs = [e["message"] for e in events(Canaries("n"))[1:]]
    nested = [e["payload"]["event"] for e in evs if e["type"] == "SubagentEvent"]
    every = [e for e in evs if e["type"] != "SubagentEvent"] + nested
    m = _map(wire(Canaries("n")))
    assert m["session"]["agentTool"] == "kimi" and violations(m) == []
    kinds = Counter(e["kind"] for e in m["events"])
    assert sum(kinds[k] for k in CALL_KINDS) == m["totals"]["calls"] == sum(e["type"] == "ToolCall" for e in every)
    updates = [e["payload"]["token_usage"] for e in every if e["type"] == "StatusUpdate"]
    assert kinds["llm"] == m["totals"]["requests"] == len(updates)  # the interrupted empty step is no response
    assert m["totals"]["tokens"] == sum(sum(u.values()) for u in updates)
    assert kinds["user"] == sum(e["type"] == "TurnBegin" for e in evs)  # a subagent's task is no prompt
    assert m["totals"]["subagents"] == 1


def test_steps_tools_lanes_and_errors() -> None:
    m = _map(wire(Canaries("r")))
    ev = m["events"]
    first = next(e for e in ev if e["kind"] == "llm")
    assert (first["in"], first["out"], first["cr"], first["cw"]) == (1200, 80, 5000, 7)
    assert first["latency"] == 3900 and first["thinking"] is True and first["toolCalls"] == 3
    assert first["stop"] == "tool_use"
    assert [e["sha"] for e in ev if e["kind"] == "commit"] == ["1a2b3c4"]
    test = next(e for e in ev if e.get("verb") == "npm test")
    assert test["exitCode"] == 1 and test["errClass"] == "exit_code"
    assert next(e for e in ev if e["kind"] == "edit")["errClass"] == "patch_failed"
    sub = next(e for e in ev if e["kind"] == "subagent")
    lane = next(a for a in m["agents"] if a["kind"] == "subagent")
    assert sub["subagentType"] == "coder" == lane["subagentType"] and sub["child"] == lane["id"]
    assert [e["kind"] for e in ev if e["agent"] == lane["id"]] == ["llm", "search"]
    assert [(e["source"], e["errClass"]) for e in ev if e["kind"] == "error"] == [("orchestration", "interrupted")]
    assert sum(e["kind"] == "compaction" for e in ev) == 1


def _home(tmp_path: Path, user: str = "chris") -> Path:
    kimi = tmp_path / ".kimi"
    work = f"/home/{user}/src/shop"
    md5 = hashlib.md5(work.encode()).hexdigest()
    folder = kimi / "sessions" / md5 / SESSION
    folder.mkdir(parents=True)
    (folder / "wire.jsonl").write_bytes(wire(Canaries("h"), user))
    (folder / "context.jsonl").write_text('{"role": "user", "content": "zqsecretqz"}\n')
    (folder / "context_sub_1.jsonl").write_text('{"role": "user", "content": "zqsecretqz"}\n')
    (folder / "state.json").write_text('{"version": 1, "approval": {"yolo": false}}')
    (kimi / "user-history").mkdir()
    (kimi / "user-history" / f"{md5}.jsonl").write_text('{"content": "zqsecretqz"}\n')
    (kimi / "kimi.json").write_text(f'{{"work_dirs": [{{"path": "/home/{user}", "kaos": "local"}}, '
                                    f'{{"path": "{work}", "kaos": "local", "last_session_id": null}}]}}')
    (kimi / "config.toml").write_text('[providers.kimi]\napi_key = "zqsecretqz"\n')
    return folder / "wire.jsonl"


def test_the_work_dir_comes_from_kimi_json(tmp_path: Path) -> None:
    m = redact_file(_home(tmp_path)).session_map
    assert m["repos"][0]["name"] == "shop"
    assert {f["path"] for f in m["files"]} == {"src/app.py", "src/util.py"}


def test_config_toml_is_never_opened(tmp_path: Path) -> None:
    _home(tmp_path)
    with pytest.raises(BadInput) as exc:
        redact_file(tmp_path / ".kimi" / "config.toml")
    assert "zqsecretqz" not in str(exc.value)


@pytest.mark.parametrize("start", [".kimi", ".kimi/sessions"])
def test_batch_finds_the_wire_logs_and_skips_the_rest(tmp_path: Path, start: str) -> None:
    _home(tmp_path)
    tasks, other = batch.plan([str(tmp_path / start)], tmp_path / "out")
    assert [Path(t.input).name for t in tasks] == ["wire.jsonl"]
    skipped = {Path(o.input).name for o in other}
    assert all(o.status == batch.SKIPPED for o in other) and all("zqsecretqz" not in o.message for o in other)
    assert {"context.jsonl", "context_sub_1.jsonl", "state.json"} <= skipped
    if start == ".kimi":
        assert {"kimi.json", "config.toml"} <= skipped
    outcomes = batch.run(tasks, batch.Settings(policy=load_policy("default")))
    assert {o.status for o in outcomes} == {batch.WRITTEN}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base)
def test_no_canary_in_any_map(base: str) -> None:
    for policy, key in POLICIES:
        c = Canaries(base)
        check(wire(c), c, policy, key, name="wire.jsonl")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base, policy=st.sampled_from([p for p, _ in POLICIES]))
def test_no_canary_survives_native(base: str, policy: str) -> None:
    c = Canaries(base)
    key = KEY if policy == "public" else None
    out, report = native(wire(c), "kimi", policy=policy, key=key)
    body = out.decode()
    assert not [x for x in c.all if x in body] and "chris" not in body
    assert all(x.isascii() and x.replace("_", "").isalnum() for x in c.all if x in report_text(report))
    again = redact_bytes(out, name="native", input_format="kimi", policy=policy, key=key)
    assert not [x for x in c.all if x in again.data.decode()]


def test_native_keeps_what_the_table_allows() -> None:
    data = wire(Canaries("k"))
    out, report = native(data, "kimi")
    got = lines(out)
    assert len(got) == len(lines(data)) - 1 and report.skipped_records  # the unknown event type
    calls = [r["message"]["payload"] for r in got[1:] if r["message"]["type"] == "ToolCall"]
    assert calls[0]["function"]["arguments"] == "{}"  # streamed: cut short, so not JSON on its own line
    assert [c["function"]["arguments"] for c in calls if c["function"]["name"] == "Shell"] == \
        ["{}", '{"command":"npm test"}']
    part = next(r["message"]["payload"] for r in got[1:] if r["message"]["type"] == "ToolCallPart")
    assert "arguments_part" not in part
    again = redact_bytes(out, name="n", input_format="kimi").session_map
    assert again["totals"]["calls"] == 6 and again["totals"]["subagents"] == 1


def test_the_format_lists_where_kimi_keeps_sessions() -> None:
    from redact.formats.registry import raw_format

    fmt = raw_format("kimi")
    assert fmt is not None and fmt.homes == ("~/.kimi/sessions",) and fmt.native


# -- the shared corpus ------------------------------------------------------------------------------

def _corpus() -> list[Path]:
    """The corpus's sessions: the wire logs (every other file is not a session: the next test)."""
    return sorted(p for p in corpus_dir("kimi").rglob("wire.jsonl") if p.is_file())


def test_every_other_corpus_file_is_skipped_with_a_reason() -> None:
    from redact.formats.kimi.table import auxiliary

    root = corpus_dir("kimi")
    why = dict(auxiliary(root))
    others = sorted(p for p in root.rglob("*") if p.is_file() and p.name != "wire.jsonl")
    assert others and [p for p in others if not why.get(p)] == []
    assert all("context" not in p.name or (p.parent / "wire.jsonl").is_file() for p in others)


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(_corpus), ids=lambda p: "/".join(getattr(p, "parts", [str(p)])[-3:]))
def test_every_corpus_file_is_read_or_skipped_with_a_reason(path: Path) -> None:
    corpus_case(path, "kimi")
    data = path.read_bytes()
    assert detect(data, path.name) == "kimi"
    for policy in ("default", "public"):
        m = redact_bytes(data, name=str(path), policy=policy,
                         key=Key(bytes(range(32)), source="t") if policy == "public" else None).session_map
        assert violations(m) == [] and m["totals"]["requests"] >= 1
    subs = {line for line in data.split(b"\n") if b'"SubagentEvent"' in line}
    assert (m["totals"]["subagents"] > 0) == bool(subs)
    out, _ = native(data, "kimi")
    assert len(lines(out)) == sum(1 for line in data.split(b"\n") if line.strip())


# -- a session folder holding context.jsonl alone (issue 26) ----------------------------------------

MD5 = hashlib.md5(b"/home/chris/shop", usedforsecurity=False).hexdigest()


def _context(c: Canaries) -> list[dict[str, Any]]:
    shell = '{"command": "npm test"}'
    return [
        {"role": "_checkpoint", "id": 0},
        {"role": "user", "content": c()},
        {"role": "_checkpoint", "id": 1},
        {"role": "assistant", "content": [{"type": "think", "think": c(), "encrypted": None},
                                          {"type": "text", "text": c()}],
         "tool_calls": [{"type": "function", "id": "tool_aaaa1111", "function": {"name": "Shell", "arguments": shell}},
                        {"type": "function", "id": "tool_bbbb2222",
                         "function": {"name": "ReadFile", "arguments": '{"path": "/home/chris/shop/app.py"}'}}]},
        {"role": "_usage", "token_count": 1200},
        {"role": "tool", "content": [{"type": "text", "text": "<system>ERROR: Command failed with exit code: 1.</system>"},
                                     {"type": "text", "text": c()}], "tool_call_id": "tool_aaaa1111"},
        {"role": "tool", "content": "<system>3 lines read from file starting from line 1.</system>" + c(),
         "tool_call_id": "tool_bbbb2222"},
        {"role": "assistant", "content": [{"type": "text", "text": c()}]},
        {"role": "_usage", "token_count": 1500},
        {"role": "user", "content": [{"type": "text", "text": c()}, {"type": "image_url", "image_url": {"url": c()}}]},
        {"role": "assistant", "content": c()},
    ]


def _context_bytes(c: Canaries) -> bytes:
    return b"".join(orjson.dumps(r) + b"\n" for r in _context(c))


def _context_home(tmp_path: Path, c: Canaries) -> Path:
    folder = tmp_path / ".kimi" / "sessions" / MD5 / SESSION
    folder.mkdir(parents=True)
    (folder / "context.jsonl").write_bytes(_context_bytes(c))
    (folder / "state.json").write_text("{}")
    (tmp_path / ".kimi" / "kimi.json").write_text('{"work_dirs": [{"path": "/home/chris/shop", "kaos": "local"}]}')
    return folder / "context.jsonl"


def test_a_context_alone_is_detected() -> None:
    assert detect(_context_bytes(Canaries("x")), "context.jsonl") == "kimi"


def test_a_context_alone_is_read_turns_calls_and_no_time(tmp_path: Path) -> None:
    c = Canaries("ctx")
    path = _context_home(tmp_path, c)
    out = tmp_path / "m.json"
    result = redact_file(path, out)
    assert out.is_file()
    m = result.session_map
    assert violations(m) == []
    recs = _context(c)
    ev = m["events"]
    kinds = Counter(e["kind"] for e in ev)
    assert kinds["user"] == sum(r["role"] == "user" for r in recs)
    assert kinds["llm"] == sum(r["role"] == "assistant" for r in recs)
    assert m["totals"]["calls"] == sum(len(r.get("tool_calls", [])) for r in recs)
    test = next(e for e in ev if e.get("kind") in ("exec", "verify"))
    assert test["err"] is True and test["exitCode"] == 1
    assert not next(e for e in ev if e["kind"] == "read").get("err")
    assert next(e for e in ev if e["kind"] == "user" and e["images"])["images"] == 1
    assert {e["t"] for e in ev} == {0} and m["session"]["durationMs"] == 0  # no time is made up
    warned = " ".join(result.report.as_dict().get("warnings", []))
    assert "records no time" in warned and "stand-in" in warned
    assert not [x for x in c.all if x in out.read_text()]


def test_a_context_beside_its_wire_log_is_not_a_second_session(tmp_path: Path) -> None:
    from redact.formats.kimi.table import auxiliary, list_sessions

    path = _context_home(tmp_path, Canaries("b"))
    home = tmp_path / ".kimi"
    assert list_sessions(home / "sessions") == [path]
    assert path not in dict(auxiliary(home))
    (path.parent / "wire.jsonl").write_bytes(wire(Canaries("w")))
    assert list_sessions(home / "sessions") == [path.parent / "wire.jsonl"]
    assert "wire log holds the same" in dict(auxiliary(home))[path]


def test_batch_maps_a_context_alone(tmp_path: Path) -> None:
    _context_home(tmp_path, Canaries("h"))
    tasks, _ = batch.plan([str(tmp_path / ".kimi")], tmp_path / "out")
    assert [Path(str(t.input)).name for t in tasks] == ["context.jsonl"]
    outcomes = batch.run(tasks, batch.Settings(policy=load_policy("default")))
    assert {o.status for o in outcomes} == {batch.WRITTEN}


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=canary_base)
def test_no_canary_survives_a_context_alone(base: str) -> None:
    for policy, key in POLICIES:
        c = Canaries(base)
        check(_context_bytes(c), c, policy, key, name="context.jsonl")
    c = Canaries(base)
    out, _ = native(_context_bytes(c), "kimi")
    assert not [x for x in c.all if x in out.decode()] and len(lines(out)) == len(_context(c))


def _corpus_contexts() -> list[Path]:
    return sorted(corpus_dir("kimi").rglob("context.jsonl"))


@pytest.mark.parametrize("path", corpus_params(_corpus_contexts), ids=lambda p: getattr(p, "parent", p).__str__()[-12:])
def test_every_corpus_context_reads_alone(path: Path, tmp_path: Path) -> None:
    """Each corpus history, its wire log left behind: as many prompts, replies and calls as its lines."""
    corpus_case(path, "kimi")
    alone = tmp_path / ".kimi" / "sessions" / path.parent.parent.name / path.parent.name / "context.jsonl"
    alone.parent.mkdir(parents=True)
    alone.write_bytes(path.read_bytes())
    recs = [orjson.loads(x) for x in path.read_bytes().splitlines() if x.strip()]
    m = redact_file(alone, tmp_path / "m.json").session_map
    assert violations(m) == []
    kinds = Counter(e["kind"] for e in m["events"])
    assert kinds["llm"] == sum(r["role"] == "assistant" for r in recs)
    assert m["totals"]["calls"] == len({c["id"] for r in recs for c in r.get("tool_calls") or []})


def _line(t: float, kind: str, **payload: Any) -> bytes:
    return orjson.dumps({"timestamp": t, "message": {"type": kind, "payload": payload}})


def test_a_streamed_call_keeps_its_file_when_an_earlier_result_comes_first() -> None:
    """Kimi runs a response's earlier calls while the model still streams: the result of the first
    call may be logged between the second call and the rest of its arguments (as in a corpus
    session, where 72 of 118 reads lost their file). The streamed call is whole after that result."""
    def call(t: float, cid: str, name: str, args: str) -> bytes:
        return _line(t, "ToolCall", type="function", id=cid, function={"name": name, "arguments": args})

    def result(t: float, cid: str) -> bytes:
        return _line(t, "ToolResult", tool_call_id=cid,
                     return_value={"is_error": False, "output": "x", "message": "", "display": []})

    data = b"\n".join([
        orjson.dumps({"type": "metadata", "protocol_version": "1.3"}),
        _line(1.0, "TurnBegin", user_input=[{"type": "text", "text": "look"}]),
        _line(1.1, "StepBegin", n=1),
        call(1.2, "ReadFile:0", "ReadFile", '{"path": "a.txt"}'),
        call(1.3, "ReadFile:1", "ReadFile", '{"pa'),
        result(1.35, "ReadFile:0"),
        _line(1.4, "ToolCallPart", arguments_part='th": "b.txt"}'),
        call(1.5, "Shell:2", "Shell", '{"command":'),
        result(1.55, "ReadFile:1"),  # its own result: the call is whole before it
        _line(1.6, "ToolCallPart", arguments_part=' "git status"}'),
        _line(1.7, "StatusUpdate", token_usage={"input_other": 1, "output": 1, "input_cache_read": 0,
                                                 "input_cache_creation": 0}),
        result(1.8, "Shell:2"),
        _line(1.9, "TurnEnd"),
    ]) + b"\n"
    m = _map(data, "internal")
    calls = [e for e in m["events"] if e["kind"] in CALL_KINDS]
    assert [e["tool"] for e in calls] == ["ReadFile", "ReadFile", "Shell"]
    assert [len(e.get("targets", ())) for e in calls[:2]] == [1, 1]
    assert calls[2].get("verb") == "git status"
    assert not any(e.get("err") for e in calls)
