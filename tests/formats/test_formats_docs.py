"""docs/formats.md shows each raw format's tables exactly as its reader declares them."""
from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from redact.formats.agent_replay import table as agent_replay_table
from redact.formats.aider import table as aider_table
from redact.formats.amp import table as amp_table
from redact.formats.codex import table as codex_table
from redact.formats.continue_dev import table as continue_table
from redact.formats.crush import table as crush_table
from redact.formats.cursor import table as cursor_table
from redact.formats.opencode import table as opencode_table
from redact.formats.openhands import table as openhands_table
from redact.formats.cline import table as cline_table
from redact.formats.copilot_cli import table as copilot_cli_table
from redact.formats.copilot_vscode import table as copilot_vscode_table
from redact.formats.gemini_cli import table as gemini_cli_table
from redact.formats.session_record import table as session_record_table
from redact.formats.teaagent import table as teaagent_table

DOC = Path(__file__).resolve().parents[2] / "docs" / "formats.md"
TABLES: dict[str, ModuleType] = {
    "codex": codex_table, "session-record": session_record_table, "teaagent": teaagent_table,
    "agent-replay": agent_replay_table,
    "opencode": opencode_table,
    "crush": crush_table,
    "cursor": cursor_table,
    "aider": aider_table,
    "openhands": openhands_table,
    "amp": amp_table,
    "continue-dev": continue_table,
    "gemini-cli": gemini_cli_table,
    "copilot-cli": copilot_cli_table, "copilot-vscode": copilot_vscode_table,
    "cline": cline_table,
}
CLASSES = {"text", "blob", "path", "command", "id", "number", "bool", "enum", "timestamp", "version"}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_docs_tables_match_the_code(name: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    begin, end = f"<!-- {name}-tables:begin -->\n", f"<!-- {name}-tables:end -->"
    block = text[text.index(begin) + len(begin): text.index(end)]
    assert block == TABLES[name].markdown(), f"regenerate the block from {TABLES[name].__name__}.markdown()"


@pytest.mark.parametrize("name", sorted(TABLES))
def test_every_field_has_a_class_and_a_use(name: str) -> None:
    for where, cls, use in TABLES[name].FIELDS:
        parts = [p.strip() for p in cls.replace("(", "/").replace(")", "").split("/")]
        assert all(p.split(":")[0] in CLASSES | {"ident", "JSON in a string"} or p.startswith("ident:")
                   for p in parts if p), (where, cls)
        assert use, where
