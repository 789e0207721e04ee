"""`agentplay-redact [redact] INPUT... -o OUT | --out-dir DIR`: the main job.

One INPUT (a session map, a raw log such as a Claude Code transcript, whose subagent transcripts are
found next to it, or `-` for stdin) goes to `-o OUT`. Several inputs, folders (a Claude Code project
folder or projects tree, a Codex sessions tree: whatever the format registry lists) and glob
patterns go to `--out-dir DIR`, one `<name>.json.gz` map each, `--jobs` at a time (default: every
core), with a progress bar and one summary table. One input that fails does not stop the others;
the exit code is the worst outcome: 3 a bug, 2 a bad input, 1 a leak blocked a map, 0 all written.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from audit.render import format_for_path, write_report
from redact import api, batch
from redact.cli.common import app, err, load_key
from redact.detect import FORMATS
from redact.errors import LeakFound, UsageError
from redact.io.write import check_output_path
from redact.keys import Key
from redact.policy.load import EffectivePolicy, load_policy


@dataclass(frozen=True)
class Options:
    """The parsed options every path shares (`redact_file` keywords plus where the key came from)."""

    policy: EffectivePolicy
    key: Key | None
    keys: batch.KeySource
    mode: str | None
    input_format: str | None
    skip_bad_lines: bool

    def redact_kwargs(self) -> dict[str, Any]:
        return dict(policy=self.policy, key=self.key, **dict(self.file_options()))

    def file_options(self) -> tuple[tuple[str, Any], ...]:
        return (("mode", self.mode), ("input_format", self.input_format),
                ("skip_bad_lines", self.skip_bad_lines))


@app.command()
def redact(
    inputs: Annotated[list[str], typer.Argument(
        help="Input file, - for stdin; or several files, folders (a Claude Code project folder or "
             "projects tree, a Codex sessions tree) and glob patterns with --out-dir.",
        show_default=False)],
    output: Annotated[str, typer.Option(
        "-o", "--output", help="Output file for one input (.gz compresses), - for stdout.")] = "-",
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
        "--out-dir", help="With several inputs, a folder or a glob: one <name>.json.gz map per "
                          "input session here.")] = None,
    jobs: Annotated[Optional[int], typer.Option(
        "--jobs", "-j", help="With --out-dir: inputs redacted at once, each in its own process "
                             "(default: one per core).", min=1)] = None,
    report: Annotated[Optional[Path], typer.Option(
        "--report", help="Write the audit report here (.json, .md or .html), also when the "
                         "scanner blocks the output (one input only).")] = None,
    to: Annotated[str, typer.Option(
        "--to", help="map (an agentplay/v1 map) or native (the input's own format, scrubbed).")] = "map",
    level: Annotated[Optional[str], typer.Option(
        "--level", help="With --to native on a teaagent log: audit level L0, L1 or L2.")] = None,
    chain_key_file: Annotated[Optional[Path], typer.Option(
        "--chain-key-file", help="With --to native on a teaagent log: recompute chain_hmac with "
                                 "this key (else it is removed).")] = None,
    receipt: Annotated[Optional[Path], typer.Option(
        "--receipt", help="Write a signed receipt of the map here (needs --signing-key).")] = None,
    signing_key: Annotated[Optional[Path], typer.Option(
        "--signing-key", help="Ed25519 signing key for --receipt (`receipt keygen`).")] = None,
    vault: Annotated[Optional[Path], typer.Option(
        "--vault", help="Write a local, encrypted token -> name vault here (hashed mode; never "
                        "upload it).")] = None,
) -> None:
    """Redact INPUT under a policy and write the map (the default command)."""
    if mode is not None and mode not in ("relative", "dirs_only", "hashed"):
        raise UsageError("--mode must be relative, dirs_only or hashed")
    if input_format is not None and input_format not in FORMATS:
        raise UsageError(f"--format must be one of: {', '.join(sorted(FORMATS))}")
    eff = load_policy(policy, mode=mode)
    key = load_key(key_file, unsafe_key_permissions)
    options = Options(eff, key, batch.KeySource.for_loaded(key, key_file,
                                                           allow_unsafe_permissions=unsafe_key_permissions),
                      mode, input_format, skip_bad_lines)
    if to not in ("map", "native"):
        raise UsageError("--to must be map or native")
    extras = Extras(receipt, signing_key, vault, unsafe_key_permissions)
    if _is_batch(inputs):
        if to != "map" or extras.any():
            raise UsageError("--to native, --receipt and --vault are for one input")
        if out_dir is None:
            raise UsageError(_needs_out_dir(inputs))
        if output != "-":
            raise UsageError("-o names one output file; with several inputs or a folder, use --out-dir")
        if report is not None:
            raise UsageError("--report is for one input; `agentplay-redact audit MAP` reports on each map")
        _many(inputs, out_dir, options, jobs or batch.default_jobs())
        return
    if out_dir is not None:
        raise UsageError("--out-dir is for several inputs, a folder or a glob; for one file use -o")
    if to == "native":
        if extras.any():
            raise UsageError("--receipt and --vault are for maps, not --to native")
        _native(inputs[0], output, options, report, level, chain_key_file, unsafe_key_permissions)
        return
    if level is not None or chain_key_file is not None:
        raise UsageError("--level and --chain-key-file go with --to native")
    _one(inputs[0], output, options, report, extras)


def _is_batch(inputs: list[str]) -> bool:
    return len(inputs) > 1 or (inputs[0] != "-" and (Path(inputs[0]).is_dir() or batch.is_pattern(inputs[0])))


def _needs_out_dir(inputs: list[str]) -> str:
    if len(inputs) == 1 and Path(inputs[0]).is_dir():
        return "INPUT is a folder: give --out-dir DIR for the maps (one per session)"
    return "several inputs (or a glob): give --out-dir DIR for the maps (one per input)"


# -- one input ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Extras:
    """Side outputs of one map: a signed receipt and a local vault."""

    receipt: Path | None
    signing_key: Path | None
    vault: Path | None
    unsafe: bool

    def any(self) -> bool:
        return self.receipt is not None or self.signing_key is not None or self.vault is not None


def _one(input: str, output: str, options: Options, report: Path | None,
         extras: Extras = Extras(None, None, None, False)) -> None:
    if report is not None:
        format_for_path(report)  # an unsupported extension fails now, before anything is written
        check_output_path(report, [input, output])
    # Everything the side outputs need is checked and loaded before redacting: a bad flag or key
    # fails with nothing written.
    if (extras.receipt is None) != (extras.signing_key is None):
        raise UsageError("--receipt and --signing-key go together")
    signer = None
    if extras.signing_key is not None:
        from redact.keys import load_signing_key

        assert extras.receipt is not None
        check_output_path(extras.receipt, [input, output])
        signer = load_signing_key(extras.signing_key, allow_unsafe_permissions=extras.unsafe)
    recorder = None
    if extras.vault is not None:
        if options.key is None:
            raise UsageError("--vault needs a key (--key-file): the vault is encrypted under it")
        check_output_path(extras.vault, [input, output])
        from redact.recorder import TokenLog

        recorder = TokenLog()
    try:
        result = api.redact_file(input, output, recorder=recorder, **options.redact_kwargs())
    except LeakFound as exc:
        _print_findings(exc)
        if report is not None and exc.report is not None:
            write_report(exc.report, None, report)
            err(f"wrote the report {report}")
        raise
    if report is not None:
        write_report(result.report, result.session_map, report)
    if recorder is not None and extras.vault is not None and options.key is not None:
        from redact.vault import write_vault

        n = write_vault(recorder, options.key, extras.vault, content_hash=result.report.content_hash)
        err(f"wrote vault {extras.vault} ({n} tokens, mode 0600; never upload it)")
    if signer is not None and extras.receipt is not None:
        from redact.receipt import write_receipt

        write_receipt(result, signer, extras.receipt)
        err(f"wrote receipt {extras.receipt}")
    for warning in result.report.warnings:
        err(f"warning: {warning}")
    if output != "-":
        err(f"wrote {output} ({result.report.path_mode} paths, "
            f"contentHash {result.report.content_hash[:16]})")


def _native(input: str, output: str, options: Options, report: Path | None, level: str | None,
            chain_key_file: Path | None, unsafe: bool) -> None:
    """`--to native`: the input's own format, every field handled by its class, scanned."""
    from redact.detect import MAP, detect
    from redact.io.read import display_name, read_input
    from redact.io.write import encode_output, write_atomic
    from redact.keys import load_key_file
    from redact.native import scrub_native
    from redact.report import RedactionReport

    from redact.errors import BadInput
    from redact.formats.credentials import is_credential_file

    name = display_name(input)
    if input != "-" and is_credential_file(input):
        raise BadInput("a credential file (by its name): never read as a session", where=name)
    check_output_path(output, [input])
    if report is not None:
        format_for_path(report)
        check_output_path(report, [input, output])
    data = read_input(input)
    fmt = options.input_format or detect(data, name)
    if fmt == MAP:
        raise UsageError("--to native is for raw logs; a map is redacted as a map")
    # the chain key is its own file: never the redaction key from the environment
    chain_key = load_key_file(chain_key_file, allow_unsafe_permissions=unsafe) if chain_key_file else None
    rep = RedactionReport(source=name, input_format=fmt)
    try:
        out = scrub_native(data, fmt, name=name, policy=options.policy, key=options.key, mode=options.mode,
                           report=rep, skip_bad_lines=options.skip_bad_lines, level=level,
                           chain_key=chain_key)
    except LeakFound as exc:
        _print_findings(exc)
        if report is not None:
            write_report(rep, None, report)
        raise
    write_atomic(output, encode_output(out, str(output)))
    if report is not None:
        write_report(rep, None, report)
    for warning in rep.warnings:
        err(f"warning: {warning}")
    if output != "-":
        err(f"wrote {output} ({fmt}, scrubbed natively)")


def _print_findings(exc: LeakFound) -> None:
    findings = getattr(exc.report, "findings", None) or []
    for finding in findings[:50]:
        err(f"finding: {finding.get('rule')} at {finding.get('pointer')} ({finding.get('excerpt', '')})")
    if len(findings) > 50:
        err(f"... and {len(findings) - 50} more (see --report)")


# -- many inputs --------------------------------------------------------------------------------------

_FINDINGS_PER_INPUT = 5


def _many(inputs: list[str], out_dir: Path, options: Options, jobs: int) -> None:
    from redact.cli import batch_view

    tasks, unusable = batch.plan(inputs, out_dir, options.key)
    if not tasks and not unusable:
        raise UsageError("no sessions found in this folder", where=inputs[0])
    failing = [o for o in unusable if o.status != batch.SKIPPED]
    if not tasks and len(failing) == 1 and len(inputs) == 1:
        raise UsageError(failing[0].message.split(": ", 1)[-1], where=inputs[0])
    settings = batch.Settings(options.policy, options.keys, options.file_options())
    with batch_view.Progress(tasks) as progress:
        outcomes = batch.run(tasks, settings, jobs=min(jobs, max(1, len(tasks))), on_done=progress.advance,
                             on_start=progress.start)
    every = unusable + outcomes
    for outcome in every:
        _print_outcome(outcome)
    batch_view.summary(every)
    written = sum(1 for o in outcomes if o.status == batch.WRITTEN)
    skipped = sum(1 for o in every if o.status == batch.SKIPPED)
    failed = len(every) - written - skipped
    err(f"wrote {written} map(s) to {out_dir}" + (f"; {failed} input(s) failed" if failed else "")
        + (f"; skipped {skipped} file(s) that are not sessions" if skipped else ""))
    code = batch.exit_code(every)
    if code:
        raise typer.Exit(code)


def _print_outcome(outcome: batch.Outcome) -> None:
    name = Path(outcome.input).name
    for warning in outcome.warnings:
        err(f"warning: {name}: {warning}")
    if outcome.status == batch.LEAK:
        for rule, pointer, excerpt in outcome.findings[:_FINDINGS_PER_INPUT]:
            err(f"finding: {name}: {rule} at {pointer} ({excerpt})")
        if len(outcome.findings) > _FINDINGS_PER_INPUT:
            err(f"... and {len(outcome.findings) - _FINDINGS_PER_INPUT} more in {name} "
                "(redact it alone with --report)")
    if outcome.status == batch.SKIPPED:
        err(outcome.message)
    elif outcome.status != batch.WRITTEN:
        err(f"error: {outcome.message}")
