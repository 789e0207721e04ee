"""Docs and docstrings that name a module or a doc name one that exists (issue 30: docstrings named
modules that did not exist; a moved module leaves such names behind)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAMED = re.compile(r"(?<![\w/.-])((?:redact|audit|scripts|bench|docs|policies)/[\w./-]+?\.(?:py|md|toml))(?![\w])")


def test_every_named_project_file_exists() -> None:
    listed = subprocess.run(["git", "ls-files", "*.py", "*.md", "*.toml"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    tracked = set(listed) | {p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.py")}
    missing = sorted({f"{name} (named in {path})" for path in listed
                      if not path.startswith("tests/") and (ROOT / path).exists()
                      for name in NAMED.findall((ROOT / path).read_text(encoding="utf-8", errors="replace"))
                      if name not in tracked and not (ROOT / name).exists()})
    assert not missing, missing
