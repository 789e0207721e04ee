"""Shapes no path or identifier may hold, whatever its mode or policy: a home folder (it starts with
a user name) and command-line syntax. The scanner's grammar checks (audit/values.py) reject them;
the redactor replaces a name that holds one (redact/contract/detectors.py)."""
from __future__ import annotations

import re

# A home folder at the start of a value or of a URL/path inside it: `/Users/<name>`, `/home/<name>`,
# or, relative, `Users/<name>/...` and `home/<name>/...` (not `home/.config/...`: a dotfiles repo).
HOME_RE = re.compile(r"(?:^|//|[\s=:\"'])(?:/(?:Users|home|var/home|export/home)/[^/\s]+"
                     r"|(?:Users|home)/(?!\.)[^/\s]+/)", re.IGNORECASE)
# Command-line syntax inside a path: quotes, flags after a space, pipes, lists, redirections, `$(`.
COMMAND_RE = re.compile(r"[\"`]|\s--?[A-Za-z]|&&|\|\||[|;<>]|\$\(")

__all__ = ["COMMAND_RE", "HOME_RE"]
