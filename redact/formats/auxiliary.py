"""Files that sit beside agents' session logs but are not sessions: never read, skipped by name.

Credential files (`auth.json`, `mcp-auth.json`, `secrets.json`, `oauth_creds.json` and the other
names of redact/formats/credentials.py) are never opened at all: not as a session, not to detect their format. Auxiliary histories (Aider's input and LLM
histories) hold free text the chat history already covers. A name is matched at the end of the file
name (`<anything>.aider.input.history` too), so a copy that keeps the name is skipped as well.
"""
from __future__ import annotations

import os
from pathlib import Path

from redact.formats.credentials import is_credential_file

CREDENTIAL = "a credential file"
AUXILIARY: dict[str, str] = {
    ".aider.input.history": "Aider's input history (free text; the chat history holds the session)",
    ".aider.llm.history": "Aider's LLM message log (free text; the chat history holds the session)",
    "prompt-history.jsonl": "opencode's prompt history (free text typed at the prompt; not a session)",
    "opencode.log": "opencode's own log (not a session)",
    "sessions.json": "a session index (Continue's, Kiro IDE's: titles and folders; each session is its own file)",
    "toolUsage.jsonl": "Continue's dev_data usage log (not a session)",
    "tokensGenerated.jsonl": "Continue's dev_data usage log (not a session)",
    "chatInteraction.jsonl": "Continue's dev_data usage log (not a session)",
    "autocomplete.jsonl": "Continue's dev_data usage log (not a session)",
    "projects.json": "Goose's project index (the last session per project folder; not a session)",
    ".settings.json": "a session's settings file (Factory Droid's <uuid>.settings.json: read beside its log, "
                      "never as a session of its own)",
    ".lock": "a lock file beside a running session (Kiro CLI's <uuid>.lock, Copilot CLI's inuse.<pid>.lock)",
}


def reason(path: str | Path) -> str | None:
    """Why the file at `path` is not read as a session, or None when it may be."""
    if is_credential_file(path):  # redact/formats/credentials.py: by name, never opened
        return CREDENTIAL
    name = os.path.basename(str(path))
    for suffix, why in AUXILIARY.items():
        if name == suffix or name.endswith(suffix):
            return why
    return None


def present(folder: Path) -> list[Path]:
    """The skipped files right in `folder`, by name (nothing is opened)."""
    try:
        names = sorted(e.name for e in os.scandir(folder) if e.is_file(follow_symlinks=False))
    except OSError:
        return []
    return [folder / name for name in names if reason(name) is not None]
