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

Which inputs are read and how each map is named (`plan`, `expand`, `output_names`...):
`redact.batch.inputs`, whose names this module re-exports.
"""
from __future__ import annotations

import gc
import os
import stat
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from redact.batch.inputs import BAD as BAD, BUG as BUG, LEAK as LEAK, SKIPPED as SKIPPED, WRITTEN as WRITTEN
from redact.batch.inputs import Outcome as Outcome, Task as Task, expand as expand, in_store as in_store
from redact.batch.inputs import is_pattern as is_pattern, output_name as output_name
from redact.batch.inputs import output_names as output_names, plan as plan, sessions_in as sessions_in
from redact.batch.inputs import Plan as Plan, plan_all as plan_all, skipped_in as skipped_in
from redact.batch.inputs import survey as survey
from redact.errors import LeakFound, NoSession, RedactError
from redact.keys.material import Key, key_from_env, load_key_file
from redact.policy.load import EffectivePolicy

if TYPE_CHECKING:  # the pool is imported when there is one: a single input needs none of it
    from concurrent.futures import Future


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
    origin: str | None = None  # where the parent's key came from, as reports say it (Key.origin)

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
            return cls("file", str(key_file), allow_unsafe_permissions, key.fingerprint(), key.origin)
        return cls("env", None, allow_unsafe_permissions, key.fingerprint(), key.origin)

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
        if self.origin is not None:
            key.origin = self.origin
        return key


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
    outcome = _redact_one(task, settings)
    return replace(outcome, agent=task.agent) if task.agent else outcome


def _redact_one(task: Task, settings: Settings) -> Outcome:
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
    except NoSession as exc:  # nothing to redact: named, not a failure
        return Outcome(task.input, None, SKIPPED, 0, task.size, message=f"{task.input}: skipped ({exc.what})")
    except RedactError as exc:
        return Outcome(task.input, task.output, BAD, exc.exit_code, task.size, message=exc.diagnostic())
    except Exception as exc:  # noqa: BLE001 - a bug in one input must not stop the others
        return Outcome(task.input, task.output, BUG, 3, task.size,
                       message=f"{task.input}: internal error ({type(exc).__name__}); nothing written")
    report = result.report
    session = result.session_map.get("session")
    return Outcome(task.input, task.output, WRITTEN, 0, task.size,
                   events=len(result.session_map.get("events") or ()), warnings=tuple(report.warnings),
                   content_hash=report.content_hash, drops=report.drop_counts(),
                   session=str(session.get("id") or "") if isinstance(session, dict) else "")


def _portable(settings: Settings) -> Settings:
    """The settings without what a policy caches (its extended verb vocabulary is rebuilt)."""
    pol = settings.policy
    return Settings(EffectivePolicy(pol.policy, pol.source, pol.allowlists), settings.keys, settings.options)


def _context() -> Any:
    """Fork where it is the platform's way (Linux): workers start at once and share, copy on write,
    what the parent already loaded; the parent forks before it starts any thread of its own (the
    pool's manager thread starts after the workers, the progress display after that). Elsewhere,
    spawn (the settings are then pickled once per worker)."""
    import multiprocessing

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


class Interrupted(Exception):  # noqa: N818 - what happened, not an error of the inputs
    """Ctrl-C stopped the batch: `done` are the outcomes of the inputs that finished (their maps are
    complete: every map is written whole or not at all), in task order; the others never wrote."""

    def __init__(self, done: list[Outcome], total: int) -> None:
        super().__init__(f"interrupted after {len(done)} of {total} sessions")
        self.done = done
        self.total = total


def _written_anyway(tasks: Sequence[Task], results: dict[int, Outcome], started: int) -> dict[int, Outcome]:
    """`results`, and an outcome `written` for each task whose map this run put in place although
    Ctrl-C came before its outcome did (between the map's rename and the return): a map is renamed
    into place only when whole, so it is complete; its counts are not known."""
    out = dict(results)
    for i, task in enumerate(tasks):
        if i in out:
            continue
        try:
            st = os.lstat(task.output)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode) and st.st_mtime_ns >= started:
            out[i] = Outcome(task.input, task.output, WRITTEN, 0, task.size, agent=task.agent,
                             message=f"{task.input}: written; interrupted before its summary (counts unknown)")
    return out


def run(tasks: Sequence[Task], settings: Settings, *, jobs: int = 1,
        on_done: Callable[[Outcome], None] | None = None,
        on_start: Callable[[], None] | None = None) -> list[Outcome]:
    """Redact every task, `jobs` at a time in worker processes (1: here, one after the other).
    Outcomes come back in task order; `on_done` sees each as it completes; `on_start` is called once
    the workers exist (a progress display starts there, so that no thread of it is forked)."""
    done = on_done or (lambda outcome: None)
    started = time.time_ns()
    if jobs <= 1 or len(tasks) <= 1:
        if on_start is not None:
            on_start()
        out: list[Outcome] = []
        try:
            for task in tasks:
                outcome = redact_one(task, settings)
                out.append(outcome)
                done(outcome)
        except KeyboardInterrupt:
            found = _written_anyway(tasks, {i: o for i, o in enumerate(out)}, started)
            raise Interrupted([found[i] for i in sorted(found)], len(tasks)) from None
        return out
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

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
        except KeyboardInterrupt:
            pool.shutdown(wait=True, cancel_futures=True)
            for future, i in pending.items():  # finished while the pool stopped: their maps are there
                if future.done() and not future.cancelled() and future.exception() is None:
                    results[i] = future.result()
            found = _written_anyway(tasks, results, started)
            raise Interrupted([found[i] for i in sorted(found)], len(tasks)) from None
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
