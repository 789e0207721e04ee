"""VS Code Copilot Chat sessions: the sniffers and the replay (the tool table is the one table's, `native_table.py`).

VS Code keeps each chat of a workspace in `workspaceStorage/<hash>/chatSessions/<uuid>.json` (chats
of a window without a folder in `globalStorage/emptyWindowChatSessions/`): one JSON document,
`{version: 3, sessionId, creationDate, lastMessageDate, requests[]}`. "Chat: Export Chat..." writes
the same `requests[]` without `version`, `sessionId` and `creationDate`. Each request holds the
user's `message`, the `response[]` parts as the chat view showed them (markdown, tool invocations,
progress), `result` (timings, errors, and in `metadata.toolCallRounds` each model round with its tool
calls) and `modelId`. The workspace's folder is in `workspaceStorage/<hash>/workspace.json`, read as
the session's repository root. Newer VS Code builds write `chatSessions/<uuid>.jsonl` instead: a log
of edits to that document (VS Code's object mutation log), each line `{kind, k, v, i}`: kind 0 the
whole document `v` (the first line), 1 sets the value at the key path `k`, 2 appends `v`'s items to
the list at `k` (after cutting it to length `i` when given), 3 deletes `k`. It is replayed into the
document, which is then read as above. The class of every field, and what the reader keeps of it,
is the format's one table (`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py).
The keys read here are named by their place in it (`keys.py`), imported inside the functions.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

# the tool table and the names read inside `variableData`, importable from here (redact/formats/vocabulary.py reads them)
from redact.formats.copilot_vscode.native_table import CREATES as CREATES
from redact.formats.copilot_vscode.native_table import PATCHES as PATCHES
from redact.formats.copilot_vscode.native_table import TOOLS as TOOLS
from redact.formats.copilot_vscode.native_table import VARIABLE_KEYS as VARIABLE_KEYS

_SESSION_DIRS = ("chatSessions", "emptyWindowChatSessions")


def _requests_like(value: Any) -> bool:
    from redact.formats.copilot_vscode.keys import MESSAGE, REQUEST_ID

    return isinstance(value, list) and all(isinstance(r, dict) and (MESSAGE in r or REQUEST_ID in r)
                                           for r in value[:20])


def sniff(records: list[dict[str, Any]]) -> bool:
    """The edit log: a first line `{"kind": 0, "v": <a chat session document>}`."""
    from redact.formats.copilot_vscode.keys import ENTRY_KIND, REQUESTS, SESSION_ID, VALUE, VERSION

    first = records[0] if records else None
    if not isinstance(first, dict) or first.get(ENTRY_KIND) != 0 or not isinstance(first.get(VALUE), dict):
        return False
    doc = first[VALUE]
    return isinstance(doc.get(REQUESTS, []), list) and SESSION_ID in doc and isinstance(doc.get(VERSION), int)


def replay(records: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, int]:
    """The document an edit log describes, and how many entries could not be applied (a path that is
    not in the document, an unknown kind): those are skipped, as VS Code's own reader skips them."""
    from redact.formats.copilot_vscode.keys import CUT, ENTRY_KIND, ENTRY_PATH, VALUE

    doc: Any = None
    bad = 0
    for entry in records:
        kind = entry.get(ENTRY_KIND)
        if kind == 0:
            doc = entry.get(VALUE)
            continue
        path = entry.get(ENTRY_PATH)
        if not isinstance(doc, dict) or not isinstance(path, list) or not path or kind not in (1, 2, 3):
            bad += 1
            continue
        parent: Any = doc
        for key in path[:-1]:
            parent = _step(parent, key)
        last = path[-1]
        if kind == 2:
            target = _step(parent, last)
            cut = entry.get(CUT)
            if not isinstance(target, list):
                bad += 1
                continue
            if isinstance(cut, int) and not isinstance(cut, bool) and cut >= 0:
                del target[cut:]
            items = entry.get(VALUE)
            if isinstance(items, list):
                target.extend(items)
        elif isinstance(parent, dict) and isinstance(last, str):
            if kind == 1:
                parent[last] = entry.get(VALUE)
            else:
                parent.pop(last, None)
        elif isinstance(parent, list) and isinstance(last, int) and not isinstance(last, bool) and \
                0 <= last < len(parent) and kind == 1:
            parent[last] = entry.get(VALUE)
        else:
            bad += 1
    return (doc if isinstance(doc, dict) else None), bad


def _step(node: Any, key: Any) -> Any:
    if isinstance(node, dict) and isinstance(key, str):
        return node.get(key)
    if isinstance(node, list) and isinstance(key, int) and not isinstance(key, bool) and 0 <= key < len(node):
        return node[key]
    return None


def sniff_doc(doc: Any) -> bool:
    """A chatSessions document (`version`, `sessionId`, `requests`) or an exported chat
    (`requesterUsername`, `responderUsername`, `requests`)."""
    from redact.formats.copilot_vscode.keys import REQUESTER, REQUESTS, RESPONDER, SESSION_ID, VERSION

    if not isinstance(doc, dict) or not _requests_like(doc.get(REQUESTS)):
        return False
    return (SESSION_ID in doc and isinstance(doc.get(VERSION), int)) or \
        (REQUESTER in doc and RESPONDER in doc)


def list_sessions(folder: Path) -> list[Path]:
    """The chat sessions under a VS Code user folder (`User`, `workspaceStorage`, one workspace's
    folder, or `chatSessions` itself)."""
    found: list[Path] = []
    for path in folder.rglob("*.json*"):
        if path.parent.name in _SESSION_DIRS and path.suffix in (".json", ".jsonl") and path.is_file() and \
                re.fullmatch(r"[0-9a-f-]{8,64}", path.stem):
            found.append(path)
    return sorted(found)


def find_companions(path: Path) -> list[Path]:
    """The workspace's `workspace.json` (its folder: the repository root) beside `chatSessions/`."""
    if path.parent.name != "chatSessions":
        return []
    workspace = path.parent.parent / "workspace.json"
    return [workspace] if workspace.is_file() else []


def markdown() -> str:
    """The tables as docs/formats.md shows them (a test keeps the two equal)."""
    out = ["| tool | event kind |", "|---|---|"]
    out += [f"| `{name}` | {kind} |" for name, kind in TOOLS.items()]
    out.append("| `mcp_<server>_<tool>` (source `mcp`) | mcp |")
    out.append("| anything else | tool |")
    return "\n".join(out) + "\n"
