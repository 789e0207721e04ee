"""`agentplay-redact sweep [PATH ...]`: the secrets already sitting in agents' logs; and `hook`.

    sweep [PATH ...] [--format table|json|sarif|html] [-o OUT] [--key-file K] [--jobs N]
    sweep [PATH ...] --scrub --vault NEW.vault --key-file K
    sweep --restore VAULT --key-file K
    hook install|uninstall|run AGENT ...

Exit codes: 0 nothing found (or every file restored), 1 secrets found (after a scrub too: they
still need rotating) or some file left alone, 2 bad input or usage. The report never holds a
value: classes, keyed fingerprints, files, lines (redact/sweep/).
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from redact.cli.common import app, choices, err, load_key, sub_app, value
from redact.errors import UsageError

SweepFormat = choices("SweepFormat", ("table", "json", "sarif", "html"))
hook_app = sub_app("Install the sweep's scrub as an agent's session-end hook (write-time redaction).")
app.add_typer(hook_app, name="hook")


def _key(key_file: Path | None, unsafe: bool, needed: str | None) -> tuple[object, bool]:
    from redact.keys.material import Key

    key = load_key(key_file, unsafe)
    if key is None:
        if needed:
            raise UsageError(f"{needed} needs a key (--key-file, or $AGENTPLAY_REDACT_KEY_FILE)")
        return Key(os.urandom(32), source="ephemeral"), True
    return key, False


@app.command("sweep")
def sweep_command(
    paths: Annotated[list[str] | None, typer.Argument(
        metavar="[PATH]...", help="Files, folders or patterns (default: every agent's home).")] = None,
    fmt: Annotated[SweepFormat | None, typer.Option(  # type: ignore[valid-type]
        "--format", help="Report format (default: table).")] = None,
    output: Annotated[str | None, typer.Option("-o", "--output", help="Write the report here.")] = None,
    scrub: Annotated[bool, typer.Option(
        "--scrub", help="Rewrite the logs in place with each secret replaced by its placeholder.")] = False,
    vault: Annotated[Path | None, typer.Option(
        "--vault", help="With --scrub: a new file for the sealed originals (needed by --restore).")] = None,
    restore: Annotated[Path | None, typer.Option(
        "--restore", metavar="VAULT", help="Put back the original bytes a scrub sealed in VAULT.")] = None,
    key_file: Annotated[Path | None, typer.Option(
        "--key-file", help="Keys the fingerprints; seals the vault (also $AGENTPLAY_REDACT_KEY_FILE).")] = None,
    unsafe_key_permissions: Annotated[bool, typer.Option(
        "--unsafe-key-permissions", help="Accept a key file readable by others (unsafe).")] = False,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", help="Files searched at once, each in its own process (default: 1).")] = 1,
) -> None:
    """Find the secrets in agents' logs (best effort), say what to rotate; --scrub removes them."""
    from redact.io.write import check_output_path, write_atomic
    from redact.sweep.engine import sweep
    from redact.sweep.render import render
    from redact.sweep.targets import default_roots, sweep_inputs

    if restore is not None:
        from redact.sweep.vault import restore as restore_vault

        key, _ = _key(key_file, unsafe_key_permissions, "--restore")
        done = restore_vault(restore, key)  # type: ignore[arg-type]
        left = 0
        for path, what in done:
            err(f"{path}: {what}")
            left += what.startswith("left alone")
        raise typer.Exit(1 if left else 0)
    if scrub and vault is None:
        raise UsageError("--scrub needs --vault NEW.vault (the originals are sealed there, for --restore)")
    if vault is not None and not scrub:
        raise UsageError("--vault is for --scrub")
    if vault is not None and vault.exists():
        raise UsageError("refusing to overwrite an existing file (give a new vault name)", where=str(vault))
    if jobs < 1:
        raise UsageError("--jobs must be 1 or more")
    key, ephemeral = _key(key_file, unsafe_key_permissions, "--scrub" if scrub else None)
    fmt_name = value(fmt) or "table"
    if output not in (None, "-"):
        check_output_path(output, list(paths or []))
    if not paths and not default_roots():
        raise UsageError("no agent home found in your home folder: name the folders or files to sweep")
    inputs = sweep_inputs(paths or [])
    named = set(paths or [])
    bad = [(arg, why) for arg, why in inputs.unusable if arg in named]
    if bad:  # a PATH that names nothing: bad input, before anything is read
        raise UsageError(bad[0][1], where=bad[0][0])
    result = sweep(inputs, key, ephemeral=ephemeral, scrub_to=str(vault) if scrub else None,  # type: ignore[arg-type]
                   jobs=jobs)
    text = render(result, fmt_name)
    if output in (None, "-"):
        from redact.cli.common import out

        if fmt_name in ("json", "sarif"):  # asked for a machine format: printed under --quiet too
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            out(text)
    else:
        write_atomic(output, text.encode("utf-8"), private=True)
        err(f"wrote {output}")
    found = bool(result.places)
    raise typer.Exit(1 if found or result.left_alone else 0)


@hook_app.command("install")
def hook_install(
    agent: Annotated[str, typer.Argument(help="claude-code, codex, gemini-cli, qwen-code or factory-droid.")],
    key_file: Annotated[Path, typer.Option("--key-file", help="The key the hook's scrub seals with.")],
    vault_dir: Annotated[Path, typer.Option("--vault-dir", help="Where each scrub's vault goes.")] = Path(
        "~/.local/share/agentplay-redact/sweep-vaults"),
    settings: Annotated[Path | None, typer.Option("--settings", help="The agent's settings file "
                                                  "(default: the one in your home).")] = None,
    notify: Annotated[bool, typer.Option("--notify", help="Codex only: its config.toml `notify` program "
                                         "(Codex builds before hooks.json) instead of a Stop hook.")] = False,
) -> None:
    """Add a hook that scrubs each session's log when it ends (keeps the rest; backs the file up)."""
    from redact.keys.material import load_key_file
    from redact.sweep.hooks import agent as agent_spec
    from redact.sweep.hooks import install

    agent_spec(agent)  # an agent with no hook: said first, with what to do instead
    load_key_file(key_file)  # a key the hook can use, checked now rather than at each session's end
    err(install(agent, key_file, vault_dir, settings=settings, notify=notify))


@hook_app.command("uninstall")
def hook_uninstall(
    agent: Annotated[str, typer.Argument(help="claude-code, codex, gemini-cli, qwen-code or factory-droid.")],
    settings: Annotated[Path | None, typer.Option("--settings", help="The agent's settings file.")] = None,
) -> None:
    """Remove the hook `hook install` added (nothing else changes)."""
    from redact.sweep.hooks import uninstall

    err(uninstall(agent, settings=settings))


@hook_app.command("run")
def hook_run(
    agent: Annotated[str, typer.Argument(help="The agent that called the hook.")],
    payload: Annotated[list[str] | None, typer.Argument(help="What the agent passed (Codex: one JSON).")] = None,
    key_file: Annotated[Path | None, typer.Option("--key-file")] = None,
    vault_dir: Annotated[Path, typer.Option("--vault-dir")] = Path("~/.local/share/agentplay-redact/sweep-vaults"),
) -> None:
    """What the installed hook runs: scrub the session that ended (never prints to stdout).

    The files an earlier run left alone because they changed while read are retried first; those
    this run leaves alone for that reason are kept for the next (redact/sweep/hooks.py)."""
    from redact.sweep.engine import sweep
    from redact.sweep.hooks import agent as agent_spec
    from redact.sweep.hooks import hook_targets, pending, remember_pending
    from redact.sweep.targets import sweep_inputs

    agent_spec(agent)
    key, _ = _key(key_file, False, "hook run")
    data = payload[-1] if payload else (sys.stdin.read() if not sys.stdin.isatty() else "")
    folder = vault_dir.expanduser()
    retry = pending(folder)
    files = list(dict.fromkeys(f for f in [*retry, *hook_targets(agent, data)] if Path(f).is_file()))
    if not files:
        raise typer.Exit(0)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    vault = folder / f"sweep-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}-{os.urandom(3).hex()}.vault"
    # Codex keeps appending to the rollout it just notified about: overwrite it, never rename over it;
    # so for any file the agent (or another program) still holds open
    result = sweep(sweep_inputs(files), key, scrub_to=str(vault), in_place=agent == "codex",  # type: ignore[arg-type]
                   held="in place")
    remember_pending(folder, [path for path, why in result.left_alone if "changed while" in why])
    if result.scrubbed:
        err(f"scrubbed {result.scrubbed} file(s) holding {len(result.places)} secret place(s); rotate them "
            f"(agentplay-redact sweep --key-file ... lists them); vault {vault}")
    if result.left_alone:
        err(f"{len(result.left_alone)} file(s) left alone (still being written?): retried at the next run")
    raise typer.Exit(0)
