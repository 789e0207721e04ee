"""`--to native`: a raw log scrubbed in its own format, proven clean before it is returned.

    out = scrub_native(data, "claude-code", name="session.jsonl", policy=load_policy("default"),
                       key=None, mode=None, report=RedactionReport(source="session.jsonl"))

Every field is handled by its class (DESIGN.md section 3) as the format's native table declares it
(`redact/formats/<name>/native_table.py`): text replaced by its shape, commands reduced to verbs,
paths in the path mode, identifiers by the policy, ids kept or hashed, unknown fields and record
types dropped and counted in the report. The output then goes through the native leak scan
(`audit/native.py`: grammar, secrets, taint against `data`, language); when it finds anything,
`LeakFound` is raised with the report and nothing is returned. Pure: bytes in, bytes out, nothing
written.
"""
from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from redact.apply import resolve_mode
from redact.errors import LeakFound, UsageError
from redact.keys import Key, sha256_hex
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def native_formats() -> tuple[str, ...]:
    """The input formats `--to native` supports: every raw format of the registry that offers it."""
    from redact.formats.registry import formats

    return tuple(fmt.name for fmt in formats() if fmt.native)


def _scrubber(fmt: str) -> Callable[..., bytes]:
    from redact.formats.registry import raw_format

    found = raw_format(fmt)
    if found is not None and not found.native:
        raise UsageError(f"--to native is not offered for format {fmt}; maps are supported (--to map)")
    if found is None:
        supported = ", ".join(native_formats())
        raise UsageError(f"--to native does not support format {fmt} (supported: {supported})")
    return found.scrubber()


def scrub_native(data: bytes, fmt: str, *, name: str, policy: EffectivePolicy, key: Key | None,
                 mode: str | None, report: RedactionReport, skip_bad_lines: bool = False,
                 **options: Any) -> bytes:
    """Scrub `data` (one raw log of format `fmt`, already gunzipped) in its own format.

    `mode`: the path mode asked for on the command line (None: the policy's). `report` is filled in
    (path mode, key fingerprint, policy, drops, identifiers, the scan's verdicts and findings, and a
    SHA-256 of the output as its content hash). `options` are format-specific (teaagent: `level`,
    `chain_key`). Raises LeakFound (report attached) when the native scan finds anything, UsageError
    for a format without native support, BadInput for input the format's reader would refuse.
    """
    scrub = _scrubber(fmt)
    accepted = inspect.signature(scrub).parameters
    given = {k: v for k, v in options.items() if v is not None}
    for option in given:
        if option not in accepted:
            raise UsageError(f"--{option.replace('_', '-')} does not apply to format {fmt}")
    report.input_format = fmt
    out_mode = resolve_mode(policy, key, "relative", mode, report)
    report.path_mode = out_mode
    report.key_fingerprint = key.fingerprint() if key else None
    report.policy_name, report.policy_hash = policy.name, policy.hash()
    out: bytes = scrub(data, name=name, policy=policy, key=key, mode=out_mode, report=report,
                              skip_bad_lines=skip_bad_lines, **given)
    if not out.strip() and data.strip():
        report.warn(f"no {fmt} record of the input was kept: the output is empty (is this the right format?)")
    check_native(out, fmt, report, source=data)
    report.content_hash = sha256_hex(out)
    return out


def check_native(out: bytes, fmt: str, report: RedactionReport, *, source: bytes | None) -> None:
    """Run the native leak scan on `out`; record its verdicts in `report`; LeakFound on any finding."""
    from audit.native import scan_native

    kept = {cat: sorted(vals) for cat, vals in report.idents.kept.items()}
    result = scan_native(out, fmt, path_mode=report.path_mode, kept_identifiers=kept, source=source)
    report.scanner = dict(result.verdicts)
    report.findings = [f.as_dict() for f in result.findings]
    if not result.clean:
        raise LeakFound(f"the leak scanner found {len(result.findings)} problem(s) in the native output; "
                        "nothing was written", where=report.source, report=report)


__all__ = ["check_native", "native_formats", "scrub_native"]
