"""GitHub Copilot CLI session logs, declared: event types, tools, the sniffer and the session folder.

Copilot CLI writes one JSONL event log per session, each line `{type, data, id, parentId,
timestamp}`. Current clients keep a folder per session, `~/.copilot/session-state/<id>/`, holding
`events.jsonl`, `workspace.yaml` (id, cwd, a summary), `checkpoints/` (Markdown summaries),
`rewind-snapshots/` (an index and backups of project files) and `inuse.<pid>.lock`; older clients
wrote a flat `~/.copilot/session-state/<id>.jsonl` (`copilotVersion: "unknown"`). The session is its
event log; from the folder only `workspace.yaml`'s `cwd` is read (when the log names none), and the
other files are skipped by name in batch mode (they hold text: summaries, prompts, file copies).
The class of every field, and what the reader keeps of it, is the format's one table
(`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

#: event type -> handling
EVENT_TYPES: dict[str, str] = {
    "session.start": "mapped (session id, start, working directory and git root, repository)",
    "session.resume": "mapped (working directory when none is known yet)",
    "user.message": "mapped (a prompt: length, images, URL count)",
    "assistant.message": "mapped (an llm event: outputTokens, reasoning, text length, tool requests)",
    "tool.execution_start": "mapped (a tool call)",
    "tool.execution_complete": "mapped (its result: success, error, output size, exit code, model)",
    "session.model_change": "mapped (the model of later responses)",
    "session.error": "mapped (an error event: llm for model calls, else orchestration)",
    "session.compaction_complete": "mapped (a compaction, with the tokens before it)",
    "subagent.started": "mapped (a subagent lane and its type)",
    "hook.end": "mapped when it failed (an error event, hook)",
    "abort": "mapped (an error event: interrupted)",
    "hook.start": "skipped",
    "system.message": "skipped",
    "system.notification": "skipped",
    "assistant.turn_start": "skipped",
    "assistant.turn_end": "skipped",
    "assistant.reasoning": "skipped",
    "session.info": "skipped",
    "session.warning": "skipped",
    "session.mode_changed": "skipped",
    "session.task_complete": "skipped",
    "session.shutdown": "skipped (its per-model totals are not split per request)",
    "session.compaction_start": "skipped",
    "subagent.completed": "skipped",
    "skill.invoked": "skipped",
}

#: tool name -> event kind
TOOLS: dict[str, str] = {
    "bash": "exec", "powershell": "exec", "shell": "exec",
    "view": "read", "read": "read", "read_file": "read",
    "edit": "edit", "create": "edit", "write": "edit", "str_replace_editor": "edit",
    "grep": "search", "glob": "search", "rg": "search",
    "web_fetch": "web", "fetch": "web",
    "task": "subagent",
    "skill": "skill",
    "read_bash": "tool", "write_bash": "tool", "stop_bash": "tool", "list_bash": "tool",
    "read_powershell": "tool", "write_powershell": "tool", "stop_powershell": "tool",
    "list_powershell": "tool", "read_agent": "tool", "report_intent": "tool", "task_complete": "tool",
    "ask_user": "tool", "store_memory": "tool", "think": "tool", "update_todo": "tool",
}
SHELLS = frozenset({"bash", "powershell", "shell"})
WAITS_ON_USER = frozenset({"ask_user"})
#: str_replace_editor's `command` -> (kind, op)
EDITOR_COMMANDS: dict[str, tuple[str, str | None]] = {
    "view": ("read", None), "create": ("edit", "create"), "str_replace": ("edit", "modify"),
    "insert": ("edit", "modify"), "undo_edit": ("edit", "modify"),
}

_HEX_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
#: files of a session folder that are not the event log -> why they are skipped
FOLDER_FILES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"workspace\.yaml"), "Copilot CLI workspace file (only its cwd is read, with the session)"),
    (re.compile(r"inuse\.\d+\.lock"), "Copilot CLI lock file"),
)
FOLDER_DIRS = {
    "checkpoints": "Copilot CLI checkpoint summaries, not a session log",
    "rewind-snapshots": "Copilot CLI rewind snapshots (file backups), not a session log",
}


def sniff(records: list[dict[str, Any]]) -> bool:
    """An event log: `{type, data, id, timestamp}` lines starting with `session.start` by Copilot."""
    if not records:
        return False
    first = records[0]
    data = first.get("data")
    return first.get("type") == "session.start" and isinstance(data, dict) and \
        (data.get("producer") == "copilot-agent" or "copilotVersion" in data) and "id" in first


def sniff_doc(doc: Any) -> bool:
    return False


def _is_log(path: Path) -> bool:
    if path.name == "events.jsonl":
        return bool(_HEX_ID.fullmatch(path.parent.name))
    return path.suffix == ".jsonl" and bool(_HEX_ID.fullmatch(path.stem))


def list_sessions(folder: Path) -> list[Path]:
    """The event logs in a Copilot CLI folder (`~/.copilot`, `~/.copilot/session-state`, or one
    session folder): `<id>/events.jsonl`, and the legacy `<id>.jsonl`."""
    found: set[Path] = set()
    for base in (folder, folder / "session-state"):
        if not base.is_dir():
            continue
        for path in [*base.glob("*.jsonl"), *base.glob("*/events.jsonl"), base / "events.jsonl"]:
            if path.is_file() and _is_log(path):
                found.add(path)
    return sorted(found)


def find_companions(path: Path) -> list[Path]:
    """A session folder's `workspace.yaml` (its `cwd`), beside an `events.jsonl`."""
    if path.name != "events.jsonl":
        return []
    workspace = path.parent / "workspace.yaml"
    return [workspace] if workspace.is_file() else []


def auxiliary(folder: Path) -> list[tuple[Path, str]]:
    """The files of the session folders under `folder` other than the event logs, with why each is
    not read as a session."""
    out: list[tuple[Path, str]] = []
    for log in list_sessions(folder):
        if log.name != "events.jsonl":
            continue
        for path in sorted(log.parent.rglob("*")):
            if not path.is_file() or path == log:
                continue
            why = next((w for p, w in FOLDER_FILES if p.fullmatch(path.name)), None)
            if why is None:
                why = next((w for d, w in FOLDER_DIRS.items() if d in path.relative_to(log.parent).parts),
                           "a file of a Copilot CLI session folder, not a session log")
            out.append((path, why))
    return out


def markdown() -> str:
    """The tables as docs/formats.md shows them (a test keeps the two equal)."""
    out = ["| event type | handling |", "|---|---|"]
    out += [f"| `{kind}` | {how} |" for kind, how in EVENT_TYPES.items()]
    out.append("| any other type | skipped, counted by name when it has a safe shape |")
    out += ["", "| tool | event kind |", "|---|---|"]
    out += [f"| `{name}` | {kind} |" for name, kind in TOOLS.items()]
    out.append("| a tool with `mcpServerName` | mcp |")
    out.append("| anything else | tool |")
    return "\n".join(out) + "\n"
