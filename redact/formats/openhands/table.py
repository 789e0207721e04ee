"""OpenHands V1 conversations: the sniffer (the event kinds, action kinds and editor commands are the
table's, `native_table.py`).

`events.json` is a list of events `{id, timestamp, source, kind, ...}`. The class of every field, and
what the reader keeps of it, is the format's one table (`native_table.py`); docs/formats.md renders
both (scripts/gen_format_docs.py).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any


def __getattr__(name: str) -> Any:
    """`EVENT_KINDS` (read off the native table), `ACTIONS` and `EDITOR` (the lists the table is
    built from) live in `native_table.py`, the format's one table; imported on first use."""
    if name in ("EVENT_KINDS", "ACTIONS", "EDITOR"):
        from redact.formats.openhands import native_table

        return getattr(native_table, name)
    raise AttributeError(name)


def _event(e: object) -> bool:
    from redact.formats.openhands.keys import AT, ID, KIND, SOURCE

    return isinstance(e, dict) and isinstance(e.get(KIND), str) and AT in e and SOURCE in e and ID in e


def sniff(records: list[dict[str, Any]]) -> bool:
    return False  # one JSON document


def sniff_doc(doc: Any) -> bool:
    if not isinstance(doc, list) or not doc:
        return False
    from redact.formats.openhands.keys import KIND, KNOWN_KINDS

    head = doc[:25]
    return all(_event(e) for e in head) and any(e[KIND] in KNOWN_KINDS for e in head)


def list_sessions(folder: Path) -> list[Path]:
    """The conversations of an OpenHands folder (`~/.openhands/conversations`, or one conversation's
    folder): `<id>/events.json`."""
    found = [folder / "events.json"]
    try:
        found += [p / "events.json" for p in folder.iterdir() if p.is_dir() and not p.is_symlink()]
    except OSError:
        return []
    return sorted(p for p in found if p.is_file())


def markdown() -> str:
    from redact.formats.openhands.native_table import ACTIONS, EVENT_KINDS

    lines = ["| event kind | handling |", "|---|---|"]
    for kind, how in EVENT_KINDS.items():
        lines.append(f"| `{kind}` | {how} |")
    lines.append("| any other kind | skipped, counted by name when it has a safe shape |")
    lines += ["", "| action kind | read as |", "|---|---|"]
    for kind, name in ACTIONS.items():
        lines.append(f"| `{kind}` | `{name}` (the shared tool table; `file_editor` by its command) |")
    return "\n".join(lines) + "\n"
