"""Kiro / Amazon Q Developer CLI ConversationState (`/save`, Kiro's "LegacyV1"), declared: the sniffer.
The turn layouts, the tool aliases and the class of every field are the format's one table
(`native_table.py`); docs/formats.md renders them (scripts/gen_format_docs.py). A save is JSON
whatever its name (`chat.json`, `session.md`, or no extension at all): detection reads the content."""
from __future__ import annotations

from typing import Any

from redact.formats.kiro_legacy.native_table import ALIASES, STATUS

__all__ = ["ALIASES", "STATUS", "is_conversation", "markdown", "sniff", "sniff_doc"]


def is_conversation(doc: Any) -> bool:
    from redact.formats.kiro_legacy.keys import CONVERSATION_ID, HISTORY, TOOLS, TRANSCRIPT

    return isinstance(doc, dict) and isinstance(doc.get(CONVERSATION_ID), str) and \
        isinstance(doc.get(HISTORY), list) and (TRANSCRIPT in doc or TOOLS in doc)


def sniff(records: list[dict[str, Any]]) -> bool:
    return False  # one JSON document


def sniff_doc(doc: Any) -> bool:
    return is_conversation(doc)


def markdown() -> str:
    from redact.formats.toolnames import alias_markdown

    return "\n".join(alias_markdown(ALIASES, "anything else (`use_aws`, `introspect`, `thinking`, `todo_list`, "
                                             "MCP tools...) | a `tool` event")) + "\n"
