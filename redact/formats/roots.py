"""Which working directory is a repository, and what it is called (issue 13, item 1).

Every reader and native scrubber asks here, so the rule is written once. A working directory is a
repository root only on evidence, and never when it is a home folder or a folder above one
(`redact.apply.paths.is_not_a_repository`). Evidence is one of:
- git seen in the log for that directory: Claude Code's `gitBranch`, Codex's `session_meta.git`, a
  session record root's `vcs`, a `.git` path at or above it. (A commit or PR the session made is no
  evidence: `cd sub && git commit` from a home folder makes one too.)
- depth below a known home folder (`~/code/proj`; not `~` itself nor `~/Documents`).
A folder named like the user whose home it is in (`~/code/alice` of alice) is never a root.

Without evidence there is no root: every path of the session goes to a bucket label, and the map
has no `repos[]` entry, so no word of the working directory's path is ever written as a name.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from redact.build.facts import SessionFacts, ToolCall, ToolResult
from redact.contract.fold import fold_name
from redact.apply.paths import (
    is_absolute, is_below_a_home, is_not_a_repository, normalize, resolve_abs, user_names,
)

# `<main checkout>/.claude/worktrees/<name>`: a Claude Code worktree; its main checkout is a root too.
_WORKTREE = re.compile(r"^(.*)/\.claude/worktrees/[^/]+$")


def _resolved(path: str) -> str | None:
    norm = normalize(path)
    if not is_absolute(norm) or norm.startswith("~"):
        return None
    return resolve_abs(norm)


def git_root_of(path: str) -> str | None:
    """The folder holding the first `.git` segment of an absolute path (`/w/p/.git/config` ->
    `/w/p`), or None."""
    resolved = _resolved(path)
    if resolved is None:
        return None
    head, sep, _ = (resolved + "/").partition("/.git/")
    return head if sep and head and not head.endswith(":") else None


def _inside(path: str, root: str) -> bool:
    fold = root[1:2] == ":"
    p, r = (path.lower(), root.lower()) if fold else (path, root)
    return p == r or p.startswith(r.rstrip("/") + "/")


def _named_after_its_user(where: str) -> bool:
    """`~/alice` of user alice: its name would be the user name, so it is no root."""
    last = fold_name(where.rstrip("/").rsplit("/", 1)[-1])
    return any(last == fold_name(user) for user in user_names(where))


def names_its_user(root: str, name: str) -> bool:
    """Whether a repository's name holds the user name of the home its root is in
    (`alice-dotfiles`, `alice.github.io` in alice's home): the name would say who the user is."""
    folded = fold_name(name)
    return any(len(user) >= 2 and fold_name(user) in folded for user in user_names(root))


def choose_roots(candidates: Iterable[str | None], *, git: bool = False,
                 git_roots: Iterable[str] = ()) -> tuple[str, ...]:
    """The repository roots among `candidates` (working directories, most important first).

    `git`: the log says the working directory is inside a git work tree. `git_roots`: folders a
    `.git` path was seen in. A candidate that is no repository is never a root, whatever the evidence.
    """
    seen_git = [r for r in (_resolved(g) for g in git_roots) if r]
    roots: list[str] = []
    for cand in candidates:
        if not cand or cand in roots or is_not_a_repository(cand):
            continue
        where = _resolved(cand)
        if where is None:
            continue
        evident = git or is_below_a_home(cand) or any(_inside(where, g) for g in seen_git)
        if not evident or _named_after_its_user(where):
            continue
        roots.append(cand)
        m = _WORKTREE.match(where)
        if m and not is_not_a_repository(m.group(1)) and not _named_after_its_user(m.group(1)) \
                and m.group(1) not in roots:
            roots.append(m.group(1))
    return tuple(roots)


def repo_name(roots: tuple[str, ...]) -> str | None:
    """The repository's name (an identifier the policy scrubs): the last segment of its root, the
    main checkout's for a worktree. Only ever called on roots `choose_roots` accepted."""
    if not roots:
        return None
    first = resolve_abs(normalize(roots[0])) or ""
    base = roots[1] if len(roots) > 1 and _WORKTREE.match(first) else roots[0]
    resolved = resolve_abs(normalize(base)) or ""
    name = resolved.rstrip("/").rsplit("/", 1)[-1]
    return name if name and not name.endswith(":") else None


def hide_user_names(session: SessionFacts, token: Callable[[str], str | None]) -> int:
    """Replace each repository name that holds its home's user name (`names_its_user`) by
    `token(name)` (a keyed hash, or None to drop it when there is no key), under every policy:
    no policy shows user names. Returns how many were replaced (the report counts them)."""
    replaced = 0
    if session.repo_name and any(names_its_user(r, session.repo_name) for r in session.roots):
        session.repo_name = token(session.repo_name)
        replaced += 1
    for more in session.more_repos:
        if more.name and any(names_its_user(r, more.name) for r in more.roots):
            more.name = token(more.name)
            replaced += 1
    return replaced


def evidence_in(session: SessionFacts) -> tuple[str, ...]:
    """Git evidence in a session's facts: the folders `.git` paths were seen in."""
    found: list[str] = []
    for fact in session.facts:
        paths: Iterable[str] = ()
        if isinstance(fact, ToolCall):
            paths = fact.paths
        elif isinstance(fact, ToolResult):
            paths = fact.hits
        for raw in paths:
            if ".git" in raw:
                root = git_root_of(raw)
                if root and root not in found:
                    found.append(root)
    return tuple(found)


def settle(session: SessionFacts, candidates: Iterable[str | None], *, git: bool = False) -> None:
    """Set a session's repository roots and name from its working directories and the evidence
    (the reader's own git flag, then what its facts show)."""
    session.roots = choose_roots(candidates, git=git, git_roots=evidence_in(session))
    session.repo_name = repo_name(session.roots)
    if not session.roots:
        session.remote = None  # a remote names the repository of a root; without one it goes


__all__ = ["choose_roots", "evidence_in", "git_root_of", "hide_user_names", "names_its_user", "repo_name", "settle"]
