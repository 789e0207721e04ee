"""The library API. The CLI is a thin adapter over these functions; tests call them directly.

    result = redact_bytes(data, policy="public", key=load_key_file(path))
    result.data      # the redacted map, serialized (uncompressed JSON, one trailing newline)
    result.report    # RedactionReport: what was dropped, hashed, kept; the contentHash

`redact_bytes` is pure: bytes and settings in, bytes and a report out, no global state, nothing
written; it is what a distributed engine calls (examples/distributed/). The process-wide caches it
uses are keyed by everything their result depends on (a verb analysis by command and vocabulary,
with the keyed hasher applied after the cache; HMAC tokens on the Key object itself), so no call
sees another's input, key or policy (tests/test_pure_api.py).

`redact_file` streams a raw log from disk: the reader takes it line by line, keeping counts and
lengths, never text, and the leak scanner's taint layer searches the file on disk a chunk at a time;
memory grows with the output map, not with the log. Many inputs at once: `redact.batch`; a raw log
scrubbed in its own format (`--to native`): `redact.api_native`.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable
from typing import Any, BinaryIO

import orjson

from redact.apply import redact_map
from redact.modes import resolve_mode
from redact.blocked import PUBLIC, blocked_message, passing_command
from redact.build import build_map
from redact.canonical import content_hash
from redact.detect import FORMATS, MAP, check_forced, detect
from redact.errors import BadInput, LeakFound, RedactError, UsageError
from redact.formats.auxiliary import reason
from redact.formats.registry import raw_format
from redact.io.read import GZIP_MAGIC, MAX_INPUT_BYTES, display_name, parse_json, read_input
from redact.formats.runs import run_bytes, split_run
from redact.formats.stores import export
from redact.io.store import SQLITE_HEADER, split_ref
from redact.io.write import check_output_path, encode_output, write_atomic
from redact.keys import Key
from redact.linkscope import scoped_key
from redact.policy.load import EffectivePolicy, load_policy
from redact.report import RedactionReport


@dataclass
class Result:
    data: bytes
    session_map: dict[str, Any]
    report: RedactionReport


def _policy(policy: str | EffectivePolicy, mode: str | None, link_scope: str | None = None) -> EffectivePolicy:
    if isinstance(policy, EffectivePolicy):
        return policy.with_link_scope(link_scope)
    return load_policy(policy, mode=mode, link_scope=link_scope)


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


def build_raw(data: bytes | BinaryIO, fmt: str, *, name: str, policy: EffectivePolicy, key: Key | None,
              mode: str | None, report: RedactionReport, companions: list[Any] | None = None,
              skip_bad_lines: bool = False, file_stem: str | None = None,
              recorder: Any = None) -> dict[str, Any]:
    """A raw log -> an unredacted-identifiers map (no text, relative paths) ready for `redact_map`.

    `data` is the log in memory, or a binary file streamed line by line.

    The output path mode is resolved first: under hashed mode, programs outside the verb vocabulary
    become keyed tokens (`<script:...>`) instead of the neutral `<script>`.
    """
    raw = raw_format(fmt)
    if raw is None:
        raise BadInput(f"format {fmt} is not supported yet", where=name)
    out_mode = resolve_mode(policy, key, "relative", mode, report)
    hasher: Callable[[str], str] | None = None
    if key is not None and out_mode == "hashed":
        def by_key(program: str) -> str:
            return key.ident_digest("program", program, 10)
        hasher = by_key
        if recorder is not None:
            from redact.recorder import recording_hasher

            hasher = recording_hasher(hasher, recorder)
    session = raw.read(data, name, report=report, companions=companions, skip_bad_lines=skip_bad_lines,
                       file_stem=file_stem)
    return build_map(session, hasher=hasher, vocab=policy.vocabulary)


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
    _check_map_options({"mode": mode, "input_format": input_format, "key": key, "recorder": recorder})
    return _redact(data, name=name, policy=policy, key=key, mode=mode, input_format=input_format,
                   skip_bad_lines=skip_bad_lines, companions=companions, file_stem=file_stem,
                   recorder=recorder, link_scope=link_scope)


def _redact(data: bytes | BinaryIO, *, name: str, policy: str | EffectivePolicy, key: Key | None,
            mode: str | None, input_format: str | None, skip_bad_lines: bool,
            companions: list[Any] | None, file_stem: str | None, scan: bool = True,
            recorder: Any = None, link_scope: str | None = None, parsed: Any = None) -> Result:
    eff = _policy(policy, None, link_scope)
    if input_format is not None and input_format not in FORMATS:
        raise UsageError(f"unknown format {input_format!r} (known: {', '.join(sorted(FORMATS))})")
    if not isinstance(data, bytes) and input_format is None:
        raise UsageError("a streamed input needs its format")  # pragma: no cover - internal use
    fmt = input_format or detect(data, name)  # type: ignore[arg-type]
    report = RedactionReport(source=name, input_format=fmt)
    key = scoped_key(key, eff, data, report)
    if fmt == MAP:
        if not isinstance(data, bytes):
            data = data.read()
        raw = parse_json(data, name, parsed=parsed)
    else:
        raw = build_raw(data, fmt, name=name, policy=eff, key=key, mode=mode, report=report,
                        companions=companions, skip_bad_lines=skip_bad_lines, file_stem=file_stem,
                        recorder=recorder)
        if not raw.get("events"):
            _check_read_something(data, fmt, name)
    out = redact_map(raw, eff, key, report, explicit_mode=mode, recorder=recorder)
    if fmt == MAP:
        _check_events_kept(raw, out, report, name)
    out = finish_map(out, report)
    if scan:
        # a streamed log is searched on disk by the taint layer (mapped, a chunk at a time): memory
        # holds the map, never the log
        source: bytes | Path = data if isinstance(data, bytes) else Path(data.name)
        try:
            scan_output(out, report, eff, source=source, source_format=fmt)
        except LeakFound as exc:
            raise _say_what_passes(exc, report, eff, key, source, {
                "input_format": fmt, "skip_bad_lines": skip_bad_lines, "companions": companions,
                "file_stem": file_stem}) from None
    return Result(serialize(out), out, report)


def _say_what_passes(exc: LeakFound, report: RedactionReport, policy: EffectivePolicy, key: Key | None,
                     source: bytes | Path, options: dict[str, Any]) -> LeakFound:
    """`exc` with the command that would pass: the input is redacted once more under `public` with a
    throwaway key (nothing written); when that is clean, its command is named (redact/blocked.py)."""
    if policy.name == PUBLIC and key is not None:
        report.what_passes = "nothing"
        return LeakFound(blocked_message(len(report.findings), report.findings, tried_public=True),
                         where=exc.where, report=report,
                         session_map=exc.session_map)
    trial_key = Key(os.urandom(32), source="<trial key>")
    try:
        if isinstance(source, bytes):
            _redact(source, name=report.source, policy=PUBLIC, key=trial_key, mode=None, **options)
        else:
            with source.open("rb") as fh:
                _redact(fh, name=report.source, policy=PUBLIC, key=trial_key, mode=None, **options)
    except LeakFound:
        report.what_passes = "nothing"
        return LeakFound(blocked_message(len(report.findings), report.findings, tried_public=True),
                         where=exc.where, report=report,
                         session_map=exc.session_map)
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


def _check_map_options(kwargs: dict[str, Any]) -> None:
    """The flag rules of a map (`redact.options`): a bad mode or format, a vault (`recorder`) without a key."""
    from redact.options import RunOptions

    RunOptions(mode=kwargs.get("mode"), input_format=kwargs.get("input_format"), vault=kwargs.get("recorder"),
               keyed=kwargs.get("key") is not None)


def _check_events_kept(raw: Any, out: dict[str, Any], report: RedactionReport, name: str) -> None:
    """A map whose every event fails (a wrong type, an unknown kind) is bad input, not an empty map."""
    given = raw.get("events") if isinstance(raw, dict) else None
    if isinstance(given, list) and given and not out.get("events"):
        reasons = ", ".join(f"{n} {reason}" for reason, n in report.dropped_events.most_common(3))
        raise BadInput(f"none of the map's {len(given)} events is valid"
                       + (f" ({reasons})" if reasons else ""), where=f"{name}#/events")


def _check_read_something(data: bytes | BinaryIO, fmt: str, name: str) -> None:
    """A log that gave no event under `fmt`: bad input if detection sees another format in it."""
    if isinstance(data, bytes):
        head = data
    else:
        with Path(data.name).open("rb") as fh:
            head = fh.read(_HEAD)
    check_forced(head, fmt, name)


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


def redact_file(path: str | Path, out: str | Path | None = None, **kwargs: Any) -> Result:
    """Redact the file at `path` (`-` for stdin); write to `out` atomically when given.

    For a raw log read from a real file, the session's companion files are found next to it
    (`companions=` overrides that, `[]` turns it off).
    """
    _check_map_options(kwargs)
    name = display_name(path)
    store_path, session = split_ref(path) if name != "<stdin>" else (Path(path), None)
    log_path, run = split_run(path) if name != "<stdin>" and session is None else (Path(path), None)
    if run is not None:  # one run of a log of several (Aider's history): a session of its own
        store_path = log_path
    skipped = reason(store_path) if name != "<stdin>" else None
    if skipped is not None:  # never opened: not even to detect its format
        raise BadInput(f"not a session: {skipped}; never read as a session", where=name)
    if out is not None:
        check_output_path(out, [store_path])
    stream = _plain_file(path) if session is None and run is None else None
    if run is not None:
        kwargs.update(companions=kwargs.get("companions") or [], file_stem=None)
        result = redact_bytes(run_bytes(log_path, run, where=name), name=name, **kwargs)
    elif session is not None or (stream is not None and stream[0].startswith(SQLITE_HEADER)):
        # a SQLite store: one session's rows, exported from a private read-only copy
        fmt, data = export(store_path, session, where=name, forced=kwargs.get("input_format"))
        kwargs.update(input_format=fmt, companions=[], file_stem=None)
        result = redact_bytes(data, name=name, **kwargs)
    elif stream is None:
        result = _from_bytes(read_input(path), name, path, kwargs)
    else:
        head, size = stream
        fmt = kwargs.get("input_format") or detect(head, name)
        raw = raw_format(fmt)
        if raw is None or size <= len(head) or raw.assemble(Path(path)) is not None:
            result = _from_bytes(read_input(path), name, path, kwargs)
        else:  # a raw log on disk: streamed, so memory does not grow with its text
            _companions(raw, path, kwargs)
            kwargs["input_format"] = fmt
            with Path(path).open("rb") as fh:
                result = _redact(fh, name=name, **_options(kwargs))
    if out is not None:
        # the companions were read too: the output must not replace one of them either
        check_output_path(out, [getattr(c, "path", c) for c in kwargs.get("companions") or []])
        write_atomic(out, encode_output(result.data, str(out)))
    return result


_HEAD = 1 << 20


def _plain_file(path: str | Path) -> tuple[bytes, int] | None:
    """(first MiB, size) of a regular, uncompressed file; None for stdin, gzip or anything else."""
    if str(path) == "-":
        return None
    p = Path(path)
    try:
        if not p.is_file():
            return None
        size = p.stat().st_size
        with p.open("rb") as fh:
            head = fh.read(_HEAD)
    except OSError:
        return None  # read_input reports it
    if head[:2] == GZIP_MAGIC or str(path).endswith(".gz") or size > MAX_INPUT_BYTES:
        return None
    return head, size


def _companions(raw: Any, path: str | Path, kwargs: dict[str, Any]) -> None:
    if kwargs.get("companions") is None:
        kwargs["companions"] = raw.discover(Path(path))
    kwargs.setdefault("file_stem", Path(path).name.split(".")[0])


def _options(kwargs: dict[str, Any]) -> dict[str, Any]:
    defaults: dict[str, Any] = {"policy": "default", "key": None, "mode": None, "input_format": None,
                                "skip_bad_lines": False, "companions": None, "file_stem": None,
                                "recorder": None, "link_scope": None}
    unknown = set(kwargs) - set(defaults)
    if unknown:
        raise TypeError(f"unexpected option {sorted(unknown)[0]!r}")
    return {**defaults, **kwargs}


def _from_bytes(data: bytes, name: str, path: str | Path, kwargs: dict[str, Any]) -> Result:
    parsed: list[Any] = []  # the map, when detection had to parse all of it
    if name != "<stdin>":
        fmt = kwargs.get("input_format") or detect(data, name, parsed=parsed)
        kwargs["input_format"] = fmt
        raw = raw_format(fmt)
        if raw is not None:
            whole = raw.assemble(Path(path))
            if whole is not None:  # a session spread over files: the reader (and the scanner) read all
                data = whole
                kwargs["companions"] = []
            _companions(raw, path, kwargs)
    if not parsed:
        return redact_bytes(data, name=name, **kwargs)
    _check_map_options(kwargs)  # as redact_bytes does, now the format is known
    return _redact(data, name=name, parsed=parsed[0], **_options(kwargs))


@dataclass
class FolderItem:
    input: Path
    output: Path
    result: Result | None
    error: RedactError | None


def redact_folder(folder: str | Path, out_dir: str | Path, **kwargs: Any) -> list[FolderItem]:
    """Redact every session of a project folder into `out_dir`, one `<name>.json.gz` map each.

    Sessions are independent: one that fails is reported in its item and the others still run.
    """
    folder, out_dir = Path(folder), Path(out_dir)
    fmt = kwargs.get("input_format") or "claude-code"
    raw = raw_format(fmt)
    if raw is None or not raw.has_sessions:
        raise UsageError(f"format {fmt} has no project folders; give a file", where=str(folder))
    if not out_dir.is_dir():
        raise UsageError("--out-dir is not a folder", where=str(out_dir))
    items: list[FolderItem] = []
    for session in raw.list_sessions(folder):
        target = out_dir / (session.name[: -len(".jsonl")] + ".json.gz")
        try:
            result = redact_file(session, target, **kwargs)
        except RedactError as exc:
            items.append(FolderItem(session, target, None, exc))
            continue
        items.append(FolderItem(session, target, result, None))
    return items
