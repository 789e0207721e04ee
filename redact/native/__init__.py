"""`--to native`: a raw log scrubbed in its own format. The proof is not here: `redact.api` runs it.

    out = scrub_unproven(data, "claude-code", name="session.jsonl", policy=load_policy("default"),
                         key=None, mode=None, report=RedactionReport(source="session.jsonl"))

Every field is handled by its class (DESIGN.md section 3) as the format's native table declares it
(`redact/formats/<name>/native_table.py`): text replaced by its shape, commands reduced to verbs,
paths in the path mode, identifiers by the policy, ids kept or hashed, unknown fields and record
types dropped and counted in the report. The output is not yet proven clean: `redact.api_native.scrub_native`
(and `scrub_file`) run the native leak scan (`audit/native.py`: grammar, secrets, taint against the
input, language) on it and raise `LeakFound` when it finds anything. This package never imports the
scanner (tests/test_boundaries.py); the scanner reads its declarative tables (`spec`, `grammar`,
`tables`), so the redactor's modules are imported here only when a scrub runs.
Pure: bytes in, bytes out, nothing written.
"""
from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from redact.errors import UsageError

if TYPE_CHECKING:
    from redact.keys.material import Key
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


def scrub_unproven(data: bytes, fmt: str, *, name: str, policy: EffectivePolicy, key: Key | None,
                   mode: str | None, report: RedactionReport, skip_bad_lines: bool = False,
                   **options: Any) -> bytes:
    """Scrub `data` (one raw log of format `fmt`, already gunzipped) in its own format, unscanned.

    `mode`: the path mode asked for on the command line (None: the policy's). `report` is filled in
    (path mode, key fingerprint, policy, drops, identifiers). `options` are format-specific
    (teaagent: `level`, `chain_key`). Raises UsageError for a format without native support or an
    option the format does not take, BadInput for input the format's reader would refuse. Never
    write or return this output to a user without the scan: call `redact.api_native.scrub_native`.
    """
    from redact.apply.modes import resolve_mode
    from redact.keys.linkscope import scoped_key

    scrub = _scrubber(fmt)
    accepted = inspect.signature(scrub).parameters
    given = {k: v for k, v in options.items() if v is not None}
    for option in given:
        if option not in accepted:
            raise UsageError(f"--{option.replace('_', '-')} does not apply to format {fmt}")
    report.input_format = fmt
    key = scoped_key(key, policy, data, report)
    out_mode = resolve_mode(policy, key, "relative", mode, report)
    report.path_mode = out_mode
    report.key_fingerprint = key.fingerprint() if key else None
    report.policy_name, report.policy_hash = policy.name, policy.hash()
    report.policy_keeps = policy.keeps()
    out: bytes = scrub(data, name=name, policy=policy, key=key, mode=out_mode, report=report,
                       skip_bad_lines=skip_bad_lines, **given)
    if not out.strip() and data.strip():
        from redact.formats.detect import check_forced

        check_forced(data, fmt, name)  # another format's log: bad input, not an empty output
        report.warn(f"no {fmt} record of the input was kept: the output is empty (is this the right format?)")
    return out


__all__ = ["native_formats", "scrub_unproven"]
