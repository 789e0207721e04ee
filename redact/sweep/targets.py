"""Which files a sweep reads: `sweep_inputs` is the one place that turns the command's PATH
arguments (or, with none, every agent's home) into files.

PATH arguments expand as batch mode expands them (redact/batch/inputs.py: a folder's sessions as
every format lists them, glob patterns, single files); a SQLite store is one file (its sessions
share it). Unlike batch mode, the sweep also reads the auxiliary files a format keeps beside its
sessions (a shell history, a prompt log, checkpoints), and every other file under a folder named
like a log (`LOG_SUFFIXES`: the formats this build does not read yet, an agent's prompt history):
tokens sit there too. Credential files
(redact/formats/credentials.py) are named and never opened.

With no PATH, `default_roots` lists every agent's places the way the home-wide batch finds them
(redact/formats/discover.py): each registered format's `homes` (`~/.claude/projects/*`, `*`
matching one segment) that exists, and its `{project}/...` places in the project folders found by
the same bounded walk.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from redact.batch.inputs import SKIPPED, expand
from redact.formats.credentials import is_credential_file
from redact.io.store import split_ref


@dataclass
class Inputs:
    files: list[Path] = field(default_factory=list)
    credentials: list[Path] = field(default_factory=list)  # named, never opened
    unusable: list[tuple[str, str]] = field(default_factory=list)  # (argument, why)
    #: file -> the agent whose place in the home holds it (`place_agent`): named for a file whose
    #: content says no format (a checkpoint, a prompt history), never used to read it
    agents: dict[str, str] = field(default_factory=dict)


def place_agent(home: Path | None = None) -> Callable[[Path], str | None]:
    """A function giving, for a file, the agent whose fixed place in `home` (each format's
    `homes`, redact/formats/discover.py) holds it: the deepest such place, the first format on a
    tie; None outside every agent's place."""
    from redact.formats.discover import fixed_places

    base = Path.home() if home is None else home
    places = sorted(((os.path.realpath(place), fmt.name) for fmt, place in fixed_places(base)),
                    key=lambda item: -item[0].count(os.sep))

    def agent_of(path: Path) -> str | None:
        real = os.path.realpath(path)
        return next((name for place, name in places if real.startswith(place + os.sep)), None)

    return agent_of


def default_roots(home: Path | None = None) -> list[str]:
    """Every agent place that exists under `home` (the user's by default), as the home-wide batch
    finds them (redact/formats/discover.py): each format's fixed `homes` entries (`~/.claude/projects/*`),
    and its `{project}/...` entries in the project folders the same bounded walk finds. A project
    place that is a folder of the agent's own (`<project>/.crush`) is a root; one that is the
    project itself (Aider's history files sit in it) gives the files the format lists there and
    its auxiliary files, never the project's other files."""
    from redact.formats.discover import fixed_places, project_places

    base = Path.home() if home is None else home
    roots: dict[str, str] = {}
    for _, place in fixed_places(base):
        roots.setdefault(os.path.realpath(place), str(place))
    for fmt, project, place in project_places(base):
        if place.is_dir() and os.path.realpath(place) != os.path.realpath(project):
            roots.setdefault(os.path.realpath(place), str(place))
        else:
            for path in _project_logs(fmt, place):
                roots.setdefault(os.path.realpath(path), str(path))
    return list(roots.values())


def _project_logs(fmt: object, place: Path) -> list[Path]:
    """The files a format keeps in a project folder: its sessions there and its auxiliary files."""
    found: list[Path] = []
    lister = getattr(fmt, "list_sessions", None)
    try:
        found.extend(Path(p) for p in (lister(place) if callable(lister) and place.is_dir() else [place]))
    except OSError:
        return []
    auxiliary = getattr(fmt, "auxiliary", None)
    if callable(auxiliary):
        found.extend(Path(p) for p, _ in auxiliary(place))
    return [p for p in found if p.is_file()]


#: what an agent's log can be named, beyond the sessions the formats list
LOG_SUFFIXES = (".jsonl", ".json", ".md", ".txt", ".log", ".db", ".sqlite", ".sqlite3", ".vscdb", ".jsonl.gz")
_SKIP_FOLDERS = frozenset({"node_modules", ".git", "__pycache__", ".venv", "site-packages"})


def _logs_under(folder: Path, unusable: list[tuple[str, str]] | None = None) -> list[Path]:
    """Files under `folder` named like logs (`LOG_SUFFIXES`), not in a package or VCS folder. What
    cannot be listed, and a link (never followed: it may point anywhere), goes to `unusable` with why."""
    found = []
    said = unusable if unusable is not None else []

    def cannot_list(exc: OSError) -> None:
        said.append((str(exc.filename or folder), f"a folder that cannot be listed ({exc.strerror or type(exc).__name__})"))

    for base, dirs, files in os.walk(folder, onerror=cannot_list):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_FOLDERS)
        for name in sorted(files):
            if name.endswith(LOG_SUFFIXES) and not name.endswith((".db-wal", ".db-shm")):
                path = Path(base) / name
                if path.is_symlink():
                    said.append((str(path), "a link, not followed"))
                elif path.is_file():
                    found.append(path)
                else:
                    said.append((str(path), "not a regular file"))
    return found


def sweep_inputs(paths: Sequence[str], home: Path | None = None) -> Inputs:
    """The files a sweep of `paths` reads (every agent home when `paths` is empty)."""
    from redact.batch.inputs import is_pattern

    args = list(paths) if paths else default_roots(home)
    result = Inputs()
    missing = [a for a in args if not is_pattern(a) and not Path(split_ref(a)[0]).exists()]
    result.unusable.extend((a, f"{a}: no such file or folder") for a in missing)
    args = [a for a in args if a not in missing]
    seen: dict[str, Path] = {}
    files, outcomes = expand(args)
    from redact.formats.runs import split_run

    for path in files:  # a store's session or a log's run (`FILE#N`) is its whole file here
        whole = split_run(split_ref(path)[0])[0]
        seen.setdefault(os.path.realpath(whole), whole)
    for outcome in outcomes:
        path = Path(outcome.input)
        if is_credential_file(path):
            result.credentials.append(path)
        elif outcome.status == SKIPPED and path.is_file() and not path.is_symlink():
            seen.setdefault(os.path.realpath(path), path)  # an auxiliary file: searched too
        else:  # nothing passed over unsaid
            result.unusable.append((outcome.input, outcome.message))
    for arg in args:  # the other logs of a folder: formats not registered yet, histories, notes
        if Path(arg).is_dir():
            logs = _logs_under(Path(arg), result.unusable)
            if logs:  # a folder of logs no format lists is not a folder without sessions here
                result.unusable = [(a, why) for a, why in result.unusable if a != arg]
            for path in logs:
                if is_credential_file(path):
                    result.credentials.append(path)
                else:
                    seen.setdefault(os.path.realpath(path), path)
    result.files = [p for p in seen.values() if not is_credential_file(p)]
    agent_of = place_agent(home)
    result.agents = {str(p): name for p in result.files if (name := agent_of(p)) is not None}
    result.unusable = list(dict.fromkeys((a, why.removeprefix(f"{a}: ")) for a, why in result.unusable))
    result.credentials = sorted(set(result.credentials))
    return result
