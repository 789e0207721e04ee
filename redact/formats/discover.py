"""Where the sessions are: a home folder (every agent's own places), or any folder (the layouts the
formats list, then every other file detected by its content, as a single file is).

    found = discover(Path.home())          # `agentplay-redact ~` and `agentplay-redact --all`
    found = discover(Path("shared-sessions"))

Each format's registry line says where its agent keeps its sessions (`FormatFolder.homes`, paths
relative to the home, `*` one segment, `{project}/...` inside a project folder); nothing here knows
a format by name. A home is searched at each of those places; the project places are found by a
bounded walk of the home's folders that skips dependency, virtualenv, cache and hidden folders. A
folder that is not a home is searched at the places as if it were a home, and at the part of each
place it is (`~/.claude` holds `projects/*`; `~/.claude/projects` holds `*`), by every format's
own lister in it and in each folder right under it, and then by content: each file no layout
claimed is read up to its first MiB and detected.

Companions are never sessions of their own: the files a format reads with a session (Claude Code's
subagent transcripts, Copilot CLI's `workspace.yaml`, opencode's message and part files), a
store's `-wal`, `-shm` and `-journal`, and the files a format knows are not sessions (credentials,
by name and never opened; auxiliary logs). A store holding several sessions is one `STORE#SESSION`
address per session. Files that look like sessions but cannot be read are listed with why.
"""
from __future__ import annotations

import gzip
import zlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from redact.errors import BadInput
from redact.formats.auxiliary import present, reason
from redact.formats.registry import PROJECT, Format, formats, raw_format
from redact.io.store import is_sqlite, ref, side_files, store_of_side

#: Folder names the project walk and the content walk never enter (dependencies, builds, caches,
#: virtualenvs); hidden folders are not entered either (a project's own `.crush` is asked for by name).
PRUNED = frozenset({"node_modules", "__pycache__", "venv", "env", "site-packages", "dist-packages",
                    "bower_components", "vendor", "target", "Library", "AppData", "Pods", "DerivedData"})
PROJECT_DEPTH = 4        # home/code/org/project/sub
MAX_FOLDERS = 20_000     # the project walk stops after this many folders (and says so)
MAX_FILES = 20_000       # the content walk detects at most this many files (and says so)
_HEAD = 1 << 20
_SESSION_SUFFIXES = (".json", ".jsonl", ".gz", ".md", ".db", ".vscdb", ".sqlite", ".sqlite3")
#: Files the content walk does not open: media, archives other than gzip, compiled code, fonts.
_NEVER_SESSIONS = frozenset("""
.png .jpg .jpeg .gif .webp .bmp .ico .tif .tiff .heic .svg .pdf .zip .tar .tgz .bz2 .xz .7z .rar
.mp3 .mp4 .mov .wav .webm .m4a .so .dylib .dll .exe .o .a .class .jar .pyc .whl .woff .woff2 .ttf .otf
""".split())  # noqa: SIM905 - a word list reads better as text


@dataclass(frozen=True)
class Session:
    """One input found: a file, or `STORE#SESSION` of a store holding several."""

    path: Path
    agent: str
    place: str           # where it was found, as shown (`~/.claude/projects/*`)
    store: Path | None = None


@dataclass
class Found:
    """What a folder holds: its sessions, and what was looked at and passed over (with why)."""

    sessions: list[Session] = field(default_factory=list)
    skipped: list[tuple[Path, str]] = field(default_factory=list)     # not sessions, on purpose
    unreadable: list[tuple[Path, str]] = field(default_factory=list)  # look like sessions, cannot be read
    other: list[Path] = field(default_factory=list)                   # detected as no session format
    empty: list[tuple[str, str]] = field(default_factory=list)        # (agent, place) there, holding nothing
    absent: int = 0                                                   # places that do not exist here
    truncated: list[str] = field(default_factory=list)                # walks stopped at their bound

    def agents(self) -> dict[str, tuple[int, int, list[str]]]:
        """agent -> (sessions, stores, places shown), in the order agents were found."""
        out: dict[str, tuple[int, int, list[str]]] = {}
        stores: dict[str, set[str]] = {}
        for s in self.sessions:
            n, _, places = out.get(s.agent, (0, 0, []))
            if s.place not in places:
                places.append(s.place)
            if s.store is not None:
                stores.setdefault(s.agent, set()).add(os.path.realpath(s.store))
            out[s.agent] = (n + 1, len(stores.get(s.agent, ())), places)
        return out


def is_home(folder: Path) -> bool:
    """Whether `folder` is searched as a home: the user's home, or a folder holding one of the
    agents' fixed places (a copy of a home, a test's home)."""
    try:
        if folder.resolve() == Path.home().resolve():
            return True
    except (OSError, RuntimeError):
        return False
    return any(places for fmt in formats() for pattern in fmt.homes if not pattern.startswith(PROJECT)
               for places in [_expand(folder, _segments(pattern))])


def discover(folder: Path, *, home: bool | None = None, exclude: Iterable[Path] = ()) -> Found:
    """The sessions under `folder` (module doc); `home` None decides by `is_home`; nothing under a
    path of `exclude` (the output folder) is taken."""
    home = is_home(folder) if home is None else home
    found = Found()
    state = _State(found, {os.path.realpath(p) for p in exclude}, folder, home)
    for fmt in formats():
        for pattern in fmt.homes:
            if pattern.startswith(PROJECT):
                continue
            anchors = [0] if home else range(len(_segments(pattern)) + 1)
            places = [p for k in anchors for p in _anchored(folder, _segments(pattern), k)]
            if not places:
                found.absent += 1
            for place in places:
                state.take_place(fmt, place, _shown(pattern, folder, place, home))
    for fmt, pattern, _, place in _project_places(folder, state):
        state.take_place(fmt, place, pattern.replace(PROJECT, "<project>"), quiet=True)
    if not home:
        for base in [folder, *_subfolders(folder)]:
            for fmt in formats():
                if fmt.has_sessions:
                    state.take_place(fmt, base, _rel(folder, base), quiet=True)
        state.by_content(folder)
    state.finish()
    return found


def project_places(folder: Path) -> list[tuple[Format, Path, Path]]:
    """(format, project folder, place) of each `{project}/...` entry of the formats' `homes` that exists in a
    project folder under `folder`, found by the same bounded walk as `discover` (the sweep's
    default roots use it: one discovery, not two)."""
    state = _State(Found(), set(), folder, True)
    return [(fmt, project, place) for fmt, _, project, place in _project_places(folder, state)]


def _project_places(folder: Path, state: _State) -> Iterator[tuple[Format, str, Path, Path]]:
    projects = [(fmt, pattern) for fmt in formats() for pattern in fmt.homes if pattern.startswith(PROJECT)]
    if not projects:
        return
    for project in _projects(folder, state):
        for fmt, pattern in projects:
            place = project / pattern[len(PROJECT):].lstrip("/")
            if _exists(place):
                yield fmt, pattern, project, place


def fixed_places(folder: Path) -> list[tuple[Format, Path]]:
    """(format, place) of each fixed entry of the formats' `homes` (`~/.claude/projects/*`) that
    exists under the home `folder`."""
    return [(fmt, place) for fmt in formats() for pattern in fmt.homes if not pattern.startswith(PROJECT)
            for place in _expand(folder, _segments(pattern))]


def files_read(path: Path, fmt: str | None = None) -> list[Path]:
    """The files read with the input at `path` besides itself: a store's side files, and the
    companions its format finds (subagent transcripts, a workspace file, a storage tree's messages
    and parts). `fmt` None: detected from the file's head. None of these may be overwritten."""
    from redact.io.store import split_ref

    store, session = split_ref(path)
    if reason(store) is not None:  # a credential or auxiliary file is never opened, not even here
        return []
    if session is not None or is_sqlite(store):
        return side_files(store)
    if fmt is None:
        fmt = _detect(path)
    raw = raw_format(fmt) if fmt else None
    if raw is None:
        return []
    try:
        return [Path(getattr(c, "path", c)) for c in raw.discover(path)]
    except (OSError, BadInput):
        return []


# -- the walk ----------------------------------------------------------------------------------------

class _State:
    def __init__(self, found: Found, exclude: set[str], root: Path, home: bool) -> None:
        self.found = found
        self.exclude = exclude
        self.root = root
        self.home = home
        self.taken: set[str] = set()     # real paths of sessions and of every file read with one
        self.listed: set[str] = set()    # real paths listed as skipped (a companion may be, too)
        self.sessions: set[str] = set()  # real paths of the session files taken
        self.seen_places: set[tuple[str, str]] = set()

    def excluded(self, path: Path) -> bool:
        real = os.path.realpath(path)
        return any(real == e or real.startswith(e + os.sep) for e in self.exclude)

    def take_place(self, fmt: Format, place: Path, shown: str, *, quiet: bool = False) -> None:
        key = (fmt.name, os.path.realpath(place))
        if key in self.seen_places or self.excluded(place):
            return
        self.seen_places.add(key)
        folder = _is_dir(place)
        if folder and not os.access(place, os.R_OK | os.X_OK):
            if not quiet:  # an agent's own place; a folder the walks pass is no one's
                self.found.unreadable.append((place, "a folder that cannot be listed (permission denied)"))
            return
        n = 0
        try:
            listed = fmt.list_sessions(place) if folder else []
        except OSError as exc:
            self.found.unreadable.append((place, f"cannot be listed ({exc.strerror or type(exc).__name__})"))
            return
        for path in listed:
            n += self.take(fmt.name, path, shown)
        self.skip_auxiliary(fmt, place)
        for path in present(place) if folder else []:  # credentials, indexes: by name
            self.skip(path, f"{reason(path)}, never read")
        if n == 0 and not quiet and folder:
            self.found.empty.append((fmt.name, shown))

    def skip_auxiliary(self, fmt: Format, place: Path) -> None:
        auxiliary = getattr(fmt, "auxiliary", None)
        if callable(auxiliary):
            for path, because in auxiliary(place):
                self.skip(path, because)

    def skip(self, path: Path, because: str) -> None:
        real = os.path.realpath(path)
        if real not in self.listed and real not in self.sessions:
            self.listed.add(real)
            self.taken.add(real)
            self.found.skipped.append((path, because))

    def take(self, agent: str, path: Path, shown: str) -> int:
        """Take the session file at `path` (every session of a store); the number of sessions taken."""
        real = os.path.realpath(path)
        if real in self.taken or real in self.listed or self.excluded(path):
            return 0
        why = reason(path)
        if why is not None:
            self.skip(path, f"{why}, never read")
            return 0
        problem = _unreadable(path)
        if problem is not None:
            self.taken.add(real)
            self.found.unreadable.append((path, problem))
            return 0
        self.taken.add(real)
        self.sessions.add(real)
        for side in side_files(path):
            self.taken.add(os.path.realpath(side))
        if is_sqlite(path):
            from redact.formats.stores import sessions_of

            ids = sessions_of(path)
            if ids:  # one address per session, as a store named on the command line
                self.found.sessions.extend(Session(ref(path, sid), agent, shown, path) for sid in ids)
                return len(ids)
        for companion in files_read(path, agent):
            self.taken.add(os.path.realpath(companion))
        self.found.sessions.append(Session(path, agent, shown, path if is_sqlite(path) else None))
        return 1

    def by_content(self, folder: Path) -> None:
        """Every file under `folder` no layout took, detected by its content."""
        detected: list[tuple[Path, str]] = []
        count = 0
        for path in _files(folder, self):
            real = os.path.realpath(path)
            if real in self.taken:
                continue
            why = reason(path)
            if why is not None:
                self.skip(path, f"{why}, never read")
                continue
            if store_of_side(path) is not None or path.suffix.lower() in _NEVER_SESSIONS:
                continue  # read with its store; or a kind of file no agent writes a session as
            count += 1
            if count > MAX_FILES:
                self.found.truncated.append(f"{folder}: detected the first {MAX_FILES} files only")
                break
            problem = _unreadable(path)
            if problem is not None:
                if path.suffix in _SESSION_SUFFIXES:
                    self.found.unreadable.append((path, problem))
                continue
            agent = _detect(path)
            if agent is None:
                self.found.other.append(path)
            else:
                detected.append((path, agent))
        # a companion found by content (a subagent transcript) belongs to its session, not beside it
        companions = {os.path.realpath(c) for path, agent in detected for c in files_read(path, agent)}
        for path, agent in detected:
            if os.path.realpath(path) not in companions:
                self.take(agent, path, _rel(folder, path.parent) + " (by content)")

    def finish(self) -> None:
        self.found.empty = [(a, p) for a, p in self.found.empty
                            if not any(s.agent == a and s.place == p for s in self.found.sessions)]


def _exists(path: Path) -> bool:
    """Whether `path` exists; False when asking is refused (a folder that cannot be searched)."""
    try:
        return path.exists()
    except OSError:
        return False


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def _unreadable(path: Path) -> str | None:
    try:
        with path.open("rb") as fh:
            fh.read(1)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or type(exc).__name__})"
    return None


def _detect(path: Path) -> str | None:
    """The raw format of the file at `path` by its first MiB, or None (a map, or no format)."""
    from redact.formats.detect import MAP, detect

    if is_sqlite(path):
        from redact.formats.stores import store_format
        from redact.io.store import opened

        try:
            with opened(path) as db:
                fmt = store_format(db)
        except (BadInput, OSError):
            return None
        except Exception:  # noqa: BLE001 - sqlite3.Error and kin: not a store this build reads
            return None
        return fmt.name if fmt is not None else None
    try:
        with path.open("rb") as fh:
            head = fh.read(_HEAD)
        if head[:2] == b"\x1f\x8b":
            with gzip.open(path, "rb") as gz:
                head = gz.read(_HEAD)
    except (OSError, EOFError, gzip.BadGzipFile, zlib.error):  # a damaged stream: not a log it can name
        return None
    try:
        found = detect(head, str(path))
        if found == MAP and len(head) == _HEAD:
            # a document longer than the head does not parse from it and is taken for a map: the
            # whole file tells (a pretty-printed Cline task or Gemini CLI recording of several MiB)
            from redact.io.read import read_input

            found = detect(read_input(path), str(path))
    except BadInput:
        return None
    return None if found == MAP else found


def _segments(pattern: str) -> list[str]:
    return [s for s in pattern.removeprefix("~").split("/") if s]


def _anchored(folder: Path, segs: list[str], k: int) -> list[Path]:
    """The places under `folder` when `folder` is the place's first `k` segments (0: the home)."""
    if k:
        tail = folder.parts[-k:] if len(folder.parts) >= k else ()
        if len(tail) != k or any(s != "*" and s != t for s, t in zip(segs[:k], tail, strict=True)):
            return []
    return _expand(folder, segs[k:])


def _expand(base: Path, segs: list[str]) -> list[Path]:
    bases = [base]
    for seg in segs:
        nxt: list[Path] = []
        for b in bases:
            nxt.extend(sorted(_subfolders(b)) if seg == "*" else [b / seg] if _exists(b / seg) else [])
        bases = nxt
    return bases


def _subfolders(folder: Path) -> list[Path]:
    try:
        return sorted(Path(e.path) for e in os.scandir(folder) if e.is_dir(follow_symlinks=False))
    except OSError:
        return []


def _projects(root: Path, state: _State) -> Iterator[Path]:
    """Folders under `root` (itself first) up to PROJECT_DEPTH deep, skipping PRUNED, hidden folders,
    virtualenvs and links; at most MAX_FOLDERS."""
    queue: list[tuple[Path, int]] = [(root, 0)]
    visited = 0
    while queue:
        folder, depth = queue.pop(0)
        visited += 1
        if visited > MAX_FOLDERS:
            state.found.truncated.append(f"{root}: the project walk stopped after {MAX_FOLDERS} folders")
            return
        yield folder
        if depth >= PROJECT_DEPTH:
            continue
        for sub in _subfolders(folder):
            if sub.name.startswith(".") or sub.name in PRUNED or _exists(sub / "pyvenv.cfg") \
                    or state.excluded(sub):
                continue
            queue.append((sub, depth + 1))


def _files(folder: Path, state: _State) -> Iterator[Path]:
    """The regular files under `folder`, in order, not entering PRUNED folders, `.git`, virtualenvs,
    links or excluded folders."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        path = Path(entry.path)
        if entry.is_dir(follow_symlinks=False):
            if entry.name in PRUNED or entry.name in (".git", ".venv", ".cache") or \
                    _exists(path / "pyvenv.cfg") or state.excluded(path):
                continue
            yield from _files(path, state)
        elif entry.is_file(follow_symlinks=False) and not state.excluded(path):
            yield path


def _rel(root: Path, path: Path) -> str:
    try:
        rel = path.relative_to(root)
    except ValueError:
        return str(path)
    return str(root) if str(rel) == "." else str(root / rel)


def _shown(pattern: str, folder: Path, place: Path, home: bool) -> str:
    """A place as the per-agent lines show it: the home's pattern (`~/.claude/projects/*`) for a
    home, else the folder's own path to the pattern's place."""
    if home:
        return pattern
    segs = _segments(pattern)
    rel = _rel(folder, place)
    if "*" in segs:
        # the globbed part is shown as the pattern shows it: one line for all project folders
        depth = len(segs) - segs.index("*")
        parts = Path(rel).parts
        if len(parts) >= depth:
            return str(Path(*parts[: len(parts) - depth], *segs[len(segs) - depth:]))
    return rel


__all__ = ["Found", "Session", "discover", "files_read", "is_home"]
