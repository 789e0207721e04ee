"""Cline task logs, declared: message types, tools, the sniffer and the task folder's other files.

Cline (VS Code extension `saoudrizwan.claude-dev`) keeps each task in
`globalStorage/<extension id>/tasks/<task id>/`: `ui_messages.json` (what the chat view showed: a
list of `{ts, type: say|ask, say|ask: <subtype>, text, ...}`), `api_conversation_history.json` (the
messages sent to the model) and `task_metadata.json`. Its forks Roo Code
(`rooveterinaryinc.roo-cline`) and Kilo Code (`kilocode.kilo-code`) write the same files. The session
is `ui_messages.json`: it holds the prompts, each API request's tokens and cost
(`api_req_started`, whose `text` is JSON), the tools (`tool`: JSON), the shell commands (`command`,
with their `command_output`) and the errors. The other files of a task folder repeat that content
as model messages or hold settings: batch mode skips them by name and says so. The class of every
field, and what the reader keeps of it, is the format's one table (`native_table.py`); docs/formats.md
renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

#: `say` subtype -> handling
SAYS: dict[str, str] = {
    "task": "mapped (the first prompt: length, images, URL count)",
    "user_feedback": "mapped (a prompt)",
    "api_req_started": "mapped (an llm event: tokensIn/Out, cacheWrites/Reads; cancelReason: an error)",
    "text": "mapped (the current response's text length)",
    "reasoning": "mapped (the current response's thinking)",
    "tool": "mapped (a tool call; see the tool table)",
    "command": "mapped (a shell command: verb)",
    "command_output": "mapped (the command's output size, commits and PRs it confirms)",
    "mcp_server_response": "mapped (the MCP call's output size)",
    "error_retry": "mapped (an error event, llm, retried)",
    "error": "mapped (an error event, orchestration)",
    "completion_result": "skipped",
    "checkpoint_created": "skipped",
    "task_progress": "skipped",
    "api_req_retried": "skipped",
    "api_req_finished": "skipped",
    "deleted_api_reqs": "skipped",
    "shell_integration_warning": "skipped",
    "mcp_server_request_started": "skipped",
    "browser_action": "skipped",
    "browser_action_result": "skipped",
    "browser_action_launch": "mapped (a tool call: browser_action)",
    "diff_error": "skipped",
    "clineignore_error": "skipped",
    "info": "skipped",
    "hook": "skipped",
    "hook_output": "skipped",
}
#: `ask` subtype -> handling
ASKS: dict[str, str] = {
    "tool": "mapped (a tool call awaiting approval: no result is recorded)",
    "command": "mapped (a shell command awaiting approval)",
    "command_output": "mapped (the command's output size)",
    "use_mcp_server": "mapped (an MCP call: serverName, toolName)",
    "followup": "mapped (a tool call: ask_followup_question, waits on the user)",
    "api_req_failed": "mapped (an error event, llm)",
    "mistake_limit_reached": "mapped (an error event, orchestration)",
    "browser_action_launch": "mapped (a tool call: browser_action)",
    "completion_result": "skipped",
    "resume_task": "skipped",
    "resume_completed_task": "skipped",
    "plan_mode_respond": "skipped",
    "auto_approval_max_req_reached": "skipped",
    "new_task": "skipped",
    "condense": "skipped",
    "report_bug": "skipped",
}
#: `tool` JSON `tool` -> (event kind, edit op)
TOOLS: dict[str, tuple[str, str | None]] = {
    "readFile": ("read", None),
    "editedExistingFile": ("edit", "modify"), "appliedDiff": ("edit", "modify"),
    "newFileCreated": ("edit", "create"), "fileDeleted": ("edit", "delete"),
    "searchFiles": ("search", None), "listFilesTopLevel": ("search", None),
    "listFilesRecursive": ("search", None), "listCodeDefinitionNames": ("search", None),
    "codebaseSearch": ("search", None),
    "webFetch": ("web", None), "webSearch": ("web", None),
    "summarizeTask": ("tool", None), "newTask": ("subagent", None), "useSkill": ("skill", None),
}
REQ_APP = "REQ_APP"  # the marker Cline appends to a command that asked for approval

_TASK_FILES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"api_conversation_history\.json"),
     "Cline API history (the model's messages; the task is read from ui_messages.json)"),
    (re.compile(r"task_metadata\.json"), "Cline task metadata, not a session log"),
    (re.compile(r"context_history\.json"), "Cline context history, not a session log"),
)


def _message_like(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("ts"), (int, float)) and \
        value.get("type") in ("say", "ask") and isinstance(value.get(value["type"]), str)


def sniff(records: list[dict[str, Any]]) -> bool:
    return False


def sniff_doc(doc: Any) -> bool:
    """A ui_messages.json: a list of `{ts, type: say|ask, say|ask: ...}` messages."""
    return isinstance(doc, list) and bool(doc) and all(_message_like(m) for m in doc[:20])


def list_sessions(folder: Path) -> list[Path]:
    """The tasks under a Cline (or Roo Code, Kilo Code) folder: `tasks/<id>/ui_messages.json`."""
    return sorted(p for p in folder.rglob("ui_messages.json") if p.is_file() and p.parent.parent.name == "tasks")


def auxiliary(folder: Path) -> list[tuple[Path, str]]:
    """The other files of the task folders under `folder`, with why each is not read."""
    out: list[tuple[Path, str]] = []
    for log in list_sessions(folder):
        for path in sorted(log.parent.rglob("*")):
            if not path.is_file() or path == log:
                continue
            why = next((w for p, w in _TASK_FILES if p.fullmatch(path.name)),
                       "a file of a Cline task folder, not a session log")
            out.append((path, why))
    return out


def markdown() -> str:
    """The tables as docs/formats.md shows them (a test keeps the two equal)."""
    out = ["| message | handling |", "|---|---|"]
    out += [f"| say `{kind}` | {how} |" for kind, how in SAYS.items()]
    out += [f"| ask `{kind}` | {how} |" for kind, how in ASKS.items()]
    out.append("| any other subtype | skipped, counted by name when it has a safe shape |")
    out += ["", "| tool (`tool` JSON) | event kind |", "|---|---|"]
    out += [f"| `{name}` | {kind}{f' ({op})' if op else ''} |" for name, (kind, op) in TOOLS.items()]
    out.append("| anything else | tool |")
    return "\n".join(out) + "\n"
