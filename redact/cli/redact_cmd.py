"""`agentplay-redact [redact] INPUT -o OUT`: the main job."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from redact import api
from redact.cli.common import app, err, load_key
from redact.errors import UsageError
from redact.policy.load import load_policy


@app.command()
def redact(
    input: Annotated[str, typer.Argument(help="Input file, or - for stdin.")],
    output: Annotated[str, typer.Option("-o", "--output", help="Output file (.gz compresses), - for stdout.")] = "-",
    mode: Annotated[Optional[str], typer.Option("--mode", help="Path mode: relative, dirs_only or hashed.")] = None,
    key_file: Annotated[Optional[Path], typer.Option("--key-file", help="Key for hashed tokens (hex, mode 0600).")] = None,
    policy: Annotated[str, typer.Option("--policy", help="Preset name or policy TOML path.")] = "default",
    unsafe_key_permissions: Annotated[bool, typer.Option("--unsafe-key-permissions", help="Accept a key file readable by others (unsafe).")] = False,
) -> None:
    """Redact INPUT under a policy and write the map (the default command)."""
    if mode is not None and mode not in ("relative", "dirs_only", "hashed"):
        raise UsageError("--mode must be relative, dirs_only or hashed")
    eff = load_policy(policy, mode=mode)
    key = load_key(key_file, unsafe_key_permissions)
    result = api.redact_file(input, output, policy=eff, key=key, mode=mode)
    for warning in result.report.warnings:
        err(f"warning: {warning}")
    if output != "-":
        err(f"wrote {output} ({result.report.path_mode} paths, contentHash {result.report.content_hash[:16]})")
