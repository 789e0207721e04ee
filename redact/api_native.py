"""The library API for `--to native`: a raw log scrubbed in its own format, then proven.

    result = scrub_file("session.jsonl", "clean.jsonl", policy="public", key=key)
    result.data      # the scrubbed log, in the input's own format
    result.report    # RedactionReport, as for a map

`redact.native.scrub_unproven` does the scrub; the native leak scan (`audit/native.py`) runs on its
output here, before anything is written, as `redact.api.scan_output` runs on a map. These two
modules are the only places that run the scanner after a redaction (tests/test_boundaries.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from redact.blocked import blocked_message
from redact.formats.detect import MAP, detect
from redact.errors import BadInput, LeakFound, UsageError
from redact.formats.auxiliary import reason
from redact.io.read import display_name, read_input
from redact.io.write import check_output_path, encode_output, write_atomic
from redact.keys.material import Key
from redact.policy.load import EffectivePolicy, load_policy
from redact.report import RedactionReport


@dataclass
class NativeResult:
    data: bytes  # the scrubbed log, in the input's format (uncompressed)
    input_format: str
    report: RedactionReport


def scrub_native(data: bytes, fmt: str, *, name: str, policy: EffectivePolicy, key: Key | None,
                 mode: str | None, report: RedactionReport, skip_bad_lines: bool = False,
                 **options: Any) -> bytes:
    """Scrub `data` (one raw log of format `fmt`, already gunzipped) in its own format, then prove it.

    The scrub is `redact.native.scrub_unproven`; the native leak scan (`audit/native.py`) then runs
    on its output here, as `scan_output` runs on a map. `report` is filled in (path mode, key
    fingerprint, policy, drops, identifiers, the scan's verdicts and findings, and a SHA-256 of the
    output as its content hash). `options` are format-specific (teaagent: `level`, `chain_key`).
    Raises LeakFound (report attached) when the scan finds anything, UsageError for a format without
    native support, BadInput for input the format's reader would refuse. Nothing is written.
    """
    from redact.keys.material import sha256_hex
    from redact.native import scrub_unproven

    from redact.api import forget_inputs

    try:
        out = scrub_unproven(data, fmt, name=name, policy=policy, key=key, mode=mode, report=report,
                             skip_bad_lines=skip_bad_lines, **options)
        scan_native_output(out, fmt, report, source=data)
    finally:
        forget_inputs()  # no cache keeps the input's strings past its run (redact/api.py RUN_CACHES)
    report.content_hash = sha256_hex(out)
    return out


def scan_native_output(out: bytes, fmt: str, report: RedactionReport, *, source: bytes | None) -> None:
    """Run the native leak scan on `out`; record its verdicts in `report`; LeakFound on any finding."""
    from audit.native import scan_native

    kept = {cat: sorted(vals) for cat, vals in report.idents.kept.items()}
    result = scan_native(out, fmt, path_mode=report.path_mode, kept_identifiers=kept, source=source)
    report.scanner = dict(result.verdicts)
    report.findings = [f.as_dict() for f in result.findings]
    if not result.clean:
        raise LeakFound(blocked_message(len(result.findings), report.findings, what="native output"),
                        where=report.source, report=report)


def scrub_file(path: str | Path, out: str | Path | None = None, *, policy: str | EffectivePolicy = "default",
               key: Key | None = None, mode: str | None = None, input_format: str | None = None,
               skip_bad_lines: bool = False, **options: Any) -> NativeResult:
    """`--to native`: scrub the raw log at `path` (`-` for stdin) in its own format; write it to `out`
    atomically when given (gzip when the name ends in `.gz`).

    The native leak scan checks the output before anything is written (LeakFound, with the report,
    when it finds anything). `options` are format-specific (teaagent: `level`, `chain_key`); the
    flag rules of `redact.options.RunOptions` apply, so a bad combination is refused here exactly as
    the CLI refuses it. A session map is refused: it is redacted as a map (`redact_file`).
    """
    from redact.options import RunOptions

    RunOptions(to="native", mode=mode, input_format=input_format, level=options.get("level"),
               chain_key=options.get("chain_key"))
    from redact.io.store import is_sqlite, split_ref

    name = display_name(path)
    skipped = reason(path) if str(path) != "-" else None
    if skipped is not None:  # never opened: not even to detect its format
        raise BadInput(f"not a session: {skipped}; never read as a session", where=name)
    if str(path) != "-" and is_sqlite(split_ref(str(path))[0]):
        raise UsageError("--to native is not offered for a SQLite session store (it would have to be "
                         "rebuilt, never copied); redact it to maps (--to map, the default)", where=name)
    if out is not None:
        from redact.formats.discover import files_read

        # the input and the files read with it (subagent transcripts, a workspace file)
        check_output_path(out, [path, *(files_read(Path(path), input_format) if str(path) != "-" else [])])
    data = read_input(path)
    fmt = input_format or detect(data, name)
    if fmt == MAP:
        raise UsageError("--to native is for raw logs; a map is redacted as a map")
    report = RedactionReport(source=name, input_format=fmt)
    scrubbed = scrub_native(data, fmt, name=name, policy=_policy(policy, mode), key=key, mode=mode,
                            report=report, skip_bad_lines=skip_bad_lines, **options)
    if out is not None:
        write_atomic(out, encode_output(scrubbed, str(out)))
    return NativeResult(scrubbed, fmt, report)


def _policy(policy: str | EffectivePolicy, mode: str | None) -> EffectivePolicy:
    """The policy as given (the mode travels as its own option, as for maps: redact/api.py `Options`)."""
    from redact.apply.modes import check_mode

    eff = policy if isinstance(policy, EffectivePolicy) else load_policy(policy)
    check_mode(eff, mode)
    return eff
