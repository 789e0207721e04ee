"""A session-record stream (seed 002) for the native tests, written by this project: every text slot
holds a word from `c()`, the workspace root holds a user name."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

SID = "7c1e9a40-3b2d-4f5e-9a8b-1c2d3e4f5a6b"


def stream(c: Callable[[], str], user: str = "noor") -> bytes:
    root = f"/Users/{user}/code/billing"
    recs: list[dict[str, Any]] = [
        {"type": "session", "seq": 0, "id": "h", "formatVersion": "0.1",
         "agent": {"name": "claude-code", "version": "2.1.40"}, "sessionId": SID,
         "producer": {"name": "example-converter", "version": "1.2.0", "method": "converter", "instance": c(),
                      "source": {"format": "claude-code-jsonl"}, "lossy": ["thinking.signature", c()]},
         "authority": "local", "startedAt": "2026-05-04T08:00:00.000Z", "lineage": {"root": True},
         "scope": "primary",
         "workspace": {"roots": [{"id": "r1", "path": root, "vcs": {
             "type": "git", "remote": "https://github.com/acme/billing", "branch": f"feat/{c()}",
             "head": "5d1c0e2a8b7f6d5c4b3a29180f7e6d5c4b3a2918", "dirty": True}}]},
         "environment": {"os": "macos", "shell": "zsh"}, "profiles": ["core", "coding", "usage"],
         "contentLevel": "full", "extensions": [c()]},
        {"type": "message", "seq": 1, "id": "r1", "ts": "2026-05-04T08:00:01.000Z", "messageId": "msg_01",
         "role": "user", "author": "human", "origin": "prompt", "audience": "both",
         "content": [{"type": "text", "text": f"{c()} fix the {c()} invoice"}]},
        {"type": "inference", "seq": 2, "id": "r2", "inferenceId": "inf_01B", "purpose": "turn",
         "model": {"provider": "anthropic", "id": "claude-opus-4-5", "requested": "opus"},
         "usage": {"input": {"uncached": 10, "cacheRead": 20, "cacheWrite": 3}, "output": {"total": 5}},
         "latency": {"ttftMs": 100, "durationMs": 900}, "stopReason": "tool_use"},
        {"type": "message", "seq": 3, "id": "r3", "messageId": "msg_02", "inferenceId": "inf_01B",
         "role": "assistant", "author": "model", "status": "complete",
         "content": [{"type": "reasoning", "visibility": "full", "text": c()}, {"type": "text", "text": c()}]},
        {"type": "tool_call", "seq": 4, "id": "r4", "callId": "toolu_01A", "callIdSource": "native",
         "inferenceId": "inf_01B", "name": "Bash", "kind": "execute", "title": c(),
         "input": {"command": f"STRIPE_KEY={c()} npm test -- {c()}", "description": c()}},
        {"type": "tool_result", "seq": 5, "id": "r5", "callId": "toolu_01A", "linkage": "exact",
         "status": "failed", "content": [{"type": "text", "text": c()}],
         "capture": {"content": {"state": "truncated", "originalBytes": 4000,
                                 "blob": {"blob": "sha256:" + "ab" * 32, "size": 4000}}},
         "exec": {"command": f"STRIPE_KEY={c()} npm test -- {c()}", "cwd": {"root": "r1", "path": "."},
                  "exitCode": 1}, "durationMs": 3100},
        {"type": "tool_call", "seq": 6, "id": "r6", "callId": "toolu_01B", "name": "Edit", "title": c(),
         "input": {"file_path": f"{root}/src/invoice.ts", "old_string": c(), "new_string": c()}},
        {"type": "tool_result", "seq": 7, "id": "r7", "callId": "toolu_01B", "status": "completed",
         "content": [{"type": "text", "text": c()}], "durationMs": 20},
        {"type": "file_change", "seq": 8, "id": "r8", "cause": {"callId": "toolu_01B"}, "status": "applied",
         "changes": [{"op": "modify", "root": "r1", "path": "src/invoice.ts", "diff": c()}],
         "precision": "hunks"},
        {"type": "tool_call", "seq": 9, "id": "r9", "callId": "toolu_01C", "name": "mcp__jira__create",
         "kind": "other", "input": {"summary": c()}},
        {"type": "tool_call", "seq": 10, "id": "r10", "callId": "toolu_01D", "name": "web_fetch",
         "input": {"url": f"https://docs.stripe.com/{c()}?k={c()}"}},
        {"type": "vcs", "seq": 11, "id": "r11", "action": "commit", "root": "r1",
         "commit": "9b2e41c7d0a35f1e8c4b6a2d9f0e1b3c5a7d8e9f", "parents": ["5d1c0e2a8b7f6d5c4b3a29180f7e6d5c4b3a2918"],
         "branch": f"feat/{c()}", "message": c(), "cause": {"callId": "toolu_01A"}, "evidence": "parsed_output"},
        {"type": "state", "seq": 12, "id": "r12", "state": "idle", "stopReason": "end_turn"},
        {"type": "usage_summary", "seq": 13, "id": "r13", "scope": "session", "cumulative": True,
         "includesChildren": False, "coverage": "complete", "callCount": 1,
         "usage": {"input": {"uncached": 10}, "output": {"total": 5}},
         "cost": {"amount": 0.01, "currency": "USD", "source": "harness_estimated"}},
        {"type": "participants", "seq": 14, "id": "r14", "people": [c()]},
        {"type": c(), "seq": 15, "id": "r15", "text": c()},
        {"type": "message", "seq": 16, "id": "r16", "role": "user", "content": [{"type": "text", "text": c()}],
         c(): c()},
    ]
    return b"".join(orjson.dumps(r) + b"\n" for r in recs)
