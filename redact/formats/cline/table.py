"""Cline task logs: the sniffer and the task folder's other files (the message and tool tables are the
one table's, `native_table.py`, importable from here).

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
renders both (scripts/gen_format_docs.py). The keys read here are named by their place in it (`keys.py`),
imported inside the functions.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from redact.formats.cline.native_table import ASKS as ASKS  # the message and tool tables, importable from here
from redact.formats.cline.native_table import SAYS as SAYS
from redact.formats.cline.native_table import TOOLS as TOOLS

REQ_APP = "REQ_APP"
HISTORY = "api_conversation_history.json"  # the marker Cline appends to a command that asked for approval

_TASK_FILES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"api_conversation_history\.json"),
     "Cline API history (the model's messages; the task is read from ui_messages.json)"),
    (re.compile(r"task_metadata\.json"), "Cline task metadata, not a session log"),
    (re.compile(r"context_history\.json"), "Cline context history, not a session log"),
)


def _message_like(value: Any) -> bool:
    from redact.formats.cline.keys import KINDS, TS, TYPE

    return isinstance(value, dict) and isinstance(value.get(TS), (int, float)) and \
        value.get(TYPE) in KINDS and isinstance(value.get(value[TYPE]), str)


def history_like(doc: Any) -> bool:
    """A task's api_conversation_history.json: Anthropic messages whose first is the user's, holding
    Cline's `<task>` wrapper (Cline sends the task as `<task>...</task>`)."""
    from redact.formats.cline.keys import BLOCK_TEXT, CONTENT, ROLE, TYPE

    if not isinstance(doc, list) or not doc or not isinstance(doc[0], dict) or TYPE in doc[0] \
            or doc[0].get(ROLE) != "user":
        return False
    if not all(isinstance(m, dict) and m.get(ROLE) in ("user", "assistant") and CONTENT in m for m in doc[:20]):
        return False
    content = doc[0][CONTENT]
    texts = [content] if isinstance(content, str) else [
        b.get(BLOCK_TEXT) for b in content if isinstance(b, dict)] if isinstance(content, list) else []
    return any(isinstance(x, str) and "<task>" in x[:200_000] for x in texts)


def sniff(records: list[dict[str, Any]]) -> bool:
    return False


def sniff_doc(doc: Any) -> bool:
    """A ui_messages.json: a list of `{ts, type: say|ask, say|ask: ...}` messages; or, for a task
    folder without one, its api_conversation_history.json (`history_like`)."""
    return isinstance(doc, list) and bool(doc) and (all(_message_like(m) for m in doc[:20]) or history_like(doc))


def list_sessions(folder: Path) -> list[Path]:
    """The tasks under a Cline (or Roo Code, Kilo Code) folder: `tasks/<id>/ui_messages.json`, or the
    task's api_conversation_history.json when it has no ui_messages.json (the folder itself may be
    the task's)."""
    found = [p for p in folder.rglob("ui_messages.json") if p.is_file() and p.parent.parent.name == "tasks"]
    have = {p.parent for p in found}
    found += [p for p in folder.rglob(HISTORY) if p.is_file() and p.parent.parent.name == "tasks"
              and p.parent not in have]
    return sorted(found)


def auxiliary(folder: Path) -> list[tuple[Path, str]]:
    """The other files of the task folders under `folder`, with why each is not read."""
    out: list[tuple[Path, str]] = []
    for log in list_sessions(folder):
        for path in sorted(log.parent.rglob("*")):
            if not path.is_file() or path == log or path.name == log.name:
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
