"""Hand-written anchors for the three tool tables (issue 30): what each agent's common tools do, as
their documentation and the corpus sessions show them, written here by hand and never read from the
table, so a wrong table entry fails a test (the per-table tests read their expectations from the
same table the reader uses, and would agree with a wrong entry).

Each anchor is a real call's shape: the tool name as the agent logs it, the arguments it logs, and
the event kind and target paths a person reading the session would say it has."""
from __future__ import annotations

from typing import Any

import pytest

from redact.formats.claude_code.tools import make_call as claude_call
from redact.formats.copilot_cli.tools import make_call as copilot_call
from tests.formats.test_codex_tools import CWD, PATCH, _read

# Claude Code (tool_use blocks of ~/.claude/projects/*/*.jsonl)
CLAUDE: list[tuple[str, dict[str, Any], str, tuple[str, ...], bool]] = [
    ("Read", {"file_path": "/w/src/app.py", "offset": 10}, "read", ("/w/src/app.py",), False),
    ("Write", {"file_path": "/w/NEW.md", "content": "x"}, "edit", ("/w/NEW.md",), False),
    ("Edit", {"file_path": "/w/a.ts", "old_string": "a", "new_string": "b"}, "edit", ("/w/a.ts",), False),
    ("MultiEdit", {"file_path": "/w/a.ts", "edits": []}, "edit", ("/w/a.ts",), False),
    ("NotebookEdit", {"notebook_path": "/w/n.ipynb", "new_source": "x"}, "edit", ("/w/n.ipynb",), False),
    ("Bash", {"command": "pytest -q", "description": "run tests"}, "exec", (), False),
    ("Grep", {"pattern": "TODO", "path": "/w/src"}, "search", (), False),
    ("Glob", {"pattern": "**/*.py"}, "search", (), False),
    ("Task", {"subagent_type": "Explore", "prompt": "find it"}, "subagent", (), False),
    ("WebFetch", {"url": "https://docs.python.org/3/", "prompt": "x"}, "web", (), False),
    ("WebSearch", {"query": "x"}, "web", (), False),
    ("TodoWrite", {"todos": []}, "tool", (), False),
    ("AskUserQuestion", {"questions": []}, "tool", (), True),
    ("ExitPlanMode", {"plan": "x"}, "tool", (), True),
]


@pytest.mark.parametrize(("name", "args", "kind", "paths", "waits"), CLAUDE, ids=[c[0] for c in CLAUDE])
def test_claude_code_tools(name: str, args: dict[str, Any], kind: str, paths: tuple[str, ...], waits: bool) -> None:
    call = claude_call({"type": "tool_use", "id": "toolu_1", "name": name, "input": args}, 1.0, "main")
    assert call is not None
    assert (call.kind, call.waits_on_user) == (kind, waits)
    if paths:
        assert call.paths == paths


# Codex (function_call / custom_tool_call items of ~/.codex/sessions/**/rollout-*.jsonl)
CODEX: list[tuple[str, dict[str, Any], str]] = [
    ("shell", {"command": ["bash", "-lc", "ls"], "workdir": CWD}, "exec"),
    ("exec_command", {"cmd": "cargo test"}, "exec"),
    ("shell_command", {"command": "git status"}, "exec"),
    ("apply_patch", {"input": PATCH}, "edit"),
    ("update_plan", {"plan": []}, "tool"),
    ("view_image", {"path": "shot.png"}, "read"),
    ("web_search", {"query": "x"}, "web"),
]


@pytest.mark.parametrize(("name", "args", "kind"), CODEX, ids=[c[0] for c in CODEX])
def test_codex_tools(name: str, args: dict[str, Any], kind: str) -> None:
    _, calls = _read([(name, args)])
    assert [call.kind for call in calls] == [kind]
    if name == "apply_patch":
        assert calls[0].paths == (f"{CWD}/src/a.py",)


# GitHub Copilot CLI (tool.execution_start events of ~/.copilot/session-state/*/events.jsonl)
COPILOT: list[tuple[str, dict[str, Any], str, tuple[str, ...], bool]] = [
    ("view", {"path": "/w/README.md"}, "read", ("/w/README.md",), False),
    ("create", {"path": "/w/new.py", "file_text": "x"}, "edit", ("/w/new.py",), False),
    ("edit", {"path": "/w/a.py", "old_str": "a", "new_str": "b"}, "edit", ("/w/a.py",), False),
    ("bash", {"command": "npm test", "description": "x"}, "exec", (), False),
    ("powershell", {"command": "Get-ChildItem"}, "exec", (), False),
    ("grep", {"pattern": "x"}, "search", (), False),
    ("glob", {"pattern": "*.md"}, "search", (), False),
    ("web_fetch", {"url": "https://example.com/"}, "web", (), False),
    ("ask_user", {"question": "x"}, "tool", (), True),
    ("report_intent", {"intent": "x"}, "tool", (), False),
]


@pytest.mark.parametrize(("name", "args", "kind", "paths", "waits"), COPILOT, ids=[c[0] for c in COPILOT])
def test_copilot_cli_tools(name: str, args: dict[str, Any], kind: str, paths: tuple[str, ...], waits: bool) -> None:
    call = copilot_call(name, args, "call_1", 1.0, "main")
    assert (call.kind, call.waits_on_user) == (kind, waits)
    if paths:
        assert call.paths == paths
    if name == "create":
        assert call.op == "create"
