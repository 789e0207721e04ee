"""Confirmed outputs: a commit or PR exists only when the tool's own result shows it."""
from __future__ import annotations

from redact.build.facts import Commit, PrAction, SkillWrite, Ticket
from redact.build.outputs import commits, mcp_outputs, shell_outputs, skill_write

GIT_COMMIT_OUT = (
    "[feature/x 1a2b3c4] Add the thing\n"
    " 3 files changed, 10 insertions(+), 2 deletions(-)\n"
    " create mode 100644 src/new.py\n"
)


def test_commit_parsed_from_gits_own_output() -> None:
    out = shell_outputs('git commit -m "Add the thing"', GIT_COMMIT_OUT, False)
    assert out == [Commit(sha="1a2b3c4", files=3, ins=10, dels=2)]


def test_root_commit_detached_head_and_single_counts() -> None:
    text = "[main (root-commit) abcdef0] init\n 1 file changed, 1 insertion(+)\n"
    assert commits(text) == [Commit("abcdef0", 1, 1, 0)]
    text = "[detached HEAD 0123456] fix\n 2 files changed, 5 deletions(-)\n"
    assert commits(text) == [Commit("0123456", 2, 0, 5)]


def test_commit_inside_a_compound_command() -> None:
    out = shell_outputs("git add -A && git commit -m wip", GIT_COMMIT_OUT, False)
    assert [type(o) for o in out] == [Commit]


def test_mentioning_a_commit_produces_nothing() -> None:
    assert shell_outputs("git show 1a2b3c4", GIT_COMMIT_OUT, False) == []
    assert shell_outputs("git log --stat -3", GIT_COMMIT_OUT, False) == []
    assert shell_outputs("cat notes/commit-log.txt", GIT_COMMIT_OUT, False) == []
    assert shell_outputs("echo '[main 1a2b3c4] x'", GIT_COMMIT_OUT, False) == []


def test_a_failed_commit_produces_nothing() -> None:
    assert shell_outputs("git commit -m x", GIT_COMMIT_OUT, True) == []
    assert shell_outputs("git commit -m x", "nothing to commit, working tree clean", False) == []


def test_pr_created_only_with_its_url() -> None:
    out = shell_outputs('gh pr create --title "t" --body "b"', "https://github.com/acme/api/pull/142\n", False)
    assert out == [PrAction("create", "github", "acme/api", 142, "https://github.com/acme/api/pull/142")]
    assert shell_outputs("gh pr create --fill", "Warning: 2 uncommitted changes\n", False) == []
    exists = 'a pull request for branch "x" into branch "main" already exists:\nhttps://github.com/a/b/pull/9'
    assert shell_outputs("gh pr create --fill", exists, True) == []
    assert shell_outputs("gh pr view 142", "https://github.com/acme/api/pull/142", False) == []


def test_gitlab_merge_request() -> None:
    text = "Creating merge request for feat into main in group/sub/proj\n\nhttps://gitlab.com/group/sub/proj/-/merge_requests/7\n"
    out = shell_outputs("glab mr create --fill", text, False)
    assert out == [PrAction("create", "gitlab", "group/sub/proj", 7,
                            "https://gitlab.com/group/sub/proj/-/merge_requests/7")]


def test_pr_merge_close_comment() -> None:
    merged = shell_outputs("gh pr merge 142 --squash", "\u2713 Squashed and merged pull request #142 (Fix it)\n", False)
    assert merged == [PrAction("merge", "github", None, 142)]
    closed = shell_outputs("gh pr close 142", "\u2713 Closed pull request acme/api#142 (Fix it)\n", False)
    assert closed == [PrAction("close", "github", "acme/api", 142)]
    comment = shell_outputs('gh pr comment 142 --body "lgtm"',
                            "https://github.com/acme/api/pull/142#issuecomment-99\n", False)
    assert comment == [PrAction("comment", "github", "acme/api", 142, "https://github.com/acme/api/pull/142")]


def test_issue_created() -> None:
    out = shell_outputs('gh issue create --title "t"', "https://github.com/acme/api/issues/12\n", False)
    assert out == [Ticket("github", "create", "acme/api#12")]


def test_mcp_pull_request() -> None:
    text = '{"number": 5, "html_url": "https://github.com/acme/web/pull/5", "title": "secret title"}'
    assert mcp_outputs("create_pull_request", text, False) == [
        PrAction("create", "github", "acme/web", 5, "https://github.com/acme/web/pull/5")]
    assert mcp_outputs("get_pull_request", text, False) == []
    assert mcp_outputs("create_pull_request", text, True) == []


def test_skill_write() -> None:
    assert skill_write("/home/u/.claude/skills/release-notes/SKILL.md", "create") == SkillWrite("release-notes", "create")
    assert skill_write("/repo/.claude/skills/lint/SKILL.md", "modify") == SkillWrite("lint", "update")
    assert skill_write("/repo/docs/SKILL.md", "create") is None
