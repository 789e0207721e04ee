"""GitHub Copilot CLI event logs scrubbed in their own format (`--to native`): JSON Lines, event for
event. The repository root is the session's git root (or working directory) from `session.start`;
an event type the table does not know is dropped and counted.
"""
from __future__ import annotations

from typing import Any


from redact.formats.copilot_cli.keys import CONTEXT, CWD, DATA, GIT_ROOT, KIND
from redact.formats.copilot_cli.native_table import DATA as EVENTS
from redact.formats.copilot_cli.native_table import TABLE
from redact.formats.copilot_cli.reader import _name
from redact.formats.jsonl import LineStats, iter_objects, rewrite_lines
from redact.keys.material import Key
from redact.native.scrub import Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport
from redact.formats.roots import choose_roots


def _root(data: bytes, name: str) -> tuple[str | None, str | None]:
    """(git root, working directory) of the session, from its first `session.start` or `session.resume`."""
    for n, (_, record) in enumerate(iter_objects(data, name, skip_bad_lines=True, stats=LineStats())):
        payload = record.get(DATA)
        ctx: Any = payload.get(CONTEXT) if isinstance(payload, dict) else None
        if isinstance(ctx, dict):
            root, cwd = ctx.get(GIT_ROOT), ctx.get(CWD)
            return (root if isinstance(root, str) and root else None), (cwd if isinstance(cwd, str) and cwd else None)
        if n > 50:
            break
    return None, None


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    root, cwd = _root(data, name)
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report,
                        roots=choose_roots((root or cwd,)))
    scrubber.cwd = cwd
    def each(record: dict[str, Any]) -> Any:
        kind = record.get(KIND)
        if not isinstance(kind, str) or kind not in EVENTS:
            report.skipped_records[_name(kind) if isinstance(kind, str) else "<no type>"] += 1
            return None
        return scrubber.record(record)

    return rewrite_lines(data, name, each, report=report, skip_bad_lines=skip_bad_lines)
