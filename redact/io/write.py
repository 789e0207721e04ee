"""Atomic output: a temporary file in the target folder, fsync, rename. Never over the input.

A write that fails for any reason (a full disk, a read-only folder, Ctrl-C) leaves the target as it
was and removes its temporary file: an output is either complete or absent.
"""
from __future__ import annotations

import gzip
import io
import os
import stat
import sys
import tempfile
from pathlib import Path

from redact.errors import UsageError


def encode_output(data: bytes, name: str) -> bytes:
    """Gzip when `name` ends in .gz (mtime 0 and no file name, so output stays deterministic)."""
    if not name.endswith(".gz"):
        return data
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=6) as gz:
        gz.write(data)
    return buf.getvalue()


def _resolved(path: str | Path) -> Path:
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):  # a symlink loop (RuntimeError before Python 3.13)
        return Path(os.path.abspath(path))


def same_file(a: str | Path, b: str | Path) -> bool:
    if str(a) == "-" or str(b) == "-":
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return _resolved(a) == _resolved(b)


def check_output_path(out: str | Path, inputs: list[str | Path]) -> None:
    for src in inputs:
        if same_file(out, src):
            raise UsageError("output path is the input path; refusing to overwrite the input",
                             where=str(out))


def _umask() -> int:
    """The process umask, read without changing it (os.umask would race with other threads)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _fsync_folder(folder: Path) -> None:
    """Make the rename durable (best effort: not every system lets a folder be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(out: str | Path, data: bytes, *, mode: int | None = None) -> None:
    """Write `data` to `out` (`-` is stdout) so that `out` is either complete or untouched.

    The file gets `mode`, by default 0666 less the umask (what any new file would get).
    """
    if str(out) == "-":
        _write_stdout(data)
        return
    target = Path(out)
    if _is_device(target):
        _write_device(target, data)
        return
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise UsageError(f"cannot write to the output folder ({exc.strerror or type(exc).__name__}); "
                         "nothing written", where=str(out)) from None
    open_fd: int | None = fd
    try:
        _write_all(fd, data)
        os.fsync(fd)
        open_fd = None
        os.close(fd)
        os.chmod(tmp, (0o666 & ~_umask()) if mode is None else mode)
        os.replace(tmp, target)
    except BaseException as exc:  # Ctrl-C included: the temporary file never outlives the write
        if open_fd is not None:
            try:
                os.close(open_fd)
            except OSError:
                pass
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise UsageError(f"cannot write output ({exc.strerror or type(exc).__name__}); nothing "
                             "written", where=str(out)) from None
        raise
    _fsync_folder(folder)


def _is_device(target: Path) -> bool:
    """A character device, pipe or socket (`/dev/null`, `/dev/stdout`, a FIFO): written in place. Renaming
    a file over it would replace the device itself (as root, `/dev/null` would become a file)."""
    try:
        mode = os.stat(target).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _write_device(target: Path, data: bytes) -> None:
    try:
        fd = os.open(target, os.O_WRONLY)
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
    except OSError as exc:
        raise UsageError(f"cannot write output ({exc.strerror or type(exc).__name__})",
                         where=str(target)) from None


def _write_stdout(data: bytes) -> None:
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        # The reader went away (`| head`). Point stdout at /dev/null so the interpreter's own flush at
        # exit does not print a second error.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError, io.UnsupportedOperation):
            pass
        raise UsageError("the output pipe closed before the map was written", where="<stdout>") from None
    except OSError as exc:
        raise UsageError(f"cannot write output ({exc.strerror or type(exc).__name__})",
                         where="<stdout>") from None
