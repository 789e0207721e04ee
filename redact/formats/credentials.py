"""Files that sit beside agents' session logs and hold credentials: never read, by their name.

Gemini CLI keeps `oauth_creds.json` in `~/.gemini/`, opencode and Codex an `auth.json`, Cline and
its forks a `secrets.json` and an MCP settings file with the servers' environment
(`cline_mcp_settings.json`), MCP clients an `mcp-auth.json`, Goose a `secrets.yaml` when the keyring
is off, and Factory Droid its bring-your-own-key models (with their API keys) in `~/.factory/config.json`. Detection looks at content, but these
files are not even opened: `redact_file` refuses them (exit 2) and batch mode skips them and says
so. The check is by name only, so it costs nothing and reads nothing.
"""
from __future__ import annotations

import re
from pathlib import PurePath

#: exact file names (compared without case)
NAMES = frozenset({
    "oauth_creds.json", "auth.json", "mcp-auth.json", "secrets.json", "google_accounts.json",
    "credentials.json", "installation_id", "user_id", "cline_mcp_settings.json", "mcp_settings.json",
    "secrets.yaml",
})
#: (folder, file name) pairs: a name that holds credentials only in that agent's folder
IN_FOLDER = frozenset({(".factory", "config.json")})
_PATTERN = re.compile(r"(?:.*[._-])?(?:oauth|credentials?|secrets?)(?:[._-].*)?\.json", re.IGNORECASE)


def is_credential_file(path: str | PurePath) -> bool:
    """Whether the file at `path` is, by its name, a credential file an agent keeps beside its logs."""
    found = PurePath(str(path))
    name = found.name
    return name.lower() in NAMES or _PATTERN.fullmatch(name) is not None or \
        (found.parent.name.lower(), name.lower()) in IN_FOLDER
