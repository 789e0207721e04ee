"""Every `agentplay-redact ...` command shown in a code block of README.md and docs/*.md runs, as the
README examples of the best libraries are run in their tests. Each document's commands run in order
(later ones use what earlier ones wrote) in a fresh folder holding the files the documents name:
`session.jsonl` (the example Claude Code transcript), `map.json` (the example map), `KEY`,
`map.json.gz` with its `map.vault`, `my-policy.toml`, a `$HOME` with Claude Code projects, Codex
sessions and `old/*.jsonl`. A bracketed part of a synopsis (`[--source RAW]`) is left out.

Found by it: the README's `explain --field /events/3/verb` (event 3 of the example has no verb), the
`policy list | show NAME | check FILE.toml` line (not a command), and docs/receipts.md verifying
with a public key in the working folder that `receipt keygen` had written under ~/.config.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
EXAMPLE_CC = ROOT / "examples" / "claude-code"
SESSION = "5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77"
CODEX = ROOT / "tests" / "fixtures" / "codex" / \
    "rollout-2026-03-02T09-00-00-019c0a11-2b3c-7d4e-8f50-61728394a5b6.jsonl"
KEY_HEX = "5e" * 32

# Commands that are not run, each with the reason. Nothing else may be skipped.
SKIPPED = {
    "agentplay-redact scan FILE... [--source RAW [--key-file KEY] [--untied-source]] [--format text|json|sarif] [-o OUT] [--self-test]":
        "a synopsis: FILE... is a placeholder, not a file",
}
# The first README command installs the package with pip (network); its agentplay-redact parts run.
INSTALL = re.compile(r"^python3 -m venv .*&& .*pip install")


def commands(doc: Path) -> list[tuple[int, str]]:
    """(line, command) for each agentplay-redact command in a code block of `doc`."""
    lines = doc.read_text(encoding="utf-8").split("\n")
    out: list[tuple[int, str]] = []
    fenced = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip().startswith("```"):
            fenced = not fenced
            i += 1
            continue
        text = line.strip()
        if fenced or line.startswith("    "):
            if INSTALL.match(text):
                parts = [p for p in text.split(" && ") if "agentplay-redact" in p]
                out.append((i + 1, " && ".join(parts).replace(".venv/bin/agentplay-redact", "agentplay-redact")))
            elif re.match(r"(\$ )?agentplay-redact |cat \S+ \| agentplay-redact ", text):
                start = i
                while text.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    text = text[:-1].rstrip() + " " + lines[i].strip()
                out.append((start + 1, text.removeprefix("$ ")))
        i += 1
    return out


def _without_options_in_brackets(command: str) -> str:
    return re.sub(r"\s*\[[^\]]*\]", "", command)


def _prepare(folder: Path) -> dict[str, str]:
    home = folder / "home"
    projects = home / ".claude" / "projects" / "-Users-ann-src-orders"
    projects.mkdir(parents=True)
    shutil.copy(EXAMPLE_CC / f"{SESSION}.jsonl", projects)
    shutil.copytree(EXAMPLE_CC / SESSION, projects / SESSION)
    sessions = home / ".codex" / "sessions" / "2026" / "03" / "02"
    sessions.mkdir(parents=True)
    shutil.copy(CODEX, sessions)
    shutil.copytree(ROOT / "examples", folder / "examples")
    (folder / "old").mkdir()
    shutil.copy(EXAMPLE_CC / f"{SESSION}.jsonl", folder / "old" / "old-session.jsonl")
    shutil.copy(EXAMPLE_CC / f"{SESSION}.jsonl", folder / "session.jsonl")
    shutil.copy(ROOT / "examples" / "session-map.json", folder / "map.json")
    shutil.copy(ROOT / "policies" / "public.toml", folder / "my-policy.toml")
    key = folder / "KEY"
    key.write_text(KEY_HEX + "\n")
    key.chmod(0o600)
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "100"}
    env.pop("AGENTPLAY_REDACT_KEY", None)
    env.pop("AGENTPLAY_REDACT_KEY_FILE", None)
    made = _run("agentplay-redact --mode hashed --key-file KEY session.jsonl -o map.json.gz --vault map.vault",
                folder, env)
    assert made.returncode == 0, made.stderr
    return env


def _run(command: str, folder: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    prelude = (f'agentplay-redact() {{ "{sys.executable}" -m redact "$@"; }}\n'
               "maps=(map.json.gz)\nset -o pipefail\n")
    return subprocess.run(["bash", "-c", prelude + command], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=300, check=False)


def test_the_documents_have_commands() -> None:
    found = {doc.name: len(commands(doc)) for doc in DOCS}
    assert found["README.md"] >= 15 and found["receipts.md"] >= 5 and found["integration.md"] >= 3


@pytest.mark.parametrize("doc", [d for d in DOCS if any(c not in SKIPPED for _, c in commands(d))],
                         ids=lambda d: d.name)
def test_every_command_of_the_document_runs(tmp_path: Path, doc: Path) -> None:
    env = _prepare(tmp_path)
    ran = 0
    for line, command in commands(doc):
        if command in SKIPPED:
            continue
        run = _run(_without_options_in_brackets(command), tmp_path, env)
        assert run.returncode == 0, f"{doc.name}:{line}: {command}\n{run.stderr[-2000:]}"
        ran += 1
    assert ran
