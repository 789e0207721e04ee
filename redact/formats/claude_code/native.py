"""Claude Code transcripts scrubbed in their own format (`--to native`).

Every record keeps its place; a record type the table does not know is dropped and counted by name
(`redact/formats/common.label`). The repository roots come from the transcript's working
directory, exactly as the reader finds them (`roots_of`), so a path inside the repository becomes
repo-relative (then the path mode applies) and a path outside it becomes a bucket label. One file is
one output: a session's subagent transcripts are scrubbed as inputs of their own.
"""
from __future__ import annotations

import re
from typing import Any


from redact.formats.claude_code.files import roots_of
from redact.formats.claude_code.keys import CWD, GIT_BRANCH, IS_SIDECHAIN, ORIGINAL_CWD, TYPE
from redact.formats.common import label
from redact.formats.jsonl import LineStats, iter_objects, rewrite_lines
from redact.formats.wording import EXIT_CODE
from redact.keys.material import Key
from redact.native.scrub import Scrubber
from redact.tables.spec import Switch
from redact.formats.claude_code.native_table import TABLE
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport

_EXIT = re.compile(EXIT_CODE)
_HEAD_RECORDS = 200


def _working_dirs(data: bytes, name: str) -> tuple[str | None, str | None]:
    """(cwd, originalCwd) of the session, as the reader takes them: from its first main-lane
    message; failing that, from the first record that has one."""
    fallback: tuple[str | None, str | None] = (None, None)
    stats = LineStats()
    for n, (_, record) in enumerate(iter_objects(data, name, skip_bad_lines=True, stats=stats)):
        cwd = record.get(CWD)
        if not isinstance(cwd, str):
            if n >= _HEAD_RECORDS and fallback[0] is not None:
                break
            continue
        original = record.get(ORIGINAL_CWD)
        pair = (cwd, original if isinstance(original, str) else None)
        if record.get(TYPE) in ("user", "assistant") and record.get(IS_SIDECHAIN) is not True:
            return pair
        if fallback[0] is None:
            fallback = pair
        if n >= _HEAD_RECORDS:
            break
    return fallback


def _git_branch(data: bytes, name: str) -> bool:
    """Whether one of the first records names a git branch, as the reader's evidence of git."""
    for n, (_, record) in enumerate(iter_objects(data, name, skip_bad_lines=True, stats=LineStats())):
        branch = record.get(GIT_BRANCH)
        if isinstance(branch, str) and branch.strip():
            return True
        if n >= _HEAD_RECORDS:
            break
    return False


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    cwd, original = _working_dirs(data, name)
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report,
                        roots=roots_of(cwd, original, git=_git_branch(data, name)), exit_code=_EXIT)
    scrubber.cwd = cwd
    root = TABLE.root
    assert isinstance(root, Switch)
    known = root.cases

    def each(record: dict[str, Any]) -> Any:
        kind: Any = record.get(TYPE)
        if not isinstance(kind, str) or kind not in known:
            report.skipped_records[label(kind) if isinstance(kind, str) else "<no type>"] += 1
            return None
        here = record.get(CWD)
        if isinstance(here, str):
            scrubber.cwd = here
        return scrubber.record(record)

    return rewrite_lines(data, name, each, report=report, skip_bad_lines=skip_bad_lines)
