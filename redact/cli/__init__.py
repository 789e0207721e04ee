"""The command line: parses flags, calls the library, renders results, maps errors to exit codes.

Exit codes: 0 success; 1 the scanner found a leak (nothing written); 2 bad input or usage (one line
on stderr, nothing written); 3 an internal error (a bug: the message names only its type).
Each command lives in its own module of this package and adds itself to `app` when imported.
"""
from __future__ import annotations

import sys

import typer

from redact.cli.common import PROG, app, err
from redact.errors import RedactError

COMMANDS = {"redact", "keygen", "policy", "formats", "verb", "scan", "audit", "receipt", "reveal", "explain"}


def _register() -> None:
    import importlib

    for module in ("redact_cmd", "keys_cmd", "policy_cmd", "verb_cmd", "scan_cmd", "audit_cmd",
                   "receipt_cmd", "reveal_cmd", "explain_cmd"):
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
    if args[:1] == ["--version"]:
        from importlib.metadata import version

        sys.stdout.write(f"{PROG} {version('agentplay-redact')}\n")
        return 0
    if args and args[0] not in COMMANDS and args[0] not in ("--help", "-h"):
        args.insert(0, "redact")
    _register()
    try:
        code = app(args=args, prog_name=PROG, standalone_mode=False)
        if code == 130:  # typer turns Ctrl-C into Exit(130), returned silently in this mode
            err("interrupted; nothing written")
        if isinstance(code, int) and not isinstance(code, bool) and code:
            return code  # a command's `raise typer.Exit(n)`, which click returns in this mode
    except RedactError as exc:
        err(f"error: {exc.diagnostic()}")
        return exc.exit_code
    except KeyboardInterrupt:
        err("interrupted; nothing written")
        return 130
    except typer.Exit as exc:
        return int(exc.exit_code or 0)
    except typer.Abort:
        err("interrupted; nothing written")
        return 130
    except Exception as exc:  # the parser's usage errors, and bugs
        if isinstance(exc, typer.TyperException) or hasattr(exc, "format_message"):
            if type(exc).__name__ == "NoArgsIsHelpError":
                return 2
            err(f"error: {exc.format_message()}")  # type: ignore[attr-defined]
            return 2
        err(f"internal error ({type(exc).__name__}); nothing written. Please report it.")
        if verbose:
            import traceback

            # places only (file, line, function): a message or a local could quote input text
            for frame in traceback.extract_tb(exc.__traceback__):
                sys.stderr.write(f"  at {frame.filename}:{frame.lineno} in {frame.name}\n")
        return 3
    return 0
