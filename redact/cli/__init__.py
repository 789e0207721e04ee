"""The command line: parses flags, calls the library, renders results, maps errors to exit codes.

Exit codes: 0 success; 1 the scanner found a leak (nothing written); 2 bad input or usage (one line
on stderr, nothing written); 3 an internal error (a bug: the message names only its type).
Each command lives in its own module of this package and adds itself to `app` when imported.
"""
from __future__ import annotations

import os
import sys

PROG = "agentplay-redact"
# command -> the module that adds it to `app`. A run imports only its command's module (the others,
# for `--help` or completion): `verb` never loads the redactor, the scanner or the renderers.
MODULES = {"redact": "redact_cmd", "keygen": "keys_cmd", "policy": "policy_cmd", "formats": "policy_cmd",
           "verb": "verb_cmd", "scan": "scan_cmd", "audit": "audit_cmd", "receipt": "receipt_cmd",
           "reveal": "reveal_cmd", "explain": "explain_cmd",
           "sweep": "sweep_cmd", "hook": "sweep_cmd"}
COMMANDS = set(MODULES)
TOP_OPTIONS = ("--help", "-h", "--version", "--install-completion", "--show-completion")
#: What a first run with no arguments prints (stderr, exit 2): what to type next.
USAGE = f"""usage: {PROG} [COMMAND] INPUT... [OPTIONS]

  {PROG} session.jsonl -o map.json.gz        redact one session into a map (the default command)
  {PROG} ~ --out-dir maps/                   every session of every agent under a home folder
  {PROG} scan map.json.gz                    check a map before uploading it
  {PROG} help [COMMAND]                      every command and option
"""


def _typo(word: str) -> str | None:
    """The command `word` was probably meant to be (`scna` -> `scan`), when it is no file either."""
    import difflib
    from pathlib import Path

    if word.startswith("-") or any(c in word for c in "*?[/\\.~") or Path(word).exists():
        return None
    close = difflib.get_close_matches(word, sorted(COMMANDS | {"help", "sweep"}), n=1, cutoff=0.7)
    return close[0] if close else None


def _register(command: str | None = None) -> None:
    import importlib

    modules = [MODULES[command]] if command in MODULES else sorted(set(MODULES.values()),
                                                                   key=list(MODULES.values()).index)
    for module in modules:
        try:
            importlib.import_module(f"redact.cli.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"redact.cli.{module}":
                raise


def main(argv: list[str] | None = None) -> int:
    """Entry point: `redact` is the default command when the first word is not a command."""
    args = list(sys.argv[1:] if argv is None else argv)
    verbose = "--verbose" in args
    if verbose:
        args.remove("--verbose")
    if not args and not any(name.endswith("_COMPLETE") for name in os.environ):  # a first run: what to type
        sys.stderr.write(USAGE)
        return 2
    if args[:1] == ["help"]:  # `help` and `help COMMAND` are `--help` and `COMMAND --help`
        args = [*args[1:2], "--help"]
    guess = _typo(args[0]) if args and args[0] not in COMMANDS else None
    if guess is not None:
        shown = args[0] if args[0].isascii() and args[0].isalnum() and len(args[0]) <= 24 else "that word"
        sys.stderr.write(f"{PROG}: error: {shown} is neither a command nor a file; did you mean "
                         f"`{PROG} {guess}`? (`{PROG} help` lists the commands)\n")
        return 2
    if args[:1] == ["--version"]:  # before typer is imported: the quickest answer
        from importlib.metadata import version

        sys.stdout.write(f"{PROG} {version('agentplay-redact')}\n")
        return 0
    if args[:1] == ["verb"] and all(a == "--json" or not a.startswith("-") for a in args[1:]):
        # the plain form, parsed here: no typer, so no pydantic import (redact/cli/verb_cmd.py)
        from redact.cli.verb_print import print_verbs

        print_verbs([a for a in args[1:] if a != "--json"], "--json" in args[1:])
        return 0
    # Each command imports what it needs when it runs (start-up time: docs/performance.md)
    import typer

    from redact.cli.coerce import install as lazy_coercion
    from redact.cli.common import Interrupt, app, err
    from redact.errors import RedactError

    lazy_coercion()  # typer's pydantic coercion only for the values that need it (start-up)

    Interrupt.said = False

    if args and args[0] not in COMMANDS and args[0] not in TOP_OPTIONS:
        args.insert(0, "redact")
    _register(args[0] if args and args[0] in COMMANDS and not (set(args) & {"--help", "-h"}) else None)
    try:
        code = app(args=args, prog_name=PROG, standalone_mode=False)
        if code == 130 and not Interrupt.said:  # typer turns Ctrl-C into Exit(130), returned
            err("interrupted; nothing written")    # silently in this mode
        if isinstance(code, int) and not isinstance(code, bool) and code:
            return code  # a command's `raise typer.Exit(n)`, which click returns in this mode
    except RedactError as exc:
        err(f"error: {exc.diagnostic()}")
        return exc.exit_code
    except KeyboardInterrupt:
        err("interrupted; nothing written")
        return 130
    except typer.Exit as exc:
        if exc.exit_code == 130 and not Interrupt.said:
            err("interrupted; nothing written")
        return int(exc.exit_code or 0)
    except typer.Abort:
        err("interrupted; nothing written")
        return 130
    except Exception as exc:  # the parser's usage errors, and bugs
        if isinstance(exc, typer.TyperException) or hasattr(exc, "format_message"):
            if type(exc).__name__ == "NoArgsIsHelpError":  # `policy`, `receipt`: their usage, not nothing
                ctx = getattr(exc, "ctx", None)
                sys.stderr.write(ctx.get_help() + "\n" if ctx is not None else USAGE)
                return 2
            err(f"error: {exc.format_message()}")
            return 2
        err(f"internal error ({type(exc).__name__}); nothing written. Please report it.")
        if verbose:
            import traceback

            # places only (file, line, function): a message or a local could quote input text
            for frame in traceback.extract_tb(exc.__traceback__):
                sys.stderr.write(f"  at {frame.filename}:{frame.lineno} in {frame.name}\n")
        return 3
    return 0
