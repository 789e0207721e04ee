"""`agentplay-redact policy list|show|check` and `formats`."""
from __future__ import annotations

import json
from typing import Annotated

import typer

from redact.cli.common import app, sub_app

policy_app = sub_app("List, show and check policies.")
app.add_typer(policy_app, name="policy")


@app.command("formats")
def formats_cmd(
    homes: Annotated[bool, typer.Option(
        "--homes", help="Only where each agent keeps its sessions: one `format<TAB>place` line each.")] = False,
) -> None:
    """List the input formats this tool reads, and where each agent keeps its sessions (what
    `agentplay-redact ~` searches)."""
    from redact.formats.registry import input_formats, raw_format

    for name, what in input_formats().items():
        raw = raw_format(name)
        places = raw.homes if raw is not None else ()
        if homes:
            for place in places:
                typer.echo(f"{name}\t{place}")
            continue
        typer.echo(f"{name}\t{what}")
        for place in places:
            typer.echo(f"\t  sessions in {place}")


@policy_app.command("list")
def policy_list() -> None:
    """List the shipped presets."""
    from redact.policy.load import list_presets, load_policy

    for name in list_presets():
        eff = load_policy(name)
        typer.echo(f"{name}\t{eff.policy.paths.mode}\t{eff.policy.description}")


@policy_app.command("show")
def policy_show(name: Annotated[str, typer.Argument(help="Preset name or TOML path.")] = "default") -> None:
    """Print the effective policy (after `extends`) as JSON, with its hash."""
    from redact.policy.load import load_policy

    eff = load_policy(name)
    typer.echo(json.dumps({"policy": eff.as_dict(), "hash": eff.hash()}, indent=2, sort_keys=True))


@policy_app.command("check")
def policy_check(path: Annotated[str, typer.Argument(help="Policy TOML path or preset name.")]) -> None:
    """Validate a policy file; exit 2 naming the bad key when it is invalid."""
    from redact.policy.load import load_policy

    eff = load_policy(path)
    typer.echo(f"ok: {eff.name} (hash {eff.hash()[:16]})")
