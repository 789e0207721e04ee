"""`agentplay-redact [redact] INPUT... -o OUT | --out-dir DIR`: the main job.

One INPUT (a session map, a raw log such as a Claude Code transcript, whose subagent transcripts are
found next to it, or `-` for stdin) goes to `-o OUT`. Several inputs, folders (the home `~`, or
`--all`: every agent's places; any folder: by layout, then by content; redact/formats/discover.py) and glob
patterns go to `--out-dir DIR`, one `<name>.json.gz` map each, `--jobs` at a time (default: every
core): first one line per agent found, then a progress bar, one summary table, and `index.json`
(redact/batch/manifest.py; `--json` prints it on stdout with the inputs' paths). One input that fails
does not stop the others; the exit code is the worst outcome: 3 a bug, 2 a bad input, 1 a leak
blocked a map, 0 all written; 130 when Ctrl-C stopped the batch (the maps written are complete and
stay; `--skip-existing` resumes).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from redact.cli.common import (InputFormat, Mode, app, choices, err, input_format_of, key_file_or_default, load_key,
                               value)
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
    inputs: Annotated[list[str] | None, typer.Argument(
        help="Input file, - for stdin; or several files, folders (your home folder `~`: every "
             "agent's sessions; any folder: its sessions by layout and content) and glob patterns "
             "with --out-dir.",
        show_default=False)] = None,
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
    every: Annotated[bool, typer.Option(
        "--all", help="With --out-dir and no INPUT: every session of every agent in your home "
                      "folder (as `~`).")] = False,
    skip_existing: Annotated[bool, typer.Option(
        "--skip-existing", help="With --out-dir: leave an input whose map is already there (resume "
                                "a stopped batch).")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print a machine summary on stdout: with --out-dir the batch's (index.json, with "
                       "each input's path), else the one map's (what was written, its path mode, "
                       "contentHash, policy, where the key came from, what was dropped).")] = False,
) -> None:
    """Redact INPUT under a policy and write the map (the default command)."""
    from redact.batch import run as batch
    from redact.apply.modes import check_mode
    from redact.policy.load import load_policy

    mode_name = value(mode)
    fmt = input_format_of(input_format, old_format)
    if every:
        if inputs:
            raise UsageError("--all searches your home folder: give it no INPUT (or give `~`)")
        inputs = [str(Path.home())]
    if not inputs:
        raise UsageError("give an INPUT (a file, - for stdin, a folder, a pattern), or --all with --out-dir")
    to = value(to) if isinstance(to, Enum) else to
    if out_dir is None and _one_store_of_many(inputs):
        raise UsageError("INPUT holds several sessions (a session store, or a log of several runs such as "
                         "Aider's history): give --out-dir DIR for the maps (one per session), or name one "
                         "as STORE#SESSION (a run: FILE#N)", where=inputs[0])
    _check_exists(inputs, out_dir is not None)
    key_file = key_file_or_default(key_file)  # the batch's workers load the same file
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
    if skip_existing and not _is_batch(inputs):
        raise UsageError("--skip-existing is for a batch (--out-dir DIR)")
    if as_json and not _is_batch(inputs) and output in (None, "-"):
        raise UsageError("--json prints the summary on stdout, where the map would go: name the map with -o")
    if _is_batch(inputs):
        assert out_dir is not None
        _many(inputs, out_dir, options, jobs or batch.default_jobs(),
              Batch(home=True if every else None, skip_existing=skip_existing, as_json=as_json))
    elif to == "native":
        _native(inputs[0], output, options, report, level, chain_key_file, unsafe_key_permissions)
    else:
        _one(inputs[0], output, options, report, extras, as_json=as_json)


def _check_exists(inputs: list[str], batch_out: bool) -> None:
    """An input that does not exist (and is no glob), or a glob that matches nothing, is named as
    such before any flag rule could blame -o/--out-dir for it; a leading `~` that reached us was not
    expanded by the shell. With --out-dir and several inputs, the batch lists the missing ones
    (`unusable` in index.json) and redacts the others."""
    import glob
    import os

    from redact.batch import run as batch

    if batch_out and len(inputs) > 1:
        return
    for given in inputs:
        if given == "-" or "#" in given:
            continue
        if batch.is_pattern(given):
            if not glob.glob(os.path.expanduser(given), recursive=True):
                raise UsageError("no file matches this pattern", where=given)
            continue
        path = Path(given)
        if path.exists() or path.is_symlink():  # a dangling or looping link: reading names it
            continue
        if given.startswith("~"):
            raise UsageError("no such file or folder: the shell did not expand `~` (it was quoted); write "
                             "the path without quotes or with $HOME", where=given)
        raise UsageError("no such file or folder", where=given)


def _inputs(inputs: list[str]) -> str:
    if not _is_batch(inputs):
        return ONE
    return FOLDER if len(inputs) == 1 and Path(inputs[0]).is_dir() else MANY


def _is_batch(inputs: list[str]) -> bool:
    from redact.batch import run as batch

    return len(inputs) > 1 or (inputs[0] != "-" and (Path(inputs[0]).is_dir() or batch.is_pattern(inputs[0])
                                                     or len(batch.in_store(_store(inputs[0]))) > 1))


def _store(arg: str) -> Path:
    """The path `arg` names, or the store whose `-wal` (`-shm`, `-journal`) it is."""
    from redact.io.store import store_of_side

    return store_of_side(arg) or Path(arg)


def _one_store_of_many(inputs: list[str]) -> bool:
    """One input that is a session store holding several sessions (a batch of its own)."""
    from redact.batch import run as batch

    return len(inputs) == 1 and inputs[0] != "-" and len(batch.in_store(_store(inputs[0]))) > 1


# -- one input ----------------------------------------------------------------------------------------

def _read_with(input: str) -> list[str | Path]:
    from redact.share.outputs import read_with

    return read_with(input)


@dataclass(frozen=True)
class Extras:
    """Side outputs of one map: a signed receipt and a local vault."""

    receipt: Path | None
    signing_key: Path | None
    vault: Path | None
    unsafe: bool


def key_phrase(key_source: str | None) -> str:
    """Where the run's key came from, for a summary line (never the key)."""
    return f"key from {key_source}" if key_source else "no key"


def _one(input: str, output: str, options: Options, report: Path | None,
         extras: Extras = Extras(None, None, None, False), *, as_json: bool = False) -> None:
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
    if input == "-":
        _say_out_of_reach(result)
    if result.report.fallbacks:
        rules = ", ".join(f"{name} {n}" for name, n in sorted(result.report.fallbacks.items()))
        err(f"replaced instead of refused: {sum(result.report.fallbacks.values())} name(s) the leak "
            f"scanner would flag ({rules})")
    _say_drops(result.report.drop_counts(), report=report is not None)
    if output != "-":
        err(f"wrote {output} ({result.report.path_mode} paths, "
            f"contentHash {result.report.content_hash[:16]}, {key_phrase(result.report.key_source)})")
    if as_json:
        _json_summary(output, result.report, done.wrote)


def _json_summary(output: str, report: Any, wrote: list[tuple[str, Any]]) -> None:
    """`--json` for one input: what the run did, as one JSON object on stdout (counts, names of
    settings and this run's own files; never a value of the input)."""
    import json
    import sys

    events, fields, values, records = report.drop_counts()
    body = {"command": "redact", "output": output, "wrote": {what: str(where) for what, where in wrote},
            "pathMode": report.path_mode, "contentHash": report.content_hash,
            "policy": {"name": report.policy_name, "hash": report.policy_hash},
            "keySource": report.key_source or "none", "keyFingerprint": report.key_fingerprint,
            "sourceDigest": report.source_digest, "scanner": dict(report.scanner),
            "dropped": {"events": events, "fields": fields, "values": values, "skippedRecords": records},
            "warnings": len(report.warnings)}
    sys.stdout.write(json.dumps(body, indent=2, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def _say_out_of_reach(result: Any) -> None:
    """A log read from stdin whose format reads files beside the session (Claude Code's subagent
    transcripts), and that started subagents: those files could not be found, so say so."""
    from redact.formats.registry import raw_format

    raw = raw_format(result.report.input_format or "")
    started = any(e.get("kind") == "subagent" for e in result.session_map.get("events") or ())
    if raw is not None and getattr(raw, "companions", None) and started:
        err(f"note: read from standard input, so the files a {raw.name} session keeps beside it (its "
            "subagent transcripts) were out of reach: the subagents' own work is not in the map; give "
            "the file's path to include it")


def _native(input: str, output: str, options: Options, report: Path | None, level: str | None,
            chain_key_file: Path | None, unsafe: bool) -> None:
    """`--to native`: the input's own format, every field handled by its class, scanned (by the API)."""
    from audit.render import format_for_path, write_report
    from redact import api_native
    from redact.keys.material import load_key_file

    if report is not None:
        format_for_path(report)
        check_output_path(report, [*_read_with(input), output])
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


@dataclass(frozen=True)
class Batch:
    """The batch-only flags: `--all` (home), `--skip-existing`, `--json`."""

    home: bool | None = None
    skip_existing: bool = False
    as_json: bool = False


_SKIPPED_SHOWN = 20  # skipped files named one by one on stderr; index.json lists them all


def _many(inputs: list[str], out_dir: Path, options: Options, jobs: int, flags: Batch = Batch()) -> None:
    from redact.batch import run as batch
    from redact.cli import batch_view

    pol = options.policy.policy
    planned = batch.plan_all(inputs, out_dir, options.key, pol.tokens.link_scope,
                             hash_names=pol.ids.action == "hash", skip_existing=flags.skip_existing,
                             home=flags.home)
    tasks, unusable = planned.tasks, planned.unusable
    batch_view.found(planned.survey, tasks)
    if not tasks and all(o.status == batch.SKIPPED and o.output is None for o in unusable):
        for outcome in unusable:
            _print_outcome(outcome)
        raise UsageError("no sessions found" + (" in this folder" if Path(inputs[0]).is_dir() else ""),
                         where=inputs[0])
    failing = [o for o in unusable if o.status != batch.SKIPPED]
    if not tasks and len(failing) == 1 and len(inputs) == 1 and failing[0].input == inputs[0]:
        raise UsageError(failing[0].message.split(": ", 1)[-1], where=inputs[0])
    _check_index(out_dir, planned)
    settings = batch.Settings(options.policy, options.keys, options.file_options())
    interrupted = False
    with batch_view.Progress(tasks) as progress:
        try:
            outcomes = batch.run(tasks, settings, jobs=min(jobs, max(1, len(tasks))), on_done=progress.advance,
                                 on_start=progress.start)
        except batch.Interrupted as stop:
            outcomes, interrupted = stop.done, True
    every = unusable + outcomes
    _write_index(out_dir, every, tasks, options, interrupted, flags)
    shown = 0
    for outcome in every:
        if outcome.status == batch.SKIPPED:
            shown += 1
            if shown > _SKIPPED_SHOWN:
                continue
        _print_outcome(outcome)
    if shown > _SKIPPED_SHOWN:
        err(f"... and {shown - _SKIPPED_SHOWN} more file(s) skipped ({out_dir / 'index.json'} lists them all)")
    batch_view.summary(every)
    totals = tuple(sum(o.drops[i] for o in outcomes) for i in range(4))
    _say_drops(totals, f" over {sum(1 for o in outcomes if any(o.drops))} input(s)",  # type: ignore[arg-type]
               report=False, where="redact one input alone with --report R.json to see them")
    written = sum(1 for o in outcomes if o.status == batch.WRITTEN)
    if interrupted:
        from redact.cli.common import say_interrupted

        say_interrupted(f"interrupted after {len(outcomes)} of {len(tasks)} sessions; {written} maps are "
                        f"complete in {out_dir} (index.json says which; --skip-existing resumes)")
        raise typer.Exit(130)
    skipped = sum(1 for o in every if o.status == batch.SKIPPED and o.output is None)
    kept = sum(1 for o in every if o.status == batch.SKIPPED and o.output is not None)
    failed = len(every) - written - skipped - kept
    err(f"wrote {written} map(s) to {out_dir}" + (f"; {failed} input(s) failed" if failed else "")
        + (f"; left {kept} map(s) already there (--skip-existing)" if kept else "")
        + (f"; skipped {skipped} file(s) that are not sessions" if skipped else "")
        + f"; index.json lists every input ({key_phrase(options.key.origin if options.key else None)})")
    code = batch.exit_code(every)
    if code:
        raise typer.Exit(code)


def _check_index(out_dir: Path, planned: batch.Plan) -> None:
    """The manifest is never written over an input of the batch (nor over a link)."""
    from redact.batch.manifest import INDEX

    target = out_dir / INDEX
    check_output_path(target, [t.input for t in planned.tasks] + [o.input for o in planned.unusable])


def _write_index(out_dir: Path, every: list[batch.Outcome], tasks: list[batch.Task], options: Options,
                 interrupted: bool, flags: Batch) -> None:
    import json

    from redact.io.write import write_atomic
    from redact.batch.manifest import INDEX, manifest

    doc = manifest(every, tasks, key=options.key, interrupted=interrupted)
    write_atomic(out_dir / INDEX, (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    if flags.as_json:
        import sys

        local = manifest(every, tasks, key=options.key, interrupted=interrupted, local=True)
        sys.stdout.write(json.dumps(local, indent=2, ensure_ascii=False) + "\n")
        sys.stdout.flush()


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
