"""Copilot CLI's one tool table (`native_table.TOOLS`): each tool, called through the reader's
`make_call`, yields the event kind, the op and the waiting on the user the table says; the tree
closes every name of the table, with the arguments the table keeps."""
from __future__ import annotations

import pytest

from redact.formats.copilot_cli import native_table
from redact.formats.copilot_cli.native_table import TOOLS
from redact.formats.copilot_cli.tools import make_call
from redact.tables.spec import Obj


@pytest.mark.parametrize("name", list(TOOLS))
def test_each_tool_reads_as_the_table_says(name: str) -> None:
    tool = TOOLS[name]
    args = {"path": "/src/a.py"} if "path" in tool.args else {}
    call = make_call(name, args, "call_1", 1.0, "main")
    assert (call.kind, call.waits_on_user) == (tool.kind, tool.waits_on_user)
    if tool.kind == "edit" and name != "str_replace_editor":  # its op is its command's
        assert call.op == tool.op
    if tool.kind in ("read", "edit"):
        assert call.paths == ("/src/a.py",)


def test_the_tree_closes_every_tool_of_the_table() -> None:
    start = native_table.DATA["tool.execution_start"]
    assert set(start.cases) == set(TOOLS)  # type: ignore[attr-defined]
    for name, tool in TOOLS.items():
        node = start.cases[name]  # type: ignore[attr-defined]
        assert isinstance(node, Obj) and node.fields["arguments"] == Obj(tool.args)
