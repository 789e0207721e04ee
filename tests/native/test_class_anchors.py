"""Hand-written field classes for the native tables (issue 30): the native scan proves an output
against the table the scrubber used, so a field whose class is wrong in the table (a prompt marked
`enum`, a command marked `path`) would pass both. These anchors say, from the formats' own records
as the corpus shows them, what each well-known field is; the table must agree."""
from __future__ import annotations

import pytest

from redact.formats.fieldtable import field_rows
from redact.formats.registry import raw_format

# never kept: replaced by its shape, dropped, a result's shape, or a fixed placeholder string (`mask`:
# Kiro's loaders read its text slots as strings)
TEXT = {"shape", "drop", "result", "mask"}

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


#: The other formats: (format, the start of a field's location, the classes it may have). A prompt,
#: a reply, a thought or a file's content is text; a shell command is a verb; a file path a path.
PREFIXED: list[tuple[str, str, set[str]]] = [
    ("qwen-code", "user|assistant|tool_result.message.parts[].text", TEXT),
    ("qwen-code", "user|assistant|tool_result.message.parts[].functionCall.args.command (name=run_shell_command)", {"verb"}),
    ("session-record", "message|tool_result.content[].text (text)", TEXT),
    ("teaagent", "tool_call|approval_request.payload.arguments.command / cmd / script", {"verb"}),
    ("agent-replay", "metadata.model", {"ident:model"}),
    ("opencode", "part.data.text (text)", TEXT),
    ("opencode", "part.data.text (reasoning)", TEXT),
    ("crush", "message.parts[].data.text (text)", TEXT),
    ("crush", "message.parts[].data.thinking (reasoning)", TEXT),
    ("cursor", "bubble.text", TEXT),
    ("cursor", "bubble.thinking", TEXT),
    ("openhands", "[].llm_message.content (kind=MessageEvent)", TEXT),
    ("openhands", "[].action.command (kind=ActionEvent, kind=TerminalAction", {"verb"}),
    ("openhands-v0", "[].args.command (action=run)", {"verb"}),
    ("openhands-v0", "[].args.content (action=write|edit", TEXT),
    ("amp", "messages[].content[].text (text)", TEXT),
    ("amp", "messages[].content[].input.command / cmd / script (tool_use, name=Bash)", {"verb"}),
    ("zed", "message.message.Agent.content[].Thinking.text", TEXT),
    ("factory-droid", "message.message.content[].text (text)", TEXT),
    ("continue-dev", "history[].message.content", TEXT),
    ("continue-dev", "history[].toolCallStates[].parsedArgs.command", {"verb"}),
    ("copilot-cli", "user.message.data.content", TEXT),
    ("copilot-cli", "assistant.message.data.toolRequests[].arguments.command (name=bash|powershell|shell)", {"verb"}),
    ("copilot-vscode", "v.requests[].message.text", TEXT),
    ("cline", "[].text (say, say=task|user_feedback)", TEXT),
    ("cline", "[].text (say, say=reasoning)", TEXT),
    ("kiro", "Prompt|AssistantMessage|ToolResults.data.content[].data.input.command / cmd / script (kind=toolUse", {"verb"}),
    ("kiro-legacy", "history[].user.content.Prompt.prompt", TEXT),
    ("pi", "custom_message.content[].text (text)", TEXT),
    ("kimi", "TurnBegin.payload.user_input[].text", TEXT),
    ("kimi", "ToolCall.payload.function.arguments.command (`event`, name=Shell", {"verb"}),
    ("goose", "user|assistant.content[].text (text|other)", TEXT),
    ("hermes", "user.content", TEXT),
    ("hermes", "assistant.reasoning", TEXT),
    ("hermes", "assistant.tool_calls[].function.arguments.command (name=terminal", {"verb"}),
]


@pytest.mark.parametrize(("fmt", "start", "allowed"), PREFIXED, ids=[f"{f}:{s[:40]}" for f, s, _ in PREFIXED])
def test_a_well_known_field_of_every_format_has_its_class(fmt: str, start: str, allowed: set[str]) -> None:
    matched = {loc: cls for loc, cls in _classes(fmt).items() if loc.startswith(start)}
    assert matched, f"no field of {fmt} at {start}"
    assert set(matched.values()) <= allowed, matched
