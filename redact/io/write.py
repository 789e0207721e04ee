"""The one writer of every file this tool writes: maps, native output, reports, receipts, SARIF,
keys and vaults. A temporary file in the target folder, fsync, rename; the guards live here only.

A write that fails for any reason (a full disk, a read-only folder, Ctrl-C) leaves the target as it
was and removes its temporary file: an output is either complete or absent. `check_output_path`
runs the same guards before anything is written (a command checks every output it will write first):

- an input (or a link to one) is never overwritten;
- a folder, a block device or a symbolic link is refused (a link is neither followed nor replaced);
- a character device, pipe or socket (`/dev/null`, `/dev/stdout`, `>(gzip > x)`) is written in
  place: renaming a file over it would replace the device itself (as root, `/dev/null` would become
  a file). A private file (`private=True`: a key, a vault, a revealed map) is never written to one,
  since its mode 0600 could not hold there;
- a private file has mode 0600 from its first byte; an exclusive one (a key) never replaces an
  existing file (it is linked into place, which fails if the name is taken).
"""
from __future__ import annotations

import gzip
import io
import os
import stat
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from redact.errors import UsageError


# Written as standard output: `/dev/stdout` is a link (to /proc/self/fd/1), which the guards refuse
# when stdout is a redirected file; it means what `-` means.
STDOUT_NAMES = frozenset({"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"})


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


def check_output_path(out: str | Path, inputs: Sequence[str | Path] = (), *, private: bool = False,
                      exclusive: bool = False) -> None:
    """Refuse (UsageError, nothing written) an output path that one of the guards above rules out."""
    if str(out) in STDOUT_NAMES:
        if exclusive:
            raise UsageError("a key is written only to a new file, never to standard output", where=str(out))
        return
    for src in inputs:
        if same_file(out, src):
            raise UsageError("output path is the input path; refusing to overwrite the input",
                             where=str(out))
    target = Path(out)
    try:
        link = stat.S_ISLNK(os.lstat(target).st_mode)
    except (OSError, ValueError):
        return  # nothing there yet: the write itself reports a missing or read-only folder
    if exclusive:
        raise UsageError("refusing to overwrite an existing file", where=str(out))
    try:
        mode = os.stat(target).st_mode
    except (OSError, ValueError):
        mode = None  # a dangling link or a loop
    if mode is not None and _in_place(mode):
        if private:
            raise UsageError("is a device or pipe; a private file (mode 0600) is written only to a "
                             "regular file", where=str(out))
        return
    if link:
        raise UsageError("is a symbolic link; refusing to write through or over it", where=str(out))
    if mode is not None and stat.S_ISDIR(mode):
        raise UsageError("is a folder; give a file name", where=str(out))
    if mode is not None and not stat.S_ISREG(mode):
        raise UsageError("is not a regular file (a block device?); refusing to write", where=str(out))


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


def write_atomic(out: str | Path, data: bytes, *, mode: int | None = None, private: bool = False,
                 exclusive: bool = False, inputs: Sequence[str | Path] = ()) -> None:
    """Write `data` to `out` (`-` is stdout) so that `out` is either complete or untouched.

    The file gets `mode`, by default 0666 less the umask (what any new file would get), or 0600 when
    `private`. `exclusive` refuses an existing `out` (and is atomic about it). The guards of
    `check_output_path` run again here, with `inputs`.
    """
    check_output_path(out, inputs, private=private, exclusive=exclusive)
    if str(out) in STDOUT_NAMES:
        _write_stdout(data)
        return
    target = Path(out)
    if _is_device(target):
        _write_device(target, data)
        return
    if private:
        mode = 0o600 if mode is None else mode
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
        if exclusive:
            os.link(tmp, target)  # fails if the name was taken meanwhile: never replaces a file
            os.unlink(tmp)
        else:
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
        if isinstance(exc, FileExistsError):
            raise UsageError("refusing to overwrite an existing file", where=str(out)) from None
        if isinstance(exc, OSError):
            raise UsageError(f"cannot write output ({exc.strerror or type(exc).__name__}); nothing "
                             "written", where=str(out)) from None
        raise
    _fsync_folder(folder)


def _in_place(mode: int) -> bool:
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _is_device(target: Path) -> bool:
    """A character device, pipe or socket (`/dev/null`, `/dev/stdout`, a FIFO): written in place. Renaming
    a file over it would replace the device itself (as root, `/dev/null` would become a file)."""
    try:
        mode = os.stat(target).st_mode
    except (OSError, ValueError):
        return False
    return _in_place(mode)


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
