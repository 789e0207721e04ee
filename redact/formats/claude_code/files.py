"""Which files make up a Claude Code session, and reading them as one.

Layouts (`~/.claude/projects/<project-folder>/`):
- `<session>.jsonl` with `<session>/subagents/agent-<id>.jsonl` beside it (clients 2.1.x);
- `<session>.jsonl` with flat `agent-<id>.jsonl` files in the same folder, matched to the session by
  their `sessionId` (clients 1.x-2.0.x);
- sidechain records (`isSidechain: true`) inside the main file (older clients).

A project folder holds many sessions; `project_sessions` lists the inputs to redact one by one: every
main transcript, plus any flat agent transcript whose session is not in the folder (redacted on its
own, as a subagent session).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import orjson

from redact.build.facts import RepoRoots, SessionFacts
from redact.formats.claude_code.keys import SESSION_ID
from redact.formats.claude_code.reader import ClaudeCodeReader
from redact.formats.ids import session_id, native_id
from redact.io.read import read_input
from redact.apply.paths import resolve_abs
from redact.formats.roots import choose_roots, repo_name, settle
from redact.report import RedactionReport

_AGENT_FILE = re.compile(r"^agent-(.{1,200})\.jsonl$")
# What Claude Code names a subagent (`a0edd2b`, `a24d441f2b73d6772`, a UUID): shown in an error line.
_PLAIN_AGENT_ID = re.compile(r"[0-9a-f][0-9a-f-]{0,63}")
_HEAD = 1 << 16


@dataclass(frozen=True)
class Sidechain:
    path: Path
    agent_id: str


def agent_id_of(path: Path) -> str | None:
    m = _AGENT_FILE.match(path.name)
    return m.group(1) if m else None


def session_id_of(path: Path) -> str | None:
    """The `sessionId` of the first records of a transcript (reads at most 64 KiB)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(_HEAD)
    except OSError:
        return None
    for line in head.split(b"\n")[:50]:
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(record, dict) and isinstance(record.get(SESSION_ID), str):
            return record[SESSION_ID]  # type: ignore[no-any-return]
    return None


def find_sidechains(main: Path) -> list[Sidechain]:
    """The subagent transcripts of the session whose main transcript is `main`."""
    found: list[Sidechain] = []
    if agent_id_of(main) is not None:
        return found  # a subagent transcript given on its own
    stem = main.name[:-3] if main.name.endswith(".gz") else main.name
    stem = stem[:-6] if stem.endswith(".jsonl") else stem
    sub = main.parent / stem / "subagents"
    if sub.is_dir():
        for path in sorted(sub.glob("agent-*.jsonl")):
            agent = agent_id_of(path)
            if agent:
                found.append(Sidechain(path, agent))
    flat = sorted(main.parent.glob("agent-*.jsonl"))
    if flat:
        sid = session_id_of(main)
        for path in flat:
            agent = agent_id_of(path)
            if agent and sid is not None and session_id_of(path) == sid:
                found.append(Sidechain(path, agent))
    return found


def project_sessions(folder: Path) -> list[Path]:
    """The inputs to redact for a project folder, one map each."""
    mains = sorted(p for p in folder.glob("*.jsonl") if agent_id_of(p) is None and p.is_file())
    sessions = {sid for sid in (session_id_of(p) for p in mains) if sid}
    orphans = [p for p in sorted(folder.glob("agent-*.jsonl"))
               if p.is_file() and session_id_of(p) not in sessions]
    return mains + orphans


def roots_of(cwd: str | None, original_cwd: str | None, *, git: bool = False) -> tuple[str, ...]:
    """Repository roots: the working directory (and the original one) on evidence, never a home
    folder or scratch space; a `.claude/worktrees/<name>` worktree adds its main checkout
    (`redact.formats.roots.choose_roots`)."""
    return choose_roots((cwd, original_cwd), git=git)


def settle_session(reader: ClaudeCodeReader, data: bytes | BinaryIO, stem: str | None = None) -> SessionFacts:
    """The session's id (its `sessionId`; for a subagent transcript on its own, the agent's id and
    its parent's), working directory, repository roots and the repository's name (an identifier)."""
    s = reader.finish()
    sid = reader.session_ids.most_common(1)[0][0] if reader.session_ids else None
    if reader.standalone is not None:
        s.parent_native_id = native_id(sid) if sid else None
        s.native_id = native_id(reader.standalone) if reader.standalone != "?" else \
            session_id(sid, data, stem)
    else:
        s.native_id = session_id(sid, data, stem)
    s.cwd = reader.cwd
    # the first repository on evidence (redact.formats.roots), then one per later repository the session
    # moved into
    settle(s, (reader.cwd, reader.original_cwd), git=reader.git_branch)
    repos = repositories(s.roots, list(reader.cwds), git=reader.git_branch)
    if repos:
        s.roots, s.repo_name = repos[0].roots, repos[0].name
        s.more_repos = repos[1:]
    return s


def _related(a: str, b: str) -> bool:
    """Whether one folder lies inside the other (or they are one)."""
    x, y = (resolve_abs(a) or a).rstrip("/") + "/", (resolve_abs(b) or b).rstrip("/") + "/"
    if x[:1] != "/" and y[:1] != "/":
        x, y = x.lower(), y.lower()  # Windows drives compare case-insensitively
    return x.startswith(y) or y.startswith(x)


def repositories(first: tuple[str, ...], later: list[str], *, git: bool = False) -> list[RepoRoots]:
    """The repositories of a session: the first one's roots (chosen on evidence), then one more for
    each later working directory that qualifies as a root and lies neither inside nor above a root
    already known (a `cd` into a subfolder stays in its repository; a parent folder holding several
    repositories is none of them). A session that starts outside any repository takes its first
    from the first later working directory that qualifies."""
    repos: list[RepoRoots] = []
    if first:
        repos.append(RepoRoots(first, repo_name(first)))
    for cand in later:
        roots = roots_of(cand, None, git=git)
        if not roots or any(_related(roots[0], known) for repo in repos for known in repo.roots):
            continue
        repos.append(RepoRoots(roots, repo_name(roots)))
    return repos


def side_where(side: Sidechain) -> str:
    """How an error names a subagent transcript. The tool found it (the user typed only the main
    file), so its name is shown only when it is what Claude Code writes: a hex or UUID agent id."""
    if _PLAIN_AGENT_ID.fullmatch(side.agent_id):
        return str(side.path)
    return str(side.path.parent / "agent-<unusual name>.jsonl")


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 sidechains: list[Sidechain] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    """Read a main transcript (in memory, or a binary file streamed line by line) and its subagent
    transcripts into facts."""
    sidechains = sidechains or []
    reader = ClaudeCodeReader(report, agent_files=[s.agent_id for s in sidechains])
    reader.read(data, where, skip_bad_lines=skip_bad_lines)
    for side in sidechains:
        shown = side_where(side)
        try:
            if side.path.suffix == ".gz":
                reader.read(read_input(side.path, name=shown), shown, agent_id=side.agent_id, skip_bad_lines=skip_bad_lines)
                continue
            with side.path.open("rb") as fh:
                reader.read(fh, shown, agent_id=side.agent_id, skip_bad_lines=skip_bad_lines)
        except OSError:
            report.warn("a subagent transcript could not be read and was left out")
    return settle_session(reader, data, stem=file_stem)
