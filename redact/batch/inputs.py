"""Which inputs a batch run reads, and where each map goes: files, folders and globs -> `Task`s.

    tasks, unusable = plan(["~/.claude/projects", "extra/*.jsonl"], out_dir)

`expand` turns the arguments into input files (a folder's sessions as every raw format lists them,
a SQLite store's sessions one `STORE#SESSION` address each, the files skipped on purpose with why);
`output_names` names each map; `plan` pairs them into tasks. Running the tasks: `redact.batch.run`.

Outputs are named after the input file (`<name>.json.gz`, the `.jsonl`/`.json`/`.gz` suffixes
dropped) when the harness chose that name (a session id, a Codex rollout), else `session-<12 hex>`
of a digest of the name (keyed when there is a key; without one a guessable name can be tested);
in input order; a name already taken gets `-2`, `-3`... Names never carry the folders the inputs
sat in (a Claude Code project folder's name spells the user's home path). A missing --out-dir is
made.
"""
from __future__ import annotations

import glob
import hashlib
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from redact.errors import UsageError
from redact.keys.material import Key

WRITTEN, LEAK, BAD, BUG = "written", "leak", "bad input", "internal error"
SKIPPED = "skipped"  # a file of a folder that is not a session (credentials, an agent's auxiliary files)
_GLOB_CHARS = frozenset("*?[")
_SUFFIXES = (".gz", ".jsonl", ".json")


@dataclass(frozen=True)
class Task:
    """One input and the path of its map."""

    input: str
    output: str
    size: int  # bytes on disk (progress and scheduling only)


@dataclass(frozen=True)
class Outcome:
    """What became of one input. Holds counts, places and masked excerpts; never input text."""

    input: str
    output: str | None
    status: str  # WRITTEN | LEAK | BAD | BUG
    exit_code: int
    size: int = 0
    events: int = 0
    findings: tuple[tuple[str, str, str], ...] = ()  # (rule, JSON pointer, masked excerpt)
    warnings: tuple[str, ...] = ()
    message: str = ""  # the error's diagnostic: a place and what, never a value
    content_hash: str = ""
    drops: tuple[int, int, int, int] = (0, 0, 0, 0)  # events, fields, values dropped; records skipped


def is_pattern(arg: str) -> bool:
    return any(ch in _GLOB_CHARS for ch in arg) and not Path(arg).exists()


def sessions_in(folder: Path) -> list[Path]:
    """The sessions of a folder, as every raw format with session folders lists them: the folder
    itself, and each folder right under it (a tree of project folders, such as Claude Code's
    `~/.claude/projects`); links to folders are not followed. In order, each once."""
    from redact.formats.registry import formats

    bases = [folder, *sorted(p for p in _subfolders(folder))]
    found: dict[str, Path] = {}
    for fmt in formats():
        if not fmt.has_sessions:
            continue
        for base in bases:
            for path in fmt.list_sessions(base):
                for one in in_store(path):
                    found.setdefault(os.path.realpath(one), one)
    return list(found.values())


def in_store(path: Path) -> list[Path]:
    """The sessions of a SQLite store, one `STORE#SESSION` address each, and the runs of a log of
    several (Aider's history, redact/formats/runs.py), one `FILE#RUN` each; any other file is itself."""
    from redact.formats import runs
    from redact.formats.stores import sessions_of
    from redact.io.store import is_sqlite, ref

    if not is_sqlite(path):
        found = runs.runs_of(path)
        return [runs.ref(path, rid) for rid, _ in found] if len(found) > 1 else [path]
    ids = sessions_of(path)
    return [ref(path, session) for session in ids] if ids else [path]


def skipped_in(folder: Path) -> list[Outcome]:
    """The files of a session folder that batch mode does not read, each with why: credential
    files beside the logs (by name, never opened), and the auxiliary files a format knows (Gemini
    CLI's checkpoints, prompt log, shell history, tool outputs; Aider's input history...: the names
    of redact/formats/auxiliary.py). Each is an Outcome `skipped`, exit 0."""
    from redact.formats.auxiliary import reason
    from redact.formats.registry import formats

    why: dict[str, tuple[Path, str]] = {}
    try:
        files = [(p, reason(p)) for p in folder.rglob("*") if reason(p) is not None and p.is_file()]
    except OSError:
        files = []
    for path, because in files:
        why.setdefault(os.path.realpath(path), (path, f"{because}, never read"))
    bases = [folder, *sorted(_subfolders(folder))]  # where sessions_in looks for sessions
    for fmt in formats():
        auxiliary = getattr(fmt, "auxiliary", None)
        if not callable(auxiliary):
            continue
        for base in bases:
            for path, because in auxiliary(base):
                why.setdefault(os.path.realpath(path), (path, because))
    return [Outcome(str(path), None, SKIPPED, 0, message=f"{path}: skipped ({because})")
            for path, because in sorted(why.values())]


def _subfolders(folder: Path) -> Iterable[Path]:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    return [Path(e.path) for e in entries if e.is_dir(follow_symlinks=False)]


def expand(inputs: Sequence[str]) -> tuple[list[Path], list[Outcome]]:
    """The input files named by `inputs` (files, folders, glob patterns), each once, in order; and
    an outcome for each argument that names nothing usable."""
    from redact.formats.auxiliary import reason

    files: dict[str, Path] = {}
    unusable: list[Outcome] = []  # and the files skipped on purpose (status SKIPPED, exit 0)
    for arg in inputs:
        path = Path(arg)
        if path.is_dir():
            found = sessions_in(path)
            unusable.extend(skipped_in(path))
            if not found:
                unusable.append(Outcome(arg, None, BAD, 2, message=f"{arg}: no sessions found in this folder"))
        elif is_pattern(arg):
            found = [Path(p) for p in sorted(glob.glob(arg, recursive=True)) if Path(p).is_file()]
            if not found:
                unusable.append(Outcome(arg, None, BAD, 2, message=f"{arg}: no file matches this pattern"))
        elif reason(path) is not None:
            unusable.append(Outcome(arg, None, SKIPPED, 0, message=f"{arg}: skipped ({reason(path)}, never read)"))
            found = []
        else:
            found = in_store(path)
        for p in found:
            if reason(p) is not None:
                unusable.append(Outcome(str(p), None, SKIPPED, 0, message=f"{p}: skipped ({reason(p)}, never read)"))
                continue
            files.setdefault(os.path.realpath(p), p)
    return list(files.values()), unusable


# Input names a harness writes: a session id (uuid or hex), Codex's rollout-<time>-<uuid>, a
# subagent's agent-<hex>. The output's name is shared with the map, so any other name (a user's
# `acme-layoffs-notes.jsonl`) is replaced by a digest of it; the run's summary pairs the two.
_HARNESS_NAME = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{7,64}"
    r"|rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    r"|agent-[0-9a-f]{7,64}"
    r"|ses_[0-9A-Za-z]{20,40}"  # an opencode session
    r"|session-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-[0-9a-f]{8}"  # Gemini CLI's session-<time>-<id8>
)


def output_name(path: Path, key: Key | None = None) -> str:
    from redact.formats.runs import split_run
    from redact.io.store import split_ref

    session = split_ref(path)[1] or split_run(path)[1]
    name = session if session is not None else path.name
    if name in ("events.jsonl", "ui_messages.json") and _HARNESS_NAME.fullmatch(path.parent.name):
        name = path.parent.name  # a session folder's log (Copilot CLI, Cline): named after its folder
    stripped = True
    while stripped:
        stripped = False
        for suffix in _SUFFIXES:
            if name.endswith(suffix) and len(name) > len(suffix):
                name, stripped = name[: -len(suffix)], True
    if not _HARNESS_NAME.fullmatch(name):
        if key is not None:  # keyed: a guessed name cannot be tested against it without the key
            digest = key.ident_digest("output-name", name)
        else:
            digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:12]
        name = "session-" + digest
    return name + ".json.gz"


def plan(inputs: Sequence[str], out_dir: str | Path, key: Key | None = None,
         link_scope: str = "global") -> tuple[list[Task], list[Outcome]]:
    """Tasks for every input named by `inputs`, writing into `out_dir` (made when missing); `key`
    (when given) keys the digest that names an output whose input name the harness did not choose.
    Under a `dataset:NAME` link scope that digest is keyed by the dataset's key, so output names link
    only within the release too; under `session` and `global`, by the key file's."""
    if key is not None and link_scope.startswith("dataset:"):
        key = key.scoped(link_scope)
    out = Path(out_dir)
    if not out.exists() and not out.is_symlink():
        try:
            out.mkdir(parents=True)
        except OSError as exc:
            raise UsageError(f"cannot make the --out-dir folder ({exc.strerror})", where=str(out_dir)) from None
    if not out.is_dir():
        raise UsageError("--out-dir is not a folder", where=str(out_dir))
    files, unusable = expand(inputs)
    tasks: list[Task] = []
    for path, name in zip(files, output_names(files, key)):
        try:
            size = path.stat().st_size
        except OSError:
            size = 0  # redact_file reports why it cannot be read
        tasks.append(Task(str(path), str(out / name), size))
    return tasks, unusable


def output_names(files: Sequence[Path], key: Key | None = None) -> list[str]:
    """The map file name of each input, in order: `output_name`, with `-2`, `-3`... when taken."""
    names: list[str] = []
    taken: set[str] = set()
    for path in files:
        base = output_name(path, key)
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base[: -len('.json.gz')]}-{n}.json.gz"
        taken.add(name)
        names.append(name)
    return names
