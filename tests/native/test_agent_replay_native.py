"""Agent Replay traces under `--to native`, in every layout the reader reads: input, output and state
reduced to shapes, tool inputs to what the tool table reads, metadata by class; the output reads
again and builds a valid map."""
from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.api import redact_bytes
from redact.formats.agent_replay.reader import read_session
from redact.report import RedactionReport
from tests.native.arfix import RUN_ID, trace
from tests.native.helpers import KEY, lines, native, report_text


class Canaries:
    def __init__(self, base: str = "arp") -> None:
        self.base = base
        self.all: list[str] = []

    def __call__(self) -> str:
        value = f"zq{self.base}{len(self.all)}qz"
        self.all.append(value)
        return value


def _clean(out: bytes, report: RedactionReport, c: Canaries, user: str = "mele") -> None:
    body = out.decode()
    assert not [x for x in c.all if x in body] and user not in body
    assert all(x.isascii() and x.replace("_", "").isalnum() for x in c.all if x in report_text(report))


def _parts(out: bytes, layout: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    if layout == "lines":
        got = lines(out)
        return got[0], got[1:]
    doc = orjson.loads(out)
    return (doc["run"] if layout == "nested" else {k: v for k, v in doc.items() if k != "steps"}), doc["steps"]


@pytest.mark.parametrize("layout", ["nested", "flat", "lines"])
def test_layouts(layout: str) -> None:
    c = Canaries()
    out, report = native(trace(c, layout=layout), "agent-replay")
    _clean(out, report, c)
    run, steps = _parts(out, layout)
    assert run["run_id"] == RUN_ID and "agent_name" not in run and run["task"]["chars"] > 0
    assert run["metadata"] == {"model": "gpt-4o"} and run["status"] == "failed"
    assert [s["step_id"] for s in steps] == ["llm_call_1", "tool_call_1", "tool_call_2", "tool_call_3",
                                             "retrieval_1", "memory_write_1"]
    llm, read, cmd, custom, retrieval, memory = steps
    assert set(llm["input"]) == {"chars"} and set(llm["output"]) == {"chars"}
    assert llm["metadata"] == {"provider": "openai", "model": "gpt-4o"} and "name" not in llm
    assert read["input"] == {"path": "~ (home)"} and read["name"] == "read_file"
    assert cmd["input"] == {"command": "curl"} and set(cmd["error"]) == {"chars"}
    assert custom["name"] == "<tool>" and set(custom["input"]) == {"chars"}
    assert set(retrieval["output"]) == {"chars"} and set(memory["input"]) == {"chars"}
    assert sum(report.skipped_records.values()) == 1


@pytest.mark.parametrize("layout", ["nested", "flat", "lines"])
def test_reads_again_and_builds_a_valid_map(layout: str) -> None:
    out, _ = native(trace(Canaries(), layout=layout), "agent-replay")
    facts = read_session(out, "native", report=RedactionReport(source="native"))
    calls = [f for f in facts.facts if type(f).__name__ == "ToolCall"]
    assert [c.kind for c in calls][:2] == ["read", "exec"]
    result = redact_bytes(out, name="native", input_format="agent-replay")
    assert result.session_map["events"]


_ALPHA = "abcdefghijklmnopqrstuvwxyz0123456789"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.text(alphabet=_ALPHA, min_size=4, max_size=8), user=st.text(alphabet="abcdefgh", min_size=3, max_size=6).map(lambda s: s + "xq"),
       layout=st.sampled_from(["nested", "flat", "lines"]), policy=st.sampled_from(["default", "internal", "public"]))
def test_no_canary_survives(base: str, user: str, layout: str, policy: str) -> None:
    c = Canaries(base)
    key = KEY if policy == "public" else None
    out, report = native(trace(c, user=user, layout=layout), "agent-replay", policy=policy, key=key)
    _clean(out, report, c, user)
    again = redact_bytes(out, name="native", input_format="agent-replay", policy=policy, key=key)
    assert not [x for x in c.all if x in again.data.decode()]
