"""Codex's one tool table (`native_table.TOOLS`) and what is read off it agree with the reader.

The tree's argument layouts, keys.py's argument keys, the reader's sets and the docs' tool table are
all derived from the table; here each tool of the table is called once through the reader and must
yield the event kind (and the waiting on the user) the table says, reading the arguments it names.
"""
from __future__ import annotations

from typing import Any

import pytest

from redact.build.facts import ToolCall
from redact.formats.codex import keys, table, tools
from redact.formats.codex.tool_table import ARGUMENTS, PATCH_TOOL, TOOLS, WEB_TOOL, Tool
from redact.formats.codex.reader import CodexReader
from redact.report import RedactionReport
from tests.formats.codexfix import Rollout

SID = "019d6d67-1952-7e83-93ef-94497e3c15b6"
CWD = "/home/kim/proj"
PATCH = "*** Begin Patch\n*** Update File: src/a.py\n@@\n-x\n+y\n*** End Patch"


def _args(tool: Tool, *, alt: int = 0) -> dict[str, Any]:
    """Arguments for one call of `tool`, each role's `alt`-th argument when it has several."""
    args: dict[str, Any] = {}
    if tool.command:
        args[tool.command] = ["echo", "hi"] if tool.argv else "echo hi"
    if tool.paths:
        args[tool.paths[alt % len(tool.paths)]] = "src/a.py"
    if tool.patch:
        args[tool.patch[alt % len(tool.patch)]] = PATCH
    if tool.subagent:
        args[tool.subagent[0]], args[tool.subagent[1]] = "scout", "gpt-5.1-codex"
    if tool.session:
        args[tool.session] = 7
    return args


def _read(calls: list[tuple[str, dict[str, Any]]]) -> tuple[CodexReader, list[ToolCall]]:
    r = Rollout(SID)
    r.meta(CWD)
    r.turn(CWD)
    ids = []
    for name, args in calls:
        cid = r.tick(10).function_call(name, args)
        r.tick(10).output(cid, "ok")
        ids.append(cid)
    reader = CodexReader(RedactionReport(source="r.jsonl"))
    reader.read(r.bytes(), "r.jsonl")
    return reader, [reader.calls[cid] for cid in ids]


@pytest.mark.parametrize("name", list(TOOLS))
def test_each_tool_reads_as_the_table_says(name: str) -> None:
    tool = TOOLS[name]
    alts = max(len(tool.paths), len(tool.patch), 1)
    reader, calls = _read([(name, _args(tool, alt=alt)) for alt in range(alts)])
    for call in calls:
        assert (call.kind, call.waits_on_user) == (tool.kind, tool.waits_on_user), name
        if tool.kind == "exec":
            assert (call.argv == ("echo", "hi")) if tool.argv else (call.command == "echo hi")
        if tool.kind == "read":
            assert call.paths == (f"{CWD}/src/a.py",)
        if tool.kind == "edit":
            assert call.paths == (f"{CWD}/src/a.py",) and call.path_ops == ("modify",)
        if tool.kind == "subagent":
            assert (call.subagent_type, call.subagent_model) == ("scout", "gpt-5.1-codex")
        if tool.kind == "web":
            assert call.host == "search"
        if tool.session:
            assert reader.polls[call.call_id] == "7"


def test_a_name_outside_the_table_is_a_plain_tool() -> None:
    _, (call,) = _read([("some_new_tool", {"command": "rm -rf /"})])
    assert (call.kind, call.waits_on_user, call.command, call.argv) == ("tool", False, None, None)


def test_the_views_hold_the_tables_tools_and_no_others() -> None:
    def of(kind: str) -> set[str]:
        return {name for name, tool in TOOLS.items() if tool.kind == kind}

    assert set(keys.EXEC_COMMAND) == of("exec")
    assert set(keys.READ_TOOLS) == of("read")
    assert set(keys.SUBAGENT_ARGS) == of("subagent")
    assert {PATCH_TOOL} == of("edit") and {WEB_TOOL} == of("web")
    assert tools.POLL_TOOLS == set(keys.POLL_SESSION) == {name for name, tool in TOOLS.items() if tool.session}
    # the tree closes the name of every tool whose arguments it lays out, and of every tool read
    assert set(ARGUMENTS) == {name for name, tool in TOOLS.items() if tool.args is not None}
    assert of("exec") | of("read") | of("edit") | of("subagent") <= set(ARGUMENTS)
    doc = table.markdown()
    assert all(f"| `{name}` | {tool.kind}" in doc for name, tool in TOOLS.items())


def test_a_tool_missing_what_its_kind_reads_fails_at_once() -> None:
    with pytest.raises(ValueError):
        Tool("exec", args={})
    with pytest.raises(ValueError):
        Tool("read", paths=("path",))  # read, yet its name not closed in the tree
