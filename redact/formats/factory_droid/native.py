"""Factory Droid sessions scrubbed in their own format (`--to native`): JSON Lines, line for line. The
repository root is the session's working directory from its `session_start` (on evidence, as the
reader decides); a record type the table does not know is dropped and counted. The settings file
beside the log is not part of the output."""
from __future__ import annotations

from redact.formats.factory_droid.keys import CWD, KIND, RECORD_TYPES
from redact.formats.factory_droid.native_table import TABLE
from redact.formats.roots import choose_roots
from redact.formats.typed_lines import header_cwd, scrub_typed
from redact.keys.material import Key
from redact.native.scrub import Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    cwd = header_cwd(data, name, type_key=KIND, header="session_start", cwd_key=CWD)
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=choose_roots((cwd,)))
    scrubber.cwd = cwd
    return scrub_typed(data, name, scrubber, report=report, type_key=KIND, types=RECORD_TYPES,
                       skip_bad_lines=skip_bad_lines)
