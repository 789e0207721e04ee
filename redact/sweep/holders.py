"""Which of the files about to be scrubbed another program holds open.

A scrub writes each file beside itself and renames the copy over it. A program that keeps the
old file open (Codex appends to its live rollout for the whole session, opencode and Cursor keep
their stores open) would go on writing into the old file, which no longer has a name: everything
it writes after the scrub is lost. So a file another program holds open is left alone and named
(`sweep --scrub`), or overwritten in place, keeping its inode, where the scrub runs as that
program's own hook.

Linux answers from `/proc/<pid>/fd`; elsewhere `lsof` answers when it is installed (a local
program, no network). When neither can answer, `held_open` returns None and the caller says so.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

_PROC = Path("/proc")


def _identity(path: str | Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _from_proc(wanted: dict[tuple[int, int], str], own: set[int]) -> dict[str, str]:
    """Each wanted file that a process other than `own` holds open, with that process's name."""
    held: dict[str, str] = {}
    for entry in os.scandir(_PROC):
        if not entry.name.isdigit() or int(entry.name) in own:
            continue
        fds = Path(entry.path, "fd")
        try:
            names = os.listdir(fds)
        except OSError:  # gone, or another user's: an agent runs as the user who sweeps
            continue
        for name in names:
            try:
                st = os.stat(fds / name)
            except OSError:
                continue
            path = wanted.get((st.st_dev, st.st_ino))
            if path is not None and path not in held:
                held[path] = _comm(entry.path)
    return held


def _comm(proc: str) -> str:
    try:
        return Path(proc, "comm").read_text(encoding="utf-8", errors="replace").strip() or "a program"
    except OSError:
        return "a program"


def _from_lsof(lsof: str, wanted: dict[tuple[int, int], str], own: set[int]) -> dict[str, str] | None:
    held: dict[str, str] = {}
    paths = list(wanted.values())
    for start in range(0, len(paths), 200):
        try:
            out = subprocess.run([lsof, "-nP", "-Fpcn", "--", *paths[start:start + 200]],
                                 capture_output=True, timeout=60, check=False).stdout
        except (OSError, subprocess.SubprocessError):
            return None
        pid, comm = 0, "a program"
        for line in out.decode("utf-8", "replace").splitlines():
            tag, value = line[:1], line[1:]
            if tag == "p":
                pid, comm = int(value) if value.isdigit() else 0, "a program"
            elif tag == "c":
                comm = value or "a program"
            elif tag == "n" and pid not in own:
                identity = _identity(value)
                path = wanted.get(identity) if identity is not None else None
                if path is not None:
                    held.setdefault(path, comm)
    return held


def held_open(paths: Iterable[str | Path]) -> dict[str, str] | None:
    """The given files (as given) that another program holds open, each with that program's name;
    None when this system gives no way to tell. This process does not count."""
    wanted: dict[tuple[int, int], str] = {}
    for path in paths:
        identity = _identity(path)
        if identity is not None:
            wanted.setdefault(identity, str(path))
    if not wanted:
        return {}
    own = {os.getpid()}
    if _PROC.is_dir() and Path(_PROC, str(os.getpid())).is_dir():
        return _from_proc(wanted, own)
    lsof = shutil.which("lsof")
    return _from_lsof(lsof, wanted, own) if lsof else None
