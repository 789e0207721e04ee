"""Kimi CLI sessions (`~/.kimi/sessions/<md5 of the work dir>/<session id>/`), declared: the sniffer,
the session files, the companion (`~/.kimi/kimi.json`, for the work dir) and the files beside them
that are not read. The event types, the tools and what the reader keeps of each field are the
format's one table (`native_table.py`).

A session folder holds `wire.jsonl` (the timeline: a metadata line `{type: metadata,
protocol_version}`, then `{timestamp, message: {type, payload}}` events), `context.jsonl` and
`context_sub_N.jsonl` (the main agent's and each subagent's model history, without times: the wire
log holds the same, with times), and `state.json` (approval settings). A folder whose wire log is
gone (or was never written) is read from its `context.jsonl`: its messages `{role, content,
tool_calls, tool_call_id}` and Kimi's own `_usage` / `_checkpoint` lines, which no other agent writes. `~/.kimi/config.toml` holds
the providers' API keys: never opened (redact/formats/credentials.py).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from redact.formats.kimi.native_table import TOOLS

__all__ = ["CONTEXT", "FOLDER_FILES", "TOOLS", "auxiliary", "find_companions", "is_context", "list_sessions", "markdown",
           "sniff", "sniff_context", "sniff_doc", "work_dirs"]

_MD5 = re.compile(r"[0-9a-f]{32}")
#: The main agent's history: the session when its folder has no wire log.
CONTEXT = "context.jsonl"
#: files of a Kimi CLI session folder (or home) other than the wire log -> why each is not read
FOLDER_FILES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"context(?:_sub_\d+)?\.jsonl"), "Kimi CLI model history (the wire log holds the same, with times)"),
    (re.compile(r"state\.json"), "Kimi CLI session state (approval settings), not a session log"),
    (re.compile(r"kimi\.json"), "Kimi CLI work-dir list (read only for a session's work dir)"),
    (re.compile(r"[0-9a-f]{32}\.jsonl"), "Kimi CLI prompt history, not a session log"),
)


#: The history's own line roles (Kimi's bookkeeping lines): one of them marks a context.jsonl.
_BOOKKEEPING = ("_checkpoint", "_usage")


def sniff_context(records: list[dict[str, Any]]) -> bool:
    """A `context.jsonl`: every line a message of a known role, one of them Kimi's bookkeeping."""
    from redact.formats.kimi.keys import CONTEXT_ROLES, LINE_TYPE, ROLE

    return bool(records) and all(LINE_TYPE not in r and r.get(ROLE) in CONTEXT_ROLES for r in records) and \
        any(r.get(ROLE) in _BOOKKEEPING for r in records)


def is_context(data: bytes) -> bool:
    """Whether `data` is a context.jsonl (its first lines), not a wire log."""
    import orjson

    records: list[dict[str, Any]] = []
    for line in data.splitlines()[:64]:
        if not line.strip():
            continue
        try:
            found = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(found, dict):
            records.append(found)
    return sniff_context(records)


def sniff(records: list[dict[str, Any]]) -> bool:
    """A wire log: the metadata line, then (when there are more) timestamped events; or a
    context.jsonl (`sniff_context`)."""
    from redact.formats.kimi.keys import AT, KIND, LINE_TYPE, MESSAGE, VERSION

    if sniff_context(records):
        return True
    if not records or records[0].get(LINE_TYPE) != "metadata" or not isinstance(records[0].get(VERSION), str):
        return False
    rest = records[1:]
    return not rest or all(isinstance(r.get(AT), (int, float)) and isinstance(r.get(MESSAGE), dict)
                           and isinstance(r[MESSAGE].get(KIND), str) for r in rest)


def sniff_doc(doc: Any) -> bool:
    return False  # JSON Lines only


def list_sessions(folder: Path) -> list[Path]:
    """The wire logs under a Kimi CLI folder (`~/.kimi`, its `sessions/`, one work dir's folder or
    one session's folder), and the `context.jsonl` of a session folder that has no wire log."""
    found: set[Path] = set()
    for base in (folder, folder / "sessions"):
        if not base.is_dir():
            continue
        for name in ("wire.jsonl", CONTEXT):
            for path in [base / name, *base.glob(f"*/{name}"), *base.glob(f"*/*/{name}")]:
                if path.is_file() and _MD5.fullmatch(path.parent.parent.name) and \
                        (name == "wire.jsonl" or not (path.parent / "wire.jsonl").is_file()):
                    found.add(path)
    return sorted(found)


def find_companions(path: Path) -> list[Path]:
    """`~/.kimi/kimi.json` for a wire log at `~/.kimi/sessions/<md5>/<id>/wire.jsonl` (its work dir)."""
    if path.name not in ("wire.jsonl", CONTEXT) or len(path.parents) < 4:
        return []
    found = path.parents[3] / "kimi.json"
    return [found] if found.is_file() else []


def work_dirs(doc: Any) -> list[str]:
    """The work dirs `kimi.json` lists."""
    from redact.formats.kimi.keys import WORK_DIR_PATH, WORK_DIRS

    entries = doc.get(WORK_DIRS) if isinstance(doc, dict) else None
    return [e[WORK_DIR_PATH] for e in entries if isinstance(e, dict) and isinstance(e.get(WORK_DIR_PATH), str)
            and e[WORK_DIR_PATH]] if isinstance(entries, list) else []


def auxiliary(folder: Path) -> list[tuple[Path, str]]:
    """The files under a Kimi CLI folder other than the wire logs, with why each is not read."""
    out: list[tuple[Path, str]] = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.name == "wire.jsonl" or \
                (path.name == CONTEXT and not (path.parent / "wire.jsonl").is_file()):
            continue
        why = next((w for pattern, w in FOLDER_FILES if pattern.fullmatch(path.name)), None)
        if why is not None and (".kimi" in path.parts or _MD5.fullmatch(path.parent.parent.name)
                                or path.name == "kimi.json"):
            out.append((path, why))
    return out


def markdown() -> str:
    from redact.formats.kimi.native_table import EVENT

    out = ["| event type | handling |", "|---|---|"]
    out += [f"| `{kind}` | {'mapped: ' + node.use if node.use else 'skipped'} |" for kind, node in EVENT.cases.items()]
    out.append("| any other type | skipped, counted by name when it has a safe shape |")
    out += ["", "| tool | event kind |", "|---|---|"]
    out += [f"| `{name}` | {kind} |" for name, (kind, _) in TOOLS.items()]
    out.append("| anything else | tool |")
    return "\n".join(out) + "\n"
