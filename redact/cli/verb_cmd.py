"""`agentplay-redact verb [COMMAND...]`: show what a shell command becomes, before it is redacted."""
from __future__ import annotations

from typing import Annotated

import typer

from redact.cli.common import app
from redact.cli.verb_print import print_verbs


# COMMAND... are the command's extra arguments, not a typed typer argument, and `main` calls
# `print_verbs` itself for a plain `verb [--json] COMMAND...`: typer 0.29 coerces parameter values
# (its own --help and completion flags included) through pydantic, whose import took a quarter of a
# second of every `verb`, the command a hook may run per shell command. docs/performance.md.
@app.command("verb", context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
             options_metavar="[--json] [COMMAND]...")
def verb_cmd(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per command.")] = False,
) -> None:
    """Print the verb, category and verify class each command becomes (never its arguments).

    Each COMMAND is one argument (quote it); with none, one command per line is read from stdin."""
    if any(arg.startswith("-") for arg in ctx.args):  # an option verb does not know is not a command
        from redact.errors import UsageError

        raise UsageError("verb takes --json and quoted commands; an unknown option is not a command "
                         "(quote the whole command: verb 'ls -la')")
    print_verbs(list(ctx.args), as_json)
