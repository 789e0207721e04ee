"""Every output flag of every command goes through the one writer (redact/io/write.py), so each
refuses the same places: a folder, a symbolic link (neither followed nor replaced), the command's
own input, and, for a private file (key, vault, revealed map), a device. A public output (map,
report, receipt, SARIF) is written into a device in place: the device stays a device.

Regression: `reveal -o /dev/null` as root replaced /dev/null with a regular file (the vault had a
writer of its own without the device guard). The device here is a null device node made in the
test's own folder (root only), never /dev/null itself.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.hardening.helpers import EXAMPLE_CC, EXAMPLE_MAP, EXAMPLE_SESSION, KEY_HEX, Run, cli

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


@dataclass(frozen=True)
class Flag:
    name: str
    argv: Callable[[Path, Path], list[object]]  # (folder, target) -> arguments
    input: Callable[[Path], Path]  # the command's input, which the output must never replace
    private: bool = False  # a key, a vault, a revealed map: never into a device
    exclusive: bool = False  # a key: never over any existing file
    ext: str = ".json"
    folder_ok: bool = False  # --out-dir: a folder is what it wants


def _setup(folder: Path) -> None:
    """The inputs every command needs: a map, a Claude Code session, a key, a signing pair, a vault."""
    shutil.copy(EXAMPLE_MAP, folder / "in.json")
    shutil.copytree(EXAMPLE_CC, folder / "cc")
    key = folder / "k.key"
    key.write_text(KEY_HEX + "\n")
    key.chmod(0o600)
    assert cli_ok("receipt", "keygen", folder / "sign.pem")
    assert cli_ok(folder / "in.json", "--mode", "hashed", "--key-file", key, "-o", folder / "hashed.json",
                  "--vault", folder / "hashed.vault")


def cli_ok(*args: object) -> bool:
    from redact.cli import main

    return main([str(a) for a in args]) == 0


def _cc(folder: Path) -> Path:
    return folder / "cc" / f"{EXAMPLE_SESSION}.jsonl"


FLAGS = [
    Flag("redact -o", lambda d, t: [d / "in.json", "-o", t], lambda d: d / "in.json"),
    Flag("redact --report", lambda d, t: [d / "in.json", "-o", "-", "--report", t], lambda d: d / "in.json",
         ext=".html"),
    Flag("redact --receipt", lambda d, t: [d / "in.json", "-o", "-", "--receipt", t, "--signing-key",
                                           d / "sign.pem"], lambda d: d / "in.json"),
    Flag("redact --vault", lambda d, t: [d / "in.json", "-o", "-", "--mode", "hashed", "--key-file",
                                         d / "k.key", "--vault", t], lambda d: d / "in.json", private=True),
    Flag("redact --to native -o", lambda d, t: [_cc(d), "--to", "native", "-o", t], _cc, ext=".jsonl"),
    Flag("redact --to native --report", lambda d, t: [_cc(d), "--to", "native", "-o", "-", "--report", t],
         _cc, ext=".md"),
    Flag("redact --out-dir", lambda d, t: [d / "in.json", _cc(d), "--out-dir", t], lambda d: d / "in.json",
         folder_ok=True),
    Flag("audit -o", lambda d, t: ["audit", d / "in.json", "-o", t], lambda d: d / "in.json"),
    Flag("scan -o", lambda d, t: ["scan", d / "hashed.json", "-f", "sarif", "-o", t],
         lambda d: d / "hashed.json"),
    Flag("reveal -o", lambda d, t: ["reveal", d / "hashed.json", "--vault", d / "hashed.vault", "--key-file",
                                    d / "k.key", "-o", t], lambda d: d / "hashed.json", private=True),
    Flag("receipt sign -o", lambda d, t: ["receipt", "sign", d / "hashed.json", "--signing-key",
                                          d / "sign.pem", "-o", t], lambda d: d / "hashed.json"),
    Flag("receipt keygen PRIVATE", lambda d, t: ["receipt", "keygen", t, "--public", d / "new.pub"],
         lambda d: d / "in.json", private=True, exclusive=True, ext=".pem"),
    Flag("receipt keygen --public", lambda d, t: ["receipt", "keygen", d / "new.pem", "--public", t],
         lambda d: d / "in.json", exclusive=True, ext=".pub"),
    Flag("keygen", lambda d, t: ["keygen", t], lambda d: d / "in.json", private=True, exclusive=True,
         ext=".key"),
]


def state(folder: Path) -> dict[str, tuple[object, ...]]:
    """Every entry under `folder`, links not followed: kind, mode, and content, target or device."""
    out: dict[str, tuple[object, ...]] = {}
    for path in sorted(folder.rglob("*")):
        st = os.lstat(path)
        rel = str(path.relative_to(folder))
        if stat.S_ISLNK(st.st_mode):
            out[rel] = ("link", os.readlink(path))
        elif stat.S_ISREG(st.st_mode):
            out[rel] = ("file", st.st_mode, hashlib.sha256(path.read_bytes()).hexdigest())
        elif stat.S_ISCHR(st.st_mode):
            out[rel] = ("chr", st.st_mode, st.st_rdev)
        elif stat.S_ISFIFO(st.st_mode):
            out[rel] = ("fifo", st.st_mode)
        else:
            out[rel] = ("other", stat.S_IFMT(st.st_mode))
    return out


def _target(folder: Path, flag: Flag, kind: str) -> Path:
    if kind == "input":
        return flag.input(folder)
    target = folder / f"target{flag.ext}"
    if kind == "device":
        os.mknod(target, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a null device, in this folder
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "symlink":
        victim = folder / "victim.txt"
        victim.write_text("not yours to replace\n")
        target.symlink_to(victim)
    elif kind == "folder":
        target.mkdir()
    return target


# (--out-dir names a folder by design: its folder case is not a place it must not write)
def _run_bounded(args: list[object]) -> Run:
    """The command in its own process, stopped after a minute: a command that opens the FIFO (to
    read an earlier vault, or to write into it) waits for a peer forever, and that must fail the
    test, not hang it."""
    import subprocess
    import sys

    try:
        proc = subprocess.run([sys.executable, "-m", "redact", *map(str, args)], capture_output=True,
                              text=True, timeout=60, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("the command blocked on the FIFO instead of refusing it")
    return Run(proc.returncode, proc.stdout, proc.stderr.replace("agentplay-redact: ", "agentplay-redact: ", 1))


# A FIFO is the device case that needs no root (CI or not): a private or exclusive file must refuse
# it (writing a map into one would wait for a reader, so only those flags are tried with it).
CASES = [(flag, kind) for flag in FLAGS for kind in ("device", "fifo", "symlink", "folder", "input")
         if not (kind == "folder" and flag.folder_ok)
         and not (kind == "fifo" and not (flag.private or flag.exclusive))]


@pytest.mark.parametrize(("flag", "kind"), CASES, ids=[f"{f.name}-{k}" for f, k in CASES])
def test_every_output_flag_refuses_the_places_it_must_not_write(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: Flag, kind: str) -> None:
    if kind == "device" and not IS_ROOT:
        pytest.skip("making a device node needs root")
    _setup(tmp_path)
    target = _target(tmp_path, flag, kind)
    before = state(tmp_path)
    if kind == "fifo":
        run = _run_bounded(flag.argv(tmp_path, target))
    else:
        run = cli(capsys, *flag.argv(tmp_path, target))
    after = state(tmp_path)
    assert "Traceback" not in run.err
    if kind == "device" and not (flag.private or flag.exclusive or flag.folder_ok):
        # written in place: the device is still the same device, and nothing else appeared
        assert run.code == 0, run.err
        assert after == before
        return
    assert run.code == 2, run.err
    assert str(target) in run.err
    assert len([line for line in run.err.splitlines() if "error" in line]) == 1, run.err
    assert after == before
    assert run.out == ""


def test_a_private_file_is_0600_from_its_first_byte(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer hands a private file its mode before any byte is in it (checked at the rename)."""
    from redact.io import write

    seen: list[int] = []
    real = os.replace

    def spy(src: str, dst: str) -> None:
        seen.append(stat.S_IMODE(os.stat(src).st_mode))
        real(src, dst)

    monkeypatch.setattr(write.os, "replace", spy)
    os.umask(0o000)
    try:
        write.write_atomic(tmp_path / "v", b"secret", private=True)
    finally:
        os.umask(0o022)
    assert seen == [0o600] and stat.S_IMODE(os.stat(tmp_path / "v").st_mode) == 0o600


def test_an_exclusive_write_never_replaces_a_file_that_appears_meanwhile(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from redact.errors import UsageError
    from redact.io import write

    target = tmp_path / "k.key"
    real = write.check_output_path

    def late(out: object, *args: object, **kwargs: object) -> None:
        real(out, *args, **kwargs)  # type: ignore[arg-type]
        target.write_text("someone else's\n")  # appears between the check and the write

    monkeypatch.setattr(write, "check_output_path", late)
    with pytest.raises(UsageError, match="refusing to overwrite"):
        write.write_atomic(target, b"new", private=True, exclusive=True)
    assert target.read_text() == "someone else's\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.key"]


def test_dev_stdout_means_stdout_and_never_takes_a_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`/dev/stdout` is a link (to /proc/self/fd/1): the link guard refused it when stdout was a file.
    It is standard output, like `-`; a key is never written there."""
    run = cli(capsys, EXAMPLE_MAP, "-o", "/dev/stdout")
    assert run.code == 0, run.err
    assert run.out.startswith('{"schema":"agentplay/v1"')
    for target in ("/dev/stdout", "-"):
        run = cli(capsys, "keygen", target)
        assert run.code == 2 and "never to standard output" in run.err and run.out == ""
