"""The `agentplay-redact-sweep` pre-commit hook on a fixture repository: it blocks a staged agent
log holding a secret, passes a clean one, and leaves other files alone."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.sweep.plant import make_secrets
from tests.test_precommit import BIN, ROOT, entry_argv, git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _spec() -> dict[str, object]:
    (spec,) = [h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
               if h["id"] == "agentplay-redact-sweep"]
    return spec


def _run(repo: Path) -> subprocess.CompletedProcess[str] | None:
    spec = _spec()
    staged = [f for f in git(repo, "diff", "--cached", "--name-only", "-z").split("\0") if f]
    chosen = [f for f in staged if re.search(str(spec["files"]), f)]
    if not chosen:
        return None
    argv = entry_argv(spec)
    if argv[0] == "agentplay-redact":
        argv[0] = str(BIN / "agentplay-redact")
    return subprocess.run([*argv, *chosen], cwd=repo, capture_output=True, text=True)


def _repo(tmp_path: Path, content: str, name: str = ".claude/projects/-home-me-app/0b7c5e4a-1111-4222-8333-944455556666.jsonl") -> Path:
    repo = tmp_path / "dotfiles"
    (repo / name).parent.mkdir(parents=True)
    git(tmp_path, "init", "-q", str(repo))
    rec = {"type": "user", "uuid": "a1", "message": {"role": "user", "content": content}}
    (repo / name).write_text(json.dumps(rec) + "\n")
    git(repo, "add", name)
    return repo


def test_blocks_a_staged_log_with_a_secret(tmp_path: Path) -> None:
    secret = make_secrets(21)["github-token"]
    proc = _run(_repo(tmp_path, f"push with {secret}"))
    assert proc is not None and proc.returncode == 1
    assert "github-token" in proc.stdout and secret not in proc.stdout + proc.stderr


def test_passes_a_clean_log_and_ignores_other_files(tmp_path: Path) -> None:
    proc = _run(_repo(tmp_path, "just talk"))
    assert proc is not None and proc.returncode == 0
    assert _run(_repo(tmp_path / "other", "x", name="src/app.json")) is None
