"""Reading a secret file (a key, a signing key): a regular file that only its owner can read, in a
folder nobody else can write. The bytes are handed to redact/keys/material.py, which alone parses them."""
from __future__ import annotations

import os
import stat
from pathlib import Path

from redact.errors import KeyError_


def read_private_file(path: Path, what: str, *, allow_unsafe_permissions: bool) -> bytes:
    """The bytes of a secret file: a regular file that group and others cannot read."""
    where = str(path)
    try:
        st = path.stat()
    except FileNotFoundError:
        raise KeyError_(f"{what} file not found", where=where) from None
    except OSError as exc:
        raise KeyError_(f"cannot read {what} file ({exc.strerror})", where=where) from None
    if not stat.S_ISREG(st.st_mode):
        raise KeyError_(f"{what} path is not a regular file", where=where)
    if st.st_mode & 0o077 and not allow_unsafe_permissions:
        raise KeyError_(
            f"{what} file is readable by group or others (mode {stat.S_IMODE(st.st_mode):04o}); "
            "run `chmod 600` on it, or pass --unsafe-key-permissions",
            where=where,
        )
    if not allow_unsafe_permissions:
        _check_private_place(path, st, what)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise KeyError_(f"cannot read {what} file ({exc.strerror})", where=where) from None


def _check_private_place(path: Path, st: os.stat_result, what: str) -> None:
    """Refuse a secret file that someone else could replace: one owned by another user, or one in a
    folder that group or others may write without the sticky bit (they could rename their own key
    over it, and then test guesses against every map made with it)."""
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    if uid is not None and st.st_uid not in (uid, 0):
        raise KeyError_(f"{what} file belongs to another user; pass --unsafe-key-permissions to use it "
                        "anyway", where=str(path))
    for folder in dict.fromkeys((path.absolute().parent, path.resolve().parent)):  # a link's, the file's
        try:
            fst = folder.stat()
        except OSError as exc:
            raise KeyError_(f"cannot check the {what} file's folder ({exc.strerror})",
                            where=str(folder)) from None
        if fst.st_mode & 0o022 and not fst.st_mode & stat.S_ISVTX:
            raise KeyError_(
                f"{what} file's folder is writable by group or others (mode "
                f"{stat.S_IMODE(fst.st_mode):04o}) without the sticky bit, so the {what} could be "
                "swapped; move it to a private folder, or pass --unsafe-key-permissions",
                where=str(folder),
            )
