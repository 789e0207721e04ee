"""The file headers of a patch in Codex's apply_patch envelope (`*** Begin Patch`, `*** Update File:
a`, ...), for every reader whose harness runs that tool: which paths a patch touches and how.

Only the header lines are read; the hunks are content and never looked at.
"""
from __future__ import annotations

import re

_HEADER = re.compile(r"^\*\*\* (?:(Add|Update|Delete) File: ?(.+?)|Move to: ?(.+?))[ \t]*$", re.MULTILINE)
_OPS = {"Add": "create", "Update": "modify", "Delete": "delete"}


def join(base: str | None, path: str) -> str:
    """`path` taken relative to `base` (a working directory) unless it is absolute already."""
    if not base or path.startswith(("/", "~", "\\")) or re.match(r"^[A-Za-z]:[\\/]", path):
        return path
    return base.rstrip("/\\") + "/" + path


def patch_targets(patch: str, base: str | None) -> tuple[tuple[str, ...], tuple[str | None, ...]]:
    """(paths, ops) of a patch in Codex's apply_patch grammar: only the file header lines.

    `*** Update File: a` followed by `*** Move to: b` is a rename (a: rename-from, b: rename-to)."""
    paths: list[str] = []
    ops: list[str | None] = []
    last_end = -2
    for m in _HEADER.finditer(patch):
        if m.group(3) is not None:  # `*** Move to:` right after an Update header
            if ops and ops[-1] == "modify" and m.start() == last_end + 1:
                ops[-1] = "rename-from"
                paths.append(join(base, m.group(3)))
                ops.append("rename-to")
        else:
            paths.append(join(base, m.group(2)))
            ops.append(_OPS[m.group(1)])
        last_end = m.end()
    return tuple(paths), tuple(ops)
