"""Logs that hold several sessions in one file, one per run of the agent (Aider appends every launch
to the project's one `.aider.chat.history.md`): each run is a session of its own.

A format says so with `FormatFolder(runs="module:function")`: the function splits the log's bytes
into its runs, `[(run id, bytes)]`, in order. One run is addressed as `FILE#RUN`, as a session of a
SQLite store is (redact/io/store.py), where RUN is the run's number (`#1` the first) or its id (a
digest of its bytes, which names its map in batch mode). A log of one run is read as it is; a log
of several is a batch of its own: `--out-dir` writes one map per run, and a single output (`-o`,
stdout) is a usage error that says how to choose, as for a store of several sessions.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

_HEAD = 4096
_LIMIT = 1 << 30


def _format_of(path: Path) -> Any | None:
    from redact.formats.registry import formats

    try:
        with path.open("rb") as fh:
            head = fh.read(_HEAD)
    except OSError:
        return None
    for fmt in formats():
        runs = getattr(fmt, "runs", None)
        if runs and fmt.sniff_bytes(head):
            return fmt
    return None


def runs_of(path: Path) -> list[tuple[str, bytes]]:
    """The runs of the log at `path`, `[(run id, bytes)]`; [] when it is no log of runs."""
    if not path.is_file():
        return []
    fmt = _format_of(path)
    if fmt is None:
        return []
    try:
        if path.stat().st_size > _LIMIT:
            return []
        data = path.read_bytes()
    except OSError:
        return []
    found: list[tuple[str, bytes]] = list(fmt.part(fmt.runs)(data))
    return found


def split_run(arg: str | Path) -> tuple[Path, str | None]:
    """(log path, run) of `FILE#RUN`; (path, None) for anything else (a file whose name holds `#`
    is itself)."""
    text = str(arg)
    if "#" in text and not Path(text).exists():
        base, _, run = text.rpartition("#")
        if run and _format_of(Path(base)) is not None:
            return Path(base), run
    return Path(text), None


def run_bytes(path: Path, run: str, *, where: str) -> bytes:
    """The bytes of one run of the log at `path`: by number (`1` the first) or by id."""
    from redact.errors import BadInput

    runs = runs_of(path)
    if run.isdigit() and 1 <= int(run) <= len(runs):
        return runs[int(run) - 1][1]
    found = next((data for rid, data in runs if rid == run), None)
    if found is None:
        raise BadInput(f"no such run in the log (it holds {len(runs)}: #1 to #{len(runs)})", where=where)
    return found


def ref(path: Path, run: str) -> Path:
    """The address of one run of a log."""
    return Path(f"{path}#{run}")


__all__ = ["ref", "run_bytes", "runs_of", "split_run"]
