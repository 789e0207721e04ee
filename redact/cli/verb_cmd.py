"""`agentplay-redact verb [COMMAND...]`: show what a shell command becomes, before it is redacted."""
from __future__ import annotations

import json
import sys
from typing import Annotated, Optional

import typer

from redact.cli.common import app
from redact.verbs import extract


@app.command("verb")
def verb_cmd(
    commands: Annotated[Optional[list[str]], typer.Argument(help="Commands (each one argument); none: one per line on stdin.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per command.")] = False,
) -> None:
    """Print the verb, category and verify class each command becomes (never its arguments)."""
    lines = commands if commands else [line.rstrip("\n") for line in sys.stdin]
    for line in lines:
        result = extract(line)
        if as_json:
            typer.echo(json.dumps({"verb": result.verb, "verbs": list(result.verbs), "cat": result.cat,
                                   "verify": result.verify, "vcs": result.vcs}, sort_keys=True))
        else:
            typer.echo(f"{result.verb}\t{result.cat}\t{result.verify or '-'}")
