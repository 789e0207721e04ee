"""Which inputs a batch run reads, and where each map goes: files, folders and globs -> `Task`s.

    tasks, unusable = plan(["~/.claude/projects", "extra/*.jsonl"], out_dir)

`survey` (and `expand`) turns the arguments into input files: a folder's sessions as discovery finds
them (redact/formats/discover.py: a home at every agent's places, any folder by layout then by
content), a SQLite store's sessions one `STORE#SESSION` address each (named, globbed or found; a
`-wal` given stands for its store), the files skipped on purpose or unreadable with why;
`output_names` names each map; `plan_all` (and `plan`) pairs them into tasks, never naming a map
after an input of the batch or a file read with one. Running the tasks: `redact.batch.run`; the
manifest: `redact.batch.manifest`.

Outputs are named after the input file (`<name>.json.gz`, the `.jsonl`/`.json`/`.gz` suffixes
dropped) when the harness chose that name (a session id, a Codex rollout), else `session-<12 hex>`
of a digest of the name (keyed when there is a key; without one a guessable name can be tested);
in input order; a name already taken (by an earlier map, or by an input of the batch or a file read
with one, links included) gets `-2`, `-3`... Under a policy that hashes ids every name is the digest:
no name carries an id the map hashes. Names never carry the folders the inputs sat in (a Claude
Code project folder's name spells the user's home path). A missing --out-dir is made, and never
searched for inputs.
"""
from __future__ import annotations

import dataclasses

import glob
import hashlib
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from redact.formats.discover import Found
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
    agent: str = ""  # the format discovery found it as ("" for a file given by name)


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
    agent: str = ""
    session: str = ""  # the map's session id, as the map writes it (hashed when the policy hashes ids)


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
    # a file a format says is its own but no session (Kiro's `.jsonl`, read with its `.json`) is not
    # one for any other format either, whose file names it may share
    for fmt in formats():
        auxiliary = getattr(fmt, "auxiliary", None)
        if callable(auxiliary):
            for base in bases:
                for path, _ in auxiliary(base):
                    found.pop(os.path.realpath(path), None)
    return list(found.values())


def in_store(path: Path) -> list[Path]:
    """The sessions of a SQLite store, one `STORE#SESSION` address each, and the runs of a log of
    several (Aider's history, redact/formats/runs.py), one `FILE#RUN` each; any other file is itself.
    A credential or auxiliary file (redact/formats/auxiliary.py) is itself, unopened: never read."""
    from redact.formats import runs
    from redact.formats.auxiliary import reason
    from redact.formats.stores import sessions_of
    from redact.io.store import is_sqlite, ref

    if reason(path) is not None:
        return [path]
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


@dataclass
class Survey:
    """What the arguments of a batch name: the inputs (in order, each once), the outcomes of what
    is not redacted (skipped with why, unreadable, nothing found), and what each folder held."""

    files: list[Path] = field(default_factory=list)
    unusable: list[Outcome] = field(default_factory=list)
    agent: dict[str, str] = field(default_factory=dict)  # input path -> the agent (format) found
    folders: list[tuple[str, Found]] = field(default_factory=list)  # (argument, what discovery found)


def expand(inputs: Sequence[str], exclude: Sequence[Path] = ()) -> tuple[list[Path], list[Outcome]]:
    """The input files named by `inputs` (files, folders, glob patterns), each once, in order; and
    an outcome for each argument that names nothing usable."""
    found = survey(inputs, exclude)
    return found.files, found.unusable


def survey(inputs: Sequence[str], exclude: Sequence[Path] = (), *, home: bool | None = None) -> Survey:
    """`expand`, with what each folder held (redact/formats/discover.py) and the agent of each input found
    in one; nothing under `exclude` (the output folder) is taken. `home` True: every folder is
    searched as a home (`--all`)."""
    from redact.formats.discover import discover
    from redact.formats.auxiliary import reason
    from redact.io.store import store_of_side

    out = Survey()
    files: dict[str, Path] = {}

    def add(p: Path, agent: str | None = None) -> None:
        if reason(p) is not None:
            out.unusable.append(Outcome(str(p), None, SKIPPED, 0, message=f"{p}: skipped ({reason(p)}, never read)"))
            return
        real = os.path.realpath(p)
        if real not in files:
            files[real] = p
            if agent:
                out.agent[str(p)] = agent

    for arg in inputs:
        path = Path(arg)
        if path.is_dir():
            # the output folder is passed over, unless it is the very folder given (maps written
            # beside the sessions they come from; the output guard keeps every input safe)
            keep_out = [e for e in exclude if os.path.realpath(e) != os.path.realpath(path)]
            found = discover(path, home=home, exclude=keep_out)
            # a log of several runs (Aider's history) is a session per run, in the counts too
            found.sessions = [session if one == session.path else dataclasses.replace(session, path=one)
                              for session in found.sessions for one in in_store(session.path)]
            out.folders.append((arg, found))
            for session in found.sessions:
                add(session.path, session.agent)
            out.unusable.extend(Outcome(str(p), None, SKIPPED, 0, message=f"{p}: skipped ({why})")
                                for p, why in found.skipped)
            out.unusable.extend(Outcome(str(p), None, BAD, 2, message=f"{p}: {why}; not redacted")
                                for p, why in found.unreadable)
            out.unusable.extend(Outcome(str(p), None, SKIPPED, 0,
                                        message=f"{p}: skipped (matches no session format this build reads)")
                                for p in found.other)
            if not found.sessions and not found.unreadable:
                out.unusable.append(Outcome(arg, None, BAD, 2, message=f"{arg}: no sessions found in this folder"))
            continue
        if is_pattern(arg):
            matched = [Path(p) for p in sorted(glob.glob(arg, recursive=True)) if Path(p).is_file()]
            if not matched:
                out.unusable.append(Outcome(arg, None, BAD, 2, message=f"{arg}: no file matches this pattern"))
            for p in matched:  # a store's side file stands for its store (each session once)
                for one in in_store(store_of_side(p) or p):
                    add(one)
            continue
        if reason(path) is not None:
            add(path)
            continue
        if "#" not in arg and not path.exists() and not path.is_symlink():  # named, never planned
            why = ("no such file or folder: `~` was not expanded (quoted in a shell, or a literal in "
                   "code: expand it first)" if arg.startswith("~") else "no such file or folder")
            out.unusable.append(Outcome(arg, None, BAD, 2, message=f"{arg}: {why}; not redacted"))
            continue
        for one in in_store(store_of_side(path) or path):
            add(one)
    out.files = list(files.values())
    return out


# Input names a harness writes: a session id (uuid or hex), Codex's rollout-<time>-<uuid>, a
# subagent's agent-<hex>. The output's name is shared with the map, so any other name (a user's
# `acme-layoffs-notes.jsonl`) is replaced by a digest of it; the run's summary pairs the two.
_HARNESS_NAME = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{7,64}"
    r"|rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    r"|agent-[0-9a-f]{7,64}"
    r"|T-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"  # an Amp thread
    r"|ses_[0-9A-Za-z]{20,40}"  # an opencode session
    r"|session-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-[0-9a-f]{8}"  # Gemini CLI's session-<time>-<id8>
)


def output_name(path: Path, key: Key | None = None, *, hash_names: bool = False) -> str:
    """The map file name of the input at `path` (module doc); `hash_names`: always the digest."""
    from redact.formats.runs import split_run
    from redact.io.store import split_ref

    session = split_ref(path)[1] or split_run(path)[1]
    name = session if session is not None else path.name
    if name in ("events.jsonl", "events.json", "ui_messages.json", "wire.jsonl") and _HARNESS_NAME.fullmatch(path.parent.name):
        name = path.parent.name  # a session folder's log (Copilot CLI, OpenHands, Cline, Kimi CLI): named after its folder
    stripped = True
    while stripped:
        stripped = False
        for suffix in _SUFFIXES:
            if name.endswith(suffix) and len(name) > len(suffix):
                name, stripped = name[: -len(suffix)], True
    if hash_names or not _HARNESS_NAME.fullmatch(name):
        if key is not None:  # keyed: a guessed name cannot be tested against it without the key
            digest = key.ident_digest("output-name", name)
        else:
            digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:12]
        name = "session-" + digest
    return name + ".json.gz"


@dataclass
class Plan:
    """A batch's tasks, the outcomes already known (skipped, unusable) and what the folders held."""

    tasks: list[Task]
    unusable: list[Outcome]
    survey: Survey


def plan(inputs: Sequence[str], out_dir: str | Path, key: Key | None = None,
         link_scope: str = "global", *, hash_names: bool = False) -> tuple[list[Task], list[Outcome]]:
    """Tasks for every input named by `inputs`, writing into `out_dir` (made when missing); `key`
    (when given) keys the digest that names an output whose input name the harness did not choose.
    Under a `dataset:NAME` link scope that digest is keyed by the dataset's key, so output names link
    only within the release too; under `session` and `global`, by the key file's. `hash_names`
    (a policy that hashes ids): no output is named after its input, every name is that digest."""
    found = plan_all(inputs, out_dir, key, link_scope, hash_names=hash_names)
    return found.tasks, found.unusable


def plan_all(inputs: Sequence[str], out_dir: str | Path, key: Key | None = None, link_scope: str = "global",
             *, hash_names: bool = False, skip_existing: bool = False, home: bool | None = None) -> Plan:
    """`plan`, with what the folders held (`Plan.survey`). No planned output is any input of the
    batch or a file read with one (a store's `-wal`, a workspace file, a subagent transcript), nor
    a link to one: such a name is taken, the next is used. `skip_existing`: an input whose map is
    already there is an outcome `skipped` (a batch resumed after a stop)."""
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
    found = survey(inputs, [out], home=home)
    files = found.files
    protected = _protected(files, found.agent)
    tasks: list[Task] = []
    unusable = list(found.unusable)
    for path, name in zip(files, output_names(files, key, hash_names=hash_names,
                                              taken=lambda name: _is_protected(out / name, protected)),
                          strict=True):
        try:
            size = path.stat().st_size
        except OSError:
            size = 0  # redact_file reports why it cannot be read
        task = Task(str(path), str(out / name), size, found.agent.get(str(path), ""))
        if skip_existing and (out / name).is_file() and not (out / name).is_symlink():
            unusable.append(Outcome(task.input, task.output, SKIPPED, 0, size, agent=task.agent,
                                    message=f"{task.input}: skipped (its map {name} is already there; "
                                            "--skip-existing)"))
            continue
        tasks.append(task)
    return Plan(tasks, unusable, found)


def _protected(files: Sequence[Path], agents: dict[str, str]) -> tuple[set[str], set[tuple[int, int]]]:
    """The real paths and (device, inode) of every input and every file read with one."""
    from redact.formats.discover import files_read
    from redact.io.store import split_ref

    paths: set[str] = set()
    inodes: set[tuple[int, int]] = set()
    for path in files:
        store, _ = split_ref(path)
        for one in (store, *files_read(path, agents.get(str(path)))):
            paths.add(os.path.realpath(one))
            try:
                st = os.stat(one)
            except OSError:
                continue
            inodes.add((st.st_dev, st.st_ino))
    return paths, inodes


def _is_protected(target: Path, protected: tuple[set[str], set[tuple[int, int]]]) -> bool:
    paths, inodes = protected
    if os.path.realpath(target) in paths:
        return True
    try:
        st = os.stat(target)
    except OSError:
        return False
    return (st.st_dev, st.st_ino) in inodes


def output_names(files: Sequence[Path], key: Key | None = None, *, hash_names: bool = False,
                 taken: Callable[[str], bool] | None = None) -> list[str]:
    """The map file name of each input, in order: `output_name`, with `-2`, `-3`... when taken (by
    an earlier input's map, or by `taken`: a name that is an input of the batch)."""
    names: list[str] = []
    used: set[str] = set()
    for path in files:
        base = output_name(path, key, hash_names=hash_names)
        name, n = base, 1
        while name in used or (taken is not None and taken(name)):
            n += 1
            name = f"{base[: -len('.json.gz')]}-{n}.json.gz"
        used.add(name)
        names.append(name)
    return names
