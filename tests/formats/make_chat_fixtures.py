"""The project's own fixture files for the chat-store and JSON formats (tests/fixtures/chat/), written
from the builders of tests/formats/storefix.py and jsonfix.py (plain text in every slot). They seed
the generic fuzzer (tests/hardening/test_fuzz.py), which reads a format's example files: for a SQLite
store that is the export its reader reads. Regenerate on purpose only:

    .venv/bin/python -m tests.formats.make_chat_fixtures
"""
from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import orjson

from redact.formats.stores import export
from tests.formats import jsonfix, kirofix, storefix, zedfix

OUT = Path(__file__).resolve().parents[1] / "fixtures" / "chat"


def _export(build: Callable[..., object], name: str, session: str | None = None) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / name
        build(db)
        return export(db, session, where=name)[1]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    files = {
        "opencode-session.jsonl": _export(storefix.opencode_db, "opencode.db"),
        "crush-session.jsonl": _export(storefix.crush_db, "crush.db"),
        "cursor-composer.jsonl": _export(storefix.cursor_global_db, "state.vscdb"),
        "cursor-tab.jsonl": _export(storefix.cursor_workspace_db, "state.vscdb"),
        "zed-thread.jsonl": _export(zedfix.threads_db, "threads.db"),
        "openhands-events.json": jsonfix.openhands_events(jsonfix.plain()),
        f"{jsonfix.AMP_ID}.json": jsonfix.amp_thread(jsonfix.plain()),
        f"{jsonfix.CONTINUE_ID}.json": jsonfix.continue_session(jsonfix.plain()),
        "kiro-export.json": kirofix.export(jsonfix.plain()),
        "kiro-store.jsonl": kirofix.store_pair(jsonfix.plain())[1],
        "kiro-legacy-save.json": kirofix.legacy(jsonfix.plain()),
        "kiro-legacy-amazon-q.json": kirofix.legacy(jsonfix.plain(), writer="amazon-q"),
        "kiro-ide-session.json": orjson.dumps(kirofix.ide_session(jsonfix.plain()), option=orjson.OPT_INDENT_2),
        "kiro-ide-assembled.json": kirofix.ide_assembly(jsonfix.plain()),
        "kiro-legacy-store.json": _export(kirofix.legacy_db, "data.sqlite3", kirofix.LEGACY_ID),
    }
    for name, data in files.items():
        (OUT / name).write_bytes(data)


if __name__ == "__main__":
    main()
