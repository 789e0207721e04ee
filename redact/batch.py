"""Many inputs at once: files, folders and globs -> one map each in an output folder, over all cores.

    tasks, unusable = plan(["~/.claude/projects", "extra/*.jsonl"], out_dir)
    outcomes = run(tasks, policy=load_policy("public"), keys=KeySource.from_file(path), jobs=4)
    exit_code(unusable + outcomes)   # 0 all written, 1 a leak blocked some map, 2 a bad input, 3 a bug

Each input is redacted by `redact.api.redact_file`, exactly as one input on its own is (same bytes
out), in a process pool: inputs are independent, so throughput grows with cores. One input that
fails is an `Outcome` like any other; the rest still run.

Keys never travel: a `Key` refuses to be pickled. A worker gets a `KeySource` (where to load the key
from: a file path, or the environment the worker inherits, plus the fingerprint the parent saw) and
loads the key itself, once per input, so its HMAC caches never outlive one input. A worker that
finds a different key than the parent's refuses the input.

Outputs are named after the input file (`<name>.json.gz`, the `.jsonl`/`.json`/`.gz` suffixes
dropped) when the harness chose that name (a session id, a Codex rollout), else `session-<12 hex>`
of a digest of the name (keyed when there is a key; without one a guessable name can be tested);
in input order; a name already taken gets `-2`, `-3`... Names never carry the folders the inputs
sat in (a Claude Code project folder's name spells the user's home path). A missing --out-dir is
made.
"""
from __future__ import annotations

import gc
import glob
import hashlib
import multiprocessing
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redact.errors import LeakFound, RedactError, UsageError
from redact.keys import Key, key_from_env, load_key_file
from redact.policy.load import EffectivePolicy

WRITTEN, LEAK, BAD, BUG = "written", "leak", "bad input", "internal error"
SKIPPED = "skipped"  # a file of a folder that is not a session (credentials, an agent's auxiliary files)
_GLOB_CHARS = frozenset("*?[")
_SUFFIXES = (".gz", ".jsonl", ".json")


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


# -- keys -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class KeySource:
    """Where a worker loads the key from; never the key. `fingerprint` is the parent's key's."""

    kind: str = "none"  # "none" | "file" | "env"
    path: str | None = None
    allow_unsafe_permissions: bool = False
    fingerprint: str | None = None

    @classmethod
    def from_file(cls, path: str | Path, *, allow_unsafe_permissions: bool = False) -> KeySource:
        key = load_key_file(Path(path), allow_unsafe_permissions=allow_unsafe_permissions)
        return cls("file", str(path), allow_unsafe_permissions, key.fingerprint())

    @classmethod
    def from_env(cls, *, allow_unsafe_permissions: bool = False) -> KeySource:
        key = key_from_env(allow_unsafe_permissions=allow_unsafe_permissions)
        return cls("env", None, allow_unsafe_permissions, key.fingerprint()) if key else cls()

    @classmethod
    def for_loaded(cls, key: Key | None, key_file: str | Path | None, *,
                   allow_unsafe_permissions: bool = False) -> KeySource:
        """The source of a key the caller already loaded from `key_file`, or from the environment."""
        if key is None:
            return cls()
        if key_file is not None:
            return cls("file", str(key_file), allow_unsafe_permissions, key.fingerprint())
        return cls("env", None, allow_unsafe_permissions, key.fingerprint())

    def load(self) -> Key | None:
        if self.kind == "none":
            return None
        key: Key | None
        if self.kind == "file":
            assert self.path is not None
            key = load_key_file(Path(self.path), allow_unsafe_permissions=self.allow_unsafe_permissions)
        else:
            key = key_from_env(allow_unsafe_permissions=self.allow_unsafe_permissions)
        if key is None or (self.fingerprint is not None and key.fingerprint() != self.fingerprint):
            from redact.errors import KeyError_

            raise KeyError_("the key changed while the inputs were being redacted",
                            where=self.path or "$AGENTPLAY_REDACT_KEY")
        return key


# -- inputs -----------------------------------------------------------------------------------------

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
    """The sessions of a SQLite store, one `STORE#SESSION` address each; any other file is itself."""
    from redact.formats.stores import sessions_of
    from redact.io.store import is_sqlite, ref

    if not is_sqlite(path):
        return [path]
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
    from redact.io.store import split_ref

    session = split_ref(path)[1]
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


# -- running ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Settings:
    """Everything a worker needs besides the key: picklable, no key material."""

    policy: EffectivePolicy
    keys: KeySource = field(default_factory=KeySource)
    options: tuple[tuple[str, Any], ...] = ()  # redact_file keyword options: mode, input_format...


def redact_one(task: Task, settings: Settings) -> Outcome:
    """Redact one input into its output; every failure becomes an Outcome (never raises but for
    KeyboardInterrupt)."""
    from redact import api

    try:
        key = settings.keys.load()
        result = api.redact_file(task.input, task.output, policy=settings.policy, key=key,
                                 **dict(settings.options))
    except LeakFound as exc:
        report = exc.report
        found = getattr(report, "findings", None) or []
        return Outcome(task.input, task.output, LEAK, exc.exit_code, task.size,
                       findings=tuple((str(f.get("rule")), str(f.get("pointer")), str(f.get("excerpt", "")))
                                      for f in found),
                       warnings=tuple(getattr(report, "warnings", ()) or ()), message=exc.diagnostic())
    except RedactError as exc:
        return Outcome(task.input, task.output, BAD, exc.exit_code, task.size, message=exc.diagnostic())
    except Exception as exc:  # noqa: BLE001 - a bug in one input must not stop the others
        return Outcome(task.input, task.output, BUG, 3, task.size,
                       message=f"{task.input}: internal error ({type(exc).__name__}); nothing written")
    report = result.report
    return Outcome(task.input, task.output, WRITTEN, 0, task.size,
                   events=len(result.session_map.get("events") or ()), warnings=tuple(report.warnings),
                   content_hash=report.content_hash, drops=report.drop_counts())


def _portable(settings: Settings) -> Settings:
    """The settings without what a policy caches (its extended verb vocabulary is rebuilt)."""
    pol = settings.policy
    return Settings(EffectivePolicy(pol.policy, pol.source, pol.allowlists), settings.keys, settings.options)


def _context() -> Any:
    """Fork where it is the platform's way (Linux): workers start at once and share, copy on write,
    what the parent already loaded; the parent forks before it starts any thread of its own (the
    pool's manager thread starts after the workers, the progress display after that). Elsewhere,
    spawn (the settings are then pickled once per worker)."""
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")  # pragma: no cover - not Linux


def warm_up(settings: Settings) -> None:
    """Load once what every input needs (the scanner and its detect-secrets plugins, the verb
    vocabulary, the compiled field tables), so forked workers share it instead of each loading it."""
    from redact import api

    api.warm_up(settings.policy)


_WORKER: list[Settings] = []  # in a worker process only: its settings, set once by _start_worker


def _start_worker(settings: Settings) -> None:
    _WORKER[:] = [settings]


def _work(task: Task) -> Outcome:
    return redact_one(task, _WORKER[0])


def run(tasks: Sequence[Task], settings: Settings, *, jobs: int = 1,
        on_done: Callable[[Outcome], None] | None = None,
        on_start: Callable[[], None] | None = None) -> list[Outcome]:
    """Redact every task, `jobs` at a time in worker processes (1: here, one after the other).
    Outcomes come back in task order; `on_done` sees each as it completes; `on_start` is called once
    the workers exist (a progress display starts there, so that no thread of it is forked)."""
    done = on_done or (lambda outcome: None)
    if jobs <= 1 or len(tasks) <= 1:
        if on_start is not None:
            on_start()
        out = []
        for task in tasks:
            outcome = redact_one(task, settings)
            done(outcome)
            out.append(outcome)
        return out
    ctx = _context()
    frozen = False
    if ctx.get_start_method() == "fork":
        warm_up(settings)
        # what the parent loaded lives as long as the workers: frozen, their collections never walk
        # it (nor write to its pages, which would copy them); undone below for the caller's sake
        gc.collect()
        gc.freeze()
        frozen = True
    else:  # pragma: no cover - not Linux
        settings = _portable(settings)
    results: dict[int, Outcome] = {}
    # largest first: the long inputs start early and the short ones fill the gaps at the end
    order = sorted(range(len(tasks)), key=lambda i: (-tasks[i].size, i))
    with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), mp_context=ctx, initializer=_start_worker,
                             initargs=(settings,)) as pool:
        pending: dict[Future[Outcome], int] = {}
        try:
            for i in order:
                pending[pool.submit(_work, tasks[i])] = i
            if on_start is not None:
                on_start()
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    i = pending.pop(future)
                    try:
                        outcome = future.result()
                    except Exception as exc:  # noqa: BLE001 - a worker died (killed, out of memory)
                        outcome = Outcome(tasks[i].input, tasks[i].output, BUG, 3, tasks[i].size,
                                          message=f"{tasks[i].input}: the worker stopped ({type(exc).__name__}); "
                                                  "nothing written")
                    results[i] = outcome
                    done(outcome)
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        finally:
            if frozen:
                gc.unfreeze()
    return [results[i] for i in range(len(tasks))]


def exit_code(outcomes: Iterable[Outcome]) -> int:
    """3 if any input hit a bug, else 2 if any was bad input, else 1 if a leak blocked a map, else 0."""
    codes = {o.exit_code for o in outcomes}
    for code in (3, 2, 1):
        if code in codes:
            return code
    return 0
