"""The library API. The CLI is a thin adapter over these functions; tests call them directly.

    result = redact_bytes(data, policy="public", key=load_key_file(path))
    result.data      # the redacted map, serialized (uncompressed JSON, one trailing newline)
    result.report    # RedactionReport: what was dropped, hashed, kept; the contentHash

`redact_bytes` is pure: bytes and settings in, bytes and a report out, no global state, nothing
written; it is what a distributed engine calls (examples/distributed/). The process-wide caches it
uses are keyed by everything their result depends on (a verb analysis by command and vocabulary,
with the keyed hasher applied after the cache; HMAC tokens on the Key object itself), so no call
sees another's input, key or policy (tests/test_pure_api.py); and those that hold strings of the
input (`RUN_CACHES`: command lines, names, strings the secrets layer saw) are emptied when the run
ends, so no input text outlives its redaction in the process.

`redact_file` is the pipeline of one input: `Options` (the settings, checked once), `open_path`
(redact/formats/opened.py: the input opened and its format detected once, its companions found),
`redact_opened` (build or parse -> apply the policy -> content hash -> scan), then the write, never
over a file the run read. It streams a raw log from disk: the reader takes it line by line, keeping counts and
lengths, never text, and the leak scanner's taint layer searches the file on disk a chunk at a time;
memory grows with the output map, not with the log. Many inputs at once: `redact.batch.run`; a raw log
scrubbed in its own format (`--to native`): `redact.api_native`.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from redact.apply.modes import check_mode, resolve_mode
from redact.apply.walk import redact_map
from redact.blocked import PUBLIC, blocked_message, passing_command
from redact.build import build_map
from redact.errors import BadInput, LeakFound, RedactError
from redact.formats.detect import MAP, check_forced
from redact.formats.opened import Opened, open_bytes, open_path
from redact.formats.roots import hide_user_names
from redact.formats.registry import raw_format
from redact.io.read import parse_json
from redact.io.write import check_output_path, encode_output, write_atomic
from redact.keys.linkscope import scoped_key
from redact.keys.material import Key
from redact.model.canonical import content_hash
from redact.policy.load import EffectivePolicy, load_policy
from redact.report import RedactionReport


@dataclass
class Result:
    data: bytes
    session_map: dict[str, Any]
    report: RedactionReport


@dataclass(frozen=True)
class Options:
    """One run's settings, checked once when made (the flag rules of `redact/options.py`) and handed
    along whole: the effective policy (its link scope applied), the key, the path mode asked for, a
    forced input format, whether bad lines are skipped, and the reveal vault's token recorder."""

    policy: EffectivePolicy
    key: Key | None = None
    mode: str | None = None
    input_format: str | None = None
    skip_bad_lines: bool = False
    recorder: Any = None

    @classmethod
    def of(cls, policy: str | EffectivePolicy = "default", key: Key | None = None, mode: str | None = None,
           input_format: str | None = None, skip_bad_lines: bool = False, recorder: Any = None,
           link_scope: str | None = None) -> Options:
        from redact.options import RunOptions

        RunOptions(mode=mode, input_format=input_format, vault=recorder, keyed=key is not None)
        eff = (policy.with_link_scope(link_scope) if isinstance(policy, EffectivePolicy)
               else load_policy(policy, link_scope=link_scope))
        check_mode(eff, mode)
        return cls(eff, key, mode, input_format, skip_bad_lines, recorder)


def serialize(session_map: dict[str, Any]) -> bytes:
    return orjson.dumps(session_map) + b"\n"


def finish_map(session_map: dict[str, Any], report: RedactionReport) -> dict[str, Any]:
    """Add the contentHash.

    No second validation against the pydantic model: `redact_map` walks the field table compiled
    from that model and guarantees what `SessionMap.model_validate` checks (every value's JSON type,
    every enum value in its set, every required field present, each event under its kind's model),
    for a fraction of its cost on 20,000 events; tests/test_walk_validates.py holds it to that."""
    session_map["contentHash"] = content_hash(session_map)
    report.content_hash = session_map["contentHash"]
    return session_map


def build_raw(data: bytes | BinaryIO, fmt: str, *, name: str, options: Options, key: Key | None,
              report: RedactionReport, companions: list[Any] | None = None,
              file_stem: str | None = None) -> dict[str, Any]:
    """A raw log -> an unredacted-identifiers map (no text, relative paths) ready for `redact_map`.

    `data` is the log in memory, or a binary file streamed line by line.

    The output path mode is resolved first: under hashed mode, programs outside the verb vocabulary
    become keyed tokens (`<script:...>`) instead of the neutral `<script>`.
    """
    raw = raw_format(fmt)
    if raw is None:
        raise BadInput(f"format {fmt} is not supported yet", where=name)
    policy = options.policy
    out_mode = resolve_mode(policy, key, "relative", options.mode, report)
    hasher: Callable[[str], str] | None = None
    if key is not None and out_mode == "hashed":
        hasher = key.program_digest
        if options.recorder is not None:
            from redact.keys.recorder import recording_hasher

            hasher = recording_hasher(hasher, options.recorder)
    session = raw.read(data, name, report=report, companions=companions, skip_bad_lines=options.skip_bad_lines,
                       file_stem=file_stem)
    hidden = hide_user_names(session, lambda name: key.ident_token("repo", name) if key else None)
    if hidden:
        report.fallbacks["identifier:repo/home"] += hidden
    built = build_map(session, hasher=hasher, vocab=policy.vocabulary)
    if session.first_seen is None and not built["events"]:
        report.warn(NO_TIME)
    return built


#: The report's line for a log that records no time at all (a summary-only transcript): a map's
#: startedAt is required, and the epoch it holds then is a stand-in the report names, never a time.
NO_TIME = "the log records no time: startedAt is the epoch, a stand-in, not a time"


def redact_bytes(data: bytes, *, name: str = "<bytes>", policy: str | EffectivePolicy = "default",
                 key: Key | None = None, mode: str | None = None,
                 input_format: str | None = None, skip_bad_lines: bool = False,
                 companions: list[Any] | None = None, file_stem: str | None = None,
                 recorder: Any = None, link_scope: str | None = None) -> Result:
    """Redact one input held in memory (already gunzipped) under `policy`.

    A raw log (`input_format` or the detected format) is first built into a map; `companions` are
    files of the same session found next to it (Claude Code subagent transcripts). `link_scope`
    (`global`, `session`, `dataset:NAME`) overrides the policy's `tokens.link_scope`.
    """
    options = Options.of(policy, key, mode, input_format, skip_bad_lines, recorder, link_scope)
    opened = open_bytes(data, name, input_format=input_format, companions=companions, file_stem=file_stem)
    return redact_opened(opened, options)


#: The process-wide caches keyed by strings of the input (raw command lines can carry passwords):
#: scoped to one run, emptied when it ends, so no input text outlives its redaction (SECURITY.md).
#: (module, function) pairs; a module not loaded holds nothing.
RUN_CACHES = (("redact.verbs.engine", "_cached"), ("redact.verbs.engine", "_cached_argv"),
              ("redact.contract.secrets.scan", "_found"), ("redact.apply.pathguard", "_name_rule"),
              ("redact.build.outputs", "_verbs"), ("audit.render.safety", "_secret_shaped"))


def forget_inputs() -> None:
    """Empty every cache that holds strings of an input (`RUN_CACHES`)."""
    for module, name in RUN_CACHES:
        loaded = sys.modules.get(module)
        if loaded is not None:
            getattr(loaded, name).cache_clear()


def redact_opened(opened: Opened, options: Options) -> Result:
    """The pipeline of one opened input: build a map (a raw log) or parse one (a session map), apply
    the policy, add the content hash, scan. Nothing is written; LeakFound names what would pass.
    The caches that held the input's strings are emptied when it ends, whatever the outcome."""
    try:
        return _pipeline(opened, options)
    finally:
        forget_inputs()


def _pipeline(opened: Opened, options: Options) -> Result:
    report = RedactionReport(source=opened.name, input_format=opened.fmt)
    report.key_source = options.key.origin if options.key is not None else None
    key = scoped_key(options.key, options.policy, opened.source, report)
    if opened.fmt == MAP:
        data = opened.data if opened.data is not None else opened.source.read_bytes()  # type: ignore[union-attr]
        raw = parse_json(data, opened.name, parsed=opened.parsed)
    elif opened.stream is not None:  # streamed: memory grows with the map, not with the log
        with opened.stream.open("rb") as fh:
            raw = build_raw(fh, opened.fmt, name=opened.name, options=options, key=key, report=report,
                            companions=opened.companions, file_stem=opened.file_stem)
    else:
        raw = build_raw(opened.data or b"", opened.fmt, name=opened.name, options=options, key=key,
                        report=report, companions=opened.companions, file_stem=opened.file_stem)
    if opened.fmt != MAP and not raw.get("events"):
        _check_read_something(opened, opened.fmt)
    out = redact_map(raw, options.policy, key, report, explicit_mode=options.mode, recorder=options.recorder)
    if opened.fmt == MAP:
        _check_events_kept(raw, out, report, opened.name)
    if opened.fmt != MAP and opened.tied and options.key is not None:
        # the keyed digest that ties the map to this log (scan --source, receipt sign --source)
        out["sourceDigest"] = report.source_digest = options.key.source_digest(opened.source)
    out = finish_map(out, report)
    try:
        scan_output(out, report, options.policy, source=opened.source, source_format=opened.fmt)
    except LeakFound as exc:
        raise _say_what_passes(exc, report, options, opened) from None
    return Result(serialize(out), out, report)


def _say_what_passes(exc: LeakFound, report: RedactionReport, options: Options, opened: Opened) -> LeakFound:
    """`exc` with the command that would pass: the input is redacted once more under `public` with a
    throwaway key (nothing written); when that is clean, its command is named (redact/blocked.py)."""
    if options.policy.name == PUBLIC and options.key is not None:
        report.what_passes = "nothing"
        return LeakFound(blocked_message(len(report.findings), report.findings, tried_public=True),
                         where=exc.where, report=report, session_map=exc.session_map)
    trial = Options.of(PUBLIC, Key(os.urandom(32), source="<trial key>"), None, opened.fmt,
                       options.skip_bad_lines)
    try:
        _pipeline(opened, trial)
    except LeakFound:
        report.what_passes = "nothing"
        return LeakFound(blocked_message(len(report.findings), report.findings, tried_public=True),
                         where=exc.where, report=report, session_map=exc.session_map)
    except RedactError:
        return exc
    report.what_passes = "public-with-key"
    return LeakFound(blocked_message(len(report.findings), report.findings,
                                     command=passing_command(report.source)), where=exc.where, report=report,
                     session_map=exc.session_map)


def warm_up(policy: EffectivePolicy) -> None:
    """Load what every redaction needs (the scanner and its secrets layer, the verb vocabulary, the
    compiled field tables): a process that forks workers calls it first so they share it."""
    from audit.grammar import compiled_table
    from audit.scan import scan_map  # noqa: F401  (imports the secrets layer)
    from redact.verbs import default_vocabulary

    default_vocabulary()
    compiled_table()
    _ = policy.vocabulary


def _check_events_kept(raw: Any, out: dict[str, Any], report: RedactionReport, name: str) -> None:
    """A map whose every event fails (a wrong type, an unknown kind) is bad input, not an empty map."""
    given = raw.get("events") if isinstance(raw, dict) else None
    if isinstance(given, list) and given and not out.get("events"):
        reasons = ", ".join(f"{n} {reason}" for reason, n in report.dropped_events.most_common(3))
        raise BadInput(f"none of the map's {len(given)} events is valid"
                       + (f" ({reasons})" if reasons else ""), where=f"{name}#/events")


def _check_read_something(opened: Opened, fmt: str) -> None:
    """A log that gave no event under `fmt`: bad input if detection sees another format in it."""
    if opened.data is not None:
        head = opened.data
    else:
        with opened.source.open("rb") as fh:  # type: ignore[union-attr]
            head = fh.read(_HEAD)
    check_forced(head, fmt, opened.name)


def _verb_check(policy: EffectivePolicy) -> Any:
    """The vocabulary check matching the policy's extra programs (None: the shipped vocabulary)."""
    vocab = policy.vocabulary
    return None if vocab is None else vocab.is_valid_verb


def scan_output(session_map: dict[str, Any], report: RedactionReport, policy: EffectivePolicy, *,
                source: bytes | Path | None, source_format: str | None) -> None:
    """Run the leak scanner on an output before anything is written; LeakFound when it finds any.

    The report records each layer's verdict and the (masked) findings either way.
    """
    from audit.scan import scan_map

    result = scan_map(session_map, source=source, source_format=source_format,
                      kept_identifiers=report.idents.kept,
                      keep_task_names=policy.policy.text.keep_task_names,
                      keep_artifact_titles=policy.policy.text.keep_artifact_titles,
                      verb_check=_verb_check(policy))
    report.scanner = dict(result.verdicts)
    report.findings = [f.as_dict() for f in result.findings]
    if not result.clean:
        raise LeakFound(blocked_message(len(result.findings), report.findings), where=report.source,
                        report=report, session_map=session_map)


def redact_file(path: str | Path, out: str | Path | None = None, *, companions: list[Any] | None = None,
                file_stem: str | None = None, **settings: Any) -> Result:
    """Redact the file at `path` (`-` for stdin); write to `out` atomically when given.

    The pipeline, once each: the settings checked (`Options`), the input opened and its format
    detected (`redact/formats/opened.py`), the map built or parsed, the policy applied, the output
    scanned, then written - never over a file the run read (the input, a store, a companion).
    For a raw log read from a real file, the session's companion files are found next to it
    (`companions=` overrides that, `[]` turns it off).
    """
    options = Options.of(**settings)
    opened = open_path(path, input_format=options.input_format, companions=companions, file_stem=file_stem)
    if out is not None:
        check_output_path(out, opened.reads)
    result = redact_opened(opened, options)
    if out is not None:
        write_atomic(out, encode_output(result.data, str(out)))
    return result


_HEAD = 1 << 20
