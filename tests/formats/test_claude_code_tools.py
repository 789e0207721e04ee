"""Claude Code's one tool table (`native_table.TOOLS`): each tool, called through the reader's
`make_call`, yields the event kind, the path targets and the waiting on the user the table says; the
tree closes the names of the tools whose input it lays out."""
from __future__ import annotations

import pytest

from redact.formats.claude_code import native_table
from redact.formats.claude_code.native_table import TOOLS
from redact.formats.claude_code.tools import make_call


@pytest.mark.parametrize("name", list(TOOLS))
def test_each_tool_reads_as_the_table_says(name: str) -> None:
    tool = TOOLS[name]
    call = make_call({"type": "tool_use", "id": "toolu_1", "name": name,
                      "input": {path: "/src/a.py" for path in tool.paths}}, 1.0, "main")
    assert call is not None
    assert (call.kind, call.waits_on_user) == (tool.kind, tool.waits_on_user)
    assert call.paths == tuple("/src/a.py" for _ in tool.paths)


def test_the_tree_closes_the_names_the_table_lays_out() -> None:
    closed = set(native_table.TOOL_USE_BLOCK.cases)
    assert closed == {name for name, tool in TOOLS.items() if tool.closed}
    assert set(native_table.TOOL_KINDS) | set(native_table.PATH_INPUTS) <= closed
