"""`agentplay-redact keygen PATH`."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from redact.cli.common import app, err


@app.command("keygen")
def keygen_cmd(path: Annotated[Path, typer.Argument(help="Where to write the new key.")]) -> None:
    """Write a new random 32-byte key (hex, mode 0600); refuses to overwrite."""
    from redact.keys.material import keygen

    fingerprint = keygen(path)
    err(f"wrote key {path} (fingerprint {fingerprint})")
