"""Hermes Agent sessions (Nous Research), declared: the sniffers and the session file names (the
roles, tools and the class of every field are the format's one table, `native_table.py`).

Hermes keeps under `~/.hermes/sessions/` a session document per CLI session,
`session_<YYYYMMDD>_<HHMMSS>_<hex>.json` (`{session_id, model, platform, session_start,
last_updated, system_prompt, tools[], message_count, messages[]}`; its messages have no times), and
a JSON Lines log `<YYYYMMDD>_<HHMMSS>_<hex>.jsonl` whose first line is `{role: session_meta, model,
platform, timestamp, tools}` and whose later lines are timestamped messages. Its times are local
wall-clock times without a zone."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from redact.formats.hermes.native_table import ALIASES

_STEM = r"\d{8}_\d{6}_[0-9a-f]{4,32}"
DOCUMENT_NAME = re.compile(rf"session_{_STEM}\.json")
LOG_NAME = re.compile(rf"{_STEM}\.jsonl")
__all__ = ["ALIASES", "DOCUMENT_NAME", "LOG_NAME", "list_sessions", "markdown", "sniff", "sniff_doc"]


def sniff(records: list[dict[str, Any]]) -> bool:
    """A `session_meta` first line (with a model, platform or time), then messages by role."""
    from redact.formats.hermes.keys import AT, LINE_ROLES, META_MODEL, ROLE

    if not records or records[0].get(ROLE) != "session_meta":
        return False
    first = records[0]
    if not any(isinstance(first.get(k), str) for k in (META_MODEL, "platform", AT)):
        return False
    return all(isinstance(r.get(ROLE), str) for r in records[1:]) and \
        (len(records) == 1 or any(r[ROLE] in LINE_ROLES for r in records[1:]))


def sniff_doc(doc: Any) -> bool:
    """The session document: a `session_id`, a `session_start` and a list of role messages."""
    from redact.formats.hermes.keys import DOC_ID, MESSAGES, ROLE, START

    if not isinstance(doc, dict) or not isinstance(doc.get(DOC_ID), str) or not isinstance(doc.get(START), str):
        return False
    messages = doc.get(MESSAGES)
    return isinstance(messages, list) and all(isinstance(m, dict) and isinstance(m.get(ROLE), str)
                                              for m in messages)


def list_sessions(folder: Path) -> list[Path]:
    """The sessions under a Hermes folder (`~/.hermes` or its `sessions/`): session documents and
    JSON Lines logs named as Hermes names them, and the store `state.db` beside `sessions/`."""
    found: set[Path] = set()
    for store in (folder / "state.db", folder / ".hermes" / "state.db"):
        if store.is_file():
            found.add(store)
    for base in (folder, folder / "sessions", folder / ".hermes" / "sessions"):
        if not base.is_dir():
            continue
        for path in base.iterdir():
            if (DOCUMENT_NAME.fullmatch(path.name) or LOG_NAME.fullmatch(path.name)) and path.is_file():
                found.add(path)
    return sorted(found)


def markdown() -> str:
    from redact.formats.toolnames import alias_markdown

    return "\n".join(alias_markdown(ALIASES, "anything else (browser, code, memory, a plugin's tool) | a `tool` event")) + "\n"
