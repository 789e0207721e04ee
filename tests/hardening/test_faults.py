"""Faults around the input and the output: loops, unreadable files, a full disk, a read-only folder,
an output that is the input, Ctrl-C in the middle of a write.

Tests run as root in CI, where `chmod` does not stop reads or writes: faults are simulated by
patching the system calls the reader and the writer make (and by `chmod` too when not root).
"""
from __future__ import annotations

import errno
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.hardening.helpers import (
    EXAMPLE_CC,
    EXAMPLE_MAP,
    EXAMPLE_SESSION,
    assert_one_line,
    assert_refused,
    cli,
    snapshot,
)


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "proj"
    shutil.copytree(EXAMPLE_CC, folder)
    return folder


@pytest.fixture()
def map_file(tmp_path: Path) -> Path:
    path = tmp_path / "in" / "map.json"
    path.parent.mkdir()
    shutil.copy(EXAMPLE_MAP, path)
    return path


# ---- loops ------------------------------------------------------------------------------------------

def test_input_is_a_symlink_loop(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    assert_refused(capsys, tmp_path, tmp_path / "a", "-o", tmp_path / "out.json", names=tmp_path / "a",
                   says="cannot read")


def test_output_is_a_symlink_loop(tmp_path: Path, capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    (tmp_path / "o1").symlink_to(tmp_path / "o2")
    (tmp_path / "o2").symlink_to(tmp_path / "o1")
    run = cli(capsys, map_file, "-o", tmp_path / "o1")
    # an output that is a link is neither followed nor replaced (redact/io/write.py): refused
    assert run.code == 2 and "symbolic link" in run.err, run.err
    assert (tmp_path / "o1").is_symlink() and (tmp_path / "o2").is_symlink()


def test_project_folder_with_directory_loops(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             project: Path) -> None:
    """Loops inside a project folder (a link to itself, to its parent, a subagents folder that points
    back up, a transcript that links to itself) never make a session be read twice or hang."""
    (project / "self").symlink_to(project)
    (project / "up").symlink_to(tmp_path)
    sub = project / EXAMPLE_SESSION / "subagents"
    (sub / "loop").symlink_to(project)
    (project / "selfloop.jsonl").symlink_to(project / "selfloop.jsonl")
    out = tmp_path / "maps"
    out.mkdir()
    before = snapshot(project)
    run = cli(capsys, project, "--out-dir", out)
    assert run.code == 0, run.err
    assert sorted(p.name for p in out.glob("*.json.gz")) == [f"{EXAMPLE_SESSION}.json.gz"]  # and index.json
    assert snapshot(project) == before


def test_project_folder_that_is_a_loop(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A looping link is no folder: the CLI says --out-dir needs one (and reading it would say ELOOP)."""
    (tmp_path / "p").symlink_to(tmp_path / "q")
    (tmp_path / "q").symlink_to(tmp_path / "p")
    out = tmp_path / "maps"
    out.mkdir()
    assert_refused(capsys, tmp_path, tmp_path / "p", "--out-dir", out, names="--out-dir")


# ---- unreadable -------------------------------------------------------------------------------------

def _deny_reads(monkeypatch: pytest.MonkeyPatch, victim: Path) -> None:
    """Opening `victim` for reading fails with EACCES, as it would for a non-root user after chmod 000."""
    real_open = Path.open
    real_os_open = os.open

    def fake_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self.absolute() == victim.absolute():
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    def fake_os_open(path: Any, *args: Any, **kwargs: Any) -> int:
        if Path(path).absolute() == victim.absolute():
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_os_open(path, *args, **kwargs)

    monkeypatch.setattr(Path, "open", fake_open)
    monkeypatch.setattr(os, "open", fake_os_open)
    if os.geteuid() != 0:
        victim.chmod(0)


def test_unreadable_map(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                        map_file: Path) -> None:
    _deny_reads(monkeypatch, map_file)
    assert_refused(capsys, tmp_path, map_file, "-o", tmp_path / "out.json", names=map_file,
                   says="permission denied")


def test_unreadable_transcript(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                               project: Path) -> None:
    main = project / f"{EXAMPLE_SESSION}.jsonl"
    _deny_reads(monkeypatch, main)
    assert_refused(capsys, tmp_path, main, "-o", tmp_path / "out.json", names=main, says="permission denied")


def test_unreadable_subagent_transcript_is_left_out_with_a_warning(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, project: Path) -> None:
    side = next((project / EXAMPLE_SESSION / "subagents").glob("agent-*.jsonl"))
    _deny_reads(monkeypatch, side)
    out = tmp_path / "out.json"
    run = cli(capsys, project / f"{EXAMPLE_SESSION}.jsonl", "-o", out)
    assert run.code == 0 and out.exists()
    assert "subagent transcript could not be read" in run.err and "Traceback" not in run.err


def test_input_is_a_directory_without_out_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              project: Path) -> None:
    assert_refused(capsys, tmp_path, project, "-o", tmp_path / "out.json", names="--out-dir")


def test_missing_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_refused(capsys, tmp_path, tmp_path / "nope.json", "-o", tmp_path / "out.json",
                   names=tmp_path / "nope.json", says="no such file")


# ---- the output side: full disk, read-only folder ---------------------------------------------------

def _fail_on_output_fd(monkeypatch: pytest.MonkeyPatch, name: str, exc: BaseException, *,
                       after_bytes: int = 0) -> None:
    """Make `os.<name>` raise `exc` on the writer's temporary file (after `after_bytes` are written)."""
    real = getattr(os, name)
    written = {"n": 0}

    def fake(fd: int, *args: Any) -> Any:
        if fd > 2:
            if name == "write" and written["n"] < after_bytes:
                n = real(fd, bytes(args[0][: after_bytes - written["n"]]))
                written["n"] += n
                return n
            raise exc
        return real(fd, *args)

    monkeypatch.setattr(os, name, fake)


@pytest.mark.parametrize("call", ["write", "fsync"])
def test_full_disk(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                   map_file: Path, call: str) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    _fail_on_output_fd(monkeypatch, call, OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)), after_bytes=100)
    out = out_dir / "map.json"
    assert_refused(capsys, tmp_path, map_file, "-o", out, names=out, says="No space left on device")
    assert list(out_dir.iterdir()) == []


def test_full_disk_keeps_an_existing_output(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch, map_file: Path) -> None:
    out = tmp_path / "map.out.json"
    out.write_bytes(b"the previous map")
    _fail_on_output_fd(monkeypatch, "write", OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)), after_bytes=10)
    assert_refused(capsys, tmp_path, map_file, "-o", out, names=out, says="No space left on device")
    assert out.read_bytes() == b"the previous map"


def test_full_disk_while_writing_a_gz_report(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch, map_file: Path) -> None:
    _fail_on_output_fd(monkeypatch, "write", OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    out = tmp_path / "map.json.gz"
    assert_refused(capsys, tmp_path, map_file, "-o", out, "--report", tmp_path / "r.html", names=out,
                   says="No space left")


@pytest.mark.parametrize("err", [errno.EROFS, errno.EACCES])
def test_read_only_output_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                 map_file: Path, err: int) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()

    def no_temp(*args: Any, **kwargs: Any) -> Any:
        raise OSError(err, os.strerror(err))

    monkeypatch.setattr(tempfile, "mkstemp", no_temp)
    if os.geteuid() != 0:
        folder.chmod(0o555)
    out = folder / "map.json"
    assert_refused(capsys, tmp_path, map_file, "-o", out, names=out, says="cannot write to the output folder")


def test_rename_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                        map_file: Path) -> None:
    """The last step (rename over the target) fails: the temporary file is removed."""
    def no_replace(*args: Any) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(os, "replace", no_replace)
    out = tmp_path / "map.json"
    assert_refused(capsys, tmp_path, map_file, "-o", out, names=out, says="Read-only file system")


def test_output_folder_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    out = tmp_path / "nope" / "map.json"
    assert_refused(capsys, tmp_path, map_file, "-o", out, names=out, says="cannot write to the output folder")


def test_output_is_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    out = tmp_path / "out.json"
    out.mkdir()
    assert_refused(capsys, tmp_path, map_file, "-o", out, names=out, says="is a folder")


# ---- output == input --------------------------------------------------------------------------------

def test_output_is_the_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    assert_refused(capsys, tmp_path, map_file, "-o", map_file, names=map_file, says="refusing to overwrite")


def test_output_is_the_input_spelled_differently(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 map_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(map_file.parent)
    other = map_file.parent / ".." / map_file.parent.name / "." / map_file.name
    assert_refused(capsys, tmp_path, "map.json", "-o", other, names=other, says="refusing to overwrite")


def test_output_is_a_link_to_the_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to(map_file)
    assert_refused(capsys, tmp_path, map_file, "-o", link, names=link, says="refusing to overwrite")
    hard = tmp_path / "hard.json"
    os.link(map_file, hard)
    assert_refused(capsys, tmp_path, map_file, "-o", hard, names=hard, says="refusing to overwrite")


def test_output_is_a_subagent_transcript(tmp_path: Path, capsys: pytest.CaptureFixture[str], project: Path) -> None:
    """The session's companion files are inputs too."""
    side = next((project / EXAMPLE_SESSION / "subagents").glob("agent-*.jsonl"))
    assert_refused(capsys, tmp_path, project / f"{EXAMPLE_SESSION}.jsonl", "-o", side, names=side,
                   says="refusing to overwrite")


def test_report_is_the_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    report = map_file.with_suffix(".json")
    assert_refused(capsys, tmp_path, map_file, "-o", tmp_path / "out.json", "--report", report, names=report,
                   says="refusing to overwrite")


def test_out_dir_is_the_project_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str], project: Path) -> None:
    """Maps land next to the transcripts under new names; no transcript is replaced."""
    transcripts = {p: p.read_bytes() for p in project.rglob("*.jsonl")}
    run = cli(capsys, project, "--out-dir", project)
    assert run.code == 0, run.err
    assert all(p.read_bytes() == data for p, data in transcripts.items())


# ---- Ctrl-C -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("call", ["write", "fsync", "replace"])
def test_ctrl_c_mid_write(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                          map_file: Path, call: str) -> None:
    out = tmp_path / "map.out.json.gz"
    out.write_bytes(b"the previous map")
    if call == "replace":
        def interrupted(*args: Any) -> None:
            raise KeyboardInterrupt

        monkeypatch.setattr(os, "replace", interrupted)
    else:
        _fail_on_output_fd(monkeypatch, call, KeyboardInterrupt(), after_bytes=50)
    before = snapshot(tmp_path)
    run = cli(capsys, map_file, "-o", out)
    assert run.code == 130
    assert_one_line(run, code=130, names="interrupted", says="nothing written")
    assert snapshot(tmp_path) == before
    assert out.read_bytes() == b"the previous map"


def test_ctrl_c_while_reading(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                              project: Path) -> None:
    from redact.formats.claude_code import reader as claude_code

    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(claude_code.ClaudeCodeReader, "read", interrupted)
    out = tmp_path / "out.json"
    before = snapshot(tmp_path)
    run = cli(capsys, project / f"{EXAMPLE_SESSION}.jsonl", "-o", out)
    assert_one_line(run, code=130, names="interrupted")
    assert snapshot(tmp_path) == before


def test_broken_stdout_pipe(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                            map_file: Path) -> None:
    """`agentplay-redact map.json | head -c 10`: one line, exit 2, no traceback."""
    import sys

    class Closed:
        def write(self, data: bytes) -> int:
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")

        def flush(self) -> None:
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    class Stdout:
        buffer = Closed()

        def fileno(self) -> int:
            raise OSError("no fd")

        def write(self, text: str) -> int:
            return len(text)

        def flush(self) -> None:
            pass

    monkeypatch.setattr(sys, "stdout", Stdout())
    before = snapshot(tmp_path)
    code = __import__("redact.cli", fromlist=["main"]).main([str(map_file)])
    err = capsys.readouterr().err
    assert code == 2 and len([line for line in err.splitlines() if line.strip()]) == 1
    assert "pipe closed" in err and "Traceback" not in err
    assert snapshot(tmp_path) == before


def test_output_to_a_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str], map_file: Path) -> None:
    """A named pipe is written in place (a rename would replace the pipe with a file)."""
    import stat
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    run = cli(capsys, map_file, "-o", fifo)
    reader.join(timeout=30)
    assert run.code == 0, run.err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert got and got[0].startswith(b'{"schema":"agentplay/v1"')


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_input_is_a_device(tmp_path: Path, capsys: pytest.CaptureFixture[str], device: str) -> None:
    """A device never ends (or is empty): refused at once, before anything is read into memory."""
    if not Path(device).exists():
        pytest.skip(f"{device} is not there")
    assert_refused(capsys, tmp_path, device, "-o", tmp_path / "out.json", names=device, says="is a device")


def test_input_is_a_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A named pipe given by name is refused before it is opened (opening one waits for a writer,
    forever when there is none: issue 23); standard input (`-`) is the way to pipe a log in."""
    fifo = tmp_path / "in.json"
    os.mkfifo(fifo)
    out = tmp_path / "out.json"
    assert_refused(capsys, tmp_path, fifo, "-o", out, names=fifo, says="named pipe")
    assert not out.exists()
