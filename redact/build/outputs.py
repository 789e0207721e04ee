"""Outputs a session produced, confirmed by a tool result: commits, PRs, tickets, skill writes.

Readers call these with a call's command (or MCP tool name) and its result text as soon as they pair
the two; only the returned facts survive, the text is dropped right there. An output is confirmed
only when *both* hold: the command is one that creates it (by the verb engine's reading of the
command, never by a substring), and the result shows the tool's own confirmation (git's
`[branch sha] subject` line with its stat line; a PR URL printed by `gh pr create`). A command that
merely mentions a commit (`git show`, `git log`, `cat notes.txt`) produces nothing.

Nothing here returns text: shas are hex, numbers are ints, repos and URLs are identifiers that the
policy scrubs afterwards (URLs are rebuilt from their parsed parts, never copied).
"""
from __future__ import annotations

import re
from functools import lru_cache

from redact.build.facts import Commit, Output, PrAction, SkillWrite, Ticket

_MAX_SCAN = 1 << 20  # bytes of one result examined for confirmations

# git commit / cherry-pick / revert: "[main 1a2b3c4] subject", "[main (root-commit) 1a2b3c4] subject",
# "[detached HEAD 1a2b3c4] subject"; then " 3 files changed, 10 insertions(+), 2 deletions(-)".
_COMMIT_HEAD = re.compile(r"^\[[^\]\n]{0,300}? ([0-9a-f]{7,40})\] ", re.M)
_STAT = re.compile(
    r"^ ?(\d+) files? changed(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?", re.M
)
_COMMIT_VERBS = ("git commit", "git cherry-pick", "git revert")

_NAME = r"[A-Za-z0-9_.-]{1,100}"
_GH_PULL = re.compile(rf"https://github\.com/({_NAME}/{_NAME})/pull/(\d{{1,9}})(?![\w/])")
_GHE_PULL = re.compile(rf"https://([a-z0-9.-]{{1,200}})/({_NAME}/{_NAME})/pull/(\d{{1,9}})(?![\w/])")
_GL_MR = re.compile(
    rf"https://([a-z0-9.-]{{1,200}})/((?:{_NAME}/){{1,6}}{_NAME})/-/merge_requests/(\d{{1,9}})(?![\w/])"
)
_GH_ISSUE = re.compile(rf"https://github\.com/({_NAME}/{_NAME})/issues/(\d{{1,9}})(?![\w/])")
_GL_ISSUE = re.compile(
    rf"https://([a-z0-9.-]{{1,200}})/((?:{_NAME}/){{1,6}}{_NAME})/-/issues/(\d{{1,9}})(?![\w/])"
)
_LINEAR = re.compile(r"https://linear\.app/[A-Za-z0-9_-]{1,100}/issue/([A-Z][A-Z0-9]{0,9}-\d{1,9})\b")
_JIRA = re.compile(r"https://[a-z0-9-]{1,100}\.atlassian\.net/browse/([A-Z][A-Z0-9]{0,9}-\d{1,9})\b")
_GH_MERGED = re.compile(
    rf"(?:Merged|Squashed and merged|Rebased and merged) pull request (?:({_NAME}/{_NAME}))?#(\d{{1,9}})"
)
_GH_CLOSED = re.compile(rf"Closed pull request (?:({_NAME}/{_NAME}))?#(\d{{1,9}})")
_GH_COMMENT = re.compile(rf"https://github\.com/({_NAME}/{_NAME})/pull/(\d{{1,9}})#issuecomment-\d+")
_GL_MERGED = re.compile(r"Merged!? |[Mm]erge request !(\d{1,9}) (?:merged|was merged)")

# Every confirming verb is one of these programs: other commands are not even parsed here.
_PROGRAMS = ("git", "gh", "glab")
_CONFIRMING = ("git commit", "git cherry-pick", "git revert", "gh pr create", "glab mr create", "gh pr merge",
               "glab mr merge", "gh pr close", "gh pr comment", "gh issue create", "glab issue create",
               "gh issue comment", "gh issue edit", "glab issue note", "glab issue update")

_SKILL_FILE = re.compile(r"(?:^|[/\\])\.claude[/\\]skills[/\\]([^/\\]{1,100})[/\\]SKILL\.md$")


@lru_cache(maxsize=4096)
def _verbs(command: str) -> tuple[str, ...]:
    from redact.verbs import extract

    result = extract(command)
    return tuple(result.verbs) or (result.verb,)


def _has(verbs: tuple[str, ...], *prefixes: str) -> bool:
    return any(v == p or v.startswith(p + " ") for v in verbs for p in prefixes)


def commits(text: str) -> list[Commit]:
    """Commits git reports having made in `text` (its own output format only)."""
    found: list[Commit] = []
    heads = list(_COMMIT_HEAD.finditer(text))
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        stat = _STAT.search(text, head.end(), end)
        if stat is None:
            found.append(Commit(sha=head.group(1)))
            continue
        found.append(Commit(
            sha=head.group(1),
            files=int(stat.group(1)),
            ins=int(stat.group(2) or 0),
            dels=int(stat.group(3) or 0),
        ))
    return found


def _pr_created(text: str) -> PrAction | None:
    last: PrAction | None = None
    for m in _GH_PULL.finditer(text):
        last = PrAction("create", "github", m.group(1), int(m.group(2)),
                        f"https://github.com/{m.group(1)}/pull/{m.group(2)}")
    if last is not None:
        return last
    for m in _GHE_PULL.finditer(text):
        host, repo, num = m.group(1), m.group(2), m.group(3)
        last = PrAction("create", "github", f"{host}/{repo}", int(num), f"https://{host}/{repo}/pull/{num}")
    for m in _GL_MR.finditer(text):
        host, repo, num = m.group(1), m.group(2), m.group(3)
        short = repo if host == "gitlab.com" else f"{host}/{repo}"
        last = PrAction("create", "gitlab", short, int(num), f"https://{host}/{repo}/-/merge_requests/{num}")
    return last


def _issue(text: str, action: str) -> Ticket | None:
    m = _GH_ISSUE.search(text)
    if m:
        return Ticket("github", action, f"{m.group(1)}#{m.group(2)}")  # type: ignore[arg-type]
    m = _GL_ISSUE.search(text)
    if m:
        short = m.group(2) if m.group(1) == "gitlab.com" else f"{m.group(1)}/{m.group(2)}"
        return Ticket("gitlab", action, f"{short}#{m.group(3)}")  # type: ignore[arg-type]
    m = _LINEAR.search(text)
    if m:
        return Ticket("linear", action, m.group(1))  # type: ignore[arg-type]
    m = _JIRA.search(text)
    if m:
        return Ticket("jira", action, m.group(1))  # type: ignore[arg-type]
    return None


def shell_outputs(command: str, text: str, is_error: bool) -> list[Output]:
    """Outputs confirmed by the result `text` of the shell `command`."""
    if is_error or not text or not command or not any(p in command for p in _PROGRAMS):
        return []
    verbs = _verbs(command)
    if not _has(verbs, *_CONFIRMING):
        return []
    text = text[:_MAX_SCAN]
    out: list[Output] = []
    if _has(verbs, *_COMMIT_VERBS):
        out.extend(commits(text))
    if _has(verbs, "gh pr create", "glab mr create"):
        pr = _pr_created(text)
        if pr is not None:
            out.append(pr)
    if _has(verbs, "gh pr merge"):
        m = _GH_MERGED.search(text)
        if m:
            out.append(PrAction("merge", "github", m.group(1), int(m.group(2))))
    if _has(verbs, "glab mr merge"):
        m = _GL_MERGED.search(text)
        if m:
            out.append(PrAction("merge", "gitlab", None, int(m.group(1)) if m.group(1) else None))
    if _has(verbs, "gh pr close"):
        m = _GH_CLOSED.search(text)
        if m:
            out.append(PrAction("close", "github", m.group(1), int(m.group(2))))
    if _has(verbs, "gh pr comment"):
        m = _GH_COMMENT.search(text)
        if m:
            out.append(PrAction("comment", "github", m.group(1), int(m.group(2)),
                                f"https://github.com/{m.group(1)}/pull/{m.group(2)}"))
    if _has(verbs, "gh issue create", "glab issue create"):
        ticket = _issue(text, "create")
        if ticket is not None:
            out.append(ticket)
    elif _has(verbs, "gh issue comment", "gh issue edit", "glab issue note", "glab issue update"):
        ticket = _issue(text, "update")
        if ticket is not None:
            out.append(ticket)
    return out


# An issue key in a tracker's own JSON answer: Linear's `"identifier": "ENG-123"`, Jira's
# `"key": "PROJ-12"` (only read for a server that is one of them; a bare `ABC-1` elsewhere in a text
# could be anything, `UTF-8` for one).
_TRACKER_KEY = re.compile(r'"(?:identifier|key)"\s*:\s*"([A-Z][A-Z0-9]{0,9}-\d{1,9})"')
_TRACKER_SERVERS = (("linear", "linear"), ("jira", "jira"), ("atlassian", "jira"), ("github", "github"),
                    ("gitlab", "gitlab"))
# MCP tools that create or update an issue, by their name with `_`/`-` and case removed: the GitHub
# and Linear servers' create_issue, Linear's save_issue (an update when given an `id`), Atlassian's
# createJiraIssue; and the update/comment tools.
_MCP_CREATE = ("createissue", "createjiraissue")
_MCP_SAVE = ("saveissue",)
_MCP_UPDATE = ("updateissue", "addissuecomment", "createcomment", "editjiraissue", "addcommenttojiraissue")


def mcp_tracker(server: str | None) -> str | None:
    """The tracker an MCP server speaks for, from its name (`linear`, `claude_ai_Linear`,
    `atlassian`, `github`...), or None."""
    low = (server or "").lower()
    for needle, tracker in _TRACKER_SERVERS:
        if needle in low:
            return tracker
    return None


def _mcp_ticket(text: str, action: str, server: str | None) -> Ticket | None:
    ticket = _issue(text, action)
    if ticket is not None:
        return ticket
    tracker = mcp_tracker(server)
    if tracker in ("linear", "jira"):
        m = _TRACKER_KEY.search(text)
        if m:
            return Ticket(tracker, action, m.group(1))  # type: ignore[arg-type]
    return None


def mcp_outputs(tool: str, text: str, is_error: bool, *, server: str | None = None,
                update: bool = False) -> list[Output]:
    """Outputs confirmed by an MCP tool's successful result: PR creation prints its URL; an issue
    tool's answer holds the issue's URL, or (Linear, Jira) its key. `update`: the call named an
    existing issue (Linear's save_issue with an `id`)."""
    if is_error or not text:
        return []
    name = tool.lower()
    key = re.sub(r"[^a-z]", "", name)
    text = text[:_MAX_SCAN]
    if "create_pull_request" in name or "create_merge_request" in name:
        pr = _pr_created(text)
        return [pr] if pr is not None else []
    if key.endswith(_MCP_CREATE) or key.endswith(_MCP_SAVE):
        action = "update" if update and key.endswith(_MCP_SAVE) else "create"
        ticket = _mcp_ticket(text, action, server)
        return [ticket] if ticket is not None else []
    if key.endswith(_MCP_UPDATE):
        ticket = _mcp_ticket(text, "update", server)
        return [ticket] if ticket is not None else []
    return []


def skill_write(path: str, op: str | None) -> SkillWrite | None:
    """A write to `.claude/skills/<name>/SKILL.md` creates or updates the skill `<name>`."""
    m = _SKILL_FILE.search(path)
    if m is None:
        return None
    return SkillWrite(m.group(1), "create" if op == "create" else "update")
