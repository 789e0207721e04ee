"""What every command shares: the typer app, stderr lines, key loading."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from redact.keys import Key, key_from_env, load_key_file

PROG = "agentplay-redact"
app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Redact coding-agent session logs into agentplay/v1 maps, and prove nothing leaked.")


def err(line: str) -> None:
    sys.stderr.write(f"{PROG}: {line}\n")


def load_key(key_file: Optional[Path], unsafe: bool) -> Key | None:
    if unsafe:
        err("warning: --unsafe-key-permissions: accepting a key file others may read")
    if key_file is not None:
        return load_key_file(key_file, allow_unsafe_permissions=unsafe)
    return key_from_env(allow_unsafe_permissions=unsafe)
