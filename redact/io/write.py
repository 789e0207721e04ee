"""Atomic output: a temporary file in the target folder, fsync, rename. Never over the input."""
from __future__ import annotations

import gzip
import io
import os
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


def same_file(a: str | Path, b: str | Path) -> bool:
    if str(a) == "-" or str(b) == "-":
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()


def check_output_path(out: str | Path, inputs: list[str | Path]) -> None:
    for src in inputs:
        if same_file(out, src):
            raise UsageError("output path is the input path; refusing to overwrite the input",
                             where=str(out))


def write_atomic(out: str | Path, data: bytes) -> None:
    """Write `data` to `out` (`-` is stdout) so that `out` is either complete or untouched."""
    if str(out) == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    target = Path(out)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise UsageError(f"cannot write to the output folder ({exc.strerror})", where=str(out)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise UsageError(f"cannot write output ({exc.strerror})", where=str(out)) from None
        raise
