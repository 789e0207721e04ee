"""What the record handlers (`calls.py`, `events.py`, `responses.py`) use of the reader's state, as
a protocol.

The handlers take the reader (`reader.CodexReader`) as their first argument and the reader calls
them; naming the reader's type here instead of importing `reader.py` keeps these modules free of
an import cycle (tests/test_boundaries.py).
"""
from __future__ import annotations

from typing import Any, Protocol

from redact.build.facts import Fact, LlmResponse, SessionFacts, ToolCall, ToolResult


class CodexReader(Protocol):
    s: SessionFacts
    cwd: str | None
    calls: dict[str, ToolCall]
    results: dict[str, ToolResult]
    late: dict[str, tuple[int | None, float | None, bool | None]]
    web_ids: int
    sessions: dict[str, str]
    polls: dict[str, str]
    search_ids: int
    open_searches: list[str]
    # the model requests (`responses.py`)
    model: str | None
    timed: bool
    response: LlmResponse | None
    input_t: float | None
    unmetered: LlmResponse | None
    pending: list[tuple[tuple[int, int, int], float | None]]
    pending_models: list[str | None]
    latency_fixed: bool
    last_total: object
    last_context: int | None

    def add(self, fact: Fact) -> None: ...
    def skip(self, name: str) -> None: ...
    def gave_input(self, t: float) -> None: ...
    def open_response(self, t: float) -> LlmResponse: ...
    def call_of(self, p: dict[str, Any]) -> ToolCall | None: ...
    def compaction(self, t: float, *_: Any) -> None: ...
