"""The native tables: well formed, in step with their readers' tables, and dispatchable by the scan.

The scan (`audit/native.py`) finds a record's layout the way the scrubber did only if every field a
`Switch` dispatches on is written as it was read: a const or an enum. A tool name that the policy
hashed would send the scan to another layout, so built-in names are consts and only the default
layout of a switch holds a policy-controlled name.
"""
from __future__ import annotations

import pytest

from redact.errors import UsageError
from redact.api_native import scrub_native
from redact.native import native_formats
from redact.tables.spec import ByType, JsonText, Leaf, Many, Obj, Ref, Spec, Switch, Table, walk_leaves
from redact.formats.tables import formats, table
from redact.policy.load import load_policy
from redact.report import RedactionReport

ALL = ("claude-code", "codex", "session-record", "teaagent", "agent-replay", "openhands", "openhands-v0", "amp",
       "continue-dev", "gemini-cli", "copilot-cli", "copilot-vscode", "cline", "kiro", "kiro-legacy", "kiro-ide", "kiro-ide-log", "pi",
       "qwen-code", "kimi", "factory-droid", "goose", "hermes")


def _table(fmt: str) -> Table:
    found = table(fmt)
    assert found is not None
    return found


def test_every_format_has_a_table_and_a_scrubber() -> None:
    assert set(formats()) == set(ALL) == set(native_formats())


def _switches(tab: Table) -> list[Switch]:
    out: list[Switch] = []
    seen: set[int] = set()

    def go(spec: Spec | None) -> None:
        if spec is None or id(spec) in seen:
            return
        seen.add(id(spec))
        if isinstance(spec, Ref):
            go(tab.named[spec.name])
        elif isinstance(spec, Obj):
            for sub in spec.fields.values():
                go(sub)
        elif isinstance(spec, Many):
            go(spec.item)
        elif isinstance(spec, Switch):
            out.append(spec)
            for sub in spec.cases.values():
                go(sub)
            go(spec.default)
        elif isinstance(spec, ByType):
            for sub in (spec.text, spec.items, spec.obj, spec.scalar):
                go(sub)
        elif isinstance(spec, JsonText):
            go(spec.inner)
            go(spec.text)

    go(tab.root)
    go(tab.document)
    return out


def _objects(spec: Spec, tab: Table, key: str, tag: str) -> list[Obj]:
    """The object layouts a record with `key` = `tag` may take under `spec`."""
    spec = tab.resolve(spec)
    if isinstance(spec, Obj):
        return [spec]
    if isinstance(spec, Switch):
        if spec.key == key:
            case = spec.cases.get(tag, spec.default)
            return _objects(case, tab, key, tag) if case is not None else []
        out = [o for case in spec.cases.values() for o in _objects(case, tab, key, tag)]
        return out + (_objects(spec.default, tab, key, tag) if spec.default is not None else [])
    return []


@pytest.mark.parametrize("fmt", ALL)
def test_switch_keys_are_written_as_read(fmt: str) -> None:
    tab = _table(fmt)
    for switch in _switches(tab):
        for tag, case in switch.cases.items():
            for node in _objects(case, tab, switch.key, tag):
                leaf = node.fields.get(switch.key)
                assert isinstance(leaf, Leaf) and leaf.cls in ("const", "enum"), (fmt, switch.key, tag)
                assert leaf.values is not None and tag in leaf.values, (fmt, switch.key, tag)


def test_claude_code_covers_the_readers_record_types() -> None:
    from redact.formats.claude_code.table import HOOK_ATTACHMENTS, RECORD_TYPES, SYSTEM_SUBTYPES, TOOL_KINDS
    from redact.formats.claude_code import native_table as cc

    assert set(RECORD_TYPES) <= set(cc.RECORD.cases)
    assert set(SYSTEM_SUBTYPES) <= set(cc.SYSTEM.cases)
    assert set(HOOK_ATTACHMENTS) <= set(cc.ATTACHMENT.cases)
    assert set(TOOL_KINDS) <= set(cc.TOOL_USE_BLOCK.cases)


def test_codex_covers_the_readers_types() -> None:
    from redact.formats.codex.table import EVENT_MSGS, RECORD_TYPES, RESPONSE_ITEMS
    from redact.formats.codex import native_table as codex

    assert set(RECORD_TYPES) <= set(codex.RECORD.cases)
    assert set(RESPONSE_ITEMS) <= set(codex.RESPONSE_ITEMS)
    assert set(EVENT_MSGS) <= set(codex.EVENT_MSGS)


def test_other_formats_cover_the_readers_types() -> None:
    from redact.formats.agent_replay.table import STEP_TYPES
    from redact.formats.session_record.table import RECORD_TYPES
    from redact.formats.teaagent.table import EVENT_TYPES
    from redact.formats.agent_replay import native_table as agent_replay
    from redact.formats.session_record import native_table as session_record
    from redact.formats.teaagent import native_table as teaagent

    assert set(RECORD_TYPES) <= set(session_record.RECORD.cases)
    assert set(EVENT_TYPES) == set(teaagent.RECORD.cases)
    assert isinstance(agent_replay.STEP, Switch) and set(STEP_TYPES) == set(agent_replay.STEP.cases)


def test_json_agents_cover_the_readers_types() -> None:
    from redact.formats.gemini_cli import native_table as gemini
    from redact.formats.gemini_cli.table import MESSAGE_TYPES, TOOLS

    assert isinstance(gemini.MESSAGE, Switch) and set(MESSAGE_TYPES) == set(gemini.MESSAGE.cases)
    assert isinstance(gemini.TOOL_CALL, Switch) and set(TOOLS) == set(gemini.TOOL_CALL.cases)

    from redact.formats.copilot_cli import native_table as copilot
    from redact.formats.copilot_cli.table import EVENT_TYPES
    from redact.formats.copilot_cli.table import TOOLS as COPILOT_TOOLS

    assert set(EVENT_TYPES) == set(copilot.DATA)
    start = copilot.DATA["tool.execution_start"]
    assert isinstance(start, Switch) and set(COPILOT_TOOLS) == set(start.cases)

    from redact.formats.cline import native_table as cline
    from redact.formats.cline.table import ASKS, SAYS

    assert set(SAYS) == set(cline.SAY.cases) and set(ASKS) == set(cline.ASK.cases)


@pytest.mark.parametrize("fmt", ALL)
def test_no_text_class_is_kept_in_clear(fmt: str) -> None:
    """No leaf keeps a free string: every leaf's output grammar is closed, opaque or disclosed."""
    for _, leaf in walk_leaves(_table(fmt)):
        assert leaf.cls in {"enum", "const", "mask", "id", "timestamp", "number", "bool", "version", "path",
                            "cwd", "verb", "ident", "shape", "result", "drop", "branch", "tool", "url_host",
                            "lines"}


def test_unsupported_format_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        scrub_native(b"{}", "agentplay", name="x", policy=load_policy("default"), key=None, mode=None,
                     report=RedactionReport(source="x"))
