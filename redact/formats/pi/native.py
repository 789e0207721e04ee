"""Pi coding-agent sessions scrubbed in their own format (`--to native`): JSON Lines, entry for
entry (two records a write race glued on one line come out on two). Paths are placed under the
header's working directory when it is a repository (redact/formats/roots.py); an entry type the table does
not know is dropped and counted."""
from __future__ import annotations

from redact.formats.pi.keys import CWD, ENTRY_TYPES, KIND
from redact.formats.pi.native_table import TABLE
from redact.formats.roots import choose_roots
from redact.formats.typed_lines import header_cwd, scrub_typed
from redact.keys.material import Key
from redact.native.scrub import Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    cwd = header_cwd(data, name, type_key=KIND, header="session", cwd_key=CWD, glued=True)
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=choose_roots((cwd,)))
    scrubber.cwd = cwd
    return scrub_typed(data, name, scrubber, report=report, type_key=KIND, types=ENTRY_TYPES,
                       skip_bad_lines=skip_bad_lines, glued=True)
