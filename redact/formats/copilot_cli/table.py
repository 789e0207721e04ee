"""GitHub Copilot CLI session logs, declared: the sniffer and the session folder (the event types, the
tool table and str_replace_editor's commands are the format's one table, `native_table.py`).

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

from redact.formats.copilot_cli.native_table import DATA, TOOLS

#: The event types as the report names a skipped one (`session.warning` as `session_warning`: the
#: report's name grammar has no dots); on the closed list of names through this table.
REPORTED_TYPES = frozenset(kind.replace(".", "_") for kind in DATA)

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
    from redact.formats.copilot_cli.keys import COPILOT_VERSION, DATA, ID, KIND, PRODUCER

    if not records:
        return False
    first = records[0]
    data = first.get(DATA)
    return first.get(KIND) == "session.start" and isinstance(data, dict) and \
        (data.get(PRODUCER) == "copilot-agent" or COPILOT_VERSION in data) and ID in first


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


def __getattr__(name: str) -> Any:
    """`EVENT_TYPES` ("mapped" or "skipped" by event type) is read off the format's one table
    (`keys.py`, imported on first use: it imports the table, which the sniffer's keys come from)."""
    if name == "EVENT_TYPES":
        from redact.formats.copilot_cli.keys import EVENT_TYPES

        return EVENT_TYPES
    raise AttributeError(name)


def markdown() -> str:
    """The tables as docs/formats.md shows them (a test keeps the two equal)."""
    from redact.formats.copilot_cli.native_table import LINE

    out = ["| event type | handling |", "|---|---|"]
    out += [f"| `{kind}` | {'mapped: ' + node.use if node.use else 'skipped'} |" for kind, node in LINE.cases.items()]
    out.append("| any other type | skipped, counted by name when it has a safe shape |")
    out += ["", "| tool | event kind |", "|---|---|"]
    out += [f"| `{name}` | {t.kind} |" for name, t in TOOLS.items()]
    out.append("| a tool with `mcpServerName` | mcp |")
    out.append("| anything else | tool |")
    return "\n".join(out) + "\n"
