"""What every command shares: the typer app, stderr lines, key loading."""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Optional

import typer

from redact.keys import Key, key_from_env, load_key_file

PROG = "agentplay-redact"
app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Redact coding-agent session logs into agentplay/v1 maps, and prove nothing leaked.")


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def printable(text: str) -> str:
    """`text` with control characters written as escapes: a file name holding a newline or a
    terminal escape sequence cannot split an error into two lines or drive the terminal."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                        else f"\\u{ord(m.group()):04x}", text)


def err(line: str) -> None:
    sys.stderr.write(f"{PROG}: {printable(line)}\n")


def load_key(key_file: Optional[Path], unsafe: bool) -> Key | None:
    if unsafe:
        err("warning: --unsafe-key-permissions: accepting a key file others may read")
    if key_file is not None:
        return load_key_file(key_file, allow_unsafe_permissions=unsafe)
    return key_from_env(allow_unsafe_permissions=unsafe)
