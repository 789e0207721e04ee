"""Kiro IDE chat sessions, declared: the sniffer, the session's assembly with its execution logs, and
the session files of a workspace folder. The class of every field is the format's one table
(`native_table.py`).

As public readers of Kiro's files describe it (there is no sample in the shared corpus):
`globalStorage/kiro.kiroagent/workspace-sessions/<base64url of the workspace path>/` holds
`sessions.json` (an index: `{sessionId, title, dateCreated, workspaceDirectory}`) and one
`<sessionId>.json` per session (`{sessionId, title, workspaceDirectory, selectedModel, history[]}`,
each history entry `{message: {role, content}, executionId}`, the replies often only "On it."). The
whole exchange of a reply is its execution log: a JSON file without extension under
`kiro.kiroagent/<32 hex>/<hash>/`, `{executionId, messagesFromExecutionId[]}`. `assemble` joins the
two by `executionId`; a session whose logs are not beside it is read from its own file.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson

from redact.formats.kiro_ide.native_table import ALIASES

_HASH = re.compile(r"[0-9a-f]{32}")
INDEX = "sessions.json"
__all__ = ["ALIASES", "assemble", "auxiliary", "is_session", "list_sessions", "markdown", "sniff", "sniff_doc"]


def is_session(doc: Any) -> bool:
    """A Kiro IDE session: Continue's session shape (Kiro's IDE is built on Continue) whose replies
    name their execution logs (`executionId`), which Continue never writes. One without any is read
    as the Continue session it is (continue-dev)."""
    from redact.formats.kiro_ide.keys import EXECUTION_ID, HISTORY, MESSAGE, SESSION_ID

    if not (isinstance(doc, dict) and isinstance(doc.get(SESSION_ID), str) and isinstance(doc.get(HISTORY), list)):
        return False
    entries = [e for e in doc[HISTORY] if isinstance(e, dict)]
    return all(isinstance(e.get(MESSAGE), dict) for e in entries[:5]) and \
        any(isinstance(e.get(EXECUTION_ID), str) for e in entries)


def sniff(records: list[dict[str, Any]]) -> bool:
    return False  # one JSON document


def sniff_doc(doc: Any) -> bool:
    from redact.formats.kiro_ide.keys import ASSEMBLY_SESSION, ASSEMBLY_TAG

    if isinstance(doc, dict) and ASSEMBLY_TAG in doc and doc.get(ASSEMBLY_TAG) == "session":
        return is_session(doc.get(ASSEMBLY_SESSION))
    return is_session(doc)


def _execution_ids(doc: dict[str, Any]) -> set[str]:
    from redact.formats.kiro_ide.keys import EXECUTION_ID, HISTORY

    return {e[EXECUTION_ID] for e in doc[HISTORY] if isinstance(e, dict) and isinstance(e.get(EXECUTION_ID), str)}


def assemble(path: Path) -> bytes | None:
    """The session at `path` with the execution logs its replies point to; None when `path` is not a
    session file of a `workspace-sessions/<workspace>/` folder, or no log of it is there."""
    from redact.formats.kiro_ide.keys import X_ID
    from redact.io.read import LIMITS, read_input

    if path.parent.parent.name != "workspace-sessions" or path.name == INDEX or path.suffix != ".json":
        return None
    raw = read_input(path, limit=LIMITS.max_bytes)
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    if not is_session(doc):
        return None
    wanted, budget = _execution_ids(doc), LIMITS.max_bytes - len(raw)
    found: list[Any] = []
    base = path.parent.parent.parent
    for log in _logs(base) if wanted else []:
        try:
            size = log.stat().st_size
        except OSError:
            continue
        if size > budget:
            continue
        try:
            value = orjson.loads(log.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            continue
        if isinstance(value, dict) and value.get(X_ID) in wanted:
            budget -= size
            found.append(value)
    if not found:
        return None
    return orjson.dumps({"kiroIde": "session", "session": doc, "executions": found})


def _logs(base: Path) -> list[Path]:
    out: list[Path] = []
    try:
        hashes = sorted(p for p in base.iterdir() if p.is_dir() and _HASH.fullmatch(p.name))
        for folder in hashes:
            for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
                out.extend(sorted(p for p in sub.iterdir() if p.is_file() and not p.suffix))
    except OSError:
        return out
    return out


def list_sessions(folder: Path) -> list[Path]:
    """The session files of one workspace's folder under `workspace-sessions/`."""
    try:
        return sorted(p for p in folder.iterdir() if p.suffix == ".json" and p.name != INDEX and p.is_file()
                      and folder.parent.name == "workspace-sessions")
    except OSError:
        return []


def auxiliary(folder: Path) -> list[tuple[Path, str]]:
    index = folder / INDEX
    if folder.parent.name == "workspace-sessions" and index.is_file():
        return [(index, "Kiro IDE's session index (titles and times; each session is its own file)")]
    return []


def markdown() -> str:
    from redact.formats.toolnames import alias_markdown

    return "\n".join(alias_markdown(ALIASES, "anything else (MCP tools...) | a `tool` event")) + "\n"
