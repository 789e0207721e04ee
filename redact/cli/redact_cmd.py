"""`agentplay-redact [redact] INPUT -o OUT`: the main job.

INPUT is a session map, a raw log (Claude Code transcript: its subagent transcripts are found next to
it), `-` for stdin, or a Claude Code project folder with `--out-dir` (one map per session).
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from redact import api
from redact.cli.common import app, err, load_key
from redact.detect import FORMATS
from audit.render import format_for_path, write_report
from redact.errors import LeakFound, UsageError
from redact.policy.load import load_policy


@app.command()
def redact(
    input: Annotated[str, typer.Argument(
        help="Input file, a Claude Code project folder, or - for stdin.")],
    output: Annotated[str, typer.Option(
        "-o", "--output", help="Output file (.gz compresses), - for stdout.")] = "-",
    mode: Annotated[Optional[str], typer.Option(
        "--mode", help="Path mode: relative, dirs_only or hashed.")] = None,
    key_file: Annotated[Optional[Path], typer.Option(
        "--key-file", help="Key for hashed tokens (hex, mode 0600).")] = None,
    policy: Annotated[str, typer.Option(
        "--policy", help="Preset name or policy TOML path.")] = "default",
    unsafe_key_permissions: Annotated[bool, typer.Option(
        "--unsafe-key-permissions", help="Accept a key file readable by others (unsafe).")] = False,
    input_format: Annotated[Optional[str], typer.Option(
        "--format", help="Force the input format (see `formats`); by default it is detected "
                         "from the content.")] = None,
    skip_bad_lines: Annotated[bool, typer.Option(
        "--skip-bad-lines", help="Skip lines of a raw log that are not JSON objects (a warning "
                                 "counts them) instead of failing.")] = False,
    out_dir: Annotated[Optional[Path], typer.Option(
        "--out-dir", help="With a project folder as INPUT: one <session>.json.gz map per session "
                          "here.")] = None,
    report: Annotated[Optional[Path], typer.Option(
        "--report", help="Write the audit report here (.json, .md or .html), also when the "
                         "scanner blocks the output.")] = None,
) -> None:
    """Redact INPUT under a policy and write the map (the default command)."""
    if mode is not None and mode not in ("relative", "dirs_only", "hashed"):
        raise UsageError("--mode must be relative, dirs_only or hashed")
    if input_format is not None and input_format not in FORMATS:
        raise UsageError(f"--format must be one of: {', '.join(sorted(FORMATS))}")
    eff = load_policy(policy, mode=mode)
    key = load_key(key_file, unsafe_key_permissions)
    options = dict(policy=eff, key=key, mode=mode, input_format=input_format,
                   skip_bad_lines=skip_bad_lines)
    if input != "-" and Path(input).is_dir():
        if out_dir is None:
            raise UsageError("INPUT is a folder: give --out-dir DIR for the maps (one per session)")
        if output != "-":
            raise UsageError("-o names one output file; with a folder, use --out-dir")
        _folder(input, out_dir, options)
        return
    if out_dir is not None:
        raise UsageError("--out-dir is for a folder INPUT; for one file use -o")
    if report is not None:
        format_for_path(report)  # an unsupported extension fails now, before anything is written
        api.check_output_path(report, [input, output])
    try:
        result = api.redact_file(input, output, **options)
    except LeakFound as exc:
        _print_findings(exc)
        if report is not None and exc.report is not None:
            write_report(exc.report, None, report)
            err(f"wrote the report {report}")
        raise
    if report is not None:
        write_report(result.report, result.session_map, report)
    for warning in result.report.warnings:
        err(f"warning: {warning}")
    if output != "-":
        err(f"wrote {output} ({result.report.path_mode} paths, "
            f"contentHash {result.report.content_hash[:16]})")


def _print_findings(exc: LeakFound) -> None:
    findings = getattr(exc.report, "findings", None) or []
    for finding in findings[:50]:
        err(f"finding: {finding.get('rule')} at {finding.get('pointer')} ({finding.get('excerpt', '')})")
    if len(findings) > 50:
        err(f"... and {len(findings) - 50} more (see --report)")


def _folder(folder: str, out_dir: Path, options: dict[str, object]) -> None:
    items = api.redact_folder(folder, out_dir, **options)
    if not items:
        raise UsageError("no sessions found in this folder", where=folder)
    failed = [item for item in items if item.error is not None]
    for item in items:
        if item.error is not None:
            err(f"error: {item.error.diagnostic()}")
            continue
        assert item.result is not None
        for warning in item.result.report.warnings:
            err(f"warning: {item.input.name}: {warning}")
    done = len(items) - len(failed)
    err(f"wrote {done} map(s) to {out_dir}" + (f"; {len(failed)} session(s) failed" if failed else ""))
    if failed:
        raise typer.Exit(max(item.error.exit_code for item in failed if item.error is not None))
