"""Claude Code transcripts: table.py (the field tables, the sniffer), reader.py, files.py (a session's
files: main transcript and subagent transcripts), tools.py, native_table.py (the format's one table),
keys.py (every key the others read, named by its place in that table), native.py."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, BinaryIO

from redact.formats.registry import FormatFolder

if TYPE_CHECKING:
    from redact.build.facts import SessionFacts
    from redact.report import RedactionReport


class _ClaudeCode(FormatFolder):
    """The reader is files.read_session: it reads the subagent transcripts (the companions) too."""

    def read(self, data: bytes | BinaryIO, name: str, *, report: RedactionReport,
             companions: list[Any] | None, skip_bad_lines: bool, file_stem: str | None) -> SessionFacts:
        facts: SessionFacts = self.part("files:read_session")(
            data, name, report=report, sidechains=companions, skip_bad_lines=skip_bad_lines,
            file_stem=file_stem)
        return facts


FORMAT = _ClaudeCode(
    name="claude-code",
    description="Claude Code transcript (~/.claude/projects/<project>/<session>.jsonl, with its "
                "subagent transcripts; a project folder redacts every session in it)",
    package=__name__,
    companions="files:find_sidechains",
    sessions="files:project_sessions",
    homes=("~/.claude/projects/*", "~/.config/claude/projects/*"),
)
