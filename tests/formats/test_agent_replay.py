"""Agent Replay traces (seed 004): golden maps with what the fixture shows by hand, the layouts read,
nesting by parent_step_id, and the redaction contract as a property with canaries in every text
slot."""
from __future__ import annotations

import json
from typing import Any

import jsonschema
import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.scan import scan_map
from redact.api import redact_bytes, redact_file
from redact.formats.detect import detect
from redact.model.schema import shipped
from tests.formats import golden_formats
from tests.formats import make_seed_formats as ms
from tests.formats.canary import KEY, POLICIES, Canaries, canary_base, check, flips

RUN = {"run_id": "run_0a1b2c3d4e5f", "agent_name": "a", "task": "do it", "started_at": "2026-05-01T12:00:00Z",
       "status": "success"}


def step(step_id: str, kind: str, at: int, **extra: Any) -> dict[str, Any]:
    return {"step_id": step_id, "run_id": RUN["run_id"], "type": kind, "name": "n",
            "timestamp": f"2026-05-01T12:00:{at:02d}Z", **extra}


def test_matches_the_golden_files() -> None:
    for name in ("agent-replay.default.json", "agent-replay.public.json", "agent-replay.public-global.json"):
        expected = (golden_formats.GOLDEN / name).read_text(encoding="utf-8")
        assert golden_formats.render(golden_formats.produce(name)) == expected, name


@pytest.mark.parametrize("policy, key", POLICIES)
def test_fixture_leaks_nothing_and_scans_clean(policy: str, key: Any) -> None:
    result = redact_file(ms.AR_TRACE, policy=policy, key=key)
    jsonschema.Draft202012Validator(shipped()).validate(result.session_map)
    out = json.dumps(result.session_map, ensure_ascii=False)
    assert [s for s in ms.SECRETS if s in out] == []
    kept = {cat: sorted(v) for cat, v in result.report.idents.kept.items()}
    assert scan_map(result.session_map, source=ms.AR_TRACE.read_bytes(), kept_identifiers=kept).clean


def test_trace_by_hand() -> None:
    m = golden_formats.produce("agent-replay.default.json")
    tot = m["totals"]
    # llm_call x4 (one failed); tool_call x4 (one ran a nested agent), retrieval, memory_read, memory_write
    assert (tot["requests"], tot["calls"], tot["userTurns"]) == (4, 7, 1)
    assert tot["tokens"] == (1200 + 80) + (300 + 40) + (50 + 5)
    lanes = {a["id"]: a for a in m["agents"]}
    sub = next(a for a in m["agents"] if a["kind"] == "subagent")
    assert m["events"][sub["launchSeq"]]["kind"] == "subagent"
    # the nested agent's llm call, its web fetch, and the fetch's own llm call (one level of nesting)
    assert (sub["calls"], sub["requests"], sub["model"]) == (1, 2, "gpt-4o-mini")
    assert lanes["main"]["requests"] == 2 and tot["subagents"] == 1
    tools = [e.get("tool") for e in m["events"] if e["kind"] == "tool"]
    assert tools[:3] == ["retrieval", "memory_read", "memory_write"]
    read = next(e for e in m["events"] if e["kind"] == "read")
    assert read["targets"] == [{"scope": "outside", "label": "~ (home)", "touch": "read"}]
    first = next(e for e in m["events"] if e["kind"] == "llm")
    assert (first["model"], first["textChars"], first["toolCalls"], first["latency"]) == \
        ("gpt-4o", len("I will look up invoice INV-2291 total"), 2, 1500)
    assert tot["errorsByClass"] == {"rate_limit": 1, "timeout": 1}
    assert m["session"]["id"] == "local:agent-replay:3f2a1b0c9d8e"
    # an unknown step type is named only when it is a name the tool knows (redact/tables/names.py):
    # `decision` is one now (another format's table has it), else it is counted as <other>
    from redact.tables.names import is_shown

    label = "step:decision" if is_shown("decision") else "step:<other>"
    assert redact_file(ms.AR_TRACE).report.skipped_records == {label: 1}


def test_layouts() -> None:
    steps = [step("llm_call_1", "llm_call", 1, usage={"input_tokens": 3, "output_tokens": 1}),
             step("tool_call_1", "tool_call", 2, name="bash", input={"command": "pytest -q"})]
    wrapped = json.dumps({"run": RUN, "steps": steps}).encode()
    flat = json.dumps({**RUN, "steps": steps}, indent=2).encode()
    lines = b"".join(orjson.dumps(r) + b"\n" for r in [RUN, *steps])
    maps = []
    for data in (wrapped, flat, lines):
        assert detect(data, "t.json") == "agent-replay"
        maps.append(redact_bytes(data, name="t.json").session_map)
    assert maps[0]["events"] == maps[1]["events"] == maps[2]["events"]
    assert [e.get("verb") for e in maps[0]["events"] if e["kind"] == "verify"] == ["pytest"]


def test_nesting_is_one_level_and_survives_cycles() -> None:
    steps = [step("tool_call_1", "tool_call", 1), step("tool_call_2", "tool_call", 2, parent_step_id="tool_call_1"),
             step("llm_call_1", "llm_call", 3, parent_step_id="tool_call_2"),
             step("tool_call_3", "tool_call", 4, parent_step_id="tool_call_4"),
             step("tool_call_4", "tool_call", 5, parent_step_id="tool_call_3")]
    m = redact_bytes(json.dumps({"run": RUN, "steps": steps}).encode(), name="t.json").session_map
    subs = [a for a in m["agents"] if a["kind"] == "subagent"]
    assert len(subs) == 1 and subs[0]["requests"] == 1 and subs[0]["calls"] == 1
    assert all(a["parent"] in (None, "main") for a in m["agents"])


STEPS = ("llm", "tool", "shell", "fetch", "retrieval", "memory", "nested", "failed", "unknown")


def trace(steps: list[str], base: str, flip: list[bool]) -> tuple[bytes, Canaries]:
    c = Canaries(base)
    user = c()
    flips_ = iter(flip + [False] * 200)
    run = {"run_id": f"run_{c()}", "agent_name": c(), "task": c(), "started_at": "2026-05-01T12:00:00Z",
           "status": "failed" if next(flips_) else "success", "metadata": {"k": c()}, "schema_version": "1"}
    out: list[dict[str, Any]] = []
    for n, kind in enumerate(steps):
        sid = f"s{n}"
        common = {"run_id": run["run_id"], "timestamp": f"2026-05-01T12:00:{n % 60:02d}Z",
                  "state_before": {"s": c()}, "state_after": c(), "metadata": {"m": c()}}
        if kind == "llm":
            out.append({"step_id": f"llm_call_{n}", "type": "llm_call", "name": c(), "input": {"model": "gpt-4o",
                        "messages": [{"role": "user", "content": c()}]}, "output": {"content": c()},
                        "usage": {"input_tokens": 3, "output_tokens": 1}, **common})
        elif kind == "tool":
            out.append({"step_id": sid, "type": "tool_call", "name": "read_file",
                        "input": {"path": f"/Users/{user}/{c()}.txt"}, "output": c(), **common})
        elif kind == "shell":
            out.append({"step_id": sid, "type": "tool_call", "name": "bash",
                        "input": {"command": f"./{c()}.sh --token {c()}"}, "output": {"stdout": c()}, **common})
        elif kind == "fetch":
            out.append({"step_id": sid, "type": "tool_call", "name": "web_fetch",
                        "input": {"url": f"https://docs.python.org/{c()}?q={c()}"}, "output": c(), **common})
        elif kind == "retrieval":
            out.append({"step_id": sid, "type": "retrieval", "name": c(), "input": {"query": c()},
                        "output": [{"text": c(), "score": 0.5}], **common})
        elif kind == "memory":
            out.append({"step_id": sid, "type": "memory_write", "name": c(), "input": {"key": c(), "value": c(),
                        "namespace": c()}, **common})
        elif kind == "nested":
            out.append({"step_id": sid, "type": "tool_call", "name": "sub_agent", "input": {"task": c()},
                        "output": c(), **common})
            out.append({"step_id": f"{sid}x", "type": "llm_call", "name": c(), "parent_step_id": sid,
                        "input": {"prompt": c()}, "output": c(), **common})
        elif kind == "failed":
            out.append({"step_id": sid, "type": "tool_call" if next(flips_) else "llm_call", "name": "bash",
                        "input": {"command": c()}, "error": c(), **common})
        elif kind == "unknown":
            out.append({"step_id": sid, "type": c(), "name": c(), "input": c(), **common})
    return json.dumps({"run": run, "steps": out}, indent=1).encode(), c


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(st.sampled_from(STEPS), min_size=1, max_size=12), base=canary_base, flip=flips)
def test_no_canary_under_any_policy(steps: list[str], base: str, flip: list[bool]) -> None:
    data, canaries = trace(steps, base, flip)
    for policy, key in POLICIES:
        check(data, canaries, policy, key, name="trace.json")


def test_every_step_at_once() -> None:
    data, canaries = trace(list(STEPS) * 2, "all0", [True, False] * 10)
    for policy, key in POLICIES:
        check(data, canaries, policy, key, name="trace.json")


def test_identifier_canaries_vanish_under_public() -> None:
    steps = [step("llm_call_1", "llm_call", 1, input={"model": "zqmodelzq"}),
             step("tool_call_1", "tool_call", 2, name="zqtoolzq", input={"path": "zqdirzq/zqfilezq"})]
    out = redact_bytes(json.dumps({"run": RUN, "steps": steps}).encode(), name="t.json", policy="public",
                       key=KEY).data.decode()
    assert "zq" not in out
