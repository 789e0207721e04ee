"""The pre-commit hook (.pre-commit-hooks.yaml) on a fixture git repository: it blocks a staged map that
leaks and passes a clean one.

The `pre-commit` tool itself would build a virtualenv from the hook repository (network); this test
does what it does for a `language: python` hook once installed: take the staged files, keep those the
hook's `files`/`exclude` patterns match (Python `re.search`, as pre-commit does), and run `entry` plus
`args` plus the file names in the repository, the hook failing on a non-zero exit.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from redact import api
from redact.keys.material import Key
from tests.maps import EXAMPLE

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def hook() -> dict[str, object]:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    (scan,) = [h for h in hooks if h["id"] == "agentplay-redact-scan"]
    return scan


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_SYSTEM": os.devnull}
    proc = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, env=env, check=True)
    return proc.stdout


def entry_argv(spec: dict[str, object]) -> list[str]:
    argv = shlex.split(str(spec["entry"])) + [str(a) for a in spec.get("args", [])]  # type: ignore[attr-defined]
    if argv[0] == "agentplay-redact" and not (BIN / "agentplay-redact").exists():
        argv[:1] = [sys.executable, "-m", "redact"]  # pragma: no cover - not installed as a script
    return argv


def run_hook(repo: Path) -> subprocess.CompletedProcess[str] | None:
    """Run the hook on the staged files as pre-commit would; None when it matches no file."""
    spec = hook()
    names = git(repo, "diff", "--cached", "--name-only", "--diff-filter=ACMR", "-z")
    staged = [f for f in names.split("\0") if f]
    files = re.compile(str(spec.get("files", "")))
    exclude = re.compile(str(spec["exclude"])) if spec.get("exclude") else None
    chosen = [f for f in staged if files.search(f) and not (exclude and exclude.search(f))]
    if not chosen:
        return None
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(entry_argv(spec) + chosen, cwd=repo, capture_output=True, text=True, env=env,
                          check=False)


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    git(root, "config", "user.email", "ci@example.invalid")
    git(root, "config", "user.name", "CI")
    (root / "README.md").write_text("maps live in sessions/\n")
    git(root, "add", "README.md")
    git(root, "commit", "-q", "-m", "init")
    (root / "sessions").mkdir()
    return root


def _clean_map(path: Path) -> None:
    key = Key(bytes.fromhex("2d" * 32), source="test")
    api.redact_file(EXAMPLE, path, policy="public", key=key)


def test_the_hook_is_declared_for_session_maps() -> None:
    spec = hook()
    assert spec["language"] == "python" and str(spec["entry"]).startswith("agentplay-redact precommit")
    pattern = re.compile(str(spec["files"]))
    # maps whatever their name, and raw logs (transcripts, rollouts, stores): content decides
    for name in ("a.map.json", "sessions/x.map.json.gz", "out/6f1e.json.gz", "a.json", "s.jsonl",
                 "rollout.jsonl.gz", "state.vscdb", "store.db"):
        assert pattern.search(name), name
    for name in ("notes.md", "map.json.bak", "main.py"):
        assert not pattern.search(name), name


def test_hook_passes_a_clean_map(repo: Path) -> None:
    _clean_map(repo / "sessions" / "clean.map.json")
    _clean_map(repo / "sessions" / "clean2.json.gz")
    git(repo, "add", "sessions")
    proc = run_hook(repo)
    assert proc is not None and proc.returncode == 0, proc.stderr if proc else ""
    assert "clean" in proc.stderr


def test_hook_blocks_a_leaking_map(repo: Path) -> None:
    _clean_map(repo / "sessions" / "clean.map.json")
    leak = json.loads(EXAMPLE.read_text())  # the unredacted example: task names, a token in a remote
    (repo / "sessions" / "leak.map.json").write_text(json.dumps(leak))
    git(repo, "add", "sessions")
    proc = run_hook(repo)
    assert proc is not None and proc.returncode == 1
    assert "sessions/leak.map.json" in proc.stderr and "finding" in proc.stderr
    assert "ghp_exampleNotARealToken" not in proc.stdout + proc.stderr  # findings are masked


def test_hook_blocks_a_file_that_is_not_a_map(repo: Path) -> None:
    (repo / "sessions" / "data.json.gz").write_bytes(b"not gzip at all")
    git(repo, "add", "sessions")
    proc = run_hook(repo)
    assert proc is not None and proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


def test_hook_ignores_other_files(repo: Path) -> None:
    (repo / "package.json").write_text('{"name": "x", "secret": "please fix the bug for the customer"}')
    git(repo, "add", "package.json")
    proc = run_hook(repo)  # JSON that is not a map nor a raw log: not this hook's business
    assert proc is not None and proc.returncode == 0, proc.stderr


def test_a_git_pre_commit_hook_refuses_the_commit(repo: Path) -> None:
    """The same entry wired as a plain git hook: `git commit` itself fails on the leaking map."""
    argv = " ".join(shlex.quote(a) for a in entry_argv(hook()))
    script = repo / ".git" / "hooks" / "pre-commit"
    script.write_text("#!/bin/sh\n"
                      f"export PATH={shlex.quote(str(BIN))}:\"$PATH\"\n"
                      "files=$(git diff --cached --name-only --diff-filter=ACMR"
                      " | grep -E '(\\.map\\.json|\\.json\\.gz)$')\n"
                      "[ -z \"$files\" ] && exit 0\n"
                      f"exec {argv} $files\n")
    script.chmod(0o755)
    _clean_map(repo / "sessions" / "ok.map.json")
    git(repo, "add", "sessions")
    git(repo, "commit", "-q", "-m", "a clean map")
    (repo / "sessions" / "bad.map.json").write_text(EXAMPLE.read_text())
    git(repo, "add", "sessions")
    with pytest.raises(subprocess.CalledProcessError):
        git(repo, "commit", "-q", "-m", "a leaking map")
    assert "bad.map.json" not in git(repo, "ls-tree", "-r", "--name-only", "HEAD")


# -- issue 27 item 7: maps whatever their name; raw agent logs blocked unless natively scrubbed ----------

RAW = ROOT / "examples" / "claude-code" / "5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77.jsonl"


def test_a_map_under_any_name_is_checked(repo: Path) -> None:
    leak = json.loads(EXAMPLE.read_text())
    (repo / "sessions" / "notes.json").write_text(json.dumps(leak))  # a map, not named *.map.json
    git(repo, "add", "sessions")
    proc = run_hook(repo)
    assert proc is not None and proc.returncode == 1 and "sessions/notes.json" in proc.stderr


@pytest.mark.parametrize("name", ["sessions/s.jsonl", "sessions/rollout.jsonl.gz"])
def test_a_raw_agent_log_is_blocked(repo: Path, name: str) -> None:
    import gzip

    data = RAW.read_bytes()
    (repo / name).write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    git(repo, "add", "sessions")
    proc = run_hook(repo)
    assert proc is not None and proc.returncode == 1
    assert name in proc.stderr and "raw agent log (Claude Code" in proc.stderr and "--to native" in proc.stderr


def test_a_log_the_sweep_scrubbed_is_still_a_raw_log(repo: Path) -> None:
    # the sweep replaces secrets only: prompts and replies stay, so the log is blocked like any other
    text = RAW.read_text().replace("ghp_", "[agentplay:secret:github-token:0000]", 1)
    (repo / "sessions" / "s.jsonl").write_text(text)
    git(repo, "add", "sessions")
    proc = run_hook(repo)
    assert proc is not None and proc.returncode == 1 and "raw agent log" in proc.stderr


def test_a_native_scrub_of_this_tool_passes(repo: Path) -> None:
    from redact import api_native

    out = repo / "sessions" / "scrubbed.jsonl"
    api_native.scrub_file(str(RAW), str(out), policy="default", key=Key(bytes.fromhex("2d" * 32), source="t"))
    git(repo, "add", "sessions")
    proc = run_hook(repo)
    assert proc is not None and proc.returncode == 0, proc.stderr
    # one raw line put back into the scrubbed file makes it a raw log again
    with out.open("a", encoding="utf-8") as fh:
        fh.write(RAW.read_text().splitlines()[2] + "\n")
    git(repo, "add", "sessions")
    proc = run_hook(repo)
    assert proc is not None and proc.returncode == 1 and "raw agent log" in proc.stderr
