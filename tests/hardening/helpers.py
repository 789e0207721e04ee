"""What every hardening case checks: the CLI's exit code, one clear line on stderr naming the place,
no traceback, and a folder left exactly as it was (input untouched, no output, no temporary file)."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from redact.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_MAP = ROOT / "examples" / "session-map.json"
EXAMPLE_CC = ROOT / "examples" / "claude-code"
EXAMPLE_SESSION = "5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77"
KEY_HEX = "a1" * 32
PROG = "agentplay-redact"


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        """The non-blank stderr lines (click prints a bare newline before an interrupt)."""
        return [line for line in self.err.splitlines() if line.strip()]


def cli(capsys: pytest.CaptureFixture[str], *args: Any) -> Run:
    capsys.readouterr()
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return Run(code, out, err)


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under `folder` (links not followed) and its SHA-256: the state a failure must keep."""
    state: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_symlink():
            state[rel] = "link"
        elif path.is_file():
            with open(path, "rb") as fh:  # builtins: tests patch Path.open to simulate faults
                state[rel] = hashlib.sha256(fh.read()).hexdigest()
        elif path.is_dir():
            state[rel] = "dir"
    return state


def assert_one_line(run: Run, *, code: int, names: str | Path, says: str | None = None) -> str:
    """Exit `code`, exactly one non-blank stderr line, naming `names`, without a traceback."""
    assert run.code == code, run.err
    assert len(run.lines) == 1, run.err
    line = run.lines[0]
    assert line.startswith(f"{PROG}: "), line
    assert str(names) in line, line
    if says is not None:
        assert says in line, line
    assert "Traceback" not in run.err and "File \"" not in run.err
    return line


def assert_refused(capsys: pytest.CaptureFixture[str], folder: Path, *args: Any, names: str | Path,
                   says: str | None = None, code: int = 2) -> str:
    """Run the CLI; it must fail cleanly and leave `folder` byte for byte as it was."""
    before = snapshot(folder)
    run = cli(capsys, *args)
    line = assert_one_line(run, code=code, names=names, says=says)
    assert snapshot(folder) == before, "the folder changed: a partial output, a temp file or a touched input"
    assert run.out == ""
    return line


def example_map() -> dict[str, Any]:
    return json.loads(EXAMPLE_MAP.read_text(encoding="utf-8"))


def example_transcript() -> bytes:
    return (EXAMPLE_CC / f"{EXAMPLE_SESSION}.jsonl").read_bytes()


def write_key(folder: Path, hex_text: str = KEY_HEX) -> Path:
    import os

    path = folder / "redact.key"
    path.write_text(hex_text + "\n")
    os.chmod(path, 0o600)
    return path
