"""The Claude Code transcript format, declared: record types, the tool table, the sniffer.

The class of every field, and what the reader keeps of it, is the native table (`native_table.py`,
built on the tool table here); the reader (`reader.py`) reads only fields it classifies (a test
proves it over the fixtures). docs/formats.md renders both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

from typing import Any

#: Helper transcripts (`agent-<name>-<hex>.jsonl`) are not subagents the model launched, but the
#: seed's `agents[].kind` is only main or subagent: each becomes a subagent lane whose subagentType
#: says which helper it is, from this closed list (any other non-hex agent name: HELPER_OTHER).
HELPER_AGENTS: dict[str, str] = {
    "aside_question": "side-question",  # a /btw side question, answered beside the main agent
    "acompact": "compaction",  # the model call that writes a compaction summary
}
HELPER_OTHER = "helper"

#: Names the format's one table (`native_table.py`) holds: the record types and system subtypes the
#: reader maps (read off the tree), and the tool and hook tables the tree is built from. Importable
#: from here as before, on first use.
_MOVED = frozenset({"RECORD_TYPES", "SYSTEM_SUBTYPES", "HOOK_ATTACHMENTS", "HOOK_EVENTS", "TOOL_KINDS",
                    "PATH_INPUTS", "WAITS_ON_USER"})


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        from redact.formats.claude_code import native_table

        return getattr(native_table, name)
    raise AttributeError(name)


def sniff(records: list[dict[str, Any]]) -> bool:
    """Whether the first records of a JSONL input look like a Claude Code transcript."""
    from redact.formats.claude_code.keys import LEAF_UUID, MESSAGE_ID, SESSION_ID, TYPE, UUID
    from redact.formats.claude_code.native_table import RECORD_TYPES

    envelope = (SESSION_ID, UUID, LEAF_UUID, MESSAGE_ID)
    for record in records:
        kind = record.get(TYPE)
        if isinstance(kind, str) and kind in RECORD_TYPES and any(key in record for key in envelope):
            return True
    return False


def markdown() -> str:
    """The name tables as Markdown, for docs/formats.md (a test keeps the doc in step)."""
    from redact.formats.claude_code.native_table import (
        HOOK_ATTACHMENTS, PATH_INPUTS, RECORD, SYSTEM, TOOL_KINDS, WAITS_ON_USER,
    )

    lines = ["| record type | handling |", "|---|---|"]
    for kind, node in RECORD.cases.items():
        lines.append(f"| `{kind}` | {'mapped: ' + node.use if node.use else 'skipped'} |")
    for sub, node in SYSTEM.cases.items():
        lines.append(f"| `system` / `{sub}` | {'mapped: ' + node.use if node.use else 'skipped'} |")
    for sub, cls in HOOK_ATTACHMENTS.items():
        lines.append(f"| `attachment` / `{sub}` | mapped (error event, {cls}) |")
    lines.append("| any other type or subtype | skipped, counted by name when it has a safe shape |")
    lines += ["", "| tool | event kind | input fields read as paths |", "|---|---|---|"]
    for tool, kind in TOOL_KINDS.items():
        paths = ", ".join(f"`{f}`" for f in PATH_INPUTS.get(tool, ())) or "-"
        shown = ("exec, or verify for a test/build/lint/type check, or read/search for a line that only "
                 "reads files (docs/verbs.md)") if kind == "exec" else kind
        shown = "search (hits: the files its result lists)" if kind == "search" else shown
        lines.append(f"| `{tool}` | {shown} | {paths} |")
    lines.append("| `mcp__<server>__<tool>` | mcp | - |")
    lines.append("| `Batch` (0.2.x) | one event per invocation, each as its own tool | as its tool |")
    lines.append(f"| anything else ({', '.join(f'`{n}`' for n in sorted(WAITS_ON_USER))}, `TodoWrite`, ...) "
                 "| tool | - |")
    return "\n".join(lines) + "\n"
