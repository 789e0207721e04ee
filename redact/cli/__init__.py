"""The command line: parses flags, calls the library, renders results, maps errors to exit codes.

Exit codes: 0 success; 1 the scanner found a leak (nothing written); 2 bad input or usage (one line
on stderr, nothing written); 3 an internal error (a bug: the message names only its type).
Each command lives in its own module of this package and adds itself to `app` when imported.
"""
from __future__ import annotations

import os
import sys
from typing import Any

PROG = "agentplay-redact"
# command -> the module that adds it to `app`. A run imports only its command's module (the others,
# for `--help` or completion): `verb` never loads the redactor, the scanner or the renderers.
MODULES = {"redact": "redact_cmd", "keygen": "keys_cmd", "policy": "policy_cmd", "formats": "policy_cmd",
           "verb": "verb_cmd", "scan": "scan_cmd", "audit": "audit_cmd", "receipt": "receipt_cmd",
           "reveal": "reveal_cmd", "explain": "explain_cmd",
           "sweep": "sweep_cmd", "hook": "sweep_cmd", "precommit": "precommit_cmd"}
COMMANDS = set(MODULES)
TOP_OPTIONS = ("--help", "-h", "--version", "--install-completion", "--show-completion")
#: What a first run with no arguments prints (stderr, exit 2): what to type next.
USAGE = f"""usage: {PROG} [COMMAND] INPUT... [OPTIONS]

  {PROG} session.jsonl -o map.json.gz        redact one session into a map (the default command)
  {PROG} ~ --out-dir maps/                   every session of every agent under a home folder
  {PROG} scan map.json.gz                    check a map before uploading it
  {PROG} help [COMMAND]                      every command and option
"""


#: The commands that do their whole job with no arguments (a list, the shipped policy, every agent
#: home's sweep): their bare run answers. Every other command, run bare, prints its usage and
#: NEXT_STEP (stderr, exit 2): what a new user types next.
BARE_ANSWERS = frozenset({"policy list", "policy show", "formats", "sweep"})
NEXT_STEP = {
    "redact": f"{PROG} session.jsonl -o map.json.gz",
    "keygen": f"{PROG} keygen ~/.config/agentplay/key",
    "policy check": f"{PROG} policy check my-policy.toml",
    "verb": f"{PROG} verb 'git commit -m wip'",
    "scan": f"{PROG} scan map.json.gz",
    "audit": f"{PROG} audit map.json.gz",
    "receipt keygen": f"{PROG} receipt keygen ~/.config/agentplay/receipt.pem",
    "receipt sign": f"{PROG} receipt sign map.json.gz --signing-key ~/.config/agentplay/receipt.pem",
    "receipt verify": f"{PROG} receipt verify map.json.gz map.json.gz.receipt.json --pubkey receipt.pem.pub",
    "reveal": f"{PROG} reveal map.json.gz --vault map.vault --key-file ~/.config/agentplay/key",
    "explain": f"{PROG} explain session.jsonl --field '/events/*/verb'",
    "hook install": f"{PROG} hook install claude-code --key-file ~/.config/agentplay/key",
    "hook run": f"{PROG} hook install claude-code   (an agent runs `hook run` itself)",
    "hook uninstall": f"{PROG} hook uninstall claude-code",
    "precommit": f"{PROG} precommit map.json.gz session.jsonl   (pre-commit runs it on the staged files)",
}


def _bare_usage(args: list[str]) -> str | None:
    """For a command (or subcommand) run with nothing after its name and not among BARE_ANSWERS:
    its usage line, the command to type next and where every option is listed. None otherwise."""
    import typer.main

    from redact.cli.common import app

    name = " ".join(args)
    if name in BARE_ANSWERS or name not in NEXT_STEP:
        return None
    group: Any = typer.main.get_command(app)  # typer's own click: duck-typed, not click's classes
    ctx = group.context_class(group, info_name=PROG)
    cmd: Any = group
    for word in args:
        cmd = cmd.get_command(ctx, word) if hasattr(cmd, "get_command") else None
        if cmd is None:
            return None
        ctx = cmd.context_class(cmd, info_name=word, parent=ctx)
    usage = ctx.get_usage().replace("Usage:", "usage:", 1)
    summary = cmd.get_short_help_str(limit=100) if cmd is not None else ""
    return (f"{usage}\n\n  {summary}\n\nnext, for example:\n  {NEXT_STEP[name]}\n\n"
            f"`{PROG} {name} --help` lists every option.\n")


#: Commands whose machine summary is their report in JSON: `--json` is `--format json` there.
_JSON_IS_FORMAT = ("scan", "audit", "sweep")


def _json_as_format(args: list[str]) -> list[str]:
    """`scan|audit|sweep ... --json`: the JSON report (`--format json`); refused beside another format."""
    if not args or args[0] not in _JSON_IS_FORMAT or "--json" not in args:
        return args
    rest = [a for a in args if a != "--json"]
    if any(a in ("--format", "-f") or a.startswith("--format=") for a in rest):
        return args  # typer names the clash: `--json` is no option of these commands then
    return [*rest, "--format", "json"]


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


def _listed_only(typer_app: Any) -> list[tuple[Any, Any]]:
    """For the top level's `--help`, which shows each command's name and first help line only: every
    command's callback (in `typer_app` and its groups) swapped for one without parameters, with the
    same name and help, so typer does not read each command's signature and evaluate its annotations
    (a third of `--help`'s start-up). Returns what to put back."""
    swapped = []
    for info in typer_app.registered_commands:
        if info.callback is None:
            continue
        original = info.callback

        def listed() -> None:  # pragma: no cover - never called: `--help` exits before any command
            raise AssertionError("a stand-in called")

        listed.__name__, listed.__doc__ = original.__name__, original.__doc__
        swapped.append((info, original))
        info.callback = listed
    for group in typer_app.registered_groups:
        swapped += _listed_only(group.typer_instance)
    return swapped


def main(argv: list[str] | None = None) -> int:
    """Entry point: `redact` is the default command when the first word is not a command."""
    args = list(sys.argv[1:] if argv is None else argv)
    verbose = "--verbose" in args
    if verbose:
        args.remove("--verbose")
    quiet = bool({"--quiet", "-q"} & set(args[: args.index("--")] if "--" in args else args))
    if quiet:  # every command: errors only (redact/cli/common.py, Say)
        args = [a for a in args if a not in ("--quiet", "-q")]
    args = _json_as_format(args)
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
    if args and len(args) <= 2 and (" ".join(args) in NEXT_STEP) and not (set(args) & set(TOP_OPTIONS)):
        _register(args[0])
        bare = _bare_usage(args)
        if bare is not None:  # a first run of a command: what to type next, not an error about it
            sys.stderr.write(bare)
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
    from redact.cli.common import Say

    Say.quiet = quiet

    if args and args[0] not in COMMANDS and args[0] not in TOP_OPTIONS:
        args.insert(0, "redact")
    _register(args[0] if args and args[0] in COMMANDS and not (set(args) & {"--help", "-h"}) else None)
    swapped = _listed_only(app) if args in (["--help"], ["-h"]) else []
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
    finally:
        for info, callback in swapped:  # an in-process caller's next run sees the real commands
            info.callback = callback
    return 0
