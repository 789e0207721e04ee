from __future__ import annotations

import re

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from redact.contract.detectors import rule_of, secret_rules
from redact.keys.material import Key
from redact.model.grammar import BUCKET_LABELS, has_invisible, is_dirs_only_path, is_hashed_path, path_in_mode
from redact.apply.pathguard import TOKEN_RE
from redact.apply.paths import apply_mode, clean_relative, dirs_only, locate, project_folder_to_path

KEY = Key(bytes(range(32)), source="test")


@pytest.mark.parametrize(
    ("path", "roots", "cwd", "rel", "label"),
    [
        ("/Users/alice/proj/src/a.ts", ("/Users/alice/proj",), None, "src/a.ts", None),
        ("/home/bob/work/api/./lib//x.py", ("/home/bob/work/api",), None, "lib/x.py", None),
        ("/home/bob/work/api/lib/../README.md", ("/home/bob/work/api",), None, "README.md", None),
        ("C:\\Users\\Alice\\proj\\src\\a.ts", ("c:/users/alice/proj",), None, "src/a.ts", None),
        ("c:/users/alice/proj/src/a.ts", ("C:\\Users\\Alice\\proj",), None, "src/a.ts", None),
        ("src/b.ts", ("/w/proj",), "/w/proj", "src/b.ts", None),
        ("../other/x", ("/w/proj",), "/w/proj", None, "outside-repo"),
        ("/w/proj/sub/x.py", ("/w/proj", "/w/proj/sub"), None, "x.py", None),
        ("/tmp/build.log", (), None, None, "/tmp (scratch)"),
        ("/private/var/folders/xy/T/a", (), None, None, "/tmp (scratch)"),
        ("/Users/alice/Downloads/invoice-globex.pdf", (), None, None, "~/Downloads"),
        ("/home/alice/Desktop/x", (), None, None, "~/Desktop"),
        ("/Users/alice/Documents/notes.txt", (), None, None, "~/Documents"),
        ("/Users/alice/.claude/todos/abc.json", (), None, None, "~/.claude/todos"),
        ("/Users/alice/.claude/settings.json", (), None, None, "~/.claude/settings"),
        ("/Users/alice/.claude/secretarea/x", (), None, None, "~/.claude/other"),
        ("/Users/alice/.ssh/id_rsa", (), None, None, "~ (home)"),
        ("C:\\Users\\alice\\AppData\\Local\\Temp\\x.txt", (), None, None, "/tmp (scratch)"),
        ("C:\\Users\\alice\\secret.txt", (), None, None, "~ (home)"),
        ("~/notes/plan.md", (), None, None, "~ (home)"),
        ("/etc/hosts", (), None, None, "outside-repo"),
        ("/w/proj", ("/w/proj",), None, None, "outside-repo"),
    ],
)
def test_locate(path: str, roots: tuple[str, ...], cwd: str | None, rel: str | None, label: str | None) -> None:
    where = locate(path, roots, cwd)
    assert (where.rel, where.label) == (rel, label)


def test_project_folder_spelling_buckets_without_user_name() -> None:
    path = project_folder_to_path("C--Users-alice-proj")
    where = locate(path + "/x")
    assert where.label == "~ (home)" and "alice" not in str(where)


user_names = st.from_regex(r"[a-z][a-z0-9_]{2,12}", fullmatch=True)
segments = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\\\x00"), min_size=1, max_size=20).filter(
    lambda s: s not in (".", "..") and s.strip() == s and not s.startswith("~"))


@settings(max_examples=200, deadline=None)
@given(user=user_names, rest=st.lists(segments, min_size=1, max_size=5),
       home=st.sampled_from(["/Users/{}", "/home/{}", "C:\\Users\\{}", "c:/users/{}"]))
def test_user_names_never_survive_outside_a_repo(user: str, rest: list[str], home: str) -> None:
    path = home.format(user) + "/" + "/".join(rest)
    where = locate(path)
    assert where.rel is None and where.label in BUCKET_LABELS


@settings(max_examples=200, deadline=None)
@given(st.lists(segments, min_size=1, max_size=6))
def test_hashed_paths_match_the_hashed_grammar(segs: list[str]) -> None:
    rel = clean_relative("/".join(segs))
    if rel is None:
        return
    out = apply_mode(rel, "hashed", KEY)
    assert is_hashed_path(out) and path_in_mode(out, "hashed")
    for seg in segs:
        if not re.fullmatch(r"[0-9a-f]{10}", seg):
            assert seg not in out.split("/")


@settings(max_examples=200, deadline=None)
@given(st.lists(segments, min_size=1, max_size=6))
def test_dirs_only_hides_the_file_name(segs: list[str]) -> None:
    rel = clean_relative("/".join(segs))
    if rel is None:
        return
    out = apply_mode(rel, "dirs_only", None)
    assert is_dirs_only_path(out)
    head, _, name = rel.rpartition("/")
    assert out.rsplit("/", 1)[-1] != name
    if head and not has_invisible(head):
        shown = out.rsplit("/", 1)[0]
        # a directory the scanner would flag (prose, `;`, a secret) is a token (issue 14); others stay
        assert all(a == b or TOKEN_RE.fullmatch(b) for a, b in zip(head.split("/"), shown.split("/"), strict=True))
        plain = dirs_only(rel)
        if (rule_of(plain) is None and not secret_rules([plain])[0]
                and all(rule_of(seg) is None for seg in head.split("/"))):
            assert shown == head


@pytest.mark.parametrize("cwd", ["/home", "/Users", "C:\\Users", "/mnt/c/Users/alice", "/usr/home/alice",
                                 "/export/home/alice", "/var/home/alice", "/mnt/c", "/home/alice/Downloads"])
def test_a_session_run_from_a_home_area_has_no_repository(cwd: str) -> None:
    """With the working directory at `/home` (or a WSL, FreeBSD or Solaris home), a file in Alice's
    home came out as the repository path `alice/acme-layoffs/list.md`, or the repo was named `alice`
    (found by the value-channel review). Such folders are no repository: their paths go to buckets."""
    from redact.api import redact_bytes
    from tests.formats.ccfix import Transcript, tool_use

    sep = "\\" if "\\" in cwd else "/"
    target = sep.join([cwd.rstrip(sep), "alice", "acme-layoffs", "list.md"]) if not cwd.endswith(
        ("alice", "Downloads")) else sep.join([cwd, "acme-layoffs", "list.md"])
    t = Transcript("0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90", cwd)
    tid = t.tool_id()
    t.user("read it")
    t.assistant([tool_use(tid, "Read", {"file_path": target})])
    t.result(tid, "ok")
    out = redact_bytes(t.bytes(), name="s.jsonl", policy="default").session_map
    assert not out.get("files") and not out.get("repos")
    text = orjson.dumps(out).decode()
    assert "alice" not in text and "acme-layoffs" not in text
