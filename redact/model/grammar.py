"""The value grammars of the field classes: what an output value of each class may look like.

Shared by the redactor (to decide whether an input value already conforms) and by the scanner (to
prove an output conforms). Pure predicates: nothing here transforms data.
"""
from __future__ import annotations

import re
from datetime import datetime

PATH_MODES: tuple[str, ...] = ("relative", "dirs_only", "hashed")
MODE_RANK = {mode: i for i, mode in enumerate(PATH_MODES)}

CLAUDE_AREAS: frozenset[str] = frozenset({
    "projects", "todos", "plans", "skills", "agents", "commands", "settings", "hooks",
    "shell-snapshots", "ide", "statsig", "plugins", "memory", "file-history", "session-env", "debug",
    "logs", "other",
})
BUCKET_LABELS: frozenset[str] = frozenset(
    {"/tmp (scratch)", "~/Documents", "~/Downloads", "~/Desktop", "~ (home)", "outside-repo"}
    | {f"~/.claude/{area}" for area in CLAUDE_AREAS}
)

_HEX10 = re.compile(r"[0-9a-f]{10}")
_DIRS_ONLY_NAME = re.compile("\u2022[0-9a-f]{6}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")
_SEGMENT_FORBIDDEN = re.compile(r"[\\]")
_DRIVE = re.compile(r"[A-Za-z]:(?:/|$)")

#: The agent tools a `local:<tool>:<native id>` session id may name (policies/allowlists.toml's
#: agent_tool list; a test keeps them equal). Any other label could carry a name chosen by the input
#: (`local:acme-payroll:...`), so such an id is not an id here: the redactor hashes it.
LOCAL_ID_TOOLS = ("claude-code", "codex", "cursor", "copilot", "copilot-vscode", "opencode", "kiro",
                  "gemini-cli", "aider", "cline", "roo-code", "kilo-code", "windsurf", "amp", "teaagent",
                  "agent-replay", "other", "crush", "openhands", "continue", "pi", "qwen-code", "kimi", "zed",
                  "goose", "factory-droid")

# How far hashed tokens link (docs/threat-model.md): `global`, `session`, or `dataset:NAME` where NAME
# is 1-64 characters of lowercase letters, digits, `.`, `_` and `-`, starting and ending with a letter
# or digit (a release label such as `2026-q1` or `evals.v2`; no spaces, slashes or upper case).
LINK_SCOPES = ("global", "dataset", "session")
DATASET_NAME_RE = re.compile(r"[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?")
LINK_SCOPE_RE = re.compile(r"global|session|dataset:[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?")


def is_link_scope(value: object) -> bool:
    return isinstance(value, str) and LINK_SCOPE_RE.fullmatch(value) is not None


ID_RE = re.compile(
    r"(?:main|r\d{1,6}|t\d{1,6}"
    r"|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"  # uuid
    r"|[0-9a-f]{7,64}"  # hex ids and shas
    r"|sa-[0-9a-f]{6,32}"  # subagent lanes
    r"|h:[0-9a-f]{12}|id-[0-9a-f]{12}"  # ids this tool hashed
    r"|local:(?:" + "|".join(LOCAL_ID_TOOLS) + r"):(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    r"|[0-9a-f]{7,64}|h:[0-9a-f]{12}|id-[0-9a-f]{12}))"
)
#: The largest integer JavaScript holds exactly: beyond it a viewer shows (and hashes) another number.
MAX_SAFE_INT = 2**53 - 1

HASH_TOKEN_RE = re.compile(r"h:[0-9a-f]{12}")
CONTENT_HASH_RE = re.compile(r"[0-9a-f]{64}")
#: A map's `sourceDigest`: HMAC-SHA256 of its raw log under the key (redact/keys/material.py)
SOURCE_DIGEST_RE = re.compile(r"hmac-sha256:[0-9a-f]{64}")
# A version's pre-release or build suffix is a few known words, numbers and a git hash
# (`-beta.2`, `-rc1`, `+build.5`, `-dev.g1a2b3c4`), never free letters: `1.0-AcmePayroll` is text.
_VERSION_WORD = r"(?:alpha|beta|rc|dev|pre|preview|nightly|canary|next|snapshot|post|build|stable|insiders|g[0-9a-f]{7,12}|\d{1,14})"
VERSION_RE = re.compile(r"\d{1,4}(?:\.\d{1,6}){0,3}"
                        rf"(?:[-+](?=[0-9A-Za-z.-]{{1,24}}$){_VERSION_WORD}(?:[.-]?{_VERSION_WORD}){{0,4}})?")
TIMESTAMP_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z")
ACTION_RE = re.compile(r"[a-z][a-z0-9-]{0,31}(?:_[a-z][a-z0-9-]{0,31}){0,2}")
# An identifier kept in clear: printable, no white space, no control or invisible characters.
IDENT_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:/@+#-]{0,199}")
# The lookbehind starts a match only where a run of local-part characters starts: the same matches,
# in linear time (without it, `search` on a long run with no "@" is quadratic).
EMAIL_RE = re.compile(r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@"
                      r"[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")


def is_bucket_label(value: str) -> bool:
    return value in BUCKET_LABELS


def is_relative_path(value: str) -> bool:
    """A clean repo-relative path: `/`-separated, no empty, `.` or `..` segment, no control chars."""
    if not value or value.startswith(("/", "~")) or len(value) > 4096:
        return False
    if _SEGMENT_FORBIDDEN.search(value) or _CONTROL.search(value):
        return False
    if _DRIVE.match(value):  # a Windows drive: absolute, not repo-relative
        return False
    return all(seg not in ("", ".", "..") for seg in value.split("/"))


def is_dirs_only_path(value: str) -> bool:
    if not is_relative_path(value):
        return False
    return _DIRS_ONLY_NAME.fullmatch(value.rsplit("/", 1)[-1]) is not None


def is_hashed_path(value: str) -> bool:
    return all(_HEX10.fullmatch(seg) for seg in value.split("/"))


def path_in_mode(value: str, mode: str) -> bool:
    """Whether `value` is a legal `files[].path` of a map declaring `mode`."""
    if is_bucket_label(value):
        return True
    if mode == "hashed":
        return is_hashed_path(value)
    if mode == "dirs_only":
        return is_dirs_only_path(value)
    return is_relative_path(value)


def is_timestamp(value: str) -> bool:
    if not TIMESTAMP_RE.fullmatch(value):
        return False
    try:
        datetime.fromisoformat(value[:19])
    except ValueError:
        return False
    return True


def is_id(value: str) -> bool:
    return ID_RE.fullmatch(value) is not None


def is_clean_identifier(value: str) -> bool:
    """Shape only: an identifier that may be shown in clear (the policy decides whether it is)."""
    return IDENT_RE.fullmatch(value) is not None and not EMAIL_RE.search(value)


def has_invisible(value: str) -> bool:
    return _CONTROL.search(value) is not None
