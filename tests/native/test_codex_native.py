"""Codex rollouts under `--to native`, in all three layouts: same records, JSON-in-string fields
re-serialised after scrubbing, commands as verbs (an argv stays an argv), patches reduced to their file
headers, outputs to their shape and the harness's header lines; and the output reads again."""
from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.api import redact_bytes
from redact.formats.codex.reader import read_session
from redact.report import RedactionReport
from tests.native.codexfix import document, legacy, rollout
from tests.native.helpers import KEY, lines, native, report_text


class Canaries:
    def __init__(self, base: str = "cdx") -> None:
        self.base = base
        self.all: list[str] = []

    def __call__(self) -> str:
        value = f"zq{self.base}{len(self.all)}qz"
        self.all.append(value)
        return value


def _clean(out: bytes, report: RedactionReport, c: Canaries, user: str = "kim") -> None:
    body = out.decode()
    assert not [x for x in c.all if x in body]
    assert user not in body
    text = report_text(report)
    assert all(x.isascii() and x.replace("_", "").isalnum() for x in c.all if x in text)
    assert report.scanner["grammar"] == "pass"


def _payloads(got: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [r["payload"] for r in got if r.get("type") == "response_item" and r["payload"]["type"] == kind]


def test_modern_rollout() -> None:
    c = Canaries()
    data = rollout(c)
    out, report = native(data, "codex")
    _clean(out, report, c)
    got = lines(out)
    src = [orjson.loads(x) for x in data.split(b"\n") if x.strip()]
    assert len(got) == len(src) - 2  # an unknown event type and an unknown record type
    assert sum(report.skipped_records.values()) == 2
    meta = got[0]["payload"]
    assert meta["cwd"] == "." and meta["git"] == {"commit_hash": "2da7505f7a55852ba8e8d7b70cbe5997675451d9",
                                                       "repository_url": "acme/ledger"}
    calls = _payloads(got, "function_call")
    args = [orjson.loads(call["arguments"]) for call in calls]
    assert args[0] == {"command": ["grep"], "workdir": ".", "timeout_ms": 1000}
    assert args[1] == {"command": "<script>", "workdir": "ops"}
    assert calls[2]["name"] == "mcp__notion__search" and args[2] == {}
    outputs = _payloads(got, "function_call_output")
    first = orjson.loads(_payloads(src, "function_call_output")[0]["output"])["output"]
    assert orjson.loads(outputs[0]["output"]) == {"output": {"chars": len(first)},
                                                  "metadata": {"exit_code": 0, "duration_seconds": 0.5}}
    assert outputs[1]["output"] == "Exit code: 1\nWall time: 0.2 seconds"
    mcp = _payloads(src, "function_call_output")[2]["output"][0]["text"]
    assert outputs[2]["output"] == [{"type": "input_text", "text": {"chars": len(mcp)}}]
    patch = _payloads(got, "custom_tool_call")[0]["input"]
    assert patch.split("\n")[0] == "*** Begin Patch" and patch.split("\n")[-1] == "*** End Patch"
    assert patch.split("\n")[1] == "*** Update File: src/ledger.py"
    assert patch.split("\n")[2] == "*** Add File: notes/todo.md"
    end = next(r["payload"] for r in got if r["type"] == "event_msg" and r["payload"]["type"] == "exec_command_end")
    assert end["command"] == ["<script>"] and end["cwd"] == "ops" and end["exit_code"] == 1
    stdout = next(r["payload"]["stdout"] for r in src if r["payload"].get("type") == "exec_command_end")
    assert end["stdout"] == {"chars": len(stdout)}


def test_patch_paths_follow_the_mode() -> None:
    out, _ = native(rollout(Canaries()), "codex", key=KEY, mode="hashed")
    patch = _payloads(lines(out), "custom_tool_call")[0]["input"].split("\n")
    assert [len(s) for s in patch[1].split(": ", 1)[1].split("/")] == [10, 10]


def test_legacy_layout() -> None:
    c = Canaries()
    out, report = native(legacy(c), "codex")
    _clean(out, report, c)
    got = lines(out)
    assert got[0]["id"] and "instructions" not in got[0] and got[1] == {"record_type": "state"}
    call = next(r for r in got if r.get("type") == "function_call")
    assert orjson.loads(call["arguments"]) == {"command": ["cat"]}


def test_single_json_layout() -> None:
    c = Canaries()
    out, report = native(document(c), "codex")
    _clean(out, report, c)
    doc = orjson.loads(out)
    assert [i["role"] for i in doc["items"]] == ["user", "user", "assistant", "tool", "assistant"]
    call = doc["items"][2]["tool_calls"][0]
    assert call["id"].startswith("call_") and call["id"] != "call_5nm7c66z"  # prefix kept, body digested
    assert orjson.loads(call["function"]["arguments"]) == {"command": ["rg"]}
    assert doc["items"][3]["content"] == "Exit code: 0\nWall time: 1 seconds"


@pytest.mark.parametrize("make", [rollout, legacy, document])
def test_reads_again_and_builds_a_valid_map(make: Any) -> None:
    out, _ = native(make(Canaries()), "codex")
    facts = read_session(out, "native", report=RedactionReport(source="native"))
    assert any(type(f).__name__ == "ToolCall" for f in facts.facts)
    result = redact_bytes(out, name="native", input_format="codex")
    assert result.session_map["events"]


def test_public_policy() -> None:
    c = Canaries()
    out, report = native(rollout(c), "codex", policy="public", key=KEY)
    _clean(out, report, c)
    meta = lines(out)[0]["payload"]
    assert meta["id"].startswith("h:") and meta["git"]["repository_url"].startswith("h:")


_ALPHA = "abcdefghijklmnopqrstuvwxyz0123456789"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.text(alphabet=_ALPHA, min_size=4, max_size=8), user=st.text(alphabet="abcdefgh", min_size=3, max_size=6).map(lambda s: s + "xq"),
       keep=st.lists(st.booleans(), min_size=30, max_size=30),
       policy=st.sampled_from(["default", "internal", "public"]), layout=st.sampled_from([0, 1, 2]))
def test_no_canary_survives(base: str, user: str, keep: list[bool], policy: str, layout: int) -> None:
    c = Canaries(base)
    data = (rollout, legacy, document)[layout](c, user=user)
    if layout != 2:  # drop a random subset of the lines after the first
        rows = data.split(b"\n")
        data = b"\n".join([rows[0]] + [r for r, k in zip(rows[1:], keep) if k])
    out, report = native(data, "codex", policy=policy, key=KEY if policy == "public" else None)
    _clean(out, report, c, user=user)
    again = redact_bytes(out, name="native", input_format="codex", policy=policy,
                         key=KEY if policy == "public" else None)
    assert not [x for x in c.all if x in again.data.decode()]
