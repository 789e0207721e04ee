"""The older Codex rollout layouts: telling the single-JSON `.json` rollout from JSON Lines, and its
chat-completions shaped items as response items (so one reader handles every layout).
"""
from __future__ import annotations

from typing import Any

import orjson

from redact.formats.codex.keys import (
    ARGUMENTS, CALL_ID, CALL_NAME, CHAT_CALL_ID, CHAT_CONTENT, CHAT_ROLE, CONTENT, FUNCTION, FUNCTION_ARGUMENTS,
    FUNCTION_NAME, ITEM_TYPE, OUTPUT, OUTPUT_CALL_ID, REASONING, ROLE, TOOL_CALL_ID, TOOL_CALLS,
)
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
    role = item.get(CHAT_ROLE)
    if role == "tool":
        return [{ITEM_TYPE: "function_call_output", OUTPUT_CALL_ID: item.get(TOOL_CALL_ID),
                 OUTPUT: item.get(CHAT_CONTENT)}]
    if role == "user":
        return [{ITEM_TYPE: "message", ROLE: "user", CONTENT: item.get(CHAT_CONTENT)}]
    if role != "assistant":
        return [{ITEM_TYPE: "message", ROLE: role}]
    out: list[dict[str, Any]] = []
    if item.get(REASONING):
        out.append({ITEM_TYPE: "reasoning"})
    if item.get(CHAT_CONTENT):
        out.append({ITEM_TYPE: "message", ROLE: "assistant", CONTENT: item.get(CHAT_CONTENT)})
    calls = item.get(TOOL_CALLS)
    for tc in calls if isinstance(calls, list) else []:
        fn = tc.get(FUNCTION) if isinstance(tc, dict) else None
        if isinstance(fn, dict):
            out.append({ITEM_TYPE: "function_call", CALL_ID: tc.get(CHAT_CALL_ID), CALL_NAME: fn.get(FUNCTION_NAME),
                        ARGUMENTS: fn.get(FUNCTION_ARGUMENTS)})
    return out
