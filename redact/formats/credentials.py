"""Files that sit beside agents' session logs and hold credentials: never read, by their name.

Gemini CLI keeps `oauth_creds.json` in `~/.gemini/`, opencode and Codex an `auth.json`, Cline and
its forks a `secrets.json` and an MCP settings file with the servers' environment
(`cline_mcp_settings.json`), MCP clients an `mcp-auth.json`, Goose a `secrets.yaml` when the keyring
is off, Factory Droid its bring-your-own-key models (with their API keys) in `~/.factory/config.json`; Kiro keeps its login as
`~/.aws/sso/cache/kiro-auth-token.json` (and the CLI in its store's `auth_kv`, never selected), Kimi CLI its
providers' API keys in `~/.kimi/config.toml` (a `config.toml` in a `.kimi` folder: other agents' `config.toml` hold none). Detection looks at content, but these
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
    "kiro-auth-token.json", "secrets.yaml",
})
#: (folder, file name) pairs that are credential files only in that agent's folder
IN_FOLDER = frozenset({(".kimi", "config.toml"), (".factory", "config.json")})
_PATTERN = re.compile(r"(?:.*[._-])?(?:oauth|credentials?|secrets?)(?:[._-].*)?\.json", re.IGNORECASE)


def is_credential_file(path: str | PurePath) -> bool:
    """Whether the file at `path` is, by its name, a credential file an agent keeps beside its logs."""
    where = PurePath(str(path))
    name = where.name
    return name.lower() in NAMES or _PATTERN.fullmatch(name) is not None or \
        (where.parent.name, name.lower()) in IN_FOLDER
