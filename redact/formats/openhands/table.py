"""OpenHands V1 conversations, declared: event kinds, action kinds and the class of every field.

`events.json` is a list of events `{id, timestamp, source, kind, ...}`. Only what these tables mark
as used is read; docs/formats.md renders them.
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

FIELDS: tuple[tuple[str, str, str], ...] = (
    ("*.id", "id", "an ActionEvent's id names its call; an observation's action_id pairs it"),
    ("*.timestamp", "timestamp", "event times (written without a zone: read as UTC)"),
    ("*.source", "enum", "user / agent / environment"),
    ("*.kind", "enum", "dispatch"),
    ("MessageEvent.llm_message.content[].text", "text", "length only"),
    ("MessageEvent.llm_message.role / activated_skills / extended_content", "enum/text", "-"),
    ("ActionEvent.action.kind", "enum", "the tool (see the action table)"),
    ("ActionEvent.action.command (TerminalAction)", "command", "verb (verb engine)"),
    ("ActionEvent.action.command (FileEditorAction)", "enum", "read, or an edit (create / modify)"),
    ("ActionEvent.action.path", "path", "targets"),
    ("ActionEvent.action.* (everything else)", "text", "-"),
    ("ActionEvent.tool_name", "ident:tool", "tool"),
    ("ActionEvent.tool_call_id / tool_call.id", "id", "pairs call and result when action_id is absent"),
    ("ActionEvent.llm_response_id", "id", "one llm event per response"),
    ("ActionEvent.thought[].text / reasoning_content / thinking_blocks", "text",
     "length of the thought (textChars); reasoning: presence only (thinking)"),
    ("ActionEvent.tool_call.arguments / summary / security_risk", "text/enum", "-"),
    ("ObservationEvent.tool_call_id / action_id", "id", "the call it answers"),
    ("ObservationEvent.observation.is_error / exit_code / timeout", "bool/number", "err, exitCode, errClass"),
    ("ObservationEvent.observation.content[].text", "text", "byte count"),
    ("ObservationEvent.observation.metadata.working_dir", "path", "the first one is the repository root"),
    ("ObservationEvent.observation.* (everything else)", "text/blob", "-"),
    ("AgentErrorEvent.error", "text", "errClass from the wording"),
    ("Condensation.forgotten_event_ids / summary", "id/text", "a compaction (auto)"),
    ("SystemPromptEvent.system_prompt / tools", "text", "-"),
)


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
    lines += ["", "| field | class | what the reader keeps |", "|---|---|---|"]
    for where, cls, use in FIELDS:
        lines.append(f"| `{where}` | {cls} | {use} |")
    return "\n".join(lines) + "\n"
