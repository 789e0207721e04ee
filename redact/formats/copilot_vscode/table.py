"""VS Code Copilot Chat sessions, declared: the document's layout, tools, the sniffers and the replay.

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
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

#: built-in tool ids (VS Code writes both spellings over time) -> event kind
TOOLS: dict[str, str] = {
    **dict.fromkeys(("copilot_readFile", "read_file", "copilot_readNotebookCellOutput"), "read"),
    **dict.fromkeys(("copilot_replaceString", "replace_string_in_file", "copilot_multiReplaceString",
                     "multi_replace_string_in_file", "copilot_insertEdit", "insert_edit_into_file",
                     "copilot_createFile", "create_file", "copilot_applyPatch", "apply_patch",
                     "copilot_editNotebook", "edit_notebook_file", "copilot_createNewJupyterNotebook"), "edit"),
    **dict.fromkeys(("copilot_findFiles", "file_search", "copilot_findTextInFiles", "grep_search",
                     "copilot_listDirectory", "list_dir", "copilot_searchCodebase", "semantic_search",
                     "copilot_searchWorkspaceSymbols", "copilot_listCodeUsages", "list_code_usages",
                     "copilot_getChangedFiles", "get_changed_files"), "search"),
    **dict.fromkeys(("run_in_terminal", "copilot_runInTerminal"), "exec"),
    **dict.fromkeys(("copilot_fetchWebPage", "fetch_webpage", "vscode_fetchWebPage_internal"), "web"),
    **dict.fromkeys(("runSubagent", "copilot_runSubagent", "search_subagent"), "subagent"),
    **dict.fromkeys(("copilot_getErrors", "get_errors", "copilot_runTests", "runTests", "run_task",
                     "get_terminal_output", "copilot_getTerminalOutput", "manage_todo_list",
                     "copilot_createDirectory", "create_directory", "copilot_think", "think",
                     "vscode_askQuestions", "copilot_askQuestions"), "tool"),
}
CREATES = frozenset({"copilot_createFile", "create_file", "copilot_createNewJupyterNotebook"})
PATCHES = frozenset({"copilot_applyPatch", "apply_patch"})
PATH_ARGS = ("filePath", "path", "file_path", "dirPath")
COMMAND_ARGS = ("command",)

#: the keys the reader opens inside a request's `variableData` (a shape in the one table): images counted
VARIABLE_KEYS = frozenset({"variables", "kind", "isImage"})
_SESSION_DIRS = ("chatSessions", "emptyWindowChatSessions")


def _requests_like(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(r, dict) and ("message" in r or "requestId" in r)
                                           for r in value[:20])


def sniff(records: list[dict[str, Any]]) -> bool:
    """The edit log: a first line `{"kind": 0, "v": <a chat session document>}`."""
    first = records[0] if records else None
    if not isinstance(first, dict) or first.get("kind") != 0 or not isinstance(first.get("v"), dict):
        return False
    doc = first["v"]
    return isinstance(doc.get("requests", []), list) and "sessionId" in doc and isinstance(doc.get("version"), int)


def replay(records: list[dict[str, Any]]) -> tuple[dict[str, Any] | None, int]:
    """The document an edit log describes, and how many entries could not be applied (a path that is
    not in the document, an unknown kind): those are skipped, as VS Code's own reader skips them."""
    doc: Any = None
    bad = 0
    for entry in records:
        kind = entry.get("kind")
        if kind == 0:
            doc = entry.get("v")
            continue
        path = entry.get("k")
        if not isinstance(doc, dict) or not isinstance(path, list) or not path or kind not in (1, 2, 3):
            bad += 1
            continue
        parent: Any = doc
        for key in path[:-1]:
            parent = _step(parent, key)
        last = path[-1]
        if kind == 2:
            target = _step(parent, last)
            cut = entry.get("i")
            if not isinstance(target, list):
                bad += 1
                continue
            if isinstance(cut, int) and not isinstance(cut, bool) and cut >= 0:
                del target[cut:]
            items = entry.get("v")
            if isinstance(items, list):
                target.extend(items)
        elif isinstance(parent, dict) and isinstance(last, str):
            if kind == 1:
                parent[last] = entry.get("v")
            else:
                parent.pop(last, None)
        elif isinstance(parent, list) and isinstance(last, int) and not isinstance(last, bool) and \
                0 <= last < len(parent) and kind == 1:
            parent[last] = entry.get("v")
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
    if not isinstance(doc, dict) or not _requests_like(doc.get("requests")):
        return False
    return ("sessionId" in doc and isinstance(doc.get("version"), int)) or \
        ("requesterUsername" in doc and "responderUsername" in doc)


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
