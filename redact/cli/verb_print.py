"""What `verb` prints, without typer: `main` calls it directly for a plain `verb` run (start-up)."""
from __future__ import annotations

import json
import sys


def print_verbs(commands: list[str], as_json: bool) -> None:
    """The command's work, also called by `main` directly for a plain `verb` run (no typer parse)."""
    from redact.verbs import extract

    lines = commands if commands else [line.rstrip("\n") for line in sys.stdin]
    for line in lines:
        result = extract(line)
        if as_json:
            sys.stdout.write(json.dumps({"verb": result.verb, "verbs": list(result.verbs), "cat": result.cat,
                                         "verify": result.verify, "vcs": result.vcs}, sort_keys=True) + "\n")
        else:
            sys.stdout.write(f"{result.verb}\t{result.cat}\t{result.verify or '-'}\n")
    sys.stdout.flush()
