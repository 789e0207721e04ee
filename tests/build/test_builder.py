"""The format-neutral builder, fed facts directly (no reader): signals, outcomes, tasks, truncation."""
from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from redact.build import build_map
from redact.build.facts import (
    Commit, Compaction, ErrorFact, Lane, LlmResponse, PrAction, SessionFacts, ToolCall, ToolResult, UserTurn,
)
from redact.build.totals import percentile
from redact.model.agentplay import SessionMap
from redact.model.schema import shipped

T0 = 1_770_000_000_000.0
ROOT = "/home/u/proj"


class S:
    """A tiny session writer: times in seconds from T0."""

    def __init__(self) -> None:
        self.facts = SessionFacts("claude-code", "0b9c7e52-5d2a-4c3e-9f1a-6a2b8c4d0e11", roots=(ROOT,), cwd=ROOT,
                                  repo_name="proj")
        self.n = 0

    def add(self, fact: Any) -> Any:
        self.facts.facts.append(fact)
        return fact

    def user(self, s: float, chars: int = 10) -> None:
        self.add(UserTurn(T0 + s * 1000, "main", chars))

    def llm(self, s: float, *, agent: str = "main", model: str = "claude-sonnet-4-5", stop: str = "tool_use",
            latency: float = 1.0, text: int = 0, tools: int = 1) -> None:
        self.add(LlmResponse(T0 + s * 1000, agent, model, 10, 20, 30, 40, stop=stop, tool_calls=tools,
                             text_chars=text, latency=latency * 1000))

    def call(self, s: float, kind: str = "exec", *, dur: float = 1.0, err: str | None = None,
             agent: str = "main", name: str = "Bash", command: str = "make test", paths: tuple[str, ...] = (),
             **kw: Any) -> str:
        self.n += 1
        cid = f"c{self.n}"
        self.add(ToolCall(T0 + s * 1000, agent, cid, name, kind, command=command if kind == "exec" else None,  # type: ignore[arg-type]
                          paths=paths, **kw))
        res = ToolResult(T0 + (s + dur) * 1000, cid, err is not None, err_class=err, out_bytes=5)
        self.add(res)
        return cid

    def build(self, **kw: Any) -> dict[str, Any]:
        m = build_map(self.facts, **kw)
        if len(m["events"]) <= 20_000:
            SessionMap.model_validate(m)
        return m


def ev(m: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in m["events"] if e["kind"] == kind]


def test_map_validates_against_the_schema() -> None:
    s = S()
    s.user(0)
    s.llm(0)
    s.call(1, "read", name="Read", paths=(f"{ROOT}/a.py",))
    m = s.build()
    jsonschema.Draft202012Validator(shipped()).validate(m)


def test_retry_of_the_same_failed_call() -> None:
    s = S()
    s.user(0)
    s.call(1, err="exit_code", command="pytest -q")
    s.call(3, err="exit_code", command="pytest -q")
    s.call(5, command="pytest -q")
    s.call(7, err="exit_code", command="ruff check")
    s.call(9, command="pytest -q")  # the last pytest succeeded: this is no retry
    m = s.build()
    calls = [e for e in m["events"] if e["kind"] in ("exec", "verify")]
    assert [c.get("retryOf") for c in calls] == [None, calls[0]["seq"], calls[1]["seq"], None, None]
    assert [c.get("attempt") for c in calls] == [None, 2, 3, None, None]
    assert m["totals"]["retries"] == 2


def test_retry_window_is_eight_calls_of_the_same_agent() -> None:
    s = S()
    s.call(0, err="exit_code", command="make")
    for i in range(8):
        s.call(1 + i, "tool", name=f"T{i}")
    s.call(20, command="make")
    s.call(21, err="exit_code", command="make build", agent="main")
    s.facts.lanes["sa-abcdef"] = Lane("sa-abcdef", "subagent")
    s.call(22, command="make build", agent="sa-abcdef")  # another agent: not a retry
    m = s.build()
    assert m["totals"]["retries"] == 0


def test_delays_at_the_seed_thresholds() -> None:
    s = S()
    s.user(0)
    s.llm(0, latency=59.999)
    s.call(60, dur=29.999)
    s.llm(90, latency=60)
    s.call(150, dur=30)
    s.call(180, "tool", name="AskUserQuestion", dur=600, waits_on_user=True)
    m = s.build()
    delays = ev(m, "delay")
    assert [(d["cause"], d["ms"]) for d in delays] == [("llm", 60000), ("tool", 30000)]
    assert m["events"][delays[0]["ref"]]["kind"] == "llm"
    assert m["totals"]["delays"] == 2 and m["totals"]["delayMs"] == 90000


def test_stall_only_when_not_waiting_on_the_user() -> None:
    s = S()
    s.user(0)
    s.llm(0, latency=1)
    s.call(1, dur=1)
    s.llm(200, latency=1)  # 198 s with nothing running and no user to wait for: a stall
    s.call(201, dur=1)
    s.llm(203, stop="end_turn", tools=0, text=5)
    s.call(500, "tool", name="X")  # after an end_turn the agent waits on the user: no stall
    s.user(900)
    m = s.build()
    stalls = [d for d in ev(m, "delay") if d["cause"] == "stall"]
    assert [(d["t"], d["ms"]) for d in stalls] == [(2000, 198000)]


def test_subagent_call_delay_has_cause_subagent() -> None:
    s = S()
    s.facts.lanes["sa-0123456789ab"] = Lane("sa-0123456789ab", "subagent", launch_call="c1")
    s.call(0, "subagent", name="Task", dur=45, subagent_type="Explore")
    s.llm(1, agent="sa-0123456789ab", model="claude-haiku-4-5")
    m = s.build()
    assert [d["cause"] for d in ev(m, "delay")] == ["subagent"]
    lane = m["agents"][1]
    assert lane["launchSeq"] == ev(m, "subagent")[0]["seq"] and lane["model"] == "claude-haiku-4-5"
    assert ev(m, "subagent")[0]["child"] == "sa-0123456789ab"
    assert ev(m, "subagent")[0]["model"] == "claude-haiku-4-5"


@pytest.mark.parametrize("build, outcome", [
    (lambda s: (s.call(1, err="interrupted"),), "interrupted"),
    (lambda s: (s.call(1, err="permission_denied"),), "blocked"),
    (lambda s: (s.call(1, "edit", name="Edit", paths=(f"{ROOT}/a",)), s.call(2, command="pytest")), "verified"),
    (lambda s: (s.call(1, command="pytest"), s.call(2, "edit", name="Edit", paths=(f"{ROOT}/a",)),
                s.llm(3, stop="end_turn", tools=0, text=9)), "completed"),
    (lambda s: (s.call(1, err="exit_code", command="make"), s.call(2, err="exit_code", command="ls")),
     "unresolved_errors"),
    (lambda s: (s.call(1, "edit", name="Edit", paths=(f"{ROOT}/a",)),), "incomplete"),
    (lambda s: (s.call(1, "read", name="Read", paths=(f"{ROOT}/a",)),), "completed"),
])
def test_outcome_rules(build: Any, outcome: str) -> None:
    s = S()
    s.user(0)
    build(s)
    assert s.build()["session"]["outcome"] == outcome


def test_pr_created_wins_and_merge_updates_state() -> None:
    s = S()
    s.user(0)
    cid = s.call(1, command="gh pr create --fill")
    s.facts.facts[-1].outputs.append(PrAction("create", "github", "acme/api", 7, "https://github.com/acme/api/pull/7"))
    s.call(2, err="interrupted")
    s.call(3, command="gh pr merge 7")
    s.facts.facts[-1].outputs.append(PrAction("merge", "github", None, 7))
    m = s.build()
    assert m["session"]["outcome"] == "pr_created"
    assert m["prs"] == [{"provider": "github", "repo": "acme/api", "number": 7, "url": "https://github.com/acme/api/pull/7",
                         "seq": next(e["seq"] for e in m["events"] if e.get("vcs", {}).get("action") == "pr_create"),
                         "state": "merged"}]
    assert m["totals"]["prsCreated"] == 1 and m["totals"]["prsMerged"] == 1
    assert cid == "c1"


def test_commit_event_at_the_result() -> None:
    s = S()
    s.call(1, command="git commit -m x", dur=2)
    s.facts.facts[-1].outputs.append(Commit("abc1234", 2, 5, 1))
    m = s.build()
    commit = ev(m, "commit")[0]
    assert (commit["t"], commit["sha"], commit["files"], commit["ins"], commit["del"]) == (2000, "abc1234", 2, 5, 1)
    assert m["totals"]["commits"] == 1


def test_tasks_one_per_turn() -> None:
    s = S()
    s.add(ErrorFact(T0 - 5000, "main", "hook", "hook_error", hook="SessionStart", hook_event="SessionStart"))
    s.user(0)
    s.llm(0)
    s.user(10)
    s.llm(10)
    s.facts.lanes["sa-aaaaaaaaaaaa"] = Lane("sa-aaaaaaaaaaaa", "subagent")
    s.llm(11, agent="sa-aaaaaaaaaaaa")
    m = s.build()
    assert [(t["n"], t["startSeq"], t["endSeq"], t["firstTurn"]) for t in m["tasks"]] == [(1, 0, 2, 0), (2, 3, 5, 1)]
    assert [e["task"] for e in m["events"]] == [1, 1, 1, 2, 2, 2]
    assert all(t["source"] == "turns" and "name" not in t for t in m["tasks"])


def test_files_numbered_by_first_touch_and_buckets_are_not_files() -> None:
    s = S()
    s.call(5, "read", name="Read", paths=(f"{ROOT}/b.py",))
    s.call(1, "read", name="Read", paths=(f"{ROOT}/a.py",))
    s.call(2, "edit", name="Write", paths=("/tmp/scratch.txt",), op="create")
    s.call(3, "read", name="Read", paths=("/home/u/.ssh/config",))
    m = s.build()
    assert [(f["id"], f["path"]) for f in m["files"]] == [(0, "a.py"), (1, "b.py")]
    labels = [t["label"] for e in m["events"] for t in e.get("targets", []) if "label" in t]
    assert labels == ["/tmp (scratch)", "~ (home)"]
    assert m["totals"]["filesTouched"] == 2


def test_no_known_root_means_nothing_is_repo_relative() -> None:
    s = S()
    s.facts.roots = ()
    s.call(1, "read", name="Read", paths=("src/a.py",))
    m = s.build()
    assert m["files"] == [] and "repos" not in m


def test_model_switch_within_a_lane_only() -> None:
    s = S()
    s.llm(0, model="claude-sonnet-4-5")
    s.facts.lanes["sa-bbbbbbbbbbbb"] = Lane("sa-bbbbbbbbbbbb", "subagent")
    s.llm(1, agent="sa-bbbbbbbbbbbb", model="claude-haiku-4-5")
    s.llm(2, model="claude-opus-4-5")
    m = s.build()
    switches = ev(m, "model_switch")
    assert [(e["from"], e["to"]) for e in switches] == [("claude-sonnet-4-5", "claude-opus-4-5")]
    assert m["session"]["models"] == ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-5"]


def test_truncation_keeps_the_earliest_events_and_counts_everything() -> None:
    s = S()
    s.user(0)
    for i in range(10):
        s.call(1 + i, "read", name="Read", paths=(f"{ROOT}/f{i}.py",), err="not_found" if i == 9 else None)
    s.add(Compaction(T0 + 20_000, "main", "auto", 100))
    m = s.build(cap=5)
    assert m["session"]["truncated"] is True
    assert len(m["events"]) == 5 and [e["seq"] for e in m["events"]] == list(range(5))
    assert m["totals"]["calls"] == 10 and m["totals"]["errors"] == 1 and m["totals"]["compactions"] == 1
    assert [f["id"] for f in m["files"]] == [0, 1, 2, 3]
    assert m["tasks"][0]["endSeq"] == 4
    assert m["totals"]["filesTouched"] == 10


def test_totals_tokens_cost_latency() -> None:
    s = S()
    s.llm(0, model="claude-sonnet-4-5-20250929", latency=1)
    s.llm(5, model="claude-sonnet-4-5-20250929", latency=3)
    s.llm(9, model="unknown-model", latency=2)
    m = s.build()
    tot = m["totals"]
    assert tot["tokens"] == 3 * 100 and tot["outputTokens"] == 120
    # sonnet: (10*3 + 20*3.75 + 30*0.3 + 40*15) / 1e6 per response
    assert tot["costUsd"] == pytest.approx(2 * (10 * 3 + 20 * 3.75 + 30 * 0.3 + 40 * 15) / 1e6)
    assert "cost" not in ev(m, "llm")[2]
    assert (tot["llmLatencyP50"], tot["llmLatencyP95"]) == (2000, 3000)
    assert tot["maxContext"] == 60


def test_percentile_nearest_rank() -> None:
    assert percentile([], 50) is None
    assert percentile([5.0], 95) == 5.0
    assert percentile([float(i) for i in range(1, 101)], 95) == 95.0


def test_an_empty_session_still_makes_a_valid_map() -> None:
    s = S()
    s.facts.first_seen = T0
    m = s.build()
    assert m["events"] == [] and m["session"]["startedAt"] == "2026-02-02T02:40:00.000Z"
    jsonschema.Draft202012Validator(shipped()).validate(m)


def test_duration_ends_at_the_end_of_the_last_event() -> None:
    # issue 15 item 3: a session whose last event is a 68 s tool call ends 68 s after that call starts
    s = S()
    s.user(0)
    s.llm(1, latency=2.0)
    s.call(26, dur=68.0)  # the last event by start time; its result comes at 94 s
    m = s.build()
    assert m["events"][-1]["kind"] in ("exec", "delay")
    assert m["session"]["durationMs"] == 94_000
    s2 = S()
    s2.user(0)
    s2.llm(10, latency=15.0, tools=0, stop="end_turn")  # the last event is a response that streams 15 s
    assert s2.build()["session"]["durationMs"] == 25_000


def test_duration_of_a_lone_event_without_duration_is_zero() -> None:
    s = S()
    s.user(0)
    assert s.build()["session"]["durationMs"] == 0
