"""Build Codex CLI rollouts for tests, shaped like the real ones (modern layout: one
`{"timestamp", "type", "payload"}` record per line; arguments and outputs are JSON inside strings)."""
from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import orjson


def iso(ms: float) -> str:
    dt = datetime.fromtimestamp(ms / 1000, tz=UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


class Rollout:
    def __init__(self, session_id: str, *, start: str = "2026-03-02T09:00:00.000Z") -> None:
        self.session_id = session_id
        self.t = datetime.fromisoformat(start.replace("Z", "+00:00")).timestamp() * 1000
        self.records: list[dict[str, Any]] = []
        self.n = 0

    def tick(self, ms: float) -> Rollout:
        self.t += ms
        return self

    def call_id(self) -> str:
        self.n += 1
        return f"call_{self.n:04d}AbCdEfGhIjKl"

    def add(self, kind: str, payload: Any) -> None:
        self.records.append({"timestamp": iso(self.t), "type": kind, "payload": payload})

    def raw(self, record: dict[str, Any]) -> None:
        self.records.append(record)

    def meta(self, cwd: str, *, remote: str | None = "git@github.com:acme-corp/acme-shop.git",
             branch: str = "main", instructions: str | None = None, source: Any = "cli") -> None:
        git = {"commit_hash": "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432", "branch": branch}
        if remote is not None:
            git["repository_url"] = remote
        self.add("session_meta", {"id": self.session_id, "timestamp": iso(self.t), "cwd": cwd,
                                  "originator": "codex_cli_rs", "cli_version": "0.128.0",
                                  "instructions": instructions, "source": source,
                                  "model_provider": "openai", "git": git})

    def turn(self, cwd: str, model: str = "gpt-5.1-codex", **extra: Any) -> None:
        self.add("turn_context", {"cwd": cwd, "approval_policy": "on-request",
                                  "sandbox_policy": {"type": "workspace-write", "network_access": False},
                                  "model": model, "summary": "auto", **extra})

    def item(self, payload: dict[str, Any]) -> None:
        self.add("response_item", payload)

    def event(self, payload: dict[str, Any]) -> None:
        self.add("event_msg", payload)

    def user(self, text: str, *, images: list[str] | None = None) -> None:
        self.item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]})
        self.event({"type": "user_message", "message": text, "images": images or [], "kind": "plain"})

    def reasoning(self, summary: str, encrypted: str = "gAAAAABo" + "x" * 40) -> None:
        self.item({"type": "reasoning", "summary": [{"type": "summary_text", "text": summary}],
                   "content": None, "encrypted_content": encrypted})
        self.event({"type": "agent_reasoning", "text": summary})

    def say(self, text: str) -> None:
        self.event({"type": "agent_message", "message": text})
        self.item({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]})

    def function_call(self, name: str, args: Any, call_id: str | None = None, **extra: Any) -> str:
        cid = call_id or self.call_id()
        arguments = args if isinstance(args, str) else json.dumps(args)
        self.item({"type": "function_call", "name": name, "arguments": arguments, "call_id": cid, **extra})
        return cid

    def output(self, call_id: str, output: Any) -> None:
        self.item({"type": "function_call_output", "call_id": call_id,
                   "output": output if isinstance(output, str) else json.dumps(output)})

    def patch(self, patch: str, call_id: str | None = None) -> str:
        cid = call_id or self.call_id()
        self.item({"type": "custom_tool_call", "status": "completed", "call_id": cid, "name": "apply_patch",
                   "input": patch})
        return cid

    def patch_output(self, call_id: str, output: str | dict[str, Any]) -> None:
        self.item({"type": "custom_tool_call_output", "call_id": call_id,
                   "output": output if isinstance(output, str) else json.dumps(output)})

    def tokens(self, total: tuple[int, int, int], last: tuple[int, int, int] | None) -> None:
        """(input, cached, output) totals and last-request usage; last None: a rate-limit update."""
        def usage(u: tuple[int, int, int]) -> dict[str, int]:
            return {"input_tokens": u[0], "cached_input_tokens": u[1], "output_tokens": u[2],
                    "reasoning_output_tokens": u[2] // 2, "total_tokens": u[0] + u[2]}
        info = None if last is None else {"total_token_usage": usage(total), "last_token_usage": usage(last),
                                          "model_context_window": 272000}
        self.event({"type": "token_count", "info": info,
                    "rate_limits": {"primary": {"used_percent": 3.0, "window_minutes": 300}}})

    def bytes(self) -> bytes:
        return b"".join(orjson.dumps(r) + b"\n" for r in self.records)
