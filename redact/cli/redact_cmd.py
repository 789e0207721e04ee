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
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from redact.cli.common import InputFormat, Mode, app, choices, err, input_format_of, load_key, value
from redact.errors import LeakFound, UsageError
from redact.io.write import check_output_path
from redact.options import FOLDER, MANY, ONE, RunOptions

if TYPE_CHECKING:  # imported when a command runs: `--help` and the other commands need none of it
    from redact.batch import run as batch
    from redact.keys.material import Key
    from redact.policy.load import EffectivePolicy

To = choices("To", ("map", "native"))


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
    mode: Annotated[Mode | None, typer.Option(  # type: ignore[valid-type]
        "--mode", help="Path mode (default: the policy's).")] = None,
    key_file: Annotated[Path | None, typer.Option(
        "--key-file", help="Key for hashed tokens (hex, mode 0600).")] = None,
    policy: Annotated[str, typer.Option(
        "--policy", help="Preset name or policy TOML path.")] = "default",
    unsafe_key_permissions: Annotated[bool, typer.Option(
        "--unsafe-key-permissions", help="Accept a key file readable by others (unsafe).")] = False,
    link_scope: Annotated[str | None, typer.Option(
        "--link-scope", help="How far keyed tokens link: global (every map made with the key), "
                             "dataset:NAME (the maps of one release) or session (no two maps); "
                             "default: the policy's (public: session).")] = None,
    input_format: Annotated[InputFormat | None, typer.Option(  # type: ignore[valid-type]
        "--input-format", help="Force the input format (see `formats`); by default it is detected "
                               "from the content.")] = None,
    old_format: Annotated[InputFormat | None, typer.Option(  # type: ignore[valid-type]
        "--format", hidden=True, help="Deprecated spelling of --input-format.")] = None,
    skip_bad_lines: Annotated[bool, typer.Option(
        "--skip-bad-lines", help="Skip lines of a raw log that are not JSON objects (a warning "
                                 "counts them) instead of failing.")] = False,
    out_dir: Annotated[Path | None, typer.Option(
        "--out-dir", help="With several inputs, a folder or a glob: one <name>.json.gz map per "
                          "input session here.")] = None,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", "-j", help="With --out-dir: inputs redacted at once, each in its own process "
                             "(default: one per core).", min=1)] = None,
    report: Annotated[Path | None, typer.Option(
        "--report", help="Write the audit report here (.json, .md or .html), also when the "
                         "scanner blocks the output (one input only).")] = None,
    to: Annotated[To, typer.Option(  # type: ignore[valid-type]
        "--to", help="map: an agentplay/v1 map; native: the input's own format, scrubbed.")] = "map",
    level: Annotated[str | None, typer.Option(
        "--level", help="With --to native on a teaagent log: audit level L0, L1 or L2.")] = None,
    chain_key_file: Annotated[Path | None, typer.Option(
        "--chain-key-file", help="With --to native on a teaagent log: recompute chain_hmac with "
                                 "this key (else it is removed).")] = None,
    receipt: Annotated[Path | None, typer.Option(
        "--receipt", help="Write a signed receipt of the map here (needs --signing-key).")] = None,
    signing_key: Annotated[Path | None, typer.Option(
        "--signing-key", help="Ed25519 signing key for --receipt (`receipt keygen`).")] = None,
    vault: Annotated[Path | None, typer.Option(
        "--vault", help="Write a local, encrypted token -> name vault here (hashed mode; never "
                        "upload it).")] = None,
) -> None:
    """Redact INPUT under a policy and write the map (the default command)."""
    from redact.batch import run as batch
    from redact.apply.modes import check_mode
    from redact.policy.load import load_policy

    mode_name = value(mode)
    fmt = input_format_of(input_format, old_format)
    to = value(to) if isinstance(to, Enum) else to
    if out_dir is None and _one_store_of_many(inputs):
        raise UsageError("INPUT is a session store holding several sessions: give --out-dir DIR for the "
                         "maps (one per session), or name one as STORE#SESSION", where=inputs[0])
    _check_exists(inputs)
    key = load_key(key_file, unsafe_key_permissions)
    # every flag rule is the library's (redact/options.py): the API refuses the same combinations
    RunOptions(to=to or "map", mode=mode_name, input_format=fmt, inputs=_inputs(inputs), output=output,
               out_dir=out_dir, report=report, level=level, chain_key=chain_key_file, receipt=receipt,
               signing_key=signing_key, vault=vault, keyed=key is not None)
    eff = load_policy(policy, link_scope=link_scope)  # --mode travels as the option, not in the policy
    check_mode(eff, mode_name)
    options = Options(eff, key, batch.KeySource.for_loaded(key, key_file,
                                                           allow_unsafe_permissions=unsafe_key_permissions),
                      mode_name, fmt, skip_bad_lines)
    extras = Extras(receipt, signing_key, vault, unsafe_key_permissions)
    if _is_batch(inputs):
        assert out_dir is not None
        _many(inputs, out_dir, options, jobs or batch.default_jobs())
    elif to == "native":
        _native(inputs[0], output, options, report, level, chain_key_file, unsafe_key_permissions)
    else:
        _one(inputs[0], output, options, report, extras)


def _check_exists(inputs: list[str]) -> None:
    """A single input that does not exist (and is no glob) is named as such, before any flag rule
    could blame -o/--out-dir for it; a leading `~` that reached us was not expanded by the shell."""
    from redact.batch import run as batch

    if len(inputs) != 1 or inputs[0] == "-" or batch.is_pattern(inputs[0]) or "#" in inputs[0]:
        return
    path = Path(inputs[0])
    if path.exists():
        return
    if inputs[0].startswith("~"):
        raise UsageError("no such file or folder: the shell did not expand `~` (it was quoted); write "
                         "the path without quotes or with $HOME", where=inputs[0])
    raise UsageError("no such file or folder", where=inputs[0])


def _inputs(inputs: list[str]) -> str:
    if not _is_batch(inputs):
        return ONE
    return FOLDER if len(inputs) == 1 and Path(inputs[0]).is_dir() else MANY


def _is_batch(inputs: list[str]) -> bool:
    from redact.batch import run as batch

    return len(inputs) > 1 or (inputs[0] != "-" and (Path(inputs[0]).is_dir() or batch.is_pattern(inputs[0])
                                                     or len(batch.in_store(Path(inputs[0]))) > 1))


def _one_store_of_many(inputs: list[str]) -> bool:
    """One input that is a session store holding several sessions (a batch of its own)."""
    from redact.batch import run as batch

    return len(inputs) == 1 and inputs[0] != "-" and len(batch.in_store(Path(inputs[0]))) > 1


# -- one input ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Extras:
    """Side outputs of one map: a signed receipt and a local vault."""

    receipt: Path | None
    signing_key: Path | None
    vault: Path | None
    unsafe: bool


def _one(input: str, output: str, options: Options, report: Path | None,
         extras: Extras = Extras(None, None, None, False)) -> None:
    from redact.share.outputs import Outputs, redact_with_outputs

    outputs = Outputs(report=report, receipt=extras.receipt, signing_key=extras.signing_key, vault=extras.vault,
                      unsafe_key_permissions=extras.unsafe)
    try:
        done = redact_with_outputs(input, output, outputs, **options.redact_kwargs())
    except LeakFound as exc:
        _print_findings(exc)
        if report is not None and exc.report is not None:
            err(f"wrote the report {report}")
        raise
    result = done.result
    for what, where in done.wrote:
        if what == "vault":
            err(f"wrote vault {where} ({done.vault_tokens} tokens, mode 0600; never upload it)")
        elif what == "receipt":
            err(f"wrote receipt {where}")
    for warning in result.report.warnings:
        err(f"warning: {warning}")
    if result.report.fallbacks:
        rules = ", ".join(f"{name} {n}" for name, n in sorted(result.report.fallbacks.items()))
        err(f"replaced instead of refused: {sum(result.report.fallbacks.values())} name(s) the leak "
            f"scanner would flag ({rules})")
    _say_drops(result.report.drop_counts(), report=report is not None)
    if output != "-":
        err(f"wrote {output} ({result.report.path_mode} paths, "
            f"contentHash {result.report.content_hash[:16]})")


def _native(input: str, output: str, options: Options, report: Path | None, level: str | None,
            chain_key_file: Path | None, unsafe: bool) -> None:
    """`--to native`: the input's own format, every field handled by its class, scanned (by the API)."""
    from audit.render import format_for_path, write_report
    from redact import api_native
    from redact.keys.material import load_key_file

    if report is not None:
        format_for_path(report)
        check_output_path(report, [input, output])
    # the chain key is its own file: never the redaction key from the environment
    chain_key = load_key_file(chain_key_file, allow_unsafe_permissions=unsafe) if chain_key_file else None
    try:
        result = api_native.scrub_file(input, output, policy=options.policy, key=options.key,
                                       mode=options.mode, input_format=options.input_format,
                                       skip_bad_lines=options.skip_bad_lines, level=level, chain_key=chain_key)
    except LeakFound as exc:
        _print_findings(exc)
        if report is not None and exc.report is not None:
            write_report(exc.report, None, report)
        raise
    if report is not None:
        write_report(result.report, None, report)
    for warning in result.report.warnings:
        err(f"warning: {warning}")
    _say_drops(result.report.drop_counts(), report=report is not None)
    if output != "-":
        err(f"wrote {output} ({result.input_format}, scrubbed natively)")


_NO_REPORT = "add --report R.json to see them"


def _say_drops(counts: tuple[int, int, int, int], of: str = "", *, report: bool = True,
               where: str = _NO_REPORT) -> None:
    """The drop line; it points at the audit report only when one was asked for."""
    from redact.report import drop_line

    line = drop_line(counts, where="the audit report" if report else where)
    if line is not None:
        err(f"{line}{of}")


def _print_findings(exc: LeakFound) -> None:
    findings = getattr(exc.report, "findings", None) or []
    for finding in findings[:50]:
        err(f"finding: {finding.get('rule')} at {finding.get('pointer')} ({finding.get('excerpt', '')})")
    if len(findings) > 50:
        err(f"... and {len(findings) - 50} more (see --report)")


# -- many inputs --------------------------------------------------------------------------------------

_FINDINGS_PER_INPUT = 5


def _many(inputs: list[str], out_dir: Path, options: Options, jobs: int) -> None:
    from redact.batch import run as batch
    from redact.cli import batch_view

    tasks, unusable = batch.plan(inputs, out_dir, options.key, options.policy.policy.tokens.link_scope)
    if not tasks and all(o.status == batch.SKIPPED for o in unusable):
        for outcome in unusable:
            _print_outcome(outcome)
        raise UsageError("no sessions found" + (" in this folder" if Path(inputs[0]).is_dir() else ""),
                         where=inputs[0])
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
    totals = tuple(sum(o.drops[i] for o in outcomes) for i in range(4))
    _say_drops(totals, f" over {sum(1 for o in outcomes if any(o.drops))} input(s)",  # type: ignore[arg-type]
               report=False, where="redact one input alone with --report R.json to see them")
    written = sum(1 for o in outcomes if o.status == batch.WRITTEN)
    skipped = sum(1 for o in every if o.status == batch.SKIPPED)
    failed = len(every) - written - skipped
    err(f"wrote {written} map(s) to {out_dir}" + (f"; {failed} input(s) failed" if failed else "")
        + (f"; skipped {skipped} file(s) that are not sessions" if skipped else ""))
    code = batch.exit_code(every)
    if code:
        raise typer.Exit(code)


def _print_outcome(outcome: batch.Outcome) -> None:
    from redact.batch import run as batch

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
