"""Issue 13, items 1 and 4: a user name never becomes a repository or a repo path, and a private
forge's host, org and repository never reach a map in clear under `default`.

An outside review found working directories spelled in ways the home rules did not know
(`\\\\?\\C:\\Users\\u`, `/System/Volumes/Data/Users/u`, `/nfs/home/u`, `/Users/u//`, ...): their last
segment, the user name, became `repos[].name`, and the home's contents became repo paths
(`Documents/taxes.pdf`). Each spelling is a regression test here, for a Claude Code and a Codex log,
under `default` and `public`, and a property draws the spellings and their combinations.
"""
from __future__ import annotations

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.api import redact_bytes
from redact.keys.material import Key
from redact.api_native import scrub_native
from redact.apply.paths import bucket, is_not_a_repository, normalize
from redact.policy.load import load_policy
from redact.report import RedactionReport
from redact.formats.roots import choose_roots, git_root_of, repo_name
from tests.formats.ccfix import Transcript, text, tool_use
from tests.formats.codexfix import Rollout

KEY = Key(bytes(range(32)), source="test")
SID = "0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90"
USER = "zqvarnholt"

# Every spelling the review reported, with `{u}` for the user name.
SPELLINGS = [
    "/System/Volumes/Data/Users/{u}", "/Volumes/Macintosh HD/Users/{u}", "\\\\?\\C:\\Users\\{u}",
    "C:\\Users\\{u}\\\\", "C:\\Documents and Settings\\{u}", "\\\\wsl.localhost\\Ubuntu\\home\\{u}",
    "\\\\wsl$\\Ubuntu\\home\\{u}", "/mnt/wsl/{u}", "/c/Users/{u}", "/cygdrive/c/Users/{u}",
    "/mnt/c/Users/{u}", "/nfs/home/{u}", "/mnt/home/{u}", "/homes/{u}", "/u/{u}", "/data/home/{u}",
    "/Users/{u}//", "/Users/./{u}", "/Users/{u}/../{u}", " /Users/{u}", "\\\\.\\C:\\Users\\{u}",
]
# Issue 23, item 1: an Active Directory domain below `home` (winbind, sssd), roaming-profile shares,
# AFS, `/Users/Shared`, what Windows strips (`Users.`, `Users `) and look-alike letters.
DOMAIN_SPELLINGS = [
    "/home/CORP/{u}", "/home/corp.example.com/{u}", "/home/ad.acme.local/{u}", "/nfs/home/EMEA/{u}",
    "\\\\fs01\\profiles$\\{u}", "\\\\fs01\\profiles\\{u}", "\\\\fs01\\home$\\{u}.V6",
    "/afs/cern.ch/user/z/{u}", "/afs/ir.stanford.edu/users/z/q/{u}", "/Users/Shared/{u}",
    "C:\\Users.\\{u}", "C:\\Users \\{u}", "C:\\Users..\\{u}", "/Us\u0435rs/{u}", "/\uff35sers/{u}",
    "/h\u043eme/CORP/{u}", "/HOME/{u}",
]
SPELLINGS += DOMAIN_SPELLINGS


def _sep(home: str) -> str:
    return "\\" if "\\" in home else "/"


def claude_log(cwd: str, user: str, *, branch: str = "main") -> bytes:
    sep = _sep(cwd)
    t = Transcript(SID, cwd, branch=branch)
    t.user("sort my papers")
    for name, path in (("Read", f"{cwd}{sep}Documents{sep}taxes.pdf"), ("Read", "notes.txt"),
                       ("Write", f"{cwd}{sep}{user}-plan.md")):
        tid = t.tool_id()
        t.assistant([tool_use(tid, name, {"file_path": path, "content": "x"})])
        t.result(tid, "ok")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Bash", {"command": "git status"})])
    t.result(tid, "On branch main")
    t.assistant([text("done")], stop="end_turn")
    return t.bytes()


def codex_log(cwd: str, user: str, *, git: bool = True) -> bytes:
    sep = _sep(cwd)
    r = Rollout("019c0a11-2b3c-7d4e-8f50-61728394a5b6")
    r.meta(cwd, remote=None if not git else "git@github.com:acme/shop.git")
    if not git:
        r.records[-1]["payload"].pop("git")
    r.turn(cwd)
    r.user("sort my papers")
    cid = r.function_call("shell", {"command": ["cat", f"{cwd}{sep}Documents{sep}taxes.pdf"]})
    r.output(cid, {"output": "x", "metadata": {"exit_code": 0, "duration_seconds": 0.1}})
    patch = f"*** Begin Patch\n*** Add File: {cwd}{sep}{user}-plan.md\n+x\n*** End Patch"
    cid = r.patch(patch)
    r.patch_output(cid, {"output": "Done", "metadata": {"exit_code": 0, "duration_seconds": 0.1}})
    r.say("done")
    return r.bytes()


def _outputs(data: bytes, policy: str) -> list[bytes]:
    """The map and the report of one run (a public run needs the key)."""
    result = redact_bytes(data, name="s.jsonl", policy=policy, key=KEY if policy == "public" else None)
    return [result.data, orjson.dumps(result.report.as_dict())]


def assert_no_user(data: bytes, user: str, policies: tuple[str, ...] = ("default", "public")) -> None:
    for policy in policies:
        for out in _outputs(data, policy):
            assert user.encode() not in out, policy
            assert b"taxes" not in out, policy


@pytest.mark.parametrize("spelling", SPELLINGS)
@pytest.mark.parametrize("branch", ["main", ""])
def test_a_home_spelling_never_names_the_repository_claude_code(spelling: str, branch: str) -> None:
    """With git evidence in the log too (`gitBranch`): normalising finds the home, evidence alone
    would not save it."""
    data = claude_log(spelling.format(u=USER), USER, branch=branch)
    assert_no_user(data, USER)
    m = redact_bytes(data, name="s.jsonl", policy="default").session_map
    assert "repos" not in m and m["files"] == []


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_a_home_spelling_never_names_the_repository_codex(spelling: str) -> None:
    data = codex_log(spelling.format(u=USER), USER)
    assert_no_user(data, USER)
    assert "repos" not in redact_bytes(data, name="r.jsonl", policy="default").session_map


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_a_home_spelling_never_reaches_native_output(spelling: str) -> None:
    data = claude_log(spelling.format(u=USER), USER)
    for policy in ("default", "internal"):
        report = RedactionReport(source="in")
        out = scrub_native(data, "claude-code", name="in", policy=load_policy(policy), key=None, mode=None,
                           report=report)
        assert USER.encode() not in out and b"taxes" not in out
        assert USER.encode() not in orjson.dumps(report.as_dict())


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_spelling_is_a_home(spelling: str) -> None:
    home = spelling.format(u=USER)
    assert is_not_a_repository(home)
    assert bucket(home + _sep(home) + "x") == "~ (home)"
    assert bucket(home + _sep(home) + "Documents" + _sep(home) + "x.pdf") == "~/Documents"


# -- evidence --------------------------------------------------------------------------------------
def test_a_working_directory_without_evidence_is_no_repository() -> None:
    """`/work/zqledger` is under no known home and the log shows no git: no root, no name."""
    data = claude_log("/work/zqledger", USER, branch="")
    m = redact_bytes(data, name="s.jsonl", policy="default").session_map
    assert "repos" not in m and m["files"] == [] and b"zqledger" not in orjson.dumps(m)


def test_git_evidence_makes_a_working_directory_a_repository() -> None:
    m = redact_bytes(claude_log("/work/zqledger", USER), name="s.jsonl", policy="default").session_map
    assert m["repos"][0]["name"] == "zqledger"
    assert [f["path"] for f in m["files"]] == ["Documents/taxes.pdf", "notes.txt", f"{USER}-plan.md"]


def test_a_commit_is_no_evidence_for_the_working_directory() -> None:
    """`cd sub && git commit` from a home folder no rule knows makes a commit too: the working
    directory stays no repository, and its last segment (the user name) is not written."""
    t = Transcript(SID, f"/work/{USER}", branch="")
    t.user("commit it")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Bash", {"command": 'cd ledger && git commit -m "x"'})])
    out = "[main 1a2b3c4] x\n 1 file changed, 2 insertions(+)\n"
    t.result(tid, out, tur={"stdout": out, "stderr": "", "interrupted": False, "isImage": False})
    m = redact_bytes(t.bytes(), name="s.jsonl", policy="default").session_map
    assert any(e["kind"] == "commit" for e in m["events"])
    assert "repos" not in m and USER not in orjson.dumps(m).decode()


def test_a_git_path_is_evidence() -> None:
    t = Transcript(SID, "/srv/zqapp", branch="")
    t.user("go")
    for path in ("/srv/zqapp/.git/config", "/srv/zqapp/src/a.py"):
        tid = t.tool_id()
        t.assistant([tool_use(tid, "Read", {"file_path": path})])
        t.result(tid, "x")
    m = redact_bytes(t.bytes(), name="s.jsonl", policy="default").session_map
    assert m["repos"][0]["name"] == "zqapp" and "src/a.py" in [f["path"] for f in m["files"]]


def test_depth_below_a_home_is_evidence() -> None:
    m = redact_bytes(claude_log(f"/home/{USER}/code/zqproj", "x", branch=""), name="s.jsonl",
                     policy="default").session_map
    assert m["repos"][0]["name"] == "zqproj" and USER not in orjson.dumps(m).decode()


@pytest.mark.parametrize("cwd", [f"/home/{USER}/{USER}", f"C:\\Users\\{USER}\\code\\{USER.upper()}"])
def test_a_folder_named_after_its_user_is_no_repository(cwd: str) -> None:
    m = redact_bytes(claude_log(cwd, "x"), name="s.jsonl", policy="default").session_map
    assert "repos" not in m and USER not in orjson.dumps(m).decode().lower()


def test_codex_without_git_info_outside_a_home_has_no_repository() -> None:
    data = codex_log("/opt/zqsvc", USER, git=False)
    m = redact_bytes(data, name="r.jsonl", policy="default").session_map
    assert "repos" not in m and b"zqsvc" not in orjson.dumps(m)
    assert redact_bytes(codex_log("/opt/zqsvc", USER), name="r.jsonl",
                        policy="default").session_map["repos"][0]["name"] == "zqsvc"


@pytest.mark.parametrize(("cands", "git", "git_roots", "roots"), [
    (("/home/a/p",), False, (), ("/home/a/p",)),
    (("/home/a",), True, ("/home/a",), ()),
    (("/w/p",), False, ("/w/p",), ("/w/p",)),
    (("/w/p/sub",), False, ("/w/p",), ("/w/p/sub",)),
    (("/w/p",), False, ("/w/p/vendor/lib",), ()),
    (("/Users/a/p/.claude/worktrees/x",), False, (), ("/Users/a/p/.claude/worktrees/x", "/Users/a/p")),
    (("/",), True, (), ()),
    (("/Volumes/Macintosh HD",), True, (), ()),
    (("/Users/a/Library",), True, (), ()),
])
def test_choose_roots(cands: tuple[str, ...], git: bool, git_roots: tuple[str, ...],
                      roots: tuple[str, ...]) -> None:
    assert choose_roots(cands, git=git, git_roots=git_roots) == roots


def test_repo_name_is_the_last_segment_after_normalising() -> None:
    assert repo_name(("C:\\Users\\a\\proj\\\\",)) == "proj"
    assert repo_name(("/Users/a/p/.claude/worktrees/x", "/Users/a/p")) == "p"
    assert git_root_of("C:\\w\\p\\.git\\HEAD") == "c:/w/p"
    assert git_root_of("/w/p/src/a.py") is None


@pytest.mark.parametrize(("raw", "norm"), [
    ("\\\\?\\C:\\Users\\a", "c:/Users/a"), ("\\\\.\\D:\\x", "d:/x"), ("\\\\?\\UNC\\srv\\share\\x", "//srv/share/x"),
    ("\\\\wsl.localhost\\Ubuntu\\home\\a", "/home/a"), ("\\\\wsl$\\Debian", "/"), ("/cygdrive/c/x", "c:/x"),
    ("/mnt/d/x", "d:/x"), ("/System/Volumes/Data/Users/a", "/Users/a"), ("  /w/p  ", "/w/p"),
    ("/c/Users/a", "/c/Users/a"),
])
def test_normalize(raw: str, norm: str) -> None:
    assert normalize(raw) == norm


# -- the property ----------------------------------------------------------------------------------
_POSIX_HOMES = [
    "/Users/{u}", "/home/{u}", "/System/Volumes/Data/Users/{u}", "/Volumes/{d}/Users/{u}", "/mnt/wsl/{u}",
    "/c/Users/{u}", "/cygdrive/c/Users/{u}", "/mnt/c/Users/{u}", "/nfs/home/{u}", "/mnt/home/{u}",
    "/homes/{u}", "/u/{u}", "/data/home/{u}", "/var/home/{u}", "/export/home/{u}", "/usr/home/{u}",
    "/media/{u}", "/run/media/{u}", "/root", "/{x}/home/{u}", "/{x}/Users/{u}", "/{x}/homes/{u}",
    "/System/Volumes/Data/Volumes/{d}/Users/{u}", "/cygdrive/{c}/Documents and Settings/{u}",
    "/home/{D}/{u}", "/home/{dom}/{u}", "/{x}/home/{D}/{u}", "/afs/{dom}/user/{a}/{u}",
    "/afs/{dom}/users/{a}/{a}/{u}", "/Users/Shared/{u}", "/Users/Shared/{D}/{u}",
]
_WINDOWS_HOMES = [
    "{c}:\\Users\\{u}", "\\\\?\\{c}:\\Users\\{u}", "\\\\.\\{c}:\\Users\\{u}", "{c}:\\Documents and Settings\\{u}",
    "\\\\wsl.localhost\\{d}\\home\\{u}", "\\\\wsl$\\{d}\\home\\{u}", "\\\\?\\UNC\\wsl.localhost\\{d}\\home\\{u}",
    "\\\\?\\UNC\\wsl$\\{d}\\mnt\\{c}\\Users\\{u}", "\\\\wsl.localhost\\{d}\\{x}\\home\\{u}",
    "\\\\{srv}\\profiles$\\{u}", "\\\\{srv}\\profiles\\{u}", "\\\\{srv}\\users$\\{u}",
    "\\\\?\\UNC\\{srv}\\profiles$\\{u}", "{c}:\\Users{strip}\\{u}",
]
# Letters of other scripts that read as the Latin ones of `Users` and `home`, and full-width forms.
_LOOKALIKES = {"U": "\uff35", "s": "\u0455", "e": "\u0435", "o": "\u043e", "h": "\u04bb", "m": "\uff4d"}


def _look_alike(draw: st.DrawFn, home: str) -> str:
    for word in ("Users", "home"):
        if word in home and draw(st.booleans()):
            letters = [_LOOKALIKES.get(ch, ch) if draw(st.booleans()) else ch for ch in word]
            home = home.replace(word, "".join(letters), 1)
    return home


@st.composite
def home_spellings(draw: st.DrawFn, user: str) -> str:
    windows = draw(st.booleans())
    template = draw(st.sampled_from(_WINDOWS_HOMES if windows else _POSIX_HOMES))
    home = template.format(u=user, c=draw(st.sampled_from("cCdD")), d=draw(st.sampled_from(
        ["Macintosh HD", "Ubuntu", "Data", "Ext 2"])), x=draw(st.sampled_from(
            ["srv", "data", "nfs", "mnt", "Volumes/Ext 2", "net/fileserver", "export/a b"])),
        D=draw(st.from_regex(r"[A-Z][A-Z0-9]{1,9}", fullmatch=True)),
        dom=draw(st.sampled_from(["corp.example.com", "ad.acme.local", "emea.acme.internal", "cern.ch"])),
        a=user[0], srv=draw(st.sampled_from(["fs01", "filer.acme.local"])),
        strip=draw(st.sampled_from([".", " ", "..", ". "])))
    home = _look_alike(draw, home)
    if windows:
        home = home.replace("/", "\\")
    sep = "\\" if windows else "/"
    if windows and draw(st.booleans()):
        home = home.replace("\\", "/") if draw(st.booleans()) else home.replace("\\Users\\", "/Users\\")
        sep = draw(st.sampled_from("/\\"))
    detour = draw(st.sampled_from(["", "{s}.", "{s}..{s}" + user, "{s}{s}"]))
    if detour and home != "/root" and not home.startswith(("\\\\", "//")):
        home = home + detour.format(s=sep)
    area = draw(st.sampled_from(["", "Desktop", "Documents", "Downloads", ".claude", "OneDrive"]))
    if area:
        home = home + sep + area
    trailing = draw(st.sampled_from(["", sep, sep + sep, sep + ".", " "]))
    return draw(st.sampled_from(["", " "])) + home + trailing


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), user=st.from_regex(r"zq[a-z0-9]{5,9}", fullmatch=True),
       fmt=st.sampled_from(["claude-code", "codex"]), git=st.booleans(),
       policy=st.sampled_from(["default", "internal", "public"]))
def test_no_home_spelling_lets_a_user_name_through(data: st.DataObject, user: str, fmt: str, git: bool,
                                                   policy: str) -> None:
    cwd = data.draw(home_spellings(user))
    log = claude_log(cwd, user, branch="main" if git else "") if fmt == "claude-code" else \
        codex_log(cwd, user, git=git)
    key = KEY if policy == "public" else None
    result = redact_bytes(log, name="s.jsonl", policy=policy, key=key)
    assert user.encode() not in result.data
    assert user.encode() not in orjson.dumps(result.report.as_dict())
    assert "repos" not in result.session_map
    report = RedactionReport(source="in")
    native = scrub_native(log, fmt, name="in", policy=load_policy(policy), key=key, mode=None, report=report)
    assert user.encode() not in native
    assert user.encode() not in orjson.dumps(report.as_dict())


# -- item 4: private forges ------------------------------------------------------------------------
def pr_log(url: str, cwd: str = "/home/zqdev/work/billing") -> bytes:
    t = Transcript(SID, cwd)
    t.user("open the PR")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Bash", {"command": 'gh pr create --title "x" --body "y"'})])
    t.result(tid, url + "\n", tur={"stdout": url + "\n", "stderr": "", "interrupted": False, "isImage": False})
    t.assistant([text("opened")], stop="end_turn")
    return t.bytes()


@pytest.mark.parametrize("url", [
    "https://github.acme-corp.com/zqorg/zqrepo/pull/12",
    "https://git.acme.internal/zqorg/zqrepo/pull/12",
    "https://gitlab.acme-corp.com/zqorg/zqrepo/-/merge_requests/12",
])
def test_a_private_forge_pr_is_hashed_under_default(url: str) -> None:
    """`gh pr create` on GitHub Enterprise put host, org, repo and URL into `prs[]` and `vcs.repo`
    in clear, although `default` hashes private hosts."""
    m = redact_bytes(pr_log(url), name="s.jsonl", policy="default").session_map
    dumped = orjson.dumps(m)
    for word in (b"acme", b"zqorg", b"zqrepo"):
        assert word not in dumped
    pr = m["prs"][0]
    assert pr["number"] == 12 and "url" not in pr and "repo" not in pr  # no key: hashed means dropped
    keyed = redact_bytes(pr_log(url), name="s.jsonl", policy="default", key=KEY).session_map
    assert keyed["prs"][0]["url"].startswith("h:") and keyed["prs"][0]["repo"].startswith("h:")
    assert b"acme" not in orjson.dumps(keyed) and b"zqrepo" not in orjson.dumps(keyed)
    vcs = [e["vcs"] for e in m["events"] if "vcs" in e]
    assert vcs and all("repo" not in v or v["repo"].startswith("h:") for v in vcs)
    internal = orjson.dumps(redact_bytes(pr_log(url), name="s.jsonl", policy="internal").session_map)
    assert b"zqrepo" in internal  # internal keeps hosts: the rule follows the policy


def test_a_public_forge_pr_stays_readable_under_default() -> None:
    m = redact_bytes(pr_log("https://github.com/zqorg/zqrepo/pull/12"), name="s.jsonl",
                     policy="default").session_map
    assert m["prs"][0]["url"] == "https://github.com/zqorg/zqrepo/pull/12"
    assert m["prs"][0]["repo"] == "zqorg/zqrepo"


@pytest.mark.parametrize("remote", ["git@github.acme-corp.com:zqorg/zqrepo.git",
                                    "https://ghe.acme-corp.com/zqorg/zqrepo.git",
                                    "ssh://git@git.acme.internal:2222/zqorg/zqrepo.git"])
def test_a_private_forge_remote_is_hashed_under_default(remote: str) -> None:
    r = Rollout("019c0a11-2b3c-7d4e-8f50-61728394a5b6")
    r.meta("/home/zqdev/src/shop", remote=remote)
    r.turn("/home/zqdev/src/shop")
    r.user("hi")
    r.say("done")
    m = redact_bytes(r.bytes(), name="r.jsonl", policy="default").session_map
    assert "remote" not in m["repos"][0]  # hashed needs a key: without one the field goes
    assert b"acme" not in orjson.dumps(m) and b"zqorg" not in orjson.dumps(m)
    keyed = redact_bytes(r.bytes(), name="r.jsonl", policy="default", key=KEY).session_map
    assert keyed["repos"][0]["remote"].startswith("h:")
    assert b"acme" not in orjson.dumps(keyed) and b"zqorg" not in orjson.dumps(keyed)
    public_remote = Rollout("019c0a11-2b3c-7d4e-8f50-61728394a5b6")
    public_remote.meta("/home/zqdev/src/shop", remote="git@github.com:zqorg/zqrepo.git")
    public_remote.user("hi")
    kept = redact_bytes(public_remote.bytes(), name="r.jsonl", policy="default").session_map
    assert kept["repos"][0]["remote"] == "zqorg/zqrepo"


# -- issue 23, item 1: domain homes, look-alikes, and repository names that hold the user name ------
@pytest.mark.parametrize("value", [
    "/Us\u0435rs/zqvarnholt/notes.md", "/\uff35sers/zqvarnholt/x", "//fs01/profiles$/zqvarnholt/x",
    "\\\\fs01\\profiles\\zqvarnholt", "/afs/cern.ch/user/z/zqvarnholt/x", "C:/Users./zqvarnholt/x",
    "C:/Users /zqvarnholt/x",
])
def test_the_scanner_sees_every_new_home_spelling(value: str) -> None:
    """The shared home shape (the scanner's grammar check and the redactor's path guard) reads the
    look-alike, share and AFS spellings as homes too."""
    from redact.contract.shapes import has_home

    assert has_home(value)


@pytest.mark.parametrize("repo", ["{u}-dotfiles", "{u}.github.io", "dotfiles-{U}", "site_{u}"])
@pytest.mark.parametrize("policy", ["default", "internal", "public"])
def test_a_repository_named_after_its_user_is_hidden(repo: str, policy: str) -> None:
    """`/home/alice/alice-dotfiles` with git: the repository is kept, its name is hashed (public,
    with a key) or dropped (no key): never the user name in clear. The map is written."""
    cwd = f"/home/{USER}/code/" + repo.format(u=USER, U=USER.upper())
    result = redact_bytes(claude_log(cwd, "x"), name="s.jsonl", policy=policy,
                          key=KEY if policy == "public" else None)
    assert result.session_map["repos"], "the repository itself stays"
    assert USER not in result.data.decode().lower()
    assert USER not in orjson.dumps(result.report.as_dict()).decode().lower()
    assert result.report.fallbacks["identifier:repo/home"] == 1
    name = result.session_map["repos"][0].get("name")
    assert name is None or name.startswith("h:")


def test_a_repository_below_a_domain_home_keeps_its_name() -> None:
    """Depth below the user's own folder is still evidence: `/home/CORP/alice/code/zqproj`."""
    m = redact_bytes(claude_log(f"/home/CORP/{USER}/code/zqproj", "x", branch=""), name="s.jsonl",
                     policy="default").session_map
    assert m["repos"][0]["name"] == "zqproj" and USER not in orjson.dumps(m).decode()
