"""The Codex CLI rollout format: its layouts, its tool table and its sniffers.

A rollout is `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`: one `{"timestamp", "type",
"payload"}` record per line (clients 0.3x and later). Two older layouts are read too:

- the August-2025 JSONL layout: a bare header line (`id`, `timestamp`, `instructions`, `git`), then
  response items written as they are (`{"type": "message", ...}`) between `{"record_type": "state"}`
  lines, with no time of their own;
- the single-JSON `.json` rollout: `{"session": {...}, "items": [...]}`, its items in the chat
  completions shape (`role` user / assistant / tool, `tool_calls`, `tool_call_id`).

The class of every field, and what the reader keeps of it, is the native table (`native_table.py`);
the reader (`reader.py`) reads only fields it classifies. docs/formats.md renders both
(scripts/gen_format_docs.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from redact.tables.spec import Spec

#: The record, response item and event types, and whether the reader maps each, are read off the
#: native table (`native_table.py`, the format's one table); importable from here by their old names.
_MOVED = {"RECORD_TYPES": "RECORD_TYPES", "RESPONSE_ITEMS": "RESPONSE_ITEM_TYPES", "EVENT_MSGS": "EVENT_MSG_TYPES"}


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        from redact.formats.codex import native_table

        return getattr(native_table, _MOVED[name])
    raise AttributeError(name)


#: The tool table's other rows: the call items and events that are tools of their own, and the names
#: the table does not hold (the built-in tools are `native_table.TOOLS`, rendered first).
OTHER_TOOLS: dict[str, tuple[str, str]] = {
    "local_shell_call (item)": ("exec", "`action.command` (argv array) -> verb"),
    "web_search_call (item)": ("web", "`action.url` -> host; a search -> `search`"),
    "tool_search_call (item)": ("tool", "- (`tool_search`; the query is never read)"),
    "guardian_assessment (event)": ("tool", "`status` -> err/errClass (denied: blocked, timed_out: "
                                    "timeout, aborted: interrupted); `started_at_ms`/`completed_at_ms` "
                                    "-> dur"),
    "anything else": ("tool", "-"),
    "mcp__<server>__<tool>, <server>__<tool>, or `namespace` mcp__<server>": ("mcp", "-"),
}
#: A shell call whose verb is `apply_patch` (`apply_patch <<'EOF'`, `["apply_patch", PATCH]`) is an
#: edit, read like the apply_patch tool.

def sniff(records: list[dict[str, Any]]) -> bool:
    """Whether the first records of a JSONL input look like a Codex rollout (any layout)."""
    from redact.formats.codex.keys import KIND, PAYLOAD, RECORD_TYPE, TIME
    from redact.formats.codex.native_table import RECORD_TYPES, RESPONSE_ITEM_TYPES as RESPONSE_ITEMS

    for record in records:
        kind = record.get(KIND)
        if isinstance(kind, str) and kind in RECORD_TYPES and \
                isinstance(record.get(PAYLOAD), (dict, list, str)) and TIME in record:
            return True
        if record.get(RECORD_TYPE) == "state":
            return True
    if records and _legacy_header(records[0]):
        return any(isinstance(r.get(KIND), str) and r[KIND] in RESPONSE_ITEMS for r in records[1:])
    return False


def _legacy_header(record: dict[str, Any]) -> bool:
    from redact.formats.codex.keys import HEADER_FIELDS, HEADER_ID, HEADER_TIME, KIND

    return isinstance(record.get(HEADER_ID), str) and isinstance(record.get(HEADER_TIME), str) and \
        KIND not in record and set(record) <= HEADER_FIELDS


#: A top-level key a Codex rollout never has: a document holding it is another format's (a session export).
_OTHER_DOCUMENT = "schema"


def sniff_doc(doc: object) -> bool:
    """Whether one JSON document is a single-JSON rollout (`{"session": {...}, "items": [...]}`)."""
    from redact.formats.codex.keys import DOC_ITEMS, DOC_SESSION

    return isinstance(doc, dict) and isinstance(doc.get(DOC_SESSION), dict) and \
        isinstance(doc.get(DOC_ITEMS), list) and _OTHER_DOCUMENT not in doc


def markdown() -> str:
    """The name tables as Markdown, for docs/formats.md (a test keeps the doc in step)."""
    from redact.formats.codex.native_table import EVENT_MSGS, LINES, RESPONSE_ITEMS
    from redact.formats.codex.tool_table import TOOLS

    def how(node: Spec) -> str:
        return f"mapped: {node.use}" if node.use else "skipped"

    lines = ["| record | handling |", "|---|---|"]
    for kind, node in LINES.items():
        lines.append(f"| `{kind}` | {how(node)} |")
    for kind, node in RESPONSE_ITEMS.items():
        lines.append(f"| `response_item` / `{kind}` | {how(node)} |")
    for kind, node in EVENT_MSGS.items():
        lines.append(f"| `event_msg` / `{kind}` | {how(node)} |")
    lines.append("| `record_type: state` (August 2025) | skipped |")
    lines.append("| any other type | skipped, counted by name when it has a safe shape |")
    lines += ["", "| tool | event kind | arguments read |", "|---|---|---|"]
    for name, tool in TOOLS.items():
        kind = f"{tool.kind} (waits on the user)" if tool.waits_on_user else tool.kind
        lines.append(f"| `{name}` | {kind} | {tool.reads()} |")
    for name, (kind, fields) in OTHER_TOOLS.items():
        lines.append(f"| `{name}` | {kind} | {fields} |")
    return "\n".join(lines) + "\n"
