"""Agent session-record streams (seed 002) scrubbed in their own format (`--to native`).

The repository roots are the header's `workspace.roots[].path` (as the reader takes them); each root
path itself becomes `.` (or a bucket label when it is no repository). After the table has done its
work, the header says so: `contentLevel` lowered to what was kept, `producer.lossy` extended with what
this tool removed.
"""
from __future__ import annotations

from typing import Any


from redact.formats.common import label
from redact.formats.jsonl import LineStats, iter_objects, rewrite_lines
from redact.keys.material import Key
from redact.native.scrub import Scrubber
from redact.tables.spec import Switch
from redact.formats.session_record.keys import (
    CONTENT_LEVEL, LOSSY, PRODUCER, ROOT_PATH, ROOT_VCS, ROOTS, TYPE, WORKSPACE,
)
from redact.formats.session_record.native_table import (
    CONTENT_LEVELS, LOSSY_ADDED, NATIVE_LEVEL, RECORD, TABLE,
)
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport
from redact.formats.roots import choose_roots


def _roots(data: bytes, name: str) -> tuple[str, ...]:
    for _, record in iter_objects(data, name, skip_bad_lines=True, stats=LineStats()):
        if record.get(TYPE) != "session":
            return ()
        workspace = record.get(WORKSPACE)
        roots = workspace.get(ROOTS) if isinstance(workspace, dict) else None
        found: list[str] = []
        for root in roots if isinstance(roots, list) else []:
            path = root.get(ROOT_PATH) if isinstance(root, dict) else None
            vcs = root.get(ROOT_VCS) if isinstance(root, dict) else None
            if isinstance(path, str) and path:
                git = isinstance(vcs, dict) and bool(vcs)
                found += [r for r in choose_roots((path,), git=git) if r not in found]
        return tuple(found)
    return ()


def lowered(level: object) -> str:
    """The content level of the native output: the input's when it was lower, else NATIVE_LEVEL."""
    if isinstance(level, str) and level in CONTENT_LEVELS and \
            CONTENT_LEVELS.index(level) < CONTENT_LEVELS.index(NATIVE_LEVEL):
        return level
    return NATIVE_LEVEL


def _declare(header: dict[str, Any], source: dict[str, Any]) -> None:
    header[CONTENT_LEVEL] = lowered(source.get(CONTENT_LEVEL))
    producer = header.get(PRODUCER)
    producer = producer if isinstance(producer, dict) else {}
    lossy: list[Any] = producer[LOSSY] if isinstance(producer.get(LOSSY), list) else []
    producer[LOSSY] = lossy + [item for item in LOSSY_ADDED if item not in lossy]
    header[PRODUCER] = producer


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=_roots(data, name))
    assert isinstance(RECORD, Switch)
    def each(record: dict[str, Any]) -> Any:
        kind = record.get(TYPE)
        if not isinstance(kind, str) or kind not in RECORD.cases:
            report.skipped_records[label(kind) if isinstance(kind, str) else "<no type>"] += 1
            return None
        scrubbed = scrubber.record(record)
        if scrubbed is not None and kind == "session":
            _declare(scrubbed, record)
        return scrubbed

    return rewrite_lines(data, name, each, report=report, skip_bad_lines=skip_bad_lines)
