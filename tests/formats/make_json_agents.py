"""Writes the fixture files of the JSON/JSONL agents' formats (tests/fixtures/<format>/) from the
fixture generators of tests/native (geminifix, copilotfix, vscodefix, clinefix), with sentences in
the text slots (the fuzzer's canaries are the sentences of its seed files).

Run: PYTHONPATH=. .venv/bin/python -m tests.formats.make_json_agents
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.native.clinefix import TASK_ID, ui_messages
from tests.native.copilotfix import SESSION_ID as COPILOT_ID
from tests.native.copilotfix import events
from tests.native.geminifix import recording
from tests.native.vscodefix import SESSION_ID as VSCODE_ID
from tests.native.vscodefix import chat, edit_log

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
_WORDS = ("please fix the failing checkout test for the payroll team",
          "the invoice parser drops the last line of every statement",
          "rename the customer export job and update its schedule",
          "why does the staging deploy read the old configuration file")


def sentences() -> Callable[[], str]:
    n = iter(range(10_000))
    return lambda: f"{_WORDS[(i := next(n)) % len(_WORDS)]} number {i}"


FILES: dict[str, Callable[[], bytes]] = {
    "gemini-cli/tmp/shop/chats/session-2026-04-25T08-00-3f0c9a1e.jsonl": lambda: recording(sentences()),
    "gemini-cli/tmp/shop/chats/session-2025-11-06T14-11-3f0c9a1e.json": lambda: recording(sentences(),
                                                                                      layout="json"),
    f"copilot-cli/session-state/{COPILOT_ID}/events.jsonl": lambda: events(sentences()),
    "copilot-cli/session-state/27d7ef99-f7c7-43eb-8599-cb469623c8f7.jsonl": lambda: events(sentences(), legacy=True),
    f"copilot-vscode/chatSessions/{VSCODE_ID}.json": lambda: chat(sentences()),
    "copilot-vscode/chatSessions/b733384c-75f5-4b2e-9d1a-0c6f2e8d4a10.jsonl": lambda: edit_log(sentences()),
    "copilot-vscode/export-chat.json": lambda: chat(sentences(), export=True),
    f"cline/tasks/{TASK_ID}/ui_messages.json": lambda: ui_messages(sentences()),
}


def main() -> None:
    for rel, make in FILES.items():
        path = FIXTURES / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(make())


if __name__ == "__main__":
    main()
