"""`agentplay-redact audit FILE [--format terminal|json|md|html] [-o OUT] [--source RAW]`: the
pre-upload report.

Exit 0 when the report was made (whatever it says: `scan` is the command that fails on findings),
2 on bad input or usage.
"""
from __future__ import annotations

import sys
from typing import Annotated

import typer

from redact.cli.common import app, choices, err, value
from redact.errors import UsageError
from redact.io.write import check_output_path, write_atomic

# audit.render.FORMATS, spelled out so that `--help` imports no renderer (tests/test_cli_help.py)
_CHOICES = ("terminal", "json", "md", "html")
ReportFormat = choices("ReportFormat", _CHOICES)


@app.command("audit")
def audit(
    file: Annotated[str, typer.Argument(help="A session map (.json or .json.gz), or - for stdin.")],
    report_format: Annotated[ReportFormat | None, typer.Option(  # type: ignore[valid-type]
        "--format", "-f", help="Report format (default: from -o's extension, else terminal).")] = None,
    output: Annotated[str | None, typer.Option("-o", "--output", help="Write the report here "
                                                  "(.json, .md or .html).")] = None,
    source: Annotated[str | None, typer.Option("--source", help="The raw log the map was made "
                                               "from: adds the scanner's taint layer.")] = None,
    policy: Annotated[str | None, typer.Option("--policy", help="The policy the map was made under "
                                               "(preset or TOML path): what it keeps on purpose is "
                                               "then not a finding, and the report names it.")] = None,
) -> None:
    """Show what would leave the machine: every string by class, drops, scanner verdicts, contentHash."""
    from audit.render import format_for_path, render
    from audit.report_of_map import audit_file

    fmt = value(report_format)
    if fmt is None:
        fmt = format_for_path(output) if output not in (None, "-") else "terminal"
    if output not in (None, "-"):
        if fmt == "terminal":
            raise UsageError("the terminal format prints to the screen; use --format json, md or html "
                             "with -o")
        check_output_path(output, [file] + ([source] if source else []))
    eff = None
    if policy is not None:
        from redact.policy.load import load_policy

        eff = load_policy(policy)
    report, session_map = audit_file(file, source_log=source, policy=eff)
    if fmt == "terminal":
        from rich.console import Console

        from audit.render.terminal import render_terminal

        render_terminal(report, session_map, Console(highlight=False, soft_wrap=False))
        return
    text = render(report, session_map, fmt)
    if output in (None, "-"):
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    write_atomic(output, text.encode("utf-8"))
    err(f"wrote {output} ({fmt} audit report)")
