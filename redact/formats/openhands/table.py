"""OpenHands V1 conversations, declared: event kinds, action kinds and the sniffer.

`events.json` is a list of events `{id, timestamp, source, kind, ...}`. The class of every field, and
what the reader keeps of it, is the format's one table (`native_table.py`); docs/formats.md renders
both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

from typing import Any

#: Event kinds. "mapped": read for facts; "skipped": counted by kind, never read.
EVENT_KINDS: dict[str, str] = {
    "MessageEvent": "mapped",  # source user: a prompt (length); source agent: a reply (length)
    "ActionEvent": "mapped",  # a tool call; its llm_response_id groups calls into model calls
    "ObservationEvent": "mapped",  # a tool result, paired by tool_call_id
    "AgentErrorEvent": "mapped",  # a failed tool call
    "UserRejectObservation": "mapped",  # a call the user refused
    "Condensation": "mapped",  # a compaction of the history
    "SystemPromptEvent": "skipped",  # the system prompt and the tools' descriptions
    "CondensationRequest": "skipped",
    "PauseEvent": "skipped",
    "ConversationStateUpdateEvent": "skipped",
}
#: action kinds -> (the shared tool table's name, what a FileEditorAction's command does)
ACTIONS: dict[str, str] = {
    "TerminalAction": "bash", "ExecuteBashAction": "bash", "FileEditorAction": "file_editor",
    "StrReplaceEditorAction": "file_editor", "ThinkAction": "think", "FinishAction": "finish",
    "TaskTrackerAction": "task_tracker", "BrowserNavigateAction": "web_fetch",
}
#: FileEditorAction.command -> (event kind, file op)
EDITOR: dict[str, tuple[str, str | None]] = {
    "view": ("read", None), "create": ("edit", "create"), "str_replace": ("edit", "modify"),
    "insert": ("edit", "modify"), "undo_edit": ("edit", "modify"),
}

def _event(e: object) -> bool:
    return isinstance(e, dict) and isinstance(e.get("kind"), str) and "timestamp" in e and "source" in e \
        and "id" in e


def sniff(records: list[dict[str, Any]]) -> bool:
    return False  # one JSON document


def sniff_doc(doc: Any) -> bool:
    if not isinstance(doc, list) or not doc:
        return False
    head = doc[:25]
    return all(_event(e) for e in head) and any(e["kind"] in EVENT_KINDS for e in head)


def markdown() -> str:
    lines = ["| event kind | handling |", "|---|---|"]
    for kind, how in EVENT_KINDS.items():
        lines.append(f"| `{kind}` | {how} |")
    lines.append("| any other kind | skipped, counted by name when it has a safe shape |")
    lines += ["", "| action kind | read as |", "|---|---|"]
    for kind, name in ACTIONS.items():
        lines.append(f"| `{kind}` | `{name}` (the shared tool table; `file_editor` by its command) |")
    return "\n".join(lines) + "\n"
