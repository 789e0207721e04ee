"""Zed's one table: the JSON Lines export of one agent thread (`store.py`: the `threads` row with the
thread document's own fields, then each message as Zed wrote it) that the reader reads, with what it
keeps.

Zed writes its enums externally tagged (serde's default): a message is `{"User": {...}}`,
`{"Agent": {...}}` or the bare string `"Resume"`, a content item `{"Text": "..."}`, `{"ToolUse": {...}}`,
`{"Thinking": {...}}`... So each item is an object whose one key names its kind; the table lists the
kinds as that object's fields (any other kind is dropped and counted). Zed has no native output
(`native.py` refuses `--to native`); the table classifies every field the reader reads
(tests/formats/test_tables.py) and renders the field table of docs/formats.md.
"""
from __future__ import annotations

from redact.tables.spec import (
    BOOL, BRANCH, DROP, ID, NUMBER, PATH, SHAPE, TIMESTAMP, VERSION, ByType, Many, Switch, Table, enum, ident,
    obj, used,
)

FORMAT = "zed"
#: the thread version whose messages the reader reads (older threads: counted, not read)
VERSIONS = ("0.3.0",)
#: Zed's tool names -> the shared tool table's spelling (the others are spelled alike)
ALIASES: dict[str, str] = {"find_path": "glob", "delete_path": "delete", "streaming_edit_file": "edit_file",
                           "create_file": "write"}
_KIND = used("record dispatch", enum("session", "message"))
_TOKENS = obj(input_tokens=used("in", NUMBER), output_tokens=used("out", NUMBER),
              cache_creation_input_tokens=used("cw", NUMBER), cache_read_input_tokens=used("cr", NUMBER))

THREAD = obj(
    zed=_KIND,
    id=used("session.id", ID),
    summary=SHAPE, title=SHAPE, detailed_summary=SHAPE,
    created_at=used("the thread's start: every event's time (Zed keeps no time per message)", TIMESTAMP),
    updated_at=used("the thread's last change", TIMESTAMP),
    parent_id=used("role subagent, parentSessionId", ID),
    folder_paths=used("the project folders, one a line, when the thread has no worktree snapshot: the first "
                      "is the root, and tool paths are placed under them as under worktrees", PATH),
    version=used(f"thread version: {', '.join(VERSIONS)} read; any other counted, its messages not read",
                 VERSION),
    model=obj(provider=DROP, model=used("llm model (a display name written as a model id: lower case, "
                                        "`-` for spaces)", ident("model"))),
    profile=DROP, completion_mode=DROP, imported=BOOL, subagent_context=DROP, speed=DROP,
    thinking_enabled=BOOL, thinking_effort=DROP,
    # in the thread document, never on the export's session line: `store.py` writes them apart
    messages=used("written out as the message lines", DROP),
    request_token_usage=used("each entry written on its user message's line, as `usage`", DROP),
    cumulative_token_usage=_TOKENS,  # the thread total: never spread over the requests
    initial_project_snapshot=obj(
        timestamp=used("the thread's start when the row has no created_at", TIMESTAMP),
        worktree_snapshots=Many(obj(
            worktree_path=used("repository root (the first worktree's; paths Zed writes as "
                               "<worktree name>/<path> are placed under it)", PATH),
            git_state=used("evidence that the worktree is a repository", obj(
                remote_url=used("the repository's remote", ident("remote")), head_sha=ID,
                current_branch=BRANCH, diff=DROP)))),
        unsaved_buffer_paths=DROP),
)

_TOOL_USE = obj(
    id=used("pairs call and result", ID),
    name=used("event kind (the shared tool table, after the aliases)", ident("tool")),
    input=used("command (terminal), path, url host", DROP),
    raw_input=DROP, is_input_complete=BOOL, thought_signature=DROP,
)
_RESULT = obj(
    tool_use_id=used("pairs call and result", ID), tool_name=DROP,
    is_error=used("err; errClass from the wording", BOOL),
    content=used("byte count; a terminal output confirms commits and PRs", ByType(
        text=SHAPE, obj=obj(Text=used("byte count", SHAPE), Image=DROP))),
    output=DROP,
)
USER = obj(
    id=used("pairs the turn with its token usage", ID),
    content=Many(obj(
        Text=used("length only (a prompt)", SHAPE),
        Mention=used("counted as nothing: its uri and content are never read", obj(uri=DROP, content=DROP)),
        Image=used("counted on a prompt", DROP))),
)
AGENT = obj(
    content=Many(obj(
        Text=used("length only (a reply)", SHAPE),
        Thinking=used("presence only (thinking)", obj(text=SHAPE, signature=DROP)),
        RedactedThinking=used("presence only (thinking)", DROP),
        ToolUse=used("a tool call", _TOOL_USE))),
    tool_results=used("the results of its tool calls", Many(_RESULT)),
    reasoning_details=DROP,
)
MESSAGE = obj(
    zed=_KIND,
    message=used("message dispatch: User, Agent, Resume", ByType(
        text=used("a resumed turn: counted", enum("Resume")),
        obj=obj(User=used("a prompt", USER), Agent=used("one llm event", AGENT)))),
    usage=used("the tokens of the turn's last model request: on its last agent message", _TOKENS),
)

RECORD = Switch("zed", {"session": THREAD, "message": MESSAGE})

TABLE = Table(FORMAT, RECORD)
