"""Pi coding-agent sessions under `--to native`: the header line, then each entry by its `type`
(v1 entries have no `id`/`parentId`; v2 and v3 entries form a tree through them), a `message`
entry's message by its `role`, and a message's content blocks by their `type`.

Text (prompts, replies, thinking, tool output, summaries, labels, session names) becomes its shape;
a tool call keeps its id and name and, of its arguments, what the shared tool table reads (a path in
the path mode, a command as its verb); usage numbers, models and providers stay; signatures, image
data, a tool result's `details` (diffs, the path of the full output) and extensions' data are
dropped; anything unknown is dropped and counted.

It is also the reader's table: a layout the reader maps says what it reads of it (`used`); the
entry types and message roles the reader maps are read off the tree (`keys.py`).
"""
from __future__ import annotations

from redact.tables.spec import (
    BOOL, CWD, DROP, ID, NUMBER, PATH, SHAPE, TIMESTAMP, VERB, ByType, Many, Obj, Ref, Spec, Switch, Table, const, enum,
    ident, tagged, tool, used,
)

FORMAT = "pi"
#: Pi's built-in tools -> the shared tool table's spelling (redact/formats/toolnames.py)
ALIASES: dict[str, str] = {
    "read": "read", "bash": "bash", "edit": "edit", "write": "write", "grep": "grep", "find": "find",
    "ls": "ls",
}
#: The line Pi's bash tool ends a failed command's output with (harness wording, not the command's).
EXIT_LINE = r"Command exited with code (-?\d{1,5})"
#: What the reader opens inside a tool result's content blocks and a prompt's (shapes in this
#: table): each text block's text, and the blocks that are images.
BLOCK_TEXT = "text"
#: Providers and APIs Pi names (pi-ai's lists); any other value is dropped.
PROVIDERS = ("anthropic", "openai", "openai-codex", "google", "google-gemini-cli", "google-vertex",
             "google-antigravity", "github-copilot", "amazon-bedrock", "azure-openai", "openrouter", "xai",
             "groq", "cerebras", "mistral", "zai", "minimax", "huggingface", "ollama", "llama.cpp", "lmstudio",
             "vercel-ai-gateway", "opencode", "deepseek", "kimi-coding")
APIS = ("anthropic-messages", "openai-completions", "openai-responses", "openai-codex-responses",
        "google-generative-ai", "google-gemini-cli", "google-vertex", "bedrock-converse-stream",
        "azure-openai-responses", "mistral-conversations")
THINKING_LEVELS = enum("off", "minimal", "low", "medium", "high", "xhigh")
#: AssistantMessage.stopReason -> the map's stop reason
STOPS: dict[str, str] = {"stop": "end_turn", "length": "max_tokens", "toolUse": "tool_use",
                         "error": "error", "aborted": "aborted"}

_TARGET = used("targets (read, edit)", PATH)
_ARGS: dict[str, dict[str, Spec]] = {
    "read": {"path": _TARGET, "offset": NUMBER, "limit": NUMBER},
    "write": {"path": _TARGET, "content": SHAPE},
    "edit": {"path": _TARGET, "oldText": SHAPE, "newText": SHAPE, "edits": SHAPE},
    "bash": {"command": used("verb (verb engine)", VERB), "timeout": NUMBER},
    "grep": {"pattern": SHAPE, "path": PATH, "glob": SHAPE, "ignoreCase": BOOL,
             "literal": BOOL, "context": NUMBER, "limit": NUMBER},
    "find": {"pattern": SHAPE, "path": PATH, "limit": NUMBER},
    "ls": {"path": PATH, "limit": NUMBER},
}


def _call(name: Spec, args: dict[str, Spec]) -> Obj:
    return Obj({"type": const("toolCall"), "id": used("pairs call and result", ID),
                "name": used("event kind (the shared tool table, after the aliases)", name),
                "arguments": used("path (read, edit), command (bash)", Obj(args)), "partialJson": DROP})


TOOL_CALL = Switch("name", {name: _call(const(name), _ARGS[name]) for name in ALIASES},
                   default=_call(tool(*ALIASES), {}))
_IMAGE = Obj({"data": DROP, "mimeType": enum("image/png", "image/jpeg", "image/gif", "image/webp")})
#: An assistant message's content blocks.
BLOCK = tagged("type", {
    "text": used("length only (textChars)", Obj({"text": used("length only", SHAPE), "textSignature": DROP})),
    "thinking": used("presence only (thinking)", Obj({"thinking": used("presence only", SHAPE),
                                                      "thinkingSignature": DROP, "redacted": BOOL})),
    "toolCall": used("a tool call (see the tool table)", TOOL_CALL),
    "image": _IMAGE,
}, use="content dispatch")
#: A prompt's, a tool result's or an extension message's content blocks.
PART = tagged("type", {
    "text": used("length (a prompt's), byte count (a tool result's)", Obj({BLOCK_TEXT: used("length", SHAPE)})),
    "image": used("counted on a prompt", _IMAGE),
}, use="content dispatch")
_PARTS = ByType(text=used("length", SHAPE), items=Many(PART))
_USAGE = Obj({
    "input": used("in", NUMBER), "output": used("out", NUMBER), "cacheRead": used("cr", NUMBER),
    "cacheWrite": used("cw", NUMBER), "reasoning": NUMBER, "totalTokens": NUMBER,
    "cost": Obj({"input": NUMBER, "output": NUMBER, "cacheRead": NUMBER, "cacheWrite": NUMBER, "total": NUMBER}),
})
#: `message.role` -> its layout (beside `role` and `timestamp`, the message's own epoch-ms time)
ROLES: dict[str, Spec] = {
    "user": used("a prompt: length, images, URL count", Obj({"content": used("length and URL count; images", _PARTS)})),
    "assistant": used("an llm event: model, tokens, stop reason, thinking, text length, tool calls", Obj({
        "content": Many(BLOCK), "api": enum(*APIS), "provider": enum(*PROVIDERS),
        "model": used("llm model", ident("model")), "usage": _USAGE, "responseId": ID,
        "stopReason": used("stop; `error`: an llm error event, `aborted`: interrupted", enum(*STOPS)),
        "rawStopReason": enum("stop", "end_turn", "tool_use", "max_tokens", "length", "tool_calls",
                              "stop_sequence", "content_filter", "refusal"),
        "errorMessage": used("errClass from the wording", SHAPE)})),
    "toolResult": used("its result: error, output size, exit code, commits and PRs it confirms", Obj({
        "toolCallId": used("pairs call and result", ID), "toolName": tool(*ALIASES),
        "content": used("byte count; the bash tool's `Command exited with code N` line (exit code)", Many(PART)),
        "details": DROP, "isError": used("err", BOOL)})),
    "bashExecution": Obj({"command": VERB, "output": SHAPE, "exitCode": NUMBER,
                          "cancelled": BOOL, "truncated": BOOL, "fullOutputPath": DROP,
                          "excludeFromContext": BOOL}),
    "custom": Obj({"customType": DROP, "content": _PARTS, "display": BOOL, "details": DROP}),
    "hookMessage": Obj({"customType": DROP, "content": _PARTS, "display": BOOL, "details": DROP}),
    "branchSummary": Obj({"summary": SHAPE, "fromId": ID}),
    "compactionSummary": Obj({"summary": SHAPE, "tokensBefore": NUMBER}),
}
MESSAGE = tagged("role", {role: Obj({"timestamp": used("an llm event's request time (latency)", NUMBER),
                                     **layout.fields}, use=layout.use) if isinstance(layout, Obj) else layout
                          for role, layout in ROLES.items()}, use="role dispatch")
_ENTRY: dict[str, Spec] = {"id": used("tree node (branches are read in file order)", ID),
                           "parentId": used("tree node (branches are read in file order)", ID),
                           "timestamp": used("event times", TIMESTAMP)}
#: entry `type` -> its fields beside the envelope (`type`, `id`, `parentId`, `timestamp`)
ENTRIES: dict[str, Spec] = {
    "session": used("the header: session id, version, working directory (repository root), first model", Obj({
        "version": used("1 (linear), 2 and 3 (a tree)", NUMBER), "cwd": used("repository root (never written)", CWD),
        "provider": enum(*PROVIDERS), "modelId": used("the model until a response names one", ident("model")),
        "thinkingLevel": THINKING_LEVELS, "parentSession": DROP, "branchedFrom": DROP})),
    "message": used("a message, by its role", Obj({"message": Ref("message")})),
    "model_change": used("the model of later responses that name none", Obj({
        "provider": enum(*PROVIDERS), "modelId": used("llm model", ident("model"))})),
    "thinking_level_change": Obj({"thinkingLevel": THINKING_LEVELS}),
    "compaction": used("a compaction event with the tokens before it", Obj({
        "summary": SHAPE, "firstKeptEntryId": ID, "firstKeptEntryIndex": NUMBER,
        "tokensBefore": used("compaction preTokens", NUMBER), "details": DROP, "fromHook": BOOL})),
    "branch_summary": Obj({"fromId": ID, "summary": SHAPE, "details": DROP, "fromHook": BOOL}),
    "custom": Obj({"customType": DROP, "data": DROP}),
    "custom_message": Obj({"customType": DROP, "content": _PARTS, "display": BOOL, "details": DROP}),
    "label": Obj({"targetId": ID, "label": SHAPE}),
    "session_info": Obj({"name": SHAPE}),
}
LINE = tagged("type", {kind: Obj({**_ENTRY, **layout.fields}, use=layout.use) if isinstance(layout, Obj) else layout
                       for kind, layout in ENTRIES.items()}, use="entry dispatch")

TABLE = Table(FORMAT, LINE, {"message": MESSAGE})
