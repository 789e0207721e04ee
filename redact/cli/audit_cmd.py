"""`agentplay-redact audit FILE... [--format terminal|json|md|html] [-o OUT] [--source RAW]`: the
pre-upload report.

One map: its whole report. Several maps, or a folder of them (a release folder: `audit maps/`):
one line per map (events, path mode, identifiers in clear, the scanner's findings) and one summary
(terminal, json or md). Exit 0 when the report was made (whatever it says: `scan` is the command
that fails on findings), 2 on bad input (a file that is not a readable map; the others are still
audited) or usage.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from redact.cli.common import app, choices, err, map_files, value
from redact.errors import UsageError
from redact.io.write import check_output_path, write_atomic

# audit.render.FORMATS, spelled out so that `--help` imports no renderer (tests/test_cli_help.py)
_CHOICES = ("terminal", "json", "md", "html")
ReportFormat = choices("ReportFormat", _CHOICES)


@app.command("audit")
def audit(
    files: Annotated[list[str], typer.Argument(help="A session map (.json or .json.gz), or - for stdin; "
                                                    "or several maps, or folders of maps.")],
    report_format: Annotated[ReportFormat | None, typer.Option(  # type: ignore[valid-type]
        "--format", "-f", help="Report format (default: from -o's extension, else terminal).")] = None,
    output: Annotated[str | None, typer.Option("-o", "--output", help="Write the report here "
                                                  "(.json, .md or .html).")] = None,
    source: Annotated[str | None, typer.Option("--source", help="The raw log the map was made "
                                               "from: adds the scanner's taint layer (refused unless "
                                               "the map's keyed sourceDigest ties it to the map).")] = None,
    key_file: Annotated[Path | None, typer.Option("--key-file", help="The key the map was made with, to "
                                                  "check --source against its sourceDigest (default: "
                                                  "$AGENTPLAY_REDACT_KEY(_FILE), else the default key "
                                                  "file).")] = None,
    untied_source: Annotated[bool, typer.Option("--untied-source", help="Use --source for a map that "
                                                "carries no sourceDigest (said on stderr).")] = False,
    policy: Annotated[str | None, typer.Option("--policy", help="The policy the map was made under "
                                               "(preset or TOML path): what it keeps on purpose is "
                                               "then not a finding, and the report names it.")] = None,
) -> None:
    """Show what would leave the machine: every string by class, drops, scanner verdicts, contentHash."""
    from audit.render import format_for_path, render
    from audit.report_of_map import audit_file

    maps = map_files(files)
    if len(maps) > 1 or (len(files) == 1 and files[0] != "-" and Path(files[0]).is_dir()):
        _many(maps, value(report_format), output, source)
        return
    file = maps[0]
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
    if source is None:
        report, session_map = audit_file(file, policy=eff)
    else:  # the map is read once (it may be standard input), then tied to its source
        from audit.report_of_map import report_of_map
        from redact.io.read import display_name, parse_json, read_input

        name = display_name(file)
        session_map = parse_json(read_input(file), name)
        log = _tied(session_map, name, source, key_file, untied_source)
        report = report_of_map(session_map, source=name, scan=True, source_log=log, policy=eff)
    if fmt == "terminal":
        from rich.console import Console

        from redact.cli.common import Say

        if Say.quiet:
            return

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


def _tied(doc: Any, name: str, source: str, key_file: Path | None, untied: bool) -> bytes:
    """The bytes of `--source` when the map's sourceDigest ties it to the map (redact/share/source_tie.py)."""
    from redact.cli.common import key_file_or_default, load_key
    from redact.share.source_tie import map_digest, tied_source

    key = load_key(key_file_or_default(key_file), False) if map_digest(doc) else None
    data = tied_source(doc, source, key, where=name, untied=untied)
    if map_digest(doc) is None:
        err(f"warning: {name}: nothing ties --source to this map (it carries no sourceDigest); "
            "its taint verdict is against a log you chose")
    return data


def _row(file: str) -> dict[str, Any]:
    """One map's line of a many-map audit: counts and verdicts, never a value."""
    from audit.report_of_map import audit_file
    from redact.errors import RedactError
    from redact.io.read import display_name

    try:
        report, _ = audit_file(file)
    except RedactError as exc:
        return {"file": display_name(file), "error": exc.diagnostic(), "exitCode": exc.exit_code}
    return {"file": display_name(file), "events": report.get("eventCount", 0), "pathMode": report.get("pathMode"),
            "identifiersInClear": sum(len(v) for v in (report.get("identifiersInClear") or {}).values()),
            "warnings": len(report.get("warnings") or ()), "findings": len(report.get("findings") or ()),
            "rules": sorted({str(f.get("rule")) for f in report.get("findings") or ()}),
            "scanner": report.get("scanner") or {}, "contentHash": report.get("contentHash")}


def _many(files: list[str], fmt: str | None, output: str | None, source: str | None) -> None:
    from audit.render import format_for_path

    if source is not None:
        raise UsageError("--source is the raw log of one map: audit that map alone")
    if fmt is None:
        fmt = format_for_path(output) if output not in (None, "-") else "terminal"
    if fmt == "html":
        raise UsageError("--format html is the report of one map; use terminal, json or md for many")
    if output not in (None, "-"):
        if fmt == "terminal":
            raise UsageError("the terminal format prints to the screen; use --format json or md with -o")
        check_output_path(output, files)
    rows = [_row(f) for f in files]
    bad = [r for r in rows if "error" in r]
    good = [r for r in rows if "error" not in r]
    summary = {"maps": len(rows), "audited": len(good), "notAudited": len(bad),
               "withFindings": sum(1 for r in good if r["findings"]),
               "events": sum(r["events"] for r in good), "findings": sum(r["findings"] for r in good),
               "identifiersInClear": sum(r["identifiersInClear"] for r in good),
               "pathModes": sorted({str(r["pathMode"]) for r in good})}
    if fmt == "json":
        text = json.dumps({"auditOf": "maps", "summary": summary, "maps": rows}, indent=2, ensure_ascii=False) + "\n"
    else:
        text = _table(rows, summary, markdown=fmt == "md")
    if output in (None, "-"):
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_atomic(output, text.encode("utf-8"))
        err(f"wrote {output} ({fmt} audit of {len(rows)} maps)")
    for r in bad:
        err(f"error: {r['error']}")
    if bad:
        raise typer.Exit(max(int(r["exitCode"]) for r in bad))


def _table(rows: list[dict[str, Any]], summary: dict[str, Any], *, markdown: bool) -> str:
    from redact.cli.common import printable

    head = ("map", "events", "paths", "ids in clear", "findings", "verdict")
    lines = []
    for r in rows:
        if "error" in r:
            cells = (printable(r["file"]), "", "", "", "", "not a readable map")
        else:
            verdict = "clean" if not r["findings"] else "findings: " + ", ".join(r["rules"])
            cells = (printable(r["file"]), str(r["events"]), str(r["pathMode"]), str(r["identifiersInClear"]),
                     str(r["findings"]), verdict)
        lines.append(cells)
    total = (f"{summary['maps']} maps", str(summary["events"]), ", ".join(summary["pathModes"]),
             str(summary["identifiersInClear"]), str(summary["findings"]),
             f"{summary['audited'] - summary['withFindings']} clean, {summary['withFindings']} with findings, "
             f"{summary['notAudited']} not audited")
    if markdown:
        out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |" for cells in [*lines, total]]
        return "\n".join(out) + "\n"
    widths = [max(len(c[i]) for c in [head, *lines, total]) for i in range(len(head))]
    fmt_line = "  ".join("{:<%d}" % w for w in widths)
    return "\n".join(fmt_line.format(*c).rstrip() for c in [head, *lines, total]) + "\n"
