"""Factory Droid sessions (`~/.factory/sessions/<cwd slug>/<uuid>.jsonl`), declared: the sniffer, where
the sessions are, and the `<uuid>.settings.json` beside each. The record and block types, the tool
aliases, the class of every field and what the reader keeps of it are the format's one table
(`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from redact.formats.factory_droid.native_table import ALIASES

SETTINGS_SUFFIX = ".settings.json"
__all__ = ["ALIASES", "auxiliary", "find_companions", "list_sessions", "markdown", "sniff"]


def sniff(records: list[dict[str, Any]]) -> bool:
    from redact.formats.factory_droid.keys import CWD, KIND, SESSION_ID

    first = records[0] if records else {}
    return first.get(KIND) == "session_start" and isinstance(first.get(SESSION_ID), str) and CWD in first


def _is_log(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            line = fh.readline(65536)
        first = orjson.loads(line) if line.strip() else None
    except (OSError, orjson.JSONDecodeError):
        return False
    return isinstance(first, dict) and sniff([first])


def list_sessions(folder: Path) -> list[Path]:
    """The session logs of Droid's `sessions/` folder (in its per-folder subfolders) or of one of them."""
    found = [*folder.glob("*.jsonl"), *folder.glob("*/*.jsonl"), *folder.glob("sessions/*/*.jsonl")]
    return sorted(p for p in set(found) if p.is_file() and _is_log(p))


def find_companions(path: Path) -> list[Path]:
    """The session's `<uuid>.settings.json` beside its log (read for the model only)."""
    settings = path.with_name(path.stem + SETTINGS_SUFFIX)
    return [settings] if path.suffix == ".jsonl" and settings.is_file() else []


def auxiliary(folder: Path) -> list[tuple[Path, str]]:
    """The settings files beside the session logs under `folder`: not sessions."""
    return [(s, "the session's settings (model, token totals): read beside its log, not a session")
            for log in list_sessions(folder) for s in find_companions(log)]


def markdown() -> str:
    from redact.formats.factory_droid.keys import BLOCKS, RECORD_TYPES
    from redact.formats.toolnames import alias_markdown

    lines = ["| record type | handling |", "|---|---|"]
    lines += [f"| `{kind}` | {how} |" for kind, how in RECORD_TYPES.items()]
    lines += ["| any other type | skipped, counted by name |", "", "| content block | handling |", "|---|---|"]
    lines += [f"| `{kind}` | {how} |" for kind, how in BLOCKS.items()]
    lines += ["| any other type | skipped, counted by name |", ""]
    lines += alias_markdown(ALIASES, "anything else | a `tool` event", " (the shared tool table)")
    return "\n".join(lines) + "\n"
