"""Path modes (seed 000, redaction contract rules 6 and 7; DESIGN.md section 4).

Two steps. `locate` turns any path a log holds (absolute, `~`, Windows, relative to the working
directory) into a repo-relative path or a bucket label. `apply_mode` then applies the path mode to a
repo-relative path. Byte-level choices are documented in docs/paths.md and pinned by test vectors:
- separators: `\\` becomes `/`; empty and `.` segments are removed; `..` is resolved, and a path that
  climbs out of its root is outside the repository;
- Windows drives compare case-insensitively (`C:\\Users\\A` and `c:/users/a` are one place);
- dirs_only: the file name becomes U+2022 + the first 6 lowercase hex chars of SHA-256 over the UTF-8
  bytes of the normalised repo-relative path;
- hashed: each segment becomes the first 10 lowercase hex chars of HMAC-SHA256(key, UTF-8 segment);
- relative and dirs_only: a shown name the leak scanner would flag (prose, a secret, a home folder)
  becomes a digest token instead (redact/pathguard.py), so the map is written, not refused.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from redact.keys import Key, sha256_hex
from redact.model.grammar import BUCKET_LABELS, CLAUDE_AREAS, MODE_RANK, PATH_MODES, has_invisible
from redact.pathguard import guard_path
from redact.recorder import TokenRecorder

_DRIVE = re.compile(r"^([A-Za-z]):(?=/|$)")
# `C--Users-alice-proj`: the project-folder spelling Claude Code uses for a working directory.
_PROJECT_FOLDER = re.compile(r"^([A-Za-z])--(.*)$")
# Where home folders live (macOS, Linux, Fedora Silverblue, Solaris, FreeBSD, Windows, Windows
# drives under WSL); a home folder is one of these plus a user name, or /root.
_HOMES = r"(?:/Users|/home|/var/home|/export/home|/usr/home|[a-z]:/users|/mnt/[a-z]/users)"
_HOME = re.compile(rf"^(?:{_HOMES}/[^/]+|/root)(?=/|$)", re.IGNORECASE)
# A working directory that is no repository: a home folder (or its Desktop, Documents, Downloads,
# .claude), the folder of home folders itself (`/home`: every path under it starts with a user
# name), a drive or file-system root, or scratch space.
_NOT_A_REPOSITORY = re.compile(
    rf"^(?:(?:{_HOMES}/[^/]+|/root)(?:/(?:Desktop|Documents|Downloads|\.claude))?"
    rf"|{_HOMES}|/|/mnt|/mnt/[a-z]|/tmp|/private/tmp|/var/tmp|[a-z]:)/?$",
    re.IGNORECASE,
)
_SCRATCH = re.compile(
    r"^(?:/tmp|/private/tmp|/var/tmp|/dev/shm|/private/var/folders|/var/folders"
    r"|[a-z]:/windows/temp|[a-z]:/temp|[a-z]:/tmp)(?=/|$)",
    re.IGNORECASE,
)
_HOME_SCRATCH = re.compile(r"^(?:appdata/local/temp|\.cache/tmp)(?=/|$)", re.IGNORECASE)
_HOME_AREAS = {"documents": "~/Documents", "downloads": "~/Downloads", "desktop": "~/Desktop"}


@dataclass(frozen=True, slots=True)
class Located:
    """Where a path points: `rel` inside a root, or else a bucket `label`."""

    rel: str | None = None
    label: str | None = None


def normalize(path: str) -> str:
    """Separators to `/`, a drive letter lower-cased; no other change."""
    path = path.replace("\\", "/")
    match = _DRIVE.match(path)
    if match:
        path = match.group(1).lower() + ":" + path[2:]
    return path


def _segments(path: str) -> list[str] | None:
    """Resolve `.`, `..` and empty segments; None when `..` climbs above the start."""
    out: list[str] = []
    for seg in path.split("/"):
        if seg in ("", "."):
            continue
        if seg == "..":
            if not out:
                return None
            out.pop()
            continue
        out.append(seg)
    return out


def is_absolute(path: str) -> bool:
    path = normalize(path)
    return path.startswith("/") or path.startswith("~") or _DRIVE.match(path) is not None


def _under(path: str, root: str) -> str | None:
    """`path` relative to `root` (both normalised and resolved), or None."""
    case_fold = _DRIVE.match(root) is not None
    p, r = (path.lower(), root.lower()) if case_fold else (path, root)
    if p == r:
        return ""
    prefix = r.rstrip("/") + "/"
    if p.startswith(prefix):
        return path[len(prefix):]
    return None


def resolve_abs(path: str) -> str | None:
    path = normalize(path)
    drive = ""
    m = _DRIVE.match(path)
    if m:
        drive, path = path[:2], path[2:]
    segs = _segments(path)
    if segs is None:
        return None
    return drive + "/" + "/".join(segs)


def is_not_a_repository(cwd: str) -> bool:
    """Whether a working directory is a home folder, the folder of home folders, a root or scratch
    space: paths under it go to buckets, never into `files[]` (they would start with a user name)."""
    return _NOT_A_REPOSITORY.match(normalize(cwd)) is not None


def bucket(path: str) -> str:
    """The bucket label of an absolute path that lies outside every repository."""
    path = normalize(path)
    if path.startswith("~"):
        rest = path[1:].lstrip("/")
    else:
        if _SCRATCH.match(path):
            return "/tmp (scratch)"
        home = _HOME.match(path)
        if not home:
            return "outside-repo"
        rest = path[home.end():].lstrip("/")
    if _HOME_SCRATCH.match(rest):
        return "/tmp (scratch)"
    first, _, tail = rest.partition("/")
    if first.lower() in _HOME_AREAS:
        return _HOME_AREAS[first.lower()]
    if first == ".claude":
        area = tail.split("/", 1)[0]
        area = area.rsplit(".", 1)[0] if "." in area else area
        return f"~/.claude/{area if area in CLAUDE_AREAS else 'other'}"
    return "~ (home)"


def project_folder_to_path(name: str) -> str:
    """Undo Claude Code's project-folder spelling as far as it can be undone (for bucketing only)."""
    m = _PROJECT_FOLDER.match(name)
    if m:
        return f"{m.group(1).lower()}:/" + m.group(2).replace("-", "/")
    return name.replace("-", "/") if name.startswith("-") else name


def locate(path: str, roots: tuple[str, ...] = (), cwd: str | None = None) -> Located:
    """Place `path` inside one of `roots` (longest first) or in a bucket.

    A relative `path` is taken relative to `cwd` when it is known, else as repo-relative already.
    """
    raw = normalize(path.strip())
    if not raw:
        return Located(label="outside-repo")
    if not is_absolute(raw):
        if cwd is not None:
            raw = normalize(cwd).rstrip("/") + "/" + raw
        else:
            segs = _segments(raw)
            if segs is None or not segs:
                return Located(label="outside-repo")
            return Located(rel="/".join(segs))
    if raw.startswith("~"):
        return Located(label=bucket(raw))
    resolved = resolve_abs(raw)
    if resolved is None:
        return Located(label="outside-repo")
    for root in sorted((r for r in (resolve_abs(x) for x in roots) if r), key=len, reverse=True):
        rel = _under(resolved, root)
        if rel is not None:
            return Located(rel=rel) if rel else Located(label="outside-repo")
    return Located(label=bucket(resolved))


def check_mode(mode: str) -> str:
    if mode not in PATH_MODES:
        raise ValueError(f"unknown path mode {mode!r}")
    return mode


def stricter_or_equal(new: str, old: str) -> bool:
    return MODE_RANK[new] >= MODE_RANK[old]


def _short(data: str) -> str:
    return "\u2022" + sha256_hex(data.encode("utf-8", "surrogatepass"))[:6]


def _visible(rel: str) -> str:
    """A directory segment with control or invisible characters is replaced by `•` + its hash."""
    if not has_invisible(rel):
        return rel
    return "/".join(_short(seg) if has_invisible(seg) else seg for seg in rel.split("/"))


def dirs_only(rel: str) -> str:
    head, _, _ = rel.rpartition("/")
    token = _short(rel)
    return f"{_visible(head)}/{token}" if head else token


def hashed(rel: str, key: Key, recorder: TokenRecorder | None = None) -> str:
    if recorder is None:
        return "/".join(key.segment_token(seg) for seg in rel.split("/"))
    tokens = []
    for seg in rel.split("/"):
        token = key.segment_token(seg)
        recorder.record("segment", token, seg)
        tokens.append(token)
    return "/".join(tokens)


def apply_mode(rel: str, mode: str, key: Key | None, recorder: TokenRecorder | None = None,
               fallbacks: Counter[str] | None = None) -> str:
    """Apply `mode` to a normalised repo-relative path (`key` is required for hashed).

    Under relative and dirs_only, a name the leak scanner would flag becomes a digest token
    (redact/pathguard.py), counted in `fallbacks`. `recorder` (the reveal vault's) is told each
    segment token made under hashed mode, and each fallback token.
    """
    if mode == "relative":
        return guard_path(_visible(rel), mode, key, fallbacks, recorder)
    if mode == "dirs_only":
        return guard_path(dirs_only(rel), mode, key, fallbacks, recorder)
    if key is None:
        raise ValueError("hashed mode needs a key")
    return hashed(rel, key, recorder)


def clean_relative(path: str) -> str | None:
    """Normalise a path that claims to be repo-relative; None when it is not one."""
    raw = normalize(path.strip())
    if not raw or is_absolute(raw):
        return None
    segs = _segments(raw)
    if not segs:
        return None
    return "/".join(segs)


__all__ = [
    "BUCKET_LABELS", "Located", "apply_mode", "bucket", "check_mode", "clean_relative", "dirs_only",
    "hashed", "is_absolute", "locate", "normalize", "project_folder_to_path", "stricter_or_equal",
]
