"""teaagent run audit logs (seed 003): golden maps with what the fixtures show by hand, the hash
chain verified on read (a broken chain is a warning, never a crash), audit levels L0 and L2, and the
redaction contract as a property with canaries in every text slot."""
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
from redact.formats.teaagent.chain import ChainCheck
from redact.model.schema import shipped
from redact.report import RedactionReport
from tests.formats import golden_formats
from tests.formats import make_seed_formats as ms
from tests.formats.canary import POLICIES, Canaries, canary_base, check, flips
from tests.formats.test_claude_code_contract import BASH

LOGS = (ms.TEA_L3, ms.TEA_BROKEN, ms.TEA_L2, ms.TEA_L0)


def test_matches_the_golden_files() -> None:
    for name in ("teaagent.default.json", "teaagent-l0.default.json"):
        expected = (golden_formats.GOLDEN / name).read_text(encoding="utf-8")
        assert golden_formats.render(golden_formats.produce(name)) == expected, name


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_detected(path: Any) -> None:
    assert detect(path.read_bytes(), path.name) == "teaagent"


@pytest.mark.parametrize("policy, key", POLICIES)
@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_logs_leak_nothing_and_scan_clean(path: Any, policy: str, key: Any) -> None:
    result = redact_file(path, policy=policy, key=key)
    jsonschema.Draft202012Validator(shipped()).validate(result.session_map)
    out = json.dumps(result.session_map, ensure_ascii=False)
    assert [s for s in ms.SECRETS if s in out] == []
    kept = {cat: sorted(v) for cat, v in result.report.idents.kept.items()}
    assert scan_map(result.session_map, source=path.read_bytes(), kept_identifiers=kept).clean


def test_l3_log_by_hand() -> None:
    m = golden_formats.produce("teaagent.default.json")
    tot = m["totals"]
    assert (tot["userTurns"], tot["requests"], tot["calls"]) == (1, 3, 4)
    assert tot["tokens"] == (4200 + 450) + (5000 + 300) + (5600 + 120)  # the cost checkpoint is not added
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert [(e["in"], e["out"], e["latency"], e["toolCalls"], e["stop"]) for e in llm] == [
        (4200, 450, 2000, 2, "tool_use"), (5000, 300, 3000, 2, "tool_use"), (5600, 120, 2000, 0, "end_turn")]
    read, write, rm, pytest_ = [e for e in m["events"] if e["kind"] in ("read", "edit", "exec", "verify")]
    assert (read["tool"], read["kind"], read["dur"]) == ("read_file", "read", 50)
    assert (write["kind"], write["err"], write["errClass"]) == ("edit", True, "permission_denied")  # PermissionError
    assert (rm["verb"], rm["errClass"], rm["dur"]) == ("rm", "permission_denied", 29300)  # approval denied
    assert (pytest_["kind"], pytest_["verb"], pytest_["exitCode"], pytest_["dur"]) == ("verify", "pytest", 0, 2000)
    assert not any(e["kind"] == "delay" and e.get("cause") == "tool" for e in m["events"])  # waits on approval
    assert [f["path"] for f in m["files"]] == ["src/auth.py"]  # workspace-relative
    run_end = next(e for e in m["events"] if e["kind"] == "error")
    assert (run_end["source"], run_end["errClass"]) == ("orchestration", "api_error")  # run_end: failed
    assert m["session"]["models"] == ["claude-opus-4-5"] and m["session"]["agentTool"] == "teaagent"
    report = redact_file(ms.TEA_L3).report
    assert report.skipped_records == {"cost_checkpoint": 1, "<other>": 1}  # plugin_event: not a known type
    assert report.warnings == []  # an intact chain


def test_a_broken_chain_is_a_warning_not_a_crash() -> None:
    result = redact_file(ms.TEA_BROKEN)
    warnings = result.report.warnings
    assert any("BROKEN" in w and "line 10" in w and "prev_hash" in w for w in warnings)
    assert any("BROKEN" in w and "line 5" in w and "content" in w for w in warnings)
    assert result.session_map["totals"]["calls"] == 4


def test_audit_levels() -> None:
    l2 = redact_file(ms.TEA_L2).session_map
    # placeholders are not values: no task length, no command verb, no output bytes
    assert next(e for e in l2["events"] if e["kind"] == "user")["chars"] == 0
    assert {e["verb"] for e in l2["events"] if "verb" in e} == {"<empty>"}
    l0 = redact_file(ms.TEA_L0)
    m = l0.session_map
    assert (m["totals"]["calls"], m["totals"]["requests"], m["totals"]["tokens"]) == (4, 3, 0)
    assert any("no hash chain" in w for w in l0.report.warnings)


def chain_of(records: list[dict[str, Any]]) -> ChainCheck:
    chain = ChainCheck()
    for n, record in enumerate(records, 1):
        chain.feed(n, record)
    return chain


def test_chain_rules() -> None:
    good = [json.loads(line) for line in ms.teaagent().splitlines()]
    assert chain_of(good).intact
    swapped = good[:3] + [good[4], good[3]] + good[5:]
    assert chain_of(swapped).link_breaks == [4, 5, 6]
    assert chain_of(good[2:]).link_breaks == [1]  # the log does not start at its first record
    other_form = [dict(r) for r in good]
    for r in other_form:
        r["hash"] = "f" * 64  # a writer whose form this tool cannot reproduce
    report = RedactionReport(source="x")
    chain_of(other_form).report_to(report)
    assert any("only the links" in w for w in report.warnings) or any("BROKEN" in w for w in report.warnings)
    odd = [{**good[0], "prev_hash": {"not": "a string"}}]  # a malformed field: a break, never a crash
    assert chain_of(odd).link_breaks == [1]


def test_the_python_default_json_form_verifies_too() -> None:
    import hashlib

    rec = {"event_id": "1", "event_type": "run_start", "run_id": "r", "created_at": "2026-06-02T10:00:00Z",
           "payload": {"task": "é"}, "prev_hash": None}
    rec["hash"] = hashlib.sha256(json.dumps(rec, sort_keys=True).encode()).hexdigest()
    assert chain_of([rec]).content_ok == 1


STEPS = ("start", "request", "response", "read", "write", "shell", "error", "approval", "denied", "cost", "end",
         "unknown", "placeholder")


def audit_log(steps: list[str], base: str, flip: list[bool]) -> tuple[bytes, Canaries]:
    c = Canaries(base)
    user = c()
    flips_ = iter(flip + [False] * 200)
    recs: list[dict[str, Any]] = []
    n = 0

    def ev(kind: str, payload: dict[str, Any]) -> None:
        recs.append({"event_id": f"{len(recs):032x}", "event_type": kind, "run_id": f"run_{c()}",
                     "created_at": f"2026-06-02T10:00:{len(recs) % 60:02d}.000Z", "payload": payload,
                     "prev_hash": None, "hash": None, "chain_hmac": None})

    for step in steps:
        n += 1
        cid = f"call_{n}"
        if step == "start":
            ev("run_start", {"task": c(), "provider": "claude", "model": "claude-opus-4-5", "permission_mode": c()})
        elif step == "request":
            ev("model_request", {"provider": "claude", "model": "claude-opus-4-5", "input_tokens": 10, "iteration": 1})
        elif step == "response":
            ev("model_response", {"stop_reason": "tool_use", "output_tokens": 3, "tool_calls_requested": 1, "text": c()})
        elif step == "read":
            ev("tool_call", {"tool_name": "read_file", "call_id": cid, "arguments": {"path": f"/home/{user}/{c()}.txt"},
                             "reasoning": c()})
            ev("tool_result", {"tool_name": "read_file", "call_id": cid, "result": {"success": True, "content": c()},
                               "elapsed_ms": 3})
        elif step == "write":
            ev("tool_call", {"tool_name": "write_file", "call_id": cid, "arguments": {"path": "src/a.py", "content": c()}})
            ev("tool_result", {"call_id": cid, "result": {"success": not next(flips_), "bytes_written": 4, "text": c()}})
        elif step == "shell":
            cmd = BASH[len(c.all) % len(BASH)].format(c=c())
            ev("tool_call", {"tool_name": "shell_exec", "call_id": cid, "arguments": {"command": cmd}})
            ev("tool_result", {"call_id": cid, "result": {"success": True, "exit_code": 1 if next(flips_) else 0,
                                                          "stdout": c(), "stderr": c()}})
        elif step == "error":
            # a tool's name is an identifier (policy-controlled): no canary in it
            ev("tool_call", {"tool_name": "plugin_tool", "call_id": cid, "arguments": {"x": c()}})
            ev("tool_error", {"tool_name": "plugin_tool", "call_id": cid, "error_type": c(), "error_message": c()})
        elif step == "approval":
            ev("tool_call", {"tool_name": "shell_exec", "call_id": cid, "arguments": {"command": f"rm -rf {c()}"}})
            ev("approval_request", {"call_id": cid, "tool_name": "shell_exec", "arguments": {"command": c()}, "reason": c()})
            ev("approval_granted", {"call_id": cid, "granted_by": "jit_prompt", "reason": c()})
        elif step == "denied":
            ev("tool_call", {"tool_name": "shell_exec", "call_id": cid, "arguments": {"command": c()}})
            ev("approval_denied", {"call_id": cid, "granted_by": "preset", "reason": c()})
        elif step == "cost":
            ev("cost_checkpoint", {"cumulative_cost_cents": 1, "note": c()})
        elif step == "end":
            ev("run_end", {"status": "failed", "error_message": c(), "final_answer": c()})
        elif step == "unknown":
            ev(c(), {"x": c()})
            recs.append({"event_type": "tool_call", "run_id": c(), "created_at": "2026-06-02T10:00:00Z"})  # L0
        elif step == "placeholder":
            ev("tool_call", {"tool_name": "shell_exec", "call_id": cid, "arguments": {"command": "[REDACTED]", "env": c()}})
    return b"".join(orjson.dumps(r) + b"\n" for r in recs), c


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(st.sampled_from(STEPS), min_size=1, max_size=12), base=canary_base, flip=flips)
def test_no_canary_under_any_policy(steps: list[str], base: str, flip: list[bool]) -> None:
    data, canaries = audit_log(steps, base, flip)
    for policy, key in POLICIES:
        check(data, canaries, policy, key, name="run.jsonl")


def test_every_step_at_once() -> None:
    data, canaries = audit_log(list(STEPS) * 2, "all0", [True, False] * 10)
    for policy, key in POLICIES:
        check(data, canaries, policy, key, name="run.jsonl")
    assert redact_bytes(data, name="run.jsonl").session_map["totals"]["calls"] > 0


def test_identifier_canaries_vanish_under_public() -> None:
    from tests.formats.canary import KEY

    recs = [
        {"event_type": "run_start", "run_id": "run_x", "created_at": "2026-06-02T10:00:00Z",
         "payload": {"task": "t", "model": "zqmodelzq"}},
        {"event_type": "tool_call", "run_id": "run_x", "created_at": "2026-06-02T10:00:01Z",
         "payload": {"tool_name": "zqtoolzq", "call_id": "c1", "arguments": {"path": "zqdirzq/zqfilezq.py"}}},
        {"event_type": "tool_call", "run_id": "run_x", "created_at": "2026-06-02T10:00:02Z",
         "payload": {"tool_name": "mcp__zqserverzq__zqtoolzq", "call_id": "c2", "arguments": {}}},
        {"event_type": "tool_call", "run_id": "run_x", "created_at": "2026-06-02T10:00:03Z",
         "payload": {"tool_name": "web_fetch", "call_id": "c3", "arguments": {"url": "https://zqhostzq.internal/x"}}},
    ]
    data = b"".join(orjson.dumps(r) + b"\n" for r in recs)
    out = redact_bytes(data, name="run.jsonl", policy="public", key=KEY).data.decode()
    assert "zq" not in out
