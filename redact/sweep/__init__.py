"""Sweep: the secrets already sitting in agents' logs (DESIGN.md section 16).

`targets.sweep_inputs` names the files; `find` searches one file's text (JSON strings decoded) and
`store` a SQLite store's cells, both with the secrets layer (redact/contract/secrets/); `engine`
runs them over every file, groups the places by keyed fingerprint and, for a scrub, rewrites the
files with the originals sealed first (`vault`) and proves the result; `render` writes the report
(terminal table, JSON, SARIF 2.1.0, HTML); `hooks` installs the scrub as an agent's session-end
hook. No value found is ever printed, logged or sent: places carry a class, a keyed fingerprint, a
line and a length.

For other parts of the tool (the map pre-commit hook), `is_scrubbed(path)` says whether a file is
an agent log a sweep has scrubbed: it holds at least one of the scrub's placeholders
(`[REDACTED:<class>:<6 hex>]`, `PLACEHOLDER`), in its text, decompressed when it is gzip, or in a
cell of a SQLite store (decompressed when zstd). It says nothing about secrets the sweep did not
find: run `sweep` for that.
"""
from __future__ import annotations

import re
from pathlib import Path

#: the scrub's placeholder (redact/sweep/find.py `placeholder`): a class name and 6 hex
PLACEHOLDER = re.compile(r"\[REDACTED:[A-Za-z0-9][\w.-]{0,60}:[0-9a-f]{6}\]")
_PLACEHOLDER_BYTES = re.compile(PLACEHOLDER.pattern.encode("ascii"))


def is_scrubbed(path: str | Path) -> bool:
    """Whether the file at `path` holds a sweep scrub's placeholder (module doc); False for a file
    that cannot be read, a damaged archive, or a store that cannot be opened."""
    import sqlite3

    from redact.errors import BadInput
    from redact.io.read import GZIP_MAGIC, gunzip

    target = Path(path)
    try:
        data = target.read_bytes()
        if data[:2] == GZIP_MAGIC:
            data = gunzip(data, str(target))
    except (OSError, BadInput):
        return False
    if _PLACEHOLDER_BYTES.search(data):
        return True
    if not data.startswith(b"SQLite format 3\x00"):
        return False
    from redact.io.store import opened
    from redact.sweep.store import cell_text, quote_name

    try:
        with opened(target) as db:
            names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' "
                                              "AND sql NOT LIKE 'CREATE VIRTUAL%'")]
            for name in names:
                for row in db.execute(f"SELECT * FROM {quote_name(name)}"):
                    for value in row:
                        text = cell_text(value) if isinstance(value, bytes) else None
                        if text is not None and PLACEHOLDER.search(text):
                            return True
    except (BadInput, sqlite3.Error):
        return False
    return False


__all__ = ["PLACEHOLDER", "is_scrubbed"]
