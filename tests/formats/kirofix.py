"""Small Kiro sessions of our own, modelled on the real ones of ../shared/corpus/kiro (never copied):
the `/chat save` export, the CLI store's `.json` + `.jsonl` pair, the `/save` ConversationState of
Kiro and of Amazon Q Developer CLI, and the v1 engine's `data.sqlite3`. Every free-text slot takes
its value from `c()` (a canary counter, or plain words)."""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

C = Callable[[], str]
ROOT = "/home/dana/src/shop"
SID = "7d1c2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f"
LEGACY_ID = "1e72596d-86c6-48ab-a194-56d7ef5f0d65"
T0 = 1778528621  # 2026-05-11T19:43:41Z, epoch seconds

#: What the export holds: 2 prompts; 6 responses (one with thinking); calls: shell git status,
#: read app.py, shell pytest (exit 1), write notes.md, use_aws (error), grep (error)
EXPORT_COUNTS = {"user": 2, "llm": 6, "calls": 6, "thinking": 1, "errors": 3}


def _msg(n: int) -> str:
    return f"00000000-0000-4000-8000-{n:012d}"


def entries(c: C) -> list[dict[str, Any]]:
    def entry(kind: str, n: int, content: list[dict[str, Any]], at: int | None = None,
              **more: Any) -> dict[str, Any]:
        data: dict[str, Any] = {"message_id": _msg(n), "content": content, **more}
        if at is not None:
            data["meta"] = {"timestamp": at}
        return {"version": "v1", "kind": kind, "data": data}

    def text(value: str) -> dict[str, Any]:
        return {"kind": "text", "data": value}

    def use(call: str, name: str, **inp: Any) -> dict[str, Any]:
        return {"kind": "toolUse", "data": {"toolUseId": call, "name": name,
                                            "input": {"__tool_use_purpose": c(), **inp}}}

    def result(call: str, status: str, *items: dict[str, Any]) -> dict[str, Any]:
        return {"kind": "toolResult", "data": {"toolUseId": call, "content": list(items), "status": status}}

    def shell_out(code: int) -> dict[str, Any]:
        return {"kind": "json", "data": {"exit_status": f"exit status: {code}", "stdout": c(), "stderr": c()}}

    def results(call: str, command: str) -> dict[str, Any]:  # the calls again, as Kiro writes them
        return {call: {"tool": {"tool_use_purpose": c(), "kind": {"BuiltIn": {"ExecuteCmd": {
            "command": command, "working_dir": None}}}}, "result": {"Success": {"items": [{"Text": c()}]}}}}

    return [
        entry("Prompt", 1, [text(c())], T0),
        entry("AssistantMessage", 2, [
            {"kind": "thinking", "data": {"text": c(), "signature": "EqkCClkIDRABGAIqQN2vznZ54" + c(),
                                          "redactedContent": [104, 105, 32, 116, 104, 101, 114, 101]}},
            text(c()), use("tooluse_AaBbCcDd01", "shell", command="git status")]),
        entry("ToolResults", 3, [result("tooluse_AaBbCcDd01", "success", shell_out(0))],
              results=results("tooluse_AaBbCcDd01", "git status")),
        entry("AssistantMessage", 4, [
            text(""), use("tooluse_AaBbCcDd02", "read", operations=[{"mode": "Line", "path": f"{ROOT}/src/app.py"}]),
            use("tooluse_AaBbCcDd03", "shell", command="pytest -q tests/test_app.py")]),
        entry("ToolResults", 5, [result("tooluse_AaBbCcDd02", "success", {"kind": "text", "data": c()}),
                                 result("tooluse_AaBbCcDd03", "success", shell_out(1))]),
        entry("AssistantMessage", 6, [
            use("tooluse_AaBbCcDd04", "write", command="create", path=f"{ROOT}/notes.md", content=c()),
            use("tooluse_AaBbCcDd05", "use_aws", service_name=c(), operation_name=c(), region="us-east-1")]),
        entry("ToolResults", 7, [result("tooluse_AaBbCcDd04", "success", {"kind": "text", "data": ""}),
                                 result("tooluse_AaBbCcDd05", "error", {"kind": "text", "data": c()})]),
        entry("AssistantMessage", 8, [text(c())]),
        entry("Prompt", 9, [text(c()), text(c())], T0 + 300),
        entry("AssistantMessage", 10, [text(c()), use("tooluse_AaBbCcDd06", "grep", pattern=c(), path=f"{ROOT}/src")]),
        entry("ToolResults", 11, [result("tooluse_AaBbCcDd06", "error", {"kind": "text", "data": c()})]),
        entry("AssistantMessage", 12, [text(c())]),
    ]


def metadata(c: C, *, turns: bool = True) -> dict[str, Any]:
    def turn(first: int, last: int, end: str, reason: str) -> dict[str, Any]:
        return {"loop_id": {"agent_id": {"name": "kiro_default", "parent_id": None, "rand": None}, "rand": 1710540888},
                "result": {"Ok": {"id": _msg(last), "role": "assistant", "content": [{"kind": "text", "data": c()}],
                                  "meta": {"timestamp": T0 + 200}}},
                "message_ids": [_msg(n) for n in range(first, last + 1)], "total_request_count": 4,
                "number_of_cycles": 4, "builtin_tool_uses": 4, "turn_duration": {"secs": 217, "nanos": 450239070},
                "end_reason": reason, "end_timestamp": end, "input_token_count": 0, "output_token_count": 0,
                "context_usage_percentage": 3.1171,
                "metering_usage": [{"value": 0.16886991346600336, "unit": "credit", "unitPlural": "credits"}]}

    return {
        "session_id": SID, "cwd": ROOT, "created_at": "2026-05-11T19:43:19.227193436Z",
        "updated_at": "2026-05-11T19:50:14.845855916Z", "title": c(),
        "session_state": {
            "version": "v1", "agent_name": "kiro_default",
            "conversation_metadata": {
                "user_turn_metadatas": [turn(1, 8, "2026-05-11T19:47:19.358571554Z", "UserTurnEnd"),
                                        turn(9, 12, "2026-05-11T19:50:10.000000000Z", "ToolUseRejected")]
                if turns else [],
                "user_turn_start_request": None, "last_request": None},
            "rts_model_state": {"conversation_id": SID, "model_info": {
                "model_name": "claude-opus-4.7", "description": c(), "model_id": "claude-opus-4.7",
                "context_window_tokens": 1000000, "rate_multiplier": 2.2, "rate_unit": "Credit"},
                "context_usage_percentage": 4.5807},
            "permissions": {"filesystem": {"allowed_read_paths": [ROOT], "allowed_write_paths": [],
                                           "denied_read_paths": [], "denied_write_paths": []},
                            "trusted_tools": [], "denied_tools": []}}}


def export(c: C) -> bytes:
    """A `/chat save` export (pretty-printed, as Kiro writes it)."""
    return orjson.dumps({"format": "kiro-session-export-v1", "metadata": metadata(c), "log_entries": entries(c)},
                        option=orjson.OPT_INDENT_2)


def store_pair(c: C) -> tuple[bytes, bytes]:
    """The store's `<uuid>.json` (pretty-printed) and `<uuid>.jsonl`."""
    meta = orjson.dumps(metadata(c), option=orjson.OPT_INDENT_2)
    return meta, b"".join(orjson.dumps(e) + b"\n" for e in entries(c))


def write_store(folder: Path, c: C) -> Path:
    """`folder/<uuid>.json` + `.jsonl` + `.lock`, and a metadata-only session beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    meta, log = store_pair(c)
    (folder / f"{SID}.json").write_bytes(meta)
    (folder / f"{SID}.jsonl").write_bytes(log)
    (folder / f"{SID}.lock").write_bytes(b'{"pid":15852,"started_at":"2026-05-06T14:07:15.138012013Z"}')
    empty = "002b28fa-6155-43f6-a39d-cd9d19074bac"
    blank = metadata(c, turns=False)
    blank["session_id"] = empty
    (folder / f"{empty}.json").write_bytes(orjson.dumps(blank))
    (folder / f"{empty}.jsonl").write_bytes(b"")
    return folder / f"{SID}.json"


# -- ConversationState (/save) -------------------------------------------------------------------------

#: 3 prompts (one typed over a pending call); 5 responses; calls: execute_bash git status, fs_read,
#: fs_write, execute_bash rm (cancelled); 2 errors (an Error status, the cancelled call)
LEGACY_COUNTS = {"user": 3, "llm": 5, "calls": 4, "errors": 2}


def conversation(c: C, *, writer: str = "kiro") -> dict[str, Any]:
    def user(content: dict[str, Any], at: str | None) -> dict[str, Any]:
        return {"additional_context": c(), "env_context": {"env_state": {
            "operating_system": "linux", "current_working_directory": ROOT,
            "environment_variables": [{"key": "AWS_PROFILE", "value": c()}]}},
            "content": content, "timestamp": at, "images": None}

    def request(n: int, start: int, kind: str, model: str) -> dict[str, Any]:
        return {"request_id": _msg(100 + n), "message_id": _msg(n), "request_start_timestamp_ms": start,
                "stream_end_timestamp_ms": start + 4729, "time_to_first_chunk": {"secs": 2, "nanos": 302295583},
                "time_between_chunks": [{"secs": 0, "nanos": 20708}], "user_prompt_length": 1077,
                "response_size": 258, "chat_conversation_type": kind,
                "tool_use_ids_and_names": [["tooluse_x", c()]], "model_id": model, "message_meta_tags": []}

    def tool_use(n: int, text: str, *uses: dict[str, Any]) -> dict[str, Any]:
        return {"ToolUse": {"message_id": _msg(n), "content": text, "tool_uses": list(uses)}}

    def call(cid: str, name: str, **args: Any) -> dict[str, Any]:
        return {"id": cid, "name": name, "orig_name": name, "args": args, "orig_args": args}

    def res(cid: str, status: str, item: dict[str, Any]) -> dict[str, Any]:
        return {"tool_use_id": cid, "content": [item], "status": status}

    model = "claude-sonnet-4" if writer == "amazon-q" else "auto"
    ms = 1757131782627
    history = [
        {"user": user({"Prompt": {"prompt": c()}}, "2025-09-06T13:09:42.624664+09:00"),
         "assistant": tool_use(1, c(), call("tooluse_Q1", "execute_bash", command="git status", summary=c())),
         "request_metadata": request(1, ms, "ToolUse", model)},
        {"user": user({"ToolUseResults": {"tool_use_results": [
            res("tooluse_Q1", "Success", {"Json": {"exit_status": "0", "stdout": c(), "stderr": ""}})]}}, None),
         "assistant": tool_use(2, "", call("tooluse_Q2", "fs_read", operations=[{"mode": "Line", "path": f"{ROOT}/src/app.py"}]),
                               call("tooluse_Q3", "fs_write", command="str_replace", path=f"{ROOT}/src/app.py",
                                    old_str=c(), new_str=c(), summary=c())),
         "request_metadata": request(2, ms + 5000, "ToolUse", model)},
        {"user": user({"ToolUseResults": {"tool_use_results": [
            res("tooluse_Q2", "Success", {"Text": c()}), res("tooluse_Q3", "Error", {"Text": c()})]}}, None),
         "assistant": {"Response": {"message_id": _msg(3), "content": c()}},
         "request_metadata": request(3, ms + 15000, "NotToolUse", model)},
        {"user": user({"Prompt": {"prompt": c()}}, "2025-09-06T13:11:02.000000+09:00"),
         "assistant": tool_use(4, c(), call("tooluse_Q4", "execute_bash", command="rm -rf build", summary=c())),
         "request_metadata": request(4, ms + 80000, "ToolUse", model)},
        {"user": user({"CancelledToolUses": {"prompt": c(), "tool_use_results": [
            res("tooluse_Q4", "Error", {"Text": "Tool use was cancelled by the user"})]}}, "2025-09-06T13:11:30.000000+09:00"),
         "assistant": {"Response": {"message_id": _msg(5), "content": c()}},
         "request_metadata": request(5, ms + 108000, "NotToolUse", model)},
    ]
    info: dict[str, Any] = {"model_name": model, "model_id": model, "context_window_tokens": 200000}
    if writer == "kiro":
        info.update(description=c(), rate_multiplier=1.0, rate_unit="Credit")
    return {
        "conversation_id": LEGACY_ID, "next_message": None, "history": history, "valid_history_range": [0, 5],
        "transcript": [f"> {c()}", c()],
        "tools": {"native___": [{"ToolSpecification": {"name": "execute_bash", "description": c(),
                                                       "input_schema": {"json": {"type": "object"}}}}]},
        "context_manager": {"max_context_files_size": 150000,
                            "current_profile": "q_cli_default" if writer == "amazon-q" else "kiro_default",
                            "paths": ["AmazonQ.md", c()], "hooks": {}},
        "context_message_length": 23713, "latest_summary": None, "model_info": info,
        "file_line_tracker": {f"{ROOT}/src/app.py": {"prev_fswrite_lines": 135, "before_fswrite_lines": 134,
                                                    "after_fswrite_lines": 135, "lines_added_by_agent": 4,
                                                    "lines_removed_by_agent": 3, "is_first_write": False}},
        "mcp_enabled": True,
    }


def legacy(c: C, *, writer: str = "kiro") -> bytes:
    return orjson.dumps(conversation(c, writer=writer), option=orjson.OPT_INDENT_2)


AUTH_CANARY = "aoaAAAAAGkiroRefreshTokenZqxvSecret0123456789"


def legacy_db(path: Path, c: C | None = None) -> Path:
    """A v1 `data.sqlite3`: two conversations in `conversations_v2`, one more in the older
    `conversations` (and a copy of a v2 one), a login in `auth_kv`, a prompt history."""
    from tests.formats.jsonfix import plain

    c = c or plain()
    first = conversation(c)
    second = conversation(c, writer="amazon-q")
    second["conversation_id"] = "2f83607e-97a1-4b2c-8d3e-4f5a6b7c8d9e"
    third = conversation(c)
    third["conversation_id"] = "3a94718f-08b2-4c3d-9e4f-5a6b7c8d9e0f"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE migrations (id INTEGER PRIMARY KEY, version INTEGER, migration_time INTEGER);
        CREATE TABLE state (key TEXT PRIMARY KEY, value BLOB);
        CREATE TABLE history (id INTEGER PRIMARY KEY, command TEXT, shell TEXT, pid INTEGER, cwd TEXT);
        CREATE TABLE auth_kv (key TEXT PRIMARY KEY, value TEXT);
        CREATE TABLE conversations (key TEXT PRIMARY KEY, value TEXT);
        CREATE TABLE conversations_v2 (key TEXT, conversation_id TEXT, value TEXT, created_at INTEGER,
                                       updated_at INTEGER, PRIMARY KEY (key, conversation_id));
    """)
    db.execute("INSERT INTO auth_kv VALUES (?, ?)", ("codewhisperer:odic:token", orjson.dumps({"access_token": AUTH_CANARY}).decode()))
    db.execute("INSERT INTO history (command, shell, pid, cwd) VALUES (?, 'bash', 1, ?)", (c(), ROOT))
    for n, doc in enumerate((first, second)):
        db.execute("INSERT INTO conversations_v2 VALUES (?, ?, ?, ?, ?)",
                   (ROOT + f"/p{n}", doc["conversation_id"], orjson.dumps(doc).decode(), 1757131782627 + n, 1757131782627 + n))
    db.execute("INSERT INTO conversations VALUES (?, ?)", (ROOT + "/old", orjson.dumps(third).decode()))
    db.execute("INSERT INTO conversations VALUES (?, ?)", (ROOT + "/p0", orjson.dumps(first).decode()))
    db.commit()
    db.close()
    return path


# -- Kiro IDE (built from public readers' descriptions: there is no sample) ----------------------------

IDE_ID = "5b8e2f4a-9c1d-4e7f-8a3b-6c5d4e3f2a1b"
EXEC_ID = "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"
#: 2 prompts; replies: one read from its execution log (2 bot messages: executeBash git status, then
#: readFile + strReplace; 3 tool results), one whose log is not there (its own text and an
#: executeBash git log and a readFile, without results)
IDE_COUNTS = {"user": 2, "llm": 3, "calls": 5}


def ide_session(c: C) -> dict[str, Any]:
    return {"sessionId": IDE_ID, "title": c(), "workspaceDirectory": ROOT, "dateCreated": "1754006400000",
            "selectedModel": "claude-sonnet-4", "sessionType": "chat",
            "history": [
                {"message": {"role": "user", "content": [{"type": "text", "text": c()}], "id": "m-1"},
                 "contextItems": [{"path": f"{ROOT}/README.md", "content": c()}]},
                {"message": {"role": "assistant", "content": "On it.", "id": "m-2"}, "executionId": EXEC_ID,
                 "promptLogs": {"completion": c()}},
                {"message": {"role": "user", "content": c(), "id": "m-3"}},
                {"message": {"role": "assistant", "id": "m-4", "content": [
                    {"type": "text", "text": c()},
                    {"type": "tool_use", "id": "tooluse_I4", "name": "executeBash",
                     "input": {"command": "git log -3", "path": f"{ROOT}/src"}},
                    {"type": "tool_use", "id": "tooluse_I5", "name": "readFile", "input": {"path": f"{ROOT}/src/cart.py"}}]},
                 "executionId": "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d"},
            ]}


def ide_execution(c: C) -> dict[str, Any]:
    return {"executionId": EXEC_ID, "messagesFromExecutionId": [
        {"role": "human", "entries": [{"type": "text", "text": c()}]},
        {"role": "bot", "entries": [{"type": "text", "text": c()},
                                    {"type": "toolUse", "id": "tooluse_I1", "name": "executeBash",
                                     "input": {"command": "git status", "path": ROOT}}]},
        {"role": "tool", "entries": [{"type": "text", "text": c()}]},
        {"role": "bot", "entries": [{"type": "toolUse", "id": "tooluse_I2", "name": "readFile",
                                     "input": {"path": f"{ROOT}/src/app.py"}},
                                    {"type": "toolUse", "id": "tooluse_I3", "name": "strReplace",
                                     "input": {"path": f"{ROOT}/src/app.py", "oldStr": c(), "newStr": c()}}]},
        {"role": "tool", "entries": [{"type": "text", "text": c()}]},
        {"role": "tool", "entries": [{"type": "text", "text": c()}]},
    ]}


def ide_tree(agent_dir: Path, c: C) -> Path:
    """`agent_dir` (a `kiro.kiroagent/`) with one workspace's index and session, and the execution log."""
    import base64

    workspace = agent_dir / "workspace-sessions" / base64.urlsafe_b64encode(ROOT.encode()).decode().rstrip("=")
    workspace.mkdir(parents=True)
    session = workspace / f"{IDE_ID}.json"
    session.write_bytes(orjson.dumps(ide_session(c), option=orjson.OPT_INDENT_2))
    (workspace / "sessions.json").write_bytes(orjson.dumps([{"sessionId": IDE_ID, "title": c(),
                                                             "dateCreated": "1754006400000",
                                                             "workspaceDirectory": ROOT}]))
    logs = agent_dir / ("ab" * 16) / "0123abcd"
    logs.mkdir(parents=True)
    (logs / "f3e2d1c0b9a8").write_bytes(orjson.dumps(ide_execution(c)))
    return session


def ide_assembly(c: C) -> bytes:
    return orjson.dumps({"kiroIde": "session", "session": ide_session(c), "executions": [ide_execution(c)]})


def ide_session_bytes(c: C) -> bytes:
    return orjson.dumps(ide_session(c), option=orjson.OPT_INDENT_2)


# -- Kiro's session store ~/.kiro/sessions/<workspace>/sess_<id>/ (no public sample: built from the
# -- public descriptions of session.json and messages.jsonl, see redact/formats/kiro_ide_log/) -------

STORE_ID = "sess_7f3a9c21b04e"
STORE_WORKSPACE = "a1b2c3d4e5f6"
#: What the log holds: 2 prompts (one with an image); 4 responses (one with reasoning); calls:
#: executeBash npm test (error), readFile src/app.ts, fsWrite notes.md, a reviewer subagent; a
#: compaction summary; the second turn cancelled.
STORE_COUNTS = {"user": 2, "llm": 4, "calls": 4, "errors": 1}


def store_events(c: C) -> list[dict[str, Any]]:
    def ev(n: int, sec: int, **payload: Any) -> dict[str, Any]:
        return {"id": f"evt_{n:04d}", "timestamp": f"2026-09-04T11:{sec // 60:02d}:{sec % 60:02d}.286Z",
                "payload": payload}

    return [
        ev(1, 0, type="session_start"),
        ev(2, 1, type="turn_start"),
        ev(3, 2, type="user", content=c(), images=[{"data": "AAAA", "mimeType": "image/png"}],
           documents=[{"id": "file:///home/dana/src/shop/README.md", "displayName": c(), "content": c()}]),
        ev(4, 3, type="steering_inclusion", documents=[{"id": "file:///home/dana/.kiro/steering/rules.md",
                                                         "content": c()}]),
        ev(5, 5, type="assistant", operationType="Reasoning", content=c(), reasoningSignature="EqkCsig" + c()),
        ev(6, 6, type="assistant", operationType="Say", content=c()),
        ev(7, 7, type="tool_call", toolCallId="tooluse_01", toolName="executeBash",
           args={"command": "npm test -- --watch=false", "path": f"{ROOT}"}),
        ev(8, 9, type="tool_call", toolCallId="tooluse_02", toolName="readFile", args={"path": f"{ROOT}/src/app.ts"}),
        ev(9, 20, type="tool_result", toolCallId="tooluse_01", content=c(), isError=True),
        ev(10, 21, type="tool_result", toolCallId="tooluse_02", content=c()),
        ev(11, 23, type="tool_call", toolCallId="tooluse_03", toolName="fsWrite",
           args={"path": f"{ROOT}/notes.md", "text": c()}),
        ev(12, 24, type="tool_result", toolCallId="tooluse_03", content=c(), status="success"),
        ev(13, 26, type="sub_agent_start", subSessionId="sess_child01", subAgentName="reviewer", prompt=c()),
        ev(14, 50, type="sub_agent_complete", subSessionId="sess_child01", response=c()),
        ev(15, 52, type="assistant", operationType="Say", content=c()),
        ev(16, 53, type="usage_summary", executionId="exec-1", promptTurnSummaries=[{"unit": "credit", "usage": 0.42}]),
        ev(17, 54, type="turn_end", stopReason="end_turn"),
        ev(18, 60, type="tombstone", kind="summarization", effectiveFromMessageId="evt_0003"),
        ev(19, 61, type="assistant", operationType="Summary", content=c()),
        ev(20, 70, type="turn_start"),
        ev(21, 71, type="user", content=c(), images=[], documents=[]),
        ev(22, 72, type="pending_interaction"),
        ev(23, 80, type="turn_end", stopReason="cancelled"),
    ]


def store_session(c: C, **more: Any) -> dict[str, Any]:
    return {"id": STORE_ID, "title": c(), "workspacePaths": [ROOT], "rootPaths": [ROOT], "model": "claude-sonnet-4.5",
            "status": "idle", "lastModifiedAt": "2026-09-04T11:01:25.000Z", **more}


def store_log(c: C) -> bytes:
    return b"".join(orjson.dumps(e) + b"\n" for e in store_events(c))


def write_ide_store(home: Path, c: C, *, log: bool = True, **more: Any) -> Path:
    """The session under `home/.kiro/sessions/<workspace>/sess_<id>/`; its messages.jsonl (or its
    session.json when `log` is False)."""
    folder = home / ".kiro" / "sessions" / STORE_WORKSPACE / STORE_ID
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "session.json").write_bytes(orjson.dumps(store_session(c, **more), option=orjson.OPT_INDENT_2))
    if log:
        (folder / "messages.jsonl").write_bytes(store_log(c))
        return folder / "messages.jsonl"
    return folder / "session.json"
