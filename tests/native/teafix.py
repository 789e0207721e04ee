"""A teaagent run audit log (seed 003) for the native tests, written by this project, with a valid
hash chain in the form the native writer uses and a chain_hmac; every text slot holds a word from c()."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import orjson

RUN = "run_20260602_a1b2c3"


def log(c: Callable[[], str], user: str = "ravi", *, chain: bool = True) -> bytes:
    events: list[tuple[str, dict[str, Any]]] = [
        ("run_start", {"task": f"{c()} refactor {c()}", "provider": "claude", "model": "claude-opus-4-5",
                       "permission_mode": "prompt", "max_iterations": 10, "max_tool_calls": 10,
                       "max_estimated_cost_cents": 0, "git_sandbox": False, "allow_destructive": False}),
        ("model_request", {"provider": "claude", "model": "claude-opus-4-5", "input_tokens": 4200, "tool_count": 3,
                           "iteration": 1}),
        ("model_response", {"stop_reason": "tool_use", "output_tokens": 450, "cost_cents": 0.011,
                            "tool_calls_requested": 2}),
        ("tool_call", {"tool_name": "write_file", "call_id": "call_abc123",
                       "arguments": {"path": "src/auth.py", "content": c()}, "reasoning": c(),
                       "annotations": {"read_only": False, "destructive": True, "security_tier": "High"}}),
        ("tool_result", {"tool_name": "write_file", "call_id": "call_abc123",
                         "result": {"success": True, "bytes_written": 4096}, "elapsed_ms": 23}),
        ("approval_request", {"call_id": "call_def456", "tool_name": "shell_exec",
                              "arguments": {"command": f"rm -rf /home/{user}/{c()} && make {c()}"},
                              "reason": c(), "annotations": {"destructive": True, "security_tier": "High"}}),
        ("approval_granted", {"call_id": "call_def456", "tool_name": "shell_exec", "granted_by": "jit_prompt",
                              "reason": c()}),
        ("tool_call", {"tool_name": "shell_exec", "call_id": "call_def456",
                       "arguments": {"command": f"rm -rf /home/{user}/{c()} && make {c()}"}, "reasoning": None}),
        ("tool_result", {"tool_name": "shell_exec", "call_id": "call_def456",
                         "result": {"success": False, "exit_code": 2, "stdout": c(), "stderr": c()},
                         "elapsed_ms": 900}),
        ("tool_error", {"tool_name": "read_file", "call_id": "call_ghi789", "error_type": "PermissionError",
                        "error_message": f"Permission denied: /home/{user}/{c()}"}),
        ("cost_checkpoint", {"cumulative_cost_cents": 0.034, "cumulative_input_tokens": 8400,
                             "cumulative_output_tokens": 2700, "cap_cents": 100}),
        ("tool_call", {"tool_name": "read_file", "call_id": "call_jkl012",
                       "arguments": {"path": f"/home/{user}/notes/{c()}.txt"}}),
        (c(), {"text": c()}),
        ("run_end", {"status": "failed", "iterations": 3, "tool_calls": 7, "cost_cents": 0.042,
                     "input_tokens": 4200, "output_tokens": 1800, "error_message": c(), "final_answer": c(),
                     c(): c()}),
    ]
    out: list[bytes] = []
    prev: str | None = None
    for i, (kind, payload) in enumerate(events):
        record: dict[str, Any] = {"event_id": f"{i:02d}" + "a1b2c3d4e5f60718293a4b5c6d7e8f", "event_type": kind,
                                  "run_id": RUN, "created_at": f"2026-06-02T10:00:{i:02d}.000Z",
                                  "payload": payload, "prev_hash": prev}
        if chain:
            body = json.dumps(record, sort_keys=True, separators=(",", ":")).encode()
            record["hash"] = prev = hashlib.sha256(body).hexdigest()
            record["chain_hmac"] = hashlib.sha256(b"k" + body).hexdigest()
        out.append(orjson.dumps(record) + b"\n")
    return b"".join(out)
