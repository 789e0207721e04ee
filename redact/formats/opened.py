"""One input, opened once: where it comes from, its format (detected once), its bytes or the file to
stream, and every file the run reads with it.

    opened = open_path("session.jsonl", input_format=None)
    opened.fmt         # "claude-code", or "agentplay" for a session map
    opened.stream      # the file, when the reader takes it line by line (memory stays flat)
    opened.data        # the bytes otherwise (gunzipped, a store's exported session, an assembled tree)
    opened.reads       # the input and its companions: no output may replace one of them

The library's pipeline (`redact/api.py`) asks this module once per input and hands the result along,
so the format is detected once and the companions are found once; the readers never look again.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redact.errors import BadInput, UsageError
from redact.formats.auxiliary import reason
from redact.formats.detect import FORMATS, MAP, detect
from redact.formats.registry import formats, raw_format
from redact.formats.runs import run_bytes, split_run
from redact.formats.stores import export
from redact.io.read import GZIP_MAGIC, MAX_INPUT_BYTES, display_name, read_input
from redact.io.store import SQLITE_HEADER, ref, side_files, split_ref, store_of_side

#: how much of a plain file detection reads (a file no longer than this is read whole)
HEAD = 1 << 20


@dataclass
class Opened:
    """An input ready for the pipeline. Exactly one of `data` and `stream` is set."""

    name: str                       # as reports and errors name it (never a path the input chose)
    fmt: str                        # a raw format's name, or MAP
    data: bytes | None = None
    stream: Path | None = None
    companions: list[Any] = field(default_factory=list)
    file_stem: str | None = None
    parsed: Any = None              # the map, when detection had to parse it whole
    reads: list[Path] = field(default_factory=list)
    # whether `source` is the input file's own bytes (gunzipped), so `scan --source FILE` can check a
    # map's sourceDigest: not for one session of a store, one run of a log, or an assembled tree
    tied: bool = True

    @property
    def source(self) -> bytes | Path:
        """What the taint layer searches: the bytes, or the file on disk a chunk at a time."""
        return self.data if self.data is not None else self.stream  # type: ignore[return-value]


def check_format(input_format: str | None) -> None:
    if input_format is not None and input_format not in FORMATS:
        raise UsageError(f"unknown format {input_format!r} (known: {', '.join(sorted(FORMATS))})")


def open_bytes(data: bytes, name: str, *, input_format: str | None = None,
               companions: list[Any] | None = None, file_stem: str | None = None) -> Opened:
    """An input held in memory (already gunzipped): its format detected once unless forced."""
    check_format(input_format)
    parsed: list[Any] = []
    fmt = input_format or detect(data, name, parsed=parsed)
    return Opened(name, fmt, data=data, companions=list(companions or []), file_stem=file_stem,
                  parsed=parsed[0] if parsed else None)


def open_path(path: str | Path, *, input_format: str | None = None, companions: list[Any] | None = None,
              file_stem: str | None = None) -> Opened:
    """The input at `path` (`-`: stdin; `store.db#<session>`: one session of a SQLite store).

    A credential or other auxiliary file is refused before it is opened; a store's session is exported
    from a private read-only copy; a raw log on disk bigger than the detection head is streamed; a
    session spread over several files is assembled; companions (subagent transcripts, ...) are found
    beside the file unless `companions` is given (`[]`: none)."""
    check_format(input_format)
    name = display_name(path)
    if name == "<stdin>":
        return open_bytes(read_input(path), name, input_format=input_format, companions=companions,
                          file_stem=file_stem)
    store_path, session = split_ref(path)
    log_path, run = split_run(path) if session is None else (store_path, None)
    if run is not None:  # one run of a log of several (Aider's history, FILE#N): a session of its own
        store_path = log_path
    skipped = reason(store_path)
    if skipped is not None:  # never opened: not even to detect its format
        raise BadInput(f"not a session: {skipped}; never read as a session", where=name)
    if run is not None:
        opened = open_bytes(run_bytes(log_path, run, where=name), name, input_format=input_format,
                            companions=[], file_stem=None)
        opened.reads = [log_path]
        opened.tied = False
        return opened
    side = store_of_side(store_path)
    if side is not None:  # a store's -wal (-shm, -journal) given: the store is read, with it
        store_path, path = side, side if session is None else ref(side, session)
    head = _plain_head(store_path) if session is None else None
    if session is not None or (head is not None and head[0].startswith(SQLITE_HEADER)):
        fmt, data = export(store_path, session, where=name, forced=input_format)
        # the store's write-ahead log holds sessions too: no output may replace it either
        return Opened(name, fmt, data=data, reads=[store_path, *side_files(store_path)], tied=False)
    if head is None:  # gzip, a large file, not a regular file: read (and checked) whole
        opened = open_bytes(read_input(path), name, input_format=input_format)
    else:
        first, size = head
        opened = Opened(name, input_format or _spread_format(Path(path), first) or detect(first, name))
        if size > len(first) and opened.fmt != MAP:
            opened.stream = Path(path)
        else:
            # a document longer than the head does not parse from it and is taken for a map: the
            # whole input decides then (a pretty-printed Cline task or OpenHands events.json of MiBs)
            forced = input_format if opened.fmt == MAP and size > len(first) else opened.fmt
            opened = open_bytes(read_input(path), name, input_format=forced)
    opened.reads = [Path(path)]
    raw = raw_format(opened.fmt)
    if raw is None:  # a session map: no companions
        return opened
    whole = raw.assemble(Path(path))
    if whole is not None:  # a session spread over files: the reader (and the scanner) read all of them
        opened.data, opened.stream, companions = whole, None, []
        opened.tied = False
        opened.reads += [Path(getattr(c, "path", c)) for c in raw.discover(Path(path))]  # its message files
    opened.companions = list(raw.discover(Path(path)) if companions is None else companions)
    opened.file_stem = file_stem if file_stem is not None else Path(path).name.split(".")[0]
    opened.reads += [Path(getattr(c, "path", c)) for c in opened.companions]
    return opened


def _spread_format(path: Path, head: bytes) -> str | None:
    """The format of an empty file that is one part of a session kept in several files (a Kiro
    store's `.jsonl` beside its `.json`): the session its files make, which may hold no records,
    not an empty input. None for any file with content (detection decides) or no such format."""
    if head.strip():
        return None
    for fmt in formats():
        if fmt.assemble(path) is not None:
            return fmt.name
    return None


def _plain_head(path: Path) -> tuple[bytes, int] | None:
    """(first MiB, size) of a regular, uncompressed file; None for gzip or anything else."""
    try:
        if not path.is_file():
            return None
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(HEAD)
    except OSError:
        return None  # read_input reports it
    if head[:2] == GZIP_MAGIC or str(path).endswith(".gz") or size > MAX_INPUT_BYTES:
        return None
    return head, size
