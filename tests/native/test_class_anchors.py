"""Hand-written field classes for the native tables (issue 30): the native scan proves an output
against the table the scrubber used, so a field whose class is wrong in the table (a prompt marked
`enum`, a command marked `path`) would pass both. These anchors say, from the formats' own records
as the corpus shows them, what each well-known field is; the table must agree."""
from __future__ import annotations

import pytest

from redact.formats.fieldtable import field_rows
from redact.formats.registry import raw_format

TEXT = {"shape", "drop", "result"}  # never kept: replaced by its shape, dropped, or a result's shape

ANCHORS: dict[str, list[tuple[str, set[str]]]] = {
    "claude-code": [
        ("sessionId", {"id"}),
        ("timestamp", {"timestamp"}),
        ("cwd / originalCwd", {"cwd"}),
        ("user.message.content[].text (text)", TEXT),
        ("assistant.message.content[].text (text)", TEXT),
        ("assistant.message.content[].thinking (thinking)", TEXT),
        ("assistant.message.content[].signature (thinking)", {"drop"}),
        ("assistant.message.model", {"ident:model"}),
        ("assistant.message.content[].input.command (tool_use, name=Bash)", {"verb"}),
        ("assistant.message.content[].input.file_path (tool_use, name=Edit|MultiEdit|Read|Write)", {"path"}),
        ("assistant.message.usage.input_tokens", {"number"}),
    ],
    "codex": [
        ("session_meta.payload.cwd", {"cwd"}),
        ("turn_context.payload.model", {"ident:model"}),
        ("response_item.payload.content[].text (message, input_text|output_text)", TEXT),
        ("response_item.payload.summary[].text (reasoning)", TEXT),
    ],
}


def _classes(fmt: str) -> dict[str, str]:
    found = raw_format(fmt)
    assert found is not None
    return {row.location: row.cls for row in field_rows(found)}


@pytest.mark.parametrize(("fmt", "location", "allowed"),
                         [(fmt, loc, allowed) for fmt, rows in ANCHORS.items() for loc, allowed in rows],
                         ids=[f"{fmt}:{loc[:50]}" for fmt, rows in ANCHORS.items() for loc, _ in rows])
def test_a_well_known_field_has_its_class(fmt: str, location: str, allowed: set[str]) -> None:
    classes = _classes(fmt)
    assert location in classes, sorted(k for k in classes if k.split(".")[0] == location.split(".")[0])[:20]
    assert classes[location] in allowed, (location, classes[location])


def test_codex_shell_commands_are_verbs() -> None:
    commands = {loc: cls for loc, cls in _classes("codex").items()
                if loc.startswith("response_item.payload.arguments.command (function_call")}
    assert commands and set(commands.values()) == {"verb"}, commands
