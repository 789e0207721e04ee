"""The project's own fixtures for the three seed formats, written by code modelled on the seeds'
examples (tests/fixtures/session-record/, teaagent/, agent-replay/). Regenerate on purpose only:

    .venv/bin/python -m tests.formats.make_seed_formats

- session-record (seed 002): header with workspace roots, human and harness messages, inferences
  with usage, assistant messages with reasoning, tool calls of each kind with results (failed,
  completed, truncated capture), file changes (agent and human), vcs commits with and without
  evidence, state, a usage_summary (unused: the inferences carry usage), a dangling call, a
  compaction and unknown records; and a second stream whose usage comes from the summary only.
- teaagent (seed 003): every event type of the seed at audit level L3 with a valid hash chain; the
  same log with one record altered and one removed (a broken chain); a level-L2 log with
  placeholders; a level-L0 log (no payloads, no ids) without a chain.
- agent-replay (seed 004): a Run with llm_call, tool_call, retrieval, memory_read, memory_write
  steps, a failed step, and a tool_call with nested child steps (a subagent) two levels deep.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SR_DIR = FIXTURES / "session-record"
TEA_DIR = FIXTURES / "teaagent"
AR_DIR = FIXTURES / "agent-replay"
SR_MAIN = SR_DIR / "fix-parser.jsonl"
SR_SUMMARY = SR_DIR / "summary-only.jsonl"
TEA_L3 = TEA_DIR / "run_20260602_abc123.jsonl"
TEA_BROKEN = TEA_DIR / "run_20260602_broken.jsonl"
TEA_L2 = TEA_DIR / "run_20260603_l2.jsonl"
TEA_L0 = TEA_DIR / "run_20260604_l0.jsonl"
AR_TRACE = AR_DIR / "trace.json"

SECRETS = (
    "maria.gonzalez", "Fix the failing parser test", "empty input. Run the suite first",
    "I'll run the parser tests", "test parse_empty ... FAILED", "input.trim().is_empty()",
    "Accept whitespace-only input", "whitespace-only input now parses", "Reminder: keep answers short",
    "refactor the auth module now", "SECRET_API_TOKEN=tk_9f8e7d6c5b", "def login(user):",
    "Permission denied: src/auth.py", "Destructive tool requires approval", "final answer: all done",
    "billing-bot-7", "summarise the quarterly invoices", "invoice INV-2291 total", "customer Acme GmbH",
    "vector store result text", "user prefers EUR", "Rate limit reached for requests",
    "pricing lookups for the invoices",
)


def _jsonl(records: list[dict[str, Any]]) -> bytes:
    return b"".join(json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in records)


# -- session-record -----------------------------------------------------------------------------------
def session_record() -> bytes:
    root = "/home/maria.gonzalez/work/app"
    header = {
        "type": "session", "seq": 0, "id": "h", "formatVersion": "0.1",
        "agent": {"name": "claude-code", "version": "2.1.305"},
        "sessionId": "0f3c2a7e-91b4-4d0e-8f43-2b6c1d7a9e10",
        "producer": {"name": "example-converter", "version": "1.0.0", "method": "converter", "instance": "conv-7f1",
                     "source": {"format": "claude-code-jsonl"}, "lossy": ["thinking.signature"]},
        "authority": "local", "startedAt": "2026-10-26T14:02:11.204Z", "lineage": {"root": True},
        "scope": "primary",
        "workspace": {"roots": [{"id": "r1", "path": root, "vcs": {
            "type": "git", "remote": "https://maria.gonzalez:ghp_secretsecretsecret@github.com/example/app",
            "head": "5d1c0e2a8b7f6d5c4b3a29180f7e6d5c4b3a2918", "branch": "main", "dirty": False}}]},
        "environment": {"os": "linux", "shell": "bash"}, "profiles": ["core", "coding", "usage"],
        "contentLevel": "full", "extensions": [],
    }
    recs: list[dict[str, Any]] = [header]

    def add(record_type: str, seq: int, **fields: Any) -> None:
        recs.append({"type": record_type, "seq": seq, "id": f"r{seq}", **fields})

    add("message", 1, ts="2026-10-26T14:02:12.000Z", messageId="msg_00", role="user", author="harness",
        origin="reminder", audience="model", content=[{"type": "text", "text": "Reminder: keep answers short"}])
    add("message", 2, ts="2026-10-26T14:02:15.880Z", messageId="msg_01", role="user", author="human",
        origin="prompt", audience="both",
        content=[{"type": "text", "text": "Fix the failing parser test. See https://example.org/issue/7"},
                 {"type": "image", "mediaType": "image/png", "blob": {"blob": "sha256:" + "ab" * 32}}])
    add("inference", 3, inferenceId="inf_01B", purpose="turn",
        model={"provider": "anthropic", "id": "claude-opus-4-5", "requested": "opus"}, params={"effort": "high"},
        usage={"input": {"uncached": 1204, "cacheRead": 88213, "cacheWrite": 3012},
               "output": {"total": 914, "reasoning": 402}},
        cost={"amount": 0.0721, "currency": "USD", "source": "harness_estimated"},
        latency={"ttftMs": 812, "durationMs": 9150}, stopReason="tool_use")
    add("message", 4, messageId="msg_02", inferenceId="inf_01B", role="assistant", author="model",
        audience="both", status="complete",
        content=[{"type": "reasoning", "visibility": "full", "text": "The test name suggests empty input. Run the suite first."},
                 {"type": "text", "text": "I'll run the parser tests first."}])
    add("tool_call", 5, callId="toolu_01A", callIdSource="native", inferenceId="inf_01B", name="Bash",
        kind="execute", title="Run tests", input={"command": "cargo test -p parser"})
    add("tool_result", 6, callId="toolu_01A", linkage="exact", status="failed",
        content=[{"type": "text", "text": "test parse_empty ... FAILED"}],
        capture={"content": {"state": "truncated", "originalBytes": 48213,
                             "blob": {"blob": "sha256:" + "4e" * 32, "size": 48213}}},
        exec={"command": "cargo test -p parser", "cwd": {"root": "r1", "path": "."}, "exitCode": 101},
        durationMs=5210)
    add("inference", 7, ts="2026-10-26T14:02:40.000Z", inferenceId="inf_01C", purpose="turn",
        model={"provider": "anthropic", "id": "claude-opus-4-5"},
        usage={"input": {"uncached": 400, "cacheRead": 90000, "cacheWrite": 200}, "output": {"total": 300}},
        latency={"durationMs": 4000}, stopReason="tool_use")
    add("tool_call", 8, callId="toolu_01B", callIdSource="native", inferenceId="inf_01C", name="Edit",
        kind="edit", title="Edit src/parser.rs",
        input={"file_path": f"{root}/src/parser.rs", "old_string": "if input.len() == 0 {",
               "new_string": "if input.trim().is_empty() {"})
    add("tool_result", 9, callId="toolu_01B", linkage="exact", status="completed",
        content=[{"type": "text", "text": "The file src/parser.rs has been updated."}], durationMs=41)
    add("file_change", 10, cause={"callId": "toolu_01B"}, status="applied",
        changes=[{"op": "modify", "root": "r1", "path": "src/parser.rs"},
                 {"op": "create", "root": "r1", "path": "tests/empty.rs"}], precision="hunks")
    add("file_change", 11, cause={"actor": "human", "observed": True}, status="applied",
        changes=[{"op": "modify", "root": "r1", "path": "notes/maria.gonzalez.md"}], precision="whole")
    add("tool_call", 12, callId="toolu_01C", inferenceId="inf_01C", name="Read", kind="read",
        input={"file_path": "/home/maria.gonzalez/Downloads/spec.pdf"})
    add("tool_result", 13, callId="toolu_01C", status="completed", content=[{"type": "text", "text": "%PDF"}])
    add("tool_call", 14, callId="toolu_01D", callIdSource="native", inferenceId="inf_01C", name="Bash",
        kind="execute", title="Commit",
        input={"command": "git commit -am \"Accept whitespace-only input in parser\""})
    add("tool_result", 15, callId="toolu_01D", linkage="exact", status="completed",
        content=[{"type": "text", "text": "[main 9b2e41c] Accept whitespace-only input in parser\n 1 file changed, "
                                          "2 insertions(+), 2 deletions(-)"}],
        exec={"command": "git commit -am \"Accept whitespace-only input in parser\"",
              "cwd": {"root": "r1", "path": "."}, "exitCode": 0})
    add("vcs", 16, action="commit", root="r1", commit="9b2e41c7d0a35f1e8c4b6a2d9f0e1b3c5a7d8e9f",
        parents=["5d1c0e2a8b7f6d5c4b3a29180f7e6d5c4b3a2918"], branch="main", cause={"callId": "toolu_01D"},
        evidence="parsed_output")
    add("vcs", 17, action="commit", root="r1", commit="1111111111111111111111111111111111111111",
        cause={"callId": "toolu_01D"})  # mentioned, no evidence: not a commit
    add("vcs", 18, action="push", root="r1", branch="main", cause={"callId": "toolu_01D"}, evidence="observed")
    add("tool_call", 19, callId="toolu_01E", inferenceId="inf_01C", name="mcp__github__create_pull_request",
        kind="other", input={"title": "Accept whitespace-only input in parser"})
    add("tool_result", 20, callId="toolu_01E", status="completed",
        content=[{"type": "text", "text": "https://github.com/example/app/pull/12"}], durationMs=900)
    add("tool_call", 21, callId="toolu_01F", inferenceId="inf_01C", name="WebFetch", kind="fetch",
        input={"url": "https://docs.rs/nom/latest/nom/?q=empty+input#x", "prompt": "Fix the failing parser test"})
    add("tool_call", 22, callId="toolu_01G", inferenceId="inf_01C", name="Task", kind="other",
        input={"subagent_type": "Explore", "prompt": "Fix the failing parser test", "description": "look"})
    add("tool_result", 23, callId="toolu_01G", status="denied",
        content=[{"type": "text", "text": "The user doesn't want to proceed"}])
    add("compaction", 24, ts="2026-10-26T14:03:30.000Z", trigger="auto")
    add("inference", 25, ts="2026-10-26T14:03:40.000Z", inferenceId="inf_01F",
        model={"provider": "anthropic", "id": "claude-opus-4-5"},
        usage={"input": {"uncached": 100, "cacheRead": 91000, "cacheWrite": 0}, "output": {"total": 120}},
        latency={"durationMs": 2500}, stopReason="end_turn")
    add("message", 26, messageId="msg_07", inferenceId="inf_01F", role="assistant", author="model",
        content=[{"type": "text", "text": "Fixed: whitespace-only input now parses to an empty AST."}])
    add("state", 27, state="idle", stopReason="end_turn")
    add("state", 28, ts="2026-10-26T14:03:50.000Z", state="interrupted")
    add("usage_summary", 29, scope="session", cumulative=True, includesChildren=False, coverage="complete",
        callCount=3, usage={"input": {"uncached": 6120, "cacheRead": 441230, "cacheWrite": 7460},
                            "output": {"total": 3105, "reasoning": 1210}},
        cost={"amount": 0.3318, "currency": "USD", "source": "harness_estimated"})
    add("participants", 30, people=[{"name": "maria.gonzalez"}])
    add("rewind", 31, to=12)
    add("futureThing", 32, note="Fix the failing parser test")
    return _jsonl(recs)


def session_record_summary_only() -> bytes:
    recs: list[dict[str, Any]] = [
        {"type": "session", "seq": 0, "formatVersion": "0.1", "agent": {"name": "private-harness-maria.gonzalez"},
         "sessionId": "local run maria.gonzalez 42", "startedAt": "2026-10-27T08:00:00.000Z",
         "workspace": {"roots": [{"id": "r1", "path": "/home/maria.gonzalez"}]}},
        {"type": "message", "seq": 1, "ts": "2026-10-27T08:00:01.000Z", "role": "user", "origin": "prompt",
         "content": [{"type": "text", "text": "refactor the auth module now"}]},
        {"type": "usage_summary", "seq": 2, "ts": "2026-10-27T08:05:00.000Z", "scope": "session",
         "cumulative": True, "coverage": "complete", "callCount": 4,
         "usage": {"input": {"uncached": 5000, "cacheRead": 20000, "cacheWrite": 1000}, "output": {"total": 2000}}},
    ]
    return _jsonl(recs)


# -- teaagent ---------------------------------------------------------------------------------------
def _chain(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    prev: str | None = None
    out = []
    for i, event in enumerate(events):
        rec = {"event_id": f"{i + 1:032x}", **event, "prev_hash": prev}
        body = json.dumps(rec, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        rec["hash"] = hashlib.sha256(body.encode()).hexdigest()
        rec["chain_hmac"] = hashlib.sha256(b"k" + body.encode()).hexdigest()  # not verifiable without the key
        prev = rec["hash"]
        out.append(rec)
    return out


def _tea_events(level: int = 3) -> list[dict[str, Any]]:
    run = "run_20260602_abc123"
    red = "[REDACTED]" if level == 2 else None

    def ev(kind: str, at: str, payload: dict[str, Any]) -> dict[str, Any]:
        return {"event_type": kind, "run_id": run, "created_at": f"2026-06-02T10:00:{at}Z", "payload": payload}

    return [
        ev("run_start", "00.000", {"task": red or "refactor the auth module now", "provider": "claude",
                                   "model": "claude-opus-4-5", "permission_mode": "prompt", "max_iterations": 10,
                                   "max_tool_calls": 10, "max_estimated_cost_cents": 0, "git_sandbox": False,
                                   "allow_destructive": False}),
        ev("model_request", "00.100", {"provider": "claude", "model": "claude-opus-4-5", "input_tokens": 4200,
                                       "tool_count": 3, "iteration": 1}),
        ev("model_response", "02.100", {"stop_reason": "tool_use", "output_tokens": 450, "cost_cents": 0.011,
                                        "tool_calls_requested": 2}),
        ev("tool_call", "02.200", {"tool_name": "read_file", "call_id": "call_r1",
                                   "arguments": {"path": "src/auth.py"}, "reasoning": red or "def login(user):",
                                   "annotations": {"read_only": True, "destructive": False, "security_tier": "Low"}}),
        ev("tool_result", "02.250", {"tool_name": "read_file", "call_id": "call_r1",
                                     "result": {"success": True, "content": red or "def login(user):"},
                                     "elapsed_ms": 50}),
        ev("tool_call", "02.300", {"tool_name": "write_file", "call_id": "call_abc123",
                                   "arguments": {"path": "src/auth.py", "content": "[REDACTED at L2]" if level == 2
                                                 else "SECRET_API_TOKEN=tk_9f8e7d6c5b"},
                                   "reasoning": None, "annotations": {"read_only": False, "destructive": True,
                                                                      "security_tier": "High"}}),
        ev("tool_error", "02.400", {"tool_name": "write_file", "call_id": "call_abc123",
                                    "error_type": "PermissionError", "error_message": "Permission denied: src/auth.py"}),
        ev("cost_checkpoint", "02.500", {"cumulative_cost_cents": 0.034, "cumulative_input_tokens": 4200,
                                         "cumulative_output_tokens": 450, "cap_cents": 100}),
        ev("model_request", "02.600", {"provider": "claude", "model": "claude-opus-4-5", "input_tokens": 5000,
                                       "tool_count": 3, "iteration": 2}),
        ev("model_response", "05.600", {"stop_reason": "tool_use", "output_tokens": 300, "cost_cents": 0.02,
                                        "tool_calls_requested": 2}),
        ev("tool_call", "05.700", {"tool_name": "shell_exec", "call_id": "call_def456",
                                   "arguments": {"command": red or "rm -rf dist/ && SECRET_API_TOKEN=tk_9f8e7d6c5b make"},
                                   "annotations": {"destructive": True, "security_tier": "High"}}),
        ev("approval_request", "05.710", {"call_id": "call_def456", "tool_name": "shell_exec",
                                          "arguments": {"command": red or "rm -rf dist/"},
                                          "reason": "Destructive tool requires approval",
                                          "annotations": {"destructive": True, "security_tier": "High"}}),
        ev("approval_denied", "35.000", {"call_id": "call_def456", "tool_name": "shell_exec",
                                         "granted_by": "jit_prompt", "reason": red or "Destructive tool requires approval"}),
        ev("tool_call", "35.100", {"tool_name": "shell_exec", "call_id": "call_ghi789",
                                   "arguments": {"command": red or "pytest -q tests/test_auth.py"}}),
        ev("approval_request", "35.110", {"call_id": "call_ghi789", "tool_name": "shell_exec", "arguments": {},
                                          "reason": "Destructive tool requires approval", "annotations": {}}),
        ev("approval_granted", "36.000", {"call_id": "call_ghi789", "tool_name": "shell_exec",
                                          "granted_by": "jit_prompt", "reason": None}),
        ev("tool_result", "38.000", {"tool_name": "shell_exec", "call_id": "call_ghi789",
                                     "result": {"success": True, "exit_code": 0, "stdout": red or "3 passed"},
                                     "elapsed_ms": 2000}),
        ev("model_request", "38.100", {"provider": "claude", "model": "claude-opus-4-5", "input_tokens": 5600,
                                       "tool_count": 3, "iteration": 3}),
        ev("model_response", "40.100", {"stop_reason": "end_turn", "output_tokens": 120, "cost_cents": 0.01,
                                        "tool_calls_requested": 0}),
        ev("run_end", "40.200", {"status": "failed", "iterations": 3, "tool_calls": 4, "cost_cents": 0.042,
                                 "input_tokens": 14800, "output_tokens": 870,
                                 "error_message": red or "Permission denied: src/auth.py",
                                 "final_answer": red or "final answer: all done"}),
        ev("plugin_event", "40.300", {"note": red or "final answer: all done"}),
    ]


def teaagent() -> bytes:
    return _jsonl(_chain(_tea_events()))


def teaagent_broken() -> bytes:
    recs = _chain(_tea_events())
    recs[4]["payload"]["elapsed_ms"] = 5  # altered after hashing: its hash no longer matches
    del recs[9]  # removed: the next record's prev_hash points at nothing
    return _jsonl(recs)


def teaagent_l2() -> bytes:
    return _jsonl(_chain(_tea_events(level=2)))


def teaagent_l0() -> bytes:
    recs = [{"event_type": e["event_type"], "run_id": e["run_id"], "created_at": e["created_at"]}
            for e in _tea_events()]
    return _jsonl(recs)


# -- agent replay -----------------------------------------------------------------------------------
def agent_replay() -> bytes:
    run = {"run_id": "run_3f2a1b0c9d8e", "agent_name": "billing-bot-7", "task": "summarise the quarterly invoices",
           "started_at": "2026-05-01T12:00:00+00:00", "ended_at": "2026-05-01T12:01:30+00:00", "status": "failed",
           "cost_usd": 0.0123, "latency_ms": 90000, "metadata": {"owner": "maria.gonzalez"},
           "schema_version": "1.0"}
    steps = [
        {"step_id": "llm_call_1", "run_id": run["run_id"], "type": "llm_call", "name": "plan invoices",
         "input": {"model": "gpt-4o", "messages": [{"role": "user", "content": "summarise the quarterly invoices"}]},
         "output": {"role": "assistant", "content": "I will look up invoice INV-2291 total",
                    "tool_calls": [{"name": "fetch_invoice"}, {"name": "vector_search"}]},
         "state_before": {"notes": "customer Acme GmbH"}, "state_after": {"notes": "customer Acme GmbH"},
         "error": None, "usage": {"input_tokens": 1200, "output_tokens": 80, "latency_ms": 1500, "cost_usd": 0.004},
         "parent_step_id": None, "timestamp": "2026-05-01T12:00:01+00:00", "metadata": {"provider": "openai"}},
        {"step_id": "tool_call_1", "run_id": run["run_id"], "type": "tool_call", "name": "read_file",
         "input": {"path": "/home/maria.gonzalez/invoices/INV-2291.csv"}, "output": "invoice INV-2291 total 1200 EUR",
         "error": None, "usage": {"latency_ms": 20}, "parent_step_id": None,
         "timestamp": "2026-05-01T12:00:03+00:00"},
        {"step_id": "retrieval_1", "run_id": run["run_id"], "type": "retrieval", "name": "vector_search",
         "input": {"query": "customer Acme GmbH"}, "output": [{"text": "vector store result text", "score": 0.91}],
         "usage": {"latency_ms": 120}, "timestamp": "2026-05-01T12:00:04+00:00"},
        {"step_id": "memory_read_1", "run_id": run["run_id"], "type": "memory_read", "name": "prefs",
         "input": {"key": "currency", "namespace": "maria.gonzalez"}, "output": {"value": "user prefers EUR"},
         "timestamp": "2026-05-01T12:00:05+00:00"},
        {"step_id": "tool_call_2", "run_id": run["run_id"], "type": "tool_call", "name": "pricing_agent",
         "input": {"task": "pricing lookups for the invoices"}, "output": {"summary": "pricing lookups for the invoices"},
         "usage": {"latency_ms": 45000}, "timestamp": "2026-05-01T12:00:06+00:00"},
        {"step_id": "llm_call_2", "run_id": run["run_id"], "type": "llm_call", "name": "pricing model",
         "input": {"model": "gpt-4o-mini"}, "output": "pricing lookups for the invoices",
         "usage": {"prompt_tokens": 300, "completion_tokens": 40, "latency_ms": 800},
         "parent_step_id": "tool_call_2", "timestamp": "2026-05-01T12:00:07+00:00"},
        {"step_id": "tool_call_3", "run_id": run["run_id"], "type": "tool_call", "name": "web_fetch",
         "input": {"url": "https://crm-internal.corp.example/api?token=SECRET_API_TOKEN"},
         "output": "customer Acme GmbH", "usage": {"latency_ms": 300},
         "parent_step_id": "tool_call_2", "timestamp": "2026-05-01T12:00:08+00:00"},
        {"step_id": "llm_call_3", "run_id": run["run_id"], "type": "llm_call", "name": "nested deeper",
         "input": {"model": "gpt-4o-mini"}, "output": "ok", "usage": {"input_tokens": 50, "output_tokens": 5},
         "parent_step_id": "tool_call_3", "timestamp": "2026-05-01T12:00:09+00:00"},
        {"step_id": "memory_write_1", "run_id": run["run_id"], "type": "memory_write", "name": "prefs",
         "input": {"key": "last_run", "value": "user prefers EUR"}, "timestamp": "2026-05-01T12:00:50+00:00"},
        {"step_id": "llm_call_4", "run_id": run["run_id"], "type": "llm_call", "name": "final",
         "input": {"model": "gpt-4o"}, "error": "Rate limit reached for requests (429)", "usage": {},
         "timestamp": "2026-05-01T12:01:00+00:00"},
        {"step_id": "tool_call_4", "run_id": run["run_id"], "type": "tool_call", "name": "send_email",
         "input": {"to": "maria.gonzalez@example.com"}, "error": "SMTP timeout after 30s",
         "timestamp": "2026-05-01T12:01:10+00:00"},
        {"step_id": "decision_1", "run_id": run["run_id"], "type": "decision", "name": "customer Acme GmbH",
         "timestamp": "2026-05-01T12:01:20+00:00"},
    ]
    return json.dumps({"run": run, "steps": steps}, indent=2, ensure_ascii=False).encode() + b"\n"


OUTPUTS = {
    SR_MAIN: session_record, SR_SUMMARY: session_record_summary_only, TEA_L3: teaagent, TEA_BROKEN: teaagent_broken,
    TEA_L2: teaagent_l2, TEA_L0: teaagent_l0, AR_TRACE: agent_replay,
}


def write(root: Path = FIXTURES) -> None:
    for path, make in OUTPUTS.items():
        target = root / path.relative_to(FIXTURES)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(make())


if __name__ == "__main__":
    write()
