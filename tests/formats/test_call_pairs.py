"""The pairing of tool calls with their results that the chat-log readers share
(redact/formats/chatlog.py `CallPairs`): a call id is made once and answered once, and every call or
answer it refuses is counted by the name its reader gives, never read. Checked on the helper itself
and through two readers that use it (Pi's and Hermes's JSON Lines), with sessions written here."""
from __future__ import annotations

from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from redact.build.facts import MAIN, LlmResponse, SessionFacts, ToolCall, ToolResult
from redact.formats.chatlog import CallPairs
from redact.formats.hermes.reader import read_session as read_hermes
from redact.formats.pi.reader import read_session as read_pi
from redact.report import RedactionReport


class _Reader(CallPairs):
    def __init__(self) -> None:
        self.report = RedactionReport(source="x")
        self.s = SessionFacts(agent_tool="t", native_id="")
        self.calls: dict[str, ToolCall] = {}
        self.done: set[str] = set()


def test_a_call_is_made_once_and_answered_once() -> None:
    r = _Reader()
    llm = LlmResponse(1.0, MAIN, None)
    assert r.open_call(llm, "c1", "Bash", {"command": "ls"}, 1.0, aliases={}, nameless="use:<no id>") is not None
    assert r.open_call(llm, "c1", "Bash", {}, 2.0, aliases={}, nameless="use:<no id>") is None
    assert r.open_call(llm, "", "Bash", {}, 2.0, aliases={}, nameless="use:<no id>") is None
    assert r.open_call(llm, "c2", None, {}, 2.0, aliases={}, nameless="use:<no id>") is None
    assert llm.tool_calls == 1 and [f.call_id for f in r.s.facts if isinstance(f, ToolCall)] == ["c1"]
    assert r.answered("c1", unmatched="res:<no call>") is r.calls["c1"]
    assert r.answered("c1", unmatched="res:<no call>") is None
    assert r.answered("nope", unmatched="res:<no call>") is None
    assert r.answered(7, unmatched="res:<no call>") is None
    assert dict(r.report.skipped_records) == {"<duplicate>": 2, "use:<no id>": 2, "res:<no call>": 2}


def test_a_reader_may_count_a_second_call_as_it_names_it() -> None:
    r = _Reader()
    llm = LlmResponse(1.0, MAIN, None)
    r.open_call(llm, "c1", "Read", {}, 1.0, aliases={}, nameless="n")
    assert r.open_call(llm, "c1", "Read", {}, 1.0, aliases={}, nameless="n", again="n") is None
    assert dict(r.report.skipped_records) == {"n": 1}


def _pi(answers: list[str]) -> bytes:
    lines: list[dict[str, Any]] = [
        {"type": "session", "id": "s1", "timestamp": "2025-01-01T00:00:00Z", "cwd": "/tmp/w"},
        {"type": "message", "timestamp": "2025-01-01T00:00:01Z", "message": {
            "role": "assistant", "content": [
                {"type": "toolCall", "id": "a", "name": "bash", "arguments": {"command": "ls"}},
                {"type": "toolCall", "id": "a", "name": "bash", "arguments": {"command": "pwd"}}],
            "usage": {"input": 1, "output": 1}, "stopReason": "toolUse"}},
    ]
    for i, call_id in enumerate(answers):
        lines.append({"type": "message", "timestamp": f"2025-01-01T00:00:0{2 + i}Z", "message": {
            "role": "toolResult", "toolCallId": call_id, "content": [{"type": "text", "text": "x"}],
            "isError": False}})
    return b"".join(orjson.dumps(x) + b"\n" for x in lines)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["a", "b"]), max_size=5))
def test_pi_answers_each_call_once(answers: list[str]) -> None:
    report = RedactionReport(source="x")
    s = read_pi(_pi(answers), "s.jsonl", report=report)
    results = [f for f in s.facts if isinstance(f, ToolResult)]
    assert [f.call_id for f in s.facts if isinstance(f, ToolCall)] == ["a"]
    assert len(results) == (1 if "a" in answers else 0)
    again = answers.count("a") - 1 if "a" in answers else 0
    assert report.skipped_records["<duplicate>"] == 1 + again  # the second call of `a`, each later answer
    assert report.skipped_records["message:toolResult:<no call>"] == answers.count("b")


def test_hermes_answers_each_call_once() -> None:
    lines = [
        {"role": "session_meta", "timestamp": "2025-01-01T00:00:00", "session_id": "h"},
        {"role": "assistant", "timestamp": "2025-01-01T00:00:01", "content": "", "tool_calls": [
            {"id": "a", "function": {"name": "terminal", "arguments": "{\"command\": \"ls\"}"}},
            {"id": "", "function": {"name": "terminal", "arguments": "{}"}}]},
        {"role": "tool", "timestamp": "2025-01-01T00:00:02", "tool_call_id": "a", "content": "ok"},
        {"role": "tool", "timestamp": "2025-01-01T00:00:03", "tool_call_id": "a", "content": "ok"},
        {"role": "tool", "timestamp": "2025-01-01T00:00:04", "tool_call_id": "z", "content": "ok"},
    ]
    report = RedactionReport(source="x")
    s = read_hermes(b"".join(orjson.dumps(x) + b"\n" for x in lines), "h.jsonl", report=report)
    assert [f.call_id for f in s.facts if isinstance(f, ToolCall)] == ["a"]
    assert [f.call_id for f in s.facts if isinstance(f, ToolResult)] == ["a"]
    assert report.skipped_records["tool_call:<no id or name>"] == 1
    assert report.skipped_records["<duplicate>"] == 1
    assert report.skipped_records["tool:<no call>"] == 1
