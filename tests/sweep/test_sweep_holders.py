"""A file another program holds open (an agent still running) is never renamed over by a scrub:
the program would go on writing into the old file, which has no name any more, and what it wrote
would be lost. `sweep --scrub` leaves such a file alone and names it; a hook run by the agent
overwrites it in place, so what the agent appends next lands in the scrubbed file."""
from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import redact.sweep.holders as holders
from redact.keys.material import Key
from redact.sweep import render
from redact.sweep.engine import SweepResult, sweep
from redact.sweep.targets import sweep_inputs
from tests.sweep.plant import make_secrets

KEY = Key(bytes(range(32)), source="test")
# Windows has no /proc and no lsof, and refuses to replace a file another program holds open: the
# scrub's write fails there and the file is left alone by that route (`cannot write`).
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no /proc or lsof on Windows")
# A second process that opens the file for appending, says so, and on each line it is given appends
# that line to the file, until its input ends (an agent that keeps its log open for the session).
_AGENT = (
    "import sys\n"
    "with open(sys.argv[1], 'a', encoding='utf-8') as log:\n"
    "    print('open', flush=True)\n"
    "    for line in sys.stdin:\n"
    "        log.write(line); log.flush()\n"
    "        print('wrote', flush=True)\n"
)


@contextmanager
def _agent_holding(path: Path) -> Iterator[subprocess.Popen[str]]:
    proc = subprocess.Popen([sys.executable, "-c", _AGENT, str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "open"
        yield proc
    finally:
        if proc.stdin is not None:
            proc.stdin.close()
        proc.wait(timeout=30)


def _append(proc: subprocess.Popen[str], record: dict[str, object]) -> None:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(record) + "\n")
    proc.stdin.flush()
    assert proc.stdout.readline().strip() == "wrote"


def _session(tmp_path: Path, secret: str) -> Path:
    path = tmp_path / "0b7c5e4a-1111-4222-8333-944455556666.jsonl"
    recs = [{"type": "user", "uuid": "a1", "timestamp": "2025-05-01T10:00:00Z",
             "message": {"role": "user", "content": f"deploy with {secret} now"}}]
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    return path


def _scrub_while_held(tmp_path: Path, seed: int, held: str) -> tuple[SweepResult, Path, str, int]:
    """A session with a secret, scrubbed while a second process holds it open, which then appends
    a record: the result, the file, the secret and the file's inode before the scrub."""
    secret = make_secrets(seed)["github-token"]
    path = _session(tmp_path, secret)
    with _agent_holding(path) as agent:
        assert holders.held_open([path]) is not None, "neither /proc nor lsof answers on this system"
        inode = path.stat().st_ino
        result = sweep(sweep_inputs([str(path)]), KEY, scrub_to=str(tmp_path / "v.vault"), held=held)
        _append(agent, {"type": "user", "uuid": "a2", "message": {"content": "later"}})
    return result, path, secret, inode


def test_held_open_names_the_file_another_process_holds_and_not_the_others(tmp_path: Path) -> None:
    held, free = tmp_path / "held.jsonl", tmp_path / "free.jsonl"
    held.write_text("{}\n")
    free.write_text("{}\n")
    with open(free, encoding="utf-8"):  # this process's own handles do not count
        with _agent_holding(held):
            found = holders.held_open([held, free, tmp_path / "gone.jsonl"])
        after = holders.held_open([held, free])
    assert found is not None, "neither /proc nor lsof answers on this system" and list(found) == [str(held)]
    assert found[str(held)]  # the program's name, for the report
    assert after == {}


def test_scrub_leaves_a_file_an_agent_holds_open_alone_and_names_it(tmp_path: Path) -> None:
    result, path, secret, inode = _scrub_while_held(tmp_path, 31, "leave")
    assert result.scrubbed == 0
    assert [p for p, _ in result.left_alone] == [str(path)]
    assert "open in another program" in result.left_alone[0][1]
    assert path.stat().st_ino == inode
    lines = path.read_text().splitlines()
    assert len(lines) == 2 and json.loads(lines[1])["uuid"] == "a2"  # nothing the agent wrote is lost
    table = render.render_table(result)
    assert str(path) in table and "open in another program" in table and secret not in table
    assert render.report_dict(result)["scrub"]["leftAlone"][0]["path"] == str(path)


def test_the_same_file_is_scrubbed_once_the_agent_has_closed_it(tmp_path: Path) -> None:
    secret = make_secrets(32)["github-token"]
    path = _session(tmp_path, secret)
    with _agent_holding(path):
        pass
    result = sweep(sweep_inputs([str(path)]), KEY, scrub_to=str(tmp_path / "v.vault"))
    assert result.scrubbed == 1 and not result.left_alone
    assert secret not in path.read_text() and "[REDACTED:github-token:" in path.read_text()


def test_a_hook_overwrites_a_held_file_in_place_so_the_agent_keeps_writing_into_it(tmp_path: Path) -> None:
    result, path, secret, inode = _scrub_while_held(tmp_path, 33, "in place")
    assert result.scrubbed == 1 and not result.left_alone
    assert path.stat().st_ino == inode
    lines = path.read_text().splitlines()
    assert len(lines) == 2 and json.loads(lines[1])["uuid"] == "a2"
    assert secret not in lines[0] and "[REDACTED:github-token:" in lines[0]


def test_without_proc_the_answer_comes_from_lsof(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    held, free = tmp_path / "held.jsonl", tmp_path / "free.jsonl"
    held.write_text("{}\n")
    free.write_text("{}\n")
    fake = tmp_path / "lsof"
    # lsof's field output (-F pcn) for one process holding `held`
    fake.write_text(f"#!/bin/sh\nprintf 'p4242\\ncagent\\nf7\\nn{held}\\n'\n")
    fake.chmod(0o755)
    monkeypatch.setattr(holders, "_PROC", tmp_path / "no-proc")
    monkeypatch.setattr(holders.shutil, "which", lambda name: str(fake) if name == "lsof" else None)
    assert holders.held_open([held, free]) == {str(held): "agent"}


def test_with_no_way_to_tell_the_scrub_goes_on_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(holders, "_PROC", tmp_path / "no-proc")
    monkeypatch.setattr(holders.shutil, "which", lambda name: None)
    secret = make_secrets(34)["github-token"]
    path = _session(tmp_path, secret)
    result = sweep(sweep_inputs([str(path)]), KEY, scrub_to=str(tmp_path / "v.vault"))
    assert result.scrubbed == 1
    assert result.caveats and "holds open" in result.caveats[0]
    assert "caveat:" in render.render_table(result)
    assert render.report_dict(result)["scrub"]["caveats"] == result.caveats
