"""Shapes no path or identifier may hold, whatever its mode or policy: a home folder (it starts with
a user name) and command-line syntax. The scanner's grammar checks (audit/values.py) reject them;
the redactor replaces a name that holds one (redact/contract/detectors.py)."""
from __future__ import annotations

import re

from redact.contract.fold import unconfuse

# A home folder at the start of a value or of a URL/path inside it: `/Users/<name>`, `/home/<name>`,
# or, relative, `Users/<name>/...` and `home/<name>/...` (not `home/.config/...`: a dotfiles repo).
HOME_RE = re.compile(r"(?:^|//|[\s=:\"'])(?:/(?:Users|home|homes|var/home|export/home)[. ]*/[^/\s]+"
                     r"|(?:Users|home|homes)[. ]*/(?!\.)[^/\s]+/)", re.IGNORECASE)
# Shares of roaming profiles and redirected homes (`//fs01/profiles$/<name>`) and AFS user volumes.
SHARE_HOME_RE = re.compile(r"(?:^|[\s=:\"'])(?://|\\\\)[^/\\\s]+[/\\](?:profiles?|users|homes?)\$?[/\\][^/\\\s]+"
                           r"|(?:^|[\s=:\"'])/afs/[^/\s]+/(?:user|users|usr|u|home|homes)/[^/\s]+",
                           re.IGNORECASE)
# ... and at every other segment position, where only the macOS and Windows spellings are
# distinctive enough (`Macintosh HD/Users/<name>/...` from a working directory of `/Volumes`,
# `c/Documents and Settings/<name>/...`): `Users` with its capital, so a web app's `users/[id]/`
# is not a home folder.
HOME_ANYWHERE_RE = re.compile(r"(?:^|/)(?:Users|[Dd]ocuments and [Ss]ettings)/(?!\.)[^/]+/")


def has_home(value: str) -> bool:
    """Whether a value holds a home folder at any segment position, also spelt with look-alike
    or full-width letters (`/Usеrs/<name>`, redact/contract/fold.py)."""
    if not value.isascii():
        value = unconfuse(value)
    return bool(HOME_RE.search(value) or HOME_ANYWHERE_RE.search(value) or SHARE_HOME_RE.search(value))


# A long bare hex run (128 bits or more) or a UUID inside an identifier: a key, a token or an id,
# never a name (an id field has its own grammar; an identifier slot does not take them in clear).
OPAQUE_RE = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{32,}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}"
                       r"-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})(?![0-9A-Fa-f])")


def has_opaque(value: str) -> bool:
    """Whether an identifier holds a long bare hex run or a UUID."""
    return OPAQUE_RE.search(value) is not None


# Command-line syntax inside a path: quotes, flags after a space, pipes, lists, redirections, `$(`.
COMMAND_RE = re.compile(r"[\"`]|\s--?[A-Za-z]|&&|\|\||[|;<>]|\$\(")

__all__ = ["COMMAND_RE", "HOME_ANYWHERE_RE", "HOME_RE", "OPAQUE_RE", "SHARE_HOME_RE", "has_home", "has_opaque"]
