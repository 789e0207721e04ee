"""Path modes (seed 000, redaction contract rules 6 and 7; DESIGN.md section 4).

Two steps. `locate` turns any path a log holds (absolute, `~`, Windows, relative to the working
directory) into a repo-relative path or a bucket label. `apply_mode` then applies the path mode to a
repo-relative path. Byte-level choices are documented in docs/paths.md and pinned by test vectors:
- `normalize` first: white space trimmed, `\\` becomes `/`, Win32 device and long-path prefixes, the
  WSL share, Cygwin and WSL drive mounts and the APFS data volume removed;
- empty and `.` segments are removed; `..` is resolved, and a path that climbs out of its root is
  outside the repository;
- home folders are found at every segment position (`/nfs/home/u`, `/Volumes/Macintosh HD/Users/u`);
  which working directory is a repository is decided in `redact/formats/roots.py`;
- Windows drives compare case-insensitively (`C:\\Users\\A` and `c:/users/a` are one place);
- dirs_only: the file name becomes U+2022 + the first 6 lowercase hex chars of SHA-256 over the UTF-8
  bytes of the normalised repo-relative path;
- hashed: each segment becomes the first 10 lowercase hex chars of HMAC-SHA256(key, UTF-8 segment);
- relative and dirs_only: a shown name the leak scanner would flag (prose, a secret, a home folder)
  becomes a digest token instead (redact/apply/pathguard.py), so the map is written, not refused.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from redact.contract.fold import fold_name
from redact.keys.material import Key, sha256_hex
from redact.model.grammar import BUCKET_LABELS, CLAUDE_AREAS, MODE_RANK, PATH_MODES, has_invisible
from redact.apply.pathguard import FALLBACK_BUCKET, MAX_PATH_CHARS, guard_path
from redact.keys.recorder import TokenRecorder

_DRIVE = re.compile(r"^([A-Za-z]):(?=/|$)")
# `C--Users-alice-proj`: the project-folder spelling Claude Code uses for a working directory.
_PROJECT_FOLDER = re.compile(r"^([A-Za-z])--(.*)$")
# Spellings of one place that differ only in how they reach it (applied after `\\` -> `/`):
# Win32 device and long-path prefixes, the WSL file share, Cygwin and WSL drive mounts, and the
# APFS data volume that macOS firmlinks to `/`.
_PREFIXES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^//[?.]/unc/", re.IGNORECASE), "//"),  # \\?\UNC\server\share -> //server/share
    (re.compile(r"^(?://[?.]/|/\?\?/)(?=[A-Za-z]:)"), ""),  # \\?\C:\ and \??\C:\ -> C:\
    (re.compile(r"^//wsl(?:\.localhost|\$)/[^/]+(?=/|$)", re.IGNORECASE), ""),  # -> the distro's /
    (re.compile(r"^/(?:cygdrive|mnt)/([A-Za-z])(?=/|$)", re.IGNORECASE), r"\1:"),
    (re.compile(r"^/System/Volumes/Data(?=/|$)", re.IGNORECASE), ""),
)
# A folder whose child is a user's home, at any depth (`/home/u`, `/nfs/home/u`, `/data/home/u`,
# `/Volumes/Macintosh HD/Users/u`, `/c/Users/u`, `c:/documents and settings/u`), and the shares of
# roaming profiles and redirected homes (`\\\\server\\profiles$\\u`); compared folded
# (redact/contract/fold.py: case, look-alikes, full-width forms, Windows' trailing dots and spaces).
# Only at the top: `/root` (a home), and `/u/<user>`, `/mnt/wsl/<x>`, `/media/<user>`,
# `/run/media/<user>` (the next segment is a user name or a user's disk); `/afs/<cell>/user/...`.
_HOME_PARENTS = frozenset({"users", "home", "homes", "documents and settings",
                           "profiles$", "users$", "home$", "homes$"})
_UNC_HOME_PARENTS = frozenset({"profiles", "profile"})  # `//server/profiles/u`: a share's folder
_TOP_HOME_PARENTS = (("u",), ("mnt", "wsl"), ("media",), ("run", "media"))
_AFS_HOME_PARENTS = frozenset({"user", "users", "usr", "u", "home", "homes"})  # /afs/<cell>/user/a/u
# A segment right below a home folder that is not yet the user: the domain of an Active Directory
# home (`/home/CORP/u` of winbind, `/home/corp.example.com/u` of sssd), `/Users/Shared/<name>`, an
# AFS cell's one-letter hash folders (`/afs/<cell>/user/a/u`). The segment after it is a user name too; both
# count as user names (a name there is never a repository's).
_NETBIOS = re.compile(r"[A-Z][A-Z0-9-]{1,14}")
_DNS_NAME = re.compile(r"[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})+")
_DOMAIN_TLDS = frozenset("""
com net org edu gov mil int biz info io co local lan corp internal intranet intra home ad priv private
localdomain domain dom ads office
""".split())  # noqa: SIM905 - a word list reads better as text
_PASS_THROUGH = frozenset({"shared"})
# Folders every home has: a working directory that is one of them is no repository.
_HOME_AREAS_ALL = frozenset({
    "desktop", "documents", "downloads", "pictures", "music", "movies", "videos", "public",
    "templates", "library", "appdata", "onedrive", "dropbox", "icloud drive", ".claude", ".codex",
    ".config", ".local", ".cache", ".ssh",
})
# Folders that hold drives, disks or mounts rather than a project.
_MOUNT_ROOTS = frozenset({("mnt",), ("mnt", "wsl"), ("volumes",), ("media",), ("run", "media"),
                          ("cygdrive",), ("net",), ("tmp",), ("private", "tmp"), ("var", "tmp")})
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
    """One spelling per place, before any rule looks at a path: white space around it removed,
    separators to `/`, device and long-path prefixes (`\\\\?\\`, `\\\\.\\`), the WSL share
    (`\\\\wsl.localhost\\<distro>`, `\\\\wsl$\\<distro>`), Cygwin and WSL drive mounts
    (`/cygdrive/c`, `/mnt/c` -> `c:`) and the APFS data volume (`/System/Volumes/Data`) removed, a
    drive letter lower-cased. `.`, `..` and repeated separators are resolved by `resolve_abs`."""
    original = path
    path = path.strip().replace("\\", "/")
    for pattern, repl in _PREFIXES:
        path = pattern.sub(repl, path, count=1)
    if not path and original.strip():
        path = "/"  # `\\\\wsl$\\Ubuntu`, `/System/Volumes/Data`: the root of a file system
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


def _split(path: str) -> tuple[str, list[str]] | None:
    """A normalised absolute path as (drive or "", resolved segments); None when it is not one."""
    resolved = resolve_abs(path) if is_absolute(path) and not path.startswith("~") else None
    if resolved is None:
        return None
    drive, _, rest = resolved.partition("/")
    return drive, [seg for seg in rest.split("/") if seg]


def _below_home(seg: str, low: str, *, afs: bool) -> bool:
    """Whether `seg`, right below a home folder, is not the user but one more level (module notes);
    `afs`: one-letter hash folders are such a level."""
    if low in _PASS_THROUGH or (afs and len(low) == 1):
        return True
    bare = seg.rstrip(". ")
    if _NETBIOS.fullmatch(bare) and not bare.isdigit():
        return True
    if _DNS_NAME.fullmatch(low):
        tld = low.rsplit(".", 1)[-1]
        return tld in _DOMAIN_TLDS or (len(tld) == 2 and tld.isalpha())
    return False


def _home_chains(segs: list[str], *, unc: bool = False) -> list[tuple[int, int]]:
    """The user-name segments of each home folder in `segs`: (first, last) indexes of a run, the
    last the user's own folder (for `/root`: (0, 0))."""
    low = [fold_name(seg) for seg in segs]
    starts = [i + 1 for i, seg in enumerate(low[:-1])
              if seg in _HOME_PARENTS or (unc and i == 1 and seg in _UNC_HOME_PARENTS)]
    for top in _TOP_HOME_PARENTS:
        if len(low) > len(top) and tuple(low[:len(top)]) == top:
            starts.append(len(top))
    afs = len(low) > 3 and low[0] == "afs" and low[2] in _AFS_HOME_PARENTS
    if afs:
        starts.append(3)
    chains: list[tuple[int, int]] = []
    if low and low[0] == "root":
        chains.append((0, 0))
    for start in sorted(set(starts)):
        end = start
        while end < len(low) - 1 and _below_home(segs[end], low[end], afs=afs and start == 3):
            end += 1
        chains.append((start, end))
    return sorted(set(chains))


def _user_positions(segs: list[str], *, unc: bool = False) -> list[int]:
    """Indexes of the segments that are a user name (or a user's home folder, for `/root`)."""
    return sorted({i for first, last in _home_chains(segs, unc=unc) for i in range(first, last + 1)})


def _parts(path: str) -> tuple[str, list[str], bool] | None:
    """`_split` of a path, with whether it was a UNC path (`//server/share/...`)."""
    norm = normalize(path)
    parts = _split(norm)
    if parts is None:
        return None
    return parts[0], parts[1], norm.startswith("//") and not norm.startswith("///")


def home_rest(path: str) -> str | None:
    """The part of an absolute path below its (first) home folder, or None outside every home."""
    parts = _parts(path)
    if parts is None:
        return None
    _, segs, unc = parts
    chains = _home_chains(segs, unc=unc)
    return "/".join(segs[chains[0][1] + 1:]) if chains else None


def user_names(path: str) -> tuple[str, ...]:
    """The user-name segments of the home folders in an absolute path (for `/root`: `root`)."""
    parts = _parts(path)
    if parts is None:
        return ()
    _, segs, unc = parts
    return tuple(segs[at] for at in _user_positions(segs, unc=unc))


def is_not_a_repository(cwd: str) -> bool:
    """Whether a working directory cannot be a repository: a home folder or a folder every home has
    (Desktop, Documents, Library, `.claude`, ...), a folder that holds home folders (`/home`,
    `/Volumes/Macintosh HD/Users`), a drive, mount or file-system root, scratch
    space, or no absolute path at all. Paths under it go to buckets, never into `files[]` (they
    would start with a user name)."""
    parts = _parts(cwd)
    if parts is None:
        return True
    drive, segs, unc = parts
    low = tuple(fold_name(seg) for seg in segs)
    if not segs or low in _MOUNT_ROOTS or _SCRATCH.fullmatch(drive + "/" + "/".join(segs)):
        return True
    if not drive and len(low) == 1 and len(low[0]) == 1:
        return True  # an MSYS drive (`/c`) or a one-letter root of network homes (`/u`)
    if not drive and len(low) == 2 and low[0] in ("mnt", "volumes", "media", "net"):
        return True  # a mounted disk
    if low[-1] in _HOME_PARENTS:
        return True
    last = len(segs) - 1
    return any(last <= at or (last == at + 1 and low[last] in _HOME_AREAS_ALL)
               for at in _user_positions(segs, unc=unc))


def is_below_a_home(cwd: str) -> bool:
    """Whether a working directory lies below a known home folder (`~/code/proj`), which makes it a
    plausible repository; the home itself and the folders every home has are not."""
    if is_not_a_repository(cwd):
        return False
    parts = _parts(cwd)
    return parts is not None and bool(_user_positions(parts[1], unc=parts[2]))


def bucket(path: str) -> str:
    """The bucket label of an absolute path that lies outside every repository."""
    path = normalize(path)
    if path.startswith("~"):
        rest: str | None = path[1:].lstrip("/")
        if rest and not path.startswith("~/"):
            return "~ (home)"  # `~alice/...`: another user's home
    else:
        resolved = resolve_abs(path) or path
        if _SCRATCH.match(resolved):
            return "/tmp (scratch)"
        rest = home_rest(path if path.startswith("//") else resolved)  # a UNC share keeps its `//`
        if rest is None:
            return "outside-repo"
    assert rest is not None
    if _HOME_SCRATCH.match(rest):
        return "/tmp (scratch)"
    first, _, tail = rest.partition("/")
    if fold_name(first) in _HOME_AREAS:
        return _HOME_AREAS[fold_name(first)]
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
    (redact/apply/pathguard.py), counted in `fallbacks`. `recorder` (the reveal vault's) is told each
    segment token made under hashed mode, and each fallback token.
    """
    if mode == "relative":
        return guard_path(_visible(rel), mode, key, fallbacks, recorder)
    if mode == "dirs_only":
        return guard_path(dirs_only(rel), mode, key, fallbacks, recorder)
    if key is None:
        raise ValueError("hashed mode needs a key")
    out = hashed(rel, key, recorder)
    if len(out) > MAX_PATH_CHARS:  # hundreds of segments: no legal path holds their tokens
        if fallbacks is not None:
            fallbacks["path/long-name"] += 1
        return FALLBACK_BUCKET
    return out


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
    "hashed", "home_rest", "is_absolute", "is_below_a_home", "is_not_a_repository", "locate", "normalize",
    "project_folder_to_path", "stricter_or_equal", "user_names",
]
