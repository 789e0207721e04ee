"""Amp threads (`~/.local/share/amp/threads/T-<uuid>.json`), declared: content blocks, tools and the
class of every field. Only what these tables mark as used is read; docs/formats.md renders them."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

THREAD_NAME = re.compile(r"T-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json")
#: content block types. "mapped": read for facts; "skipped": counted, never read.
BLOCKS: dict[str, str] = {
    "text": "mapped", "thinking": "mapped", "redacted_thinking": "mapped", "tool_use": "mapped",
    "tool_result": "mapped", "image": "mapped",
}
#: Amp's tool names -> the shared tool table's spelling
ALIASES: dict[str, str] = {
    "Bash": "bash", "Read": "read", "read_file": "read", "edit_file": "edit_file", "create_file": "write",
    "undo_edit": "edit_file", "format_file": "edit_file", "Grep": "grep", "glob": "glob",
    "list_directory": "list_directory", "codebase_search_agent": "codebase_search",
    "read_web_page": "web_fetch", "web_search": "web_search", "Task": "task",
}
#: tool_result.run.status -> (error, errClass)
STATUS: dict[str, tuple[bool, str | None]] = {
    "done": (False, None), "error": (True, None), "cancelled": (True, "interrupted"),
    "rejected-by-user": (True, "permission_denied"),
}

FIELDS: tuple[tuple[str, str, str], ...] = (
    ("id", "id", "session.id (the uuid of T-<uuid>)"),
    ("v / nextMessageId", "number", "-"),
    ("created", "timestamp", "first time seen (epoch ms)"),
    ("title", "text", "-"),
    ("env.initial.trees[0].uri", "path", "repository root (never written)"),
    ("env.initial.trees[].repository / displayName", "text", "-"),
    ("env.initial.platform.clientVersion", "version", "-"),
    ("usageLedger.events[].timestamp / toMessageId", "timestamp/number", "the time of an assistant message"),
    ("usageLedger.events[].model / tokens / credits", "ident:model/number", "- (the messages' usage is used)"),
    ("~debug", "blob", "never read"),
    ("messages[].role", "enum", "dispatch"),
    ("messages[].meta.sentAt", "timestamp", "a user message's time (epoch ms)"),
    ("messages[].usage.model", "ident:model", "llm model"),
    ("messages[].usage.inputTokens / outputTokens / cacheCreationInputTokens / cacheReadInputTokens",
     "number", "in, out, cw, cr"),
    ("messages[].state.stopReason", "enum", "stop"),
    ("messages[].content[].text", "text", "length only"),
    ("messages[].content[].thinking / signature", "text", "presence only (thinking)"),
    ("messages[].content[].id / toolUseID", "id", "pairs call and result"),
    ("messages[].content[].name", "ident:tool", "event kind (the shared tool table, after the aliases)"),
    ("messages[].content[].input", "blob", "command (cmd), path, url host"),
    ("messages[].content[].run.status", "enum", "done / error / cancelled / rejected-by-user"),
    ("messages[].content[].run.result / error", "text", "byte count; exitCode of a Bash result"),
    ("messages[].userState / agentMode", "blob/enum", "-"),
)


def sniff(records: list[dict[str, Any]]) -> bool:
    return False  # one JSON document


def sniff_doc(doc: Any) -> bool:
    return isinstance(doc, dict) and isinstance(doc.get("id"), str) and doc["id"].startswith("T-") and \
        isinstance(doc.get("messages"), list) and "v" in doc


def list_sessions(folder: Path) -> list[Path]:
    """The threads of Amp's `threads/` folder."""
    try:
        return sorted(p for p in folder.iterdir() if THREAD_NAME.fullmatch(p.name) and p.is_file())
    except OSError:
        return []


def markdown() -> str:
    lines = ["| tool | read as |", "|---|---|"]
    for name, alias in ALIASES.items():
        lines.append(f"| `{name}` | `{alias}` |")
    lines.append("| anything else (`todo_write`, `mermaid`, `oracle`...) | a `tool` event |")
    lines += ["", "| field | class | what the reader keeps |", "|---|---|---|"]
    for where, cls, use in FIELDS:
        lines.append(f"| `{where}` | {cls} | {use} |")
    return "\n".join(lines) + "\n"
