"""What every command shares: the typer app, stderr lines, key loading."""
from __future__ import annotations

import re
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from redact.formats.registry import input_formats
from redact.model.grammar import PATH_MODES

if TYPE_CHECKING:
    from redact.keys.material import Key

PROG = "agentplay-redact"
HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}
# Plain help (rich_markup_mode=None): typer would import rich, about a quarter of a second, for every
# `--help`; the commands that draw with rich import it when they run.
app = typer.Typer(add_completion=True, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None, context_settings=HELP_OPTIONS,
                  help="Redact coding-agent session logs into agentplay/v1 maps, and prove nothing leaked.")


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    if version:  # `main` answers a leading --version before typer starts; this lists it in --help
        from importlib.metadata import version as installed

        sys.stdout.write(f"{PROG} {installed('agentplay-redact')}\n")
        raise typer.Exit(0)


def sub_app(help: str) -> typer.Typer:
    """A command group (`policy`, `receipt`) with the same help options and plain help."""
    return typer.Typer(no_args_is_help=True, rich_markup_mode=None, context_settings=HELP_OPTIONS, help=help)


def choices(name: str, values: tuple[str, ...]) -> type[Enum]:
    """An Enum whose values are `values`: typer checks the choice and lists them in `--help`."""
    return Enum(name, [(v, v) for v in values], type=str)  # type: ignore[return-value]


Mode = choices("Mode", PATH_MODES)
InputFormat = choices("InputFormat", tuple(input_formats()))  # the registry, not detection and its readers


def value(choice: Enum | str | None) -> str | None:
    return None if choice is None else str(choice.value if isinstance(choice, Enum) else choice)


def input_format_of(new: Enum | None, old: Enum | None) -> str | None:
    """`--input-format`, or its deprecated spelling `--format` (which warns)."""
    if old is not None:
        err("warning: --format for the input format is deprecated (it names the output format of "
            "scan and audit); use --input-format")
        if new is not None and new != old:
            from redact.errors import UsageError

            raise UsageError("--input-format and its old spelling --format disagree")
    return value(new if new is not None else old)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def printable(text: str) -> str:
    """`text` with control characters written as escapes: a file name holding a newline or a
    terminal escape sequence cannot split an error into two lines or drive the terminal."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                        else f"\\u{ord(m.group()):04x}", text)


class Say:
    """`--quiet` (any command): errors only. Lines that are not errors (progress, what was written,
    warnings, summaries) are not printed; the exit code and the error lines tell the outcome."""

    quiet = False


#: The lines `--quiet` keeps: what went wrong (a finding is the reason of an exit 1).
_ERROR_LINES = ("error", "finding", "invalid", "interrupted", "internal error", "... and")


def err(line: str) -> None:
    if Say.quiet and not line.startswith(_ERROR_LINES):
        return
    sys.stderr.write(f"{PROG}: {printable(line)}\n")


def out(text: str) -> None:
    """A summary on stdout (not a command's product): not printed under `--quiet`."""
    if not Say.quiet:
        sys.stdout.write(text)
        sys.stdout.flush()


def load_key(key_file: Path | None, unsafe: bool) -> Key | None:
    from redact.keys.material import key_from_env, load_key_file

    if unsafe:
        err("warning: --unsafe-key-permissions: accepting a key file others may read")
    if key_file is not None:
        key = load_key_file(key_file, allow_unsafe_permissions=unsafe)
        key.origin = key_origin(key_file)
        return key
    return key_from_env(allow_unsafe_permissions=unsafe)


def key_origin(key_file: Path) -> str:
    """How a report names a key file: the default file by its place (`~/.config/agentplay/key`,
    `$XDG_CONFIG_HOME/agentplay/key`), any other by the flag that named it (its path could name
    the user)."""
    import os

    try:
        default = key_file.resolve() == default_key_path().resolve()
    except OSError:
        default = False
    if not default:
        return "--key-file"
    base = os.environ.get("XDG_CONFIG_HOME")
    return "$XDG_CONFIG_HOME/agentplay/key" if base and Path(base).is_absolute() else "~/.config/agentplay/key"


def key_file_or_default(key_file: Path | None) -> Path | None:
    """`--key-file`, else (no key in the environment either) the default key file when it exists,
    said on stderr; None when there is no key to use."""
    import os

    from redact.keys.material import ENV_KEY, ENV_KEY_FILE

    if key_file is not None or os.environ.get(ENV_KEY) or os.environ.get(ENV_KEY_FILE):
        return key_file
    default = default_key_path()
    if not default.is_file():
        return None
    err(f"using the key in {default} (the default place; --key-file names another)")
    return default


def default_key_path() -> Path:
    """Where a key is looked for when none is given: $XDG_CONFIG_HOME/agentplay/key, else
    ~/.config/agentplay/key (where `keygen` is shown writing it)."""
    import os

    base = os.environ.get("XDG_CONFIG_HOME")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".config"
    return root / "agentplay" / "key"


class Interrupt:
    """Whether a command said what Ctrl-C left behind (`main` then adds nothing: its own line, for
    a command that says nothing, is "nothing written")."""

    said = False


def say_interrupted(line: str) -> None:
    Interrupt.said = True
    err(line)


def map_files(args: list[str]) -> list[str]:
    """The maps named by `args`: each file as given (`-` too), and every `*.json` / `*.json.gz`
    under a folder (a release folder: `scan maps/`), in order, without its manifest `index.json`."""
    out: list[str] = []
    for arg in args:
        folder = Path(arg)
        if arg != "-" and folder.is_dir():
            found = sorted(p for pattern in ("*.json", "*.json.gz") for p in folder.rglob(pattern)
                           if p.is_file() and p.name != "index.json")
            if not found:
                from redact.errors import UsageError

                raise UsageError("no maps (*.json, *.json.gz) in this folder", where=arg)
            out.extend(str(p) for p in found)
        else:
            out.append(arg)
    return out
