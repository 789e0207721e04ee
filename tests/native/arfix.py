"""An Agent Replay trace (seed 004) for the native tests, written by this project: every text slot
holds a word from `c()`; paths hold a user name."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

RUN_ID = "run_0a1b2c3d4e5f"


def trace(c: Callable[[], str], user: str = "mele", *, layout: str = "nested") -> bytes:
    run = {"run_id": RUN_ID, "agent_name": f"{c()}-bot", "task": f"{c()} summarise {c()}",
           "started_at": "2026-03-01T12:00:00.000Z", "ended_at": "2026-03-01T12:01:00.000Z",
           "status": "failed", "cost_usd": 0.02, "latency_ms": 60000,
           "metadata": {"team": c(), "model": "gpt-4o"}, "schema_version": "1.0"}
    steps: list[dict[str, Any]] = [
        {"step_id": "llm_call_1", "run_id": RUN_ID, "type": "llm_call", "name": c(),
         "input": {"model": "gpt-4o", "messages": [{"role": "user", "content": c()}]},
         "output": {"content": c(), "tool_calls": [{"name": "read_file"}]},
         "state_before": {"memory": [c()]}, "state_after": c(),
         "usage": {"input_tokens": 100, "output_tokens": 20, "latency_ms": 800, "cost_usd": 0.001},
         "timestamp": "2026-03-01T12:00:01.000Z", "metadata": {"provider": "openai", "model": "gpt-4o",
                                                               "trace": c()}},
        {"step_id": "tool_call_1", "run_id": RUN_ID, "type": "tool_call", "name": "read_file",
         "input": {"path": f"/home/{user}/notes/{c()}.md", "encoding": c()}, "output": c(),
         "usage": {"latency_ms": 5}, "parent_step_id": "llm_call_1", "timestamp": "2026-03-01T12:00:02.000Z"},
        {"step_id": "tool_call_2", "run_id": RUN_ID, "type": "tool_call", "name": "run_command",
         "input": {"command": f"curl -H 'Authorization: Bearer {c()}' https://{c()}.internal/x"},
         "output": None, "error": f"{c()} timed out", "timestamp": "2026-03-01T12:00:03.000Z"},
        {"step_id": "tool_call_3", "run_id": RUN_ID, "type": "tool_call", "name": "wiki_lookup",
         "input": c(), "output": [c()], "timestamp": "2026-03-01T12:00:04.000Z"},
        {"step_id": "retrieval_1", "run_id": RUN_ID, "type": "retrieval", "name": c(), "input": {"query": c()},
         "output": [{"doc": c(), "score": 0.9}], "timestamp": "2026-03-01T12:00:05.000Z"},
        {"step_id": "memory_write_1", "run_id": RUN_ID, "type": "memory_write", "name": c(),
         "input": {"key": c(), "value": c()}, "timestamp": "2026-03-01T12:00:06.000Z", c(): c()},
        {"step_id": "x_1", "run_id": RUN_ID, "type": c(), "input": c()},
    ]
    if layout == "nested":
        return orjson.dumps({"run": run, "steps": steps}, option=orjson.OPT_INDENT_2)
    if layout == "flat":
        return orjson.dumps({**run, "steps": steps})
    return b"".join(orjson.dumps(r) + b"\n" for r in [run, *steps])
