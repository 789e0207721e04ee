"""Pi coding-agent sessions (`~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl`), declared: the
sniffer and the session file names. The entry types, message roles, content blocks and tool aliases,
the class of every field and what the reader keeps of it are the format's one table
(`native_table.py`); docs/formats.md renders both (scripts/gen_format_docs.py).

Pi names a session's folder after its working directory (`/` and `\\` as `-`, between `--`), and the
file after its start time and id: `2026-09-04T22-33-33-740Z_<uuid>.jsonl`. The header line is
`{type: session, id, timestamp, cwd}` (v1 adds the first `provider`, `modelId`, `thinkingLevel`; v3
a `version`)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from redact.formats.pi.native_table import ALIASES

SESSION_NAME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:-\d{3})?Z_[0-9A-Za-z-]{8,64}\.jsonl")
__all__ = ["ALIASES", "SESSION_NAME", "list_sessions", "markdown", "sniff", "sniff_doc"]


def sniff(records: list[dict[str, Any]]) -> bool:
    """A header `{type: session, id, timestamp, cwd}`, then (when there are more) Pi entries."""
    from redact.formats.pi.keys import AT, CWD, ENTRY_TYPES, KIND, SESSION_ID

    if not records:
        return False
    first = records[0]
    if first.get(KIND) != "session" or not isinstance(first.get(SESSION_ID), str) \
            or not isinstance(first.get(AT), str) or not isinstance(first.get(CWD), str):
        return False
    rest = records[1:]  # entries of a later client's new types may sit among them
    return not rest or any(isinstance(r.get(KIND), str) and r[KIND] in ENTRY_TYPES for r in rest)


def sniff_doc(doc: Any) -> bool:
    return False  # JSON Lines only


def list_sessions(folder: Path) -> list[Path]:
    """The sessions under a Pi folder (`~/.pi`, `~/.pi/agent`, its `sessions/`, or one working
    directory's folder): `<time>_<id>.jsonl` files."""
    found: set[Path] = set()
    for base in (folder, folder / "sessions", folder / "agent" / "sessions"):
        if not base.is_dir():
            continue
        for path in [*base.glob("*.jsonl"), *base.glob("*/*.jsonl")]:
            if SESSION_NAME.fullmatch(path.name) and path.is_file():
                found.add(path)
    return sorted(found)


def markdown() -> str:
    from redact.formats.toolnames import alias_markdown

    return "\n".join(alias_markdown(ALIASES, "anything else (an extension's tool) | a `tool` event")) + "\n"
