"""The older Codex rollout layouts: telling the single-JSON `.json` rollout from JSON Lines, and its
chat-completions shaped items as response items (so one reader handles every layout).
"""
from __future__ import annotations

from typing import Any

import orjson

from redact.formats.codex.table import sniff_doc
from redact.formats.common import parse_json_string

HEAD = 1 << 16


def may_be_document(head: bytes) -> bool:
    """Whether a file starting with `head` may be one JSON document rather than JSON Lines: its
    first line is not a whole JSON value (pretty-printed), or it has one line only."""
    stripped = head.lstrip()
    if stripped[:1] != b"{":
        return False
    nl = stripped.find(b"\n")
    if nl == -1:
        return True
    return parse_json_string(stripped[:nl].decode("utf-8", "replace")) is None


def document_of(data: bytes) -> Any:
    """The single-JSON rollout held in `data`, or None when `data` is JSON Lines (a damaged first
    line is left to the line reader, which names it)."""
    if not may_be_document(data[:HEAD]):
        return None
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    return doc if sniff_doc(doc) else None


def chat_items(item: dict[str, Any]) -> list[dict[str, Any]]:
    """A chat-completions shaped item of a single-JSON rollout as response items."""
    role = item.get("role")
    if role == "tool":
        return [{"type": "function_call_output", "call_id": item.get("tool_call_id"),
                 "output": item.get("content")}]
    if role == "user":
        return [{"type": "message", "role": "user", "content": item.get("content")}]
    if role != "assistant":
        return [{"type": "message", "role": role}]
    out: list[dict[str, Any]] = []
    if item.get("reasoning"):
        out.append({"type": "reasoning"})
    if item.get("content"):
        out.append({"type": "message", "role": "assistant", "content": item.get("content")})
    calls = item.get("tool_calls")
    for tc in calls if isinstance(calls, list) else []:
        fn = tc.get("function") if isinstance(tc, dict) else None
        if isinstance(fn, dict):
            out.append({"type": "function_call", "call_id": tc.get("id"), "name": fn.get("name"),
                        "arguments": fn.get("arguments")})
    return out
