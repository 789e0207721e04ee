"""Small SQLite session stores of our own, modelled on the shapes of the real ones (opencode 1.x
`opencode.db`, Crush's `crush.db`, Cursor's `state.vscdb`), built with sqlite3 in a test's tmp_path.

Every free-text slot takes its value from `text(slot)` (default: a fixed phrase), so a property test
can plant a fresh canary in each; the credential tables and keys the stores keep beside the sessions
hold `SECRET` values, which must never reach any output.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

SECRET = "sk-ant-api03-PLANTEDcredentialVALUE0000000000000000000000000000"
CRED_EMAIL = "dana.planted@example.org"
Text = Callable[[str], str]


def _plain(slot: str) -> str:
    return f"some words for {slot.replace('.', ' ')}"


def _j(value: object) -> str:
    return json.dumps(value)


# -- opencode ---------------------------------------------------------------------------------------

OPENCODE_SCHEMA = """
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, name text, time_created integer NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL,
  directory text NOT NULL, title text NOT NULL, version text NOT NULL, share_url text,
  time_created integer NOT NULL, time_updated integer NOT NULL, agent text, model text,
  tokens_input integer DEFAULT 0 NOT NULL);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE account (id text PRIMARY KEY, email text NOT NULL, url text NOT NULL, access_token text NOT NULL,
  refresh_token text NOT NULL, token_expiry integer, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE control_account (email text NOT NULL, url text NOT NULL, access_token text NOT NULL,
  refresh_token text NOT NULL, active integer NOT NULL);
CREATE TABLE credential (id text PRIMARY KEY, value text NOT NULL);
CREATE TABLE session_share (session_id text PRIMARY KEY, id text NOT NULL, secret text NOT NULL, url text NOT NULL);
CREATE TABLE todo (session_id text NOT NULL, content text NOT NULL, status text NOT NULL, position integer NOT NULL);
"""
ROOT = "/home/dana/src/shop"
T0 = 1_781_674_674_000
#: What the fixture session holds (the tests count against these, not against the reader).
OPENCODE_COUNTS = {"user": 2, "llm": 3, "calls": 8, "shell": 2, "edits": 3, "read": 1, "search": 1, "tool": 1,
                   "in": 1200 + 900 + 300, "out": 40 + 5 + 60 + 10}


def opencode_db(path: Path, text: Text = _plain, *, sid: str = "ses_12be9f828ffeaiYkWjPssYhKmB",
                extra_session: bool = False, keep_open: bool = False) -> sqlite3.Connection | None:
    """An opencode.db with one session (two with `extra_session`): 2 prompts, 3 model responses,
    bash (one failing), write (created), edit, read, grep, a question, a reasoning part."""
    db = sqlite3.connect(path)
    if keep_open:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
    db.executescript(OPENCODE_SCHEMA)
    db.execute("INSERT INTO account VALUES ('acc', ?, 'https://opencode.ai', ?, ?, 0, 1, 1)",
               (CRED_EMAIL, SECRET, SECRET))
    db.execute("INSERT INTO control_account VALUES (?, 'https://x', ?, ?, 1)", (CRED_EMAIL, SECRET, SECRET))
    db.execute("INSERT INTO credential VALUES ('c', ?)", (SECRET,))
    db.execute("INSERT INTO session_share VALUES (?, 'sh', ?, 'https://opncd.ai/s/x')", (sid, SECRET))
    db.execute("INSERT INTO todo VALUES (?, ?, 'pending', 0)", (sid, text("todo.content")))
    db.execute("INSERT INTO project VALUES ('global', ?, ?, ?)", (ROOT, text("project.name"), T0))
    sessions = [sid] + (["ses_22be9f828ffeaiYkWjPssYhKmC"] if extra_session else [])
    for s in sessions:
        db.execute("INSERT INTO session (id, project_id, slug, directory, title, version, share_url, "
                   "time_created, time_updated, agent, model) VALUES (?, 'global', ?, ?, ?, '1.17.3', ?, ?, ?, "
                   "'build', ?)", (s, text("session.slug"), ROOT, text("session.title"), text("session.share_url"),
                                   T0, T0 + 9000, _j({"id": "moonshotai/kimi-k2.6", "providerID": "opencode"})))
    n = [0]

    def msg(s: str, t: int, data: dict[str, object]) -> str:
        n[0] += 1
        mid = f"msg_{n[0]:04d}{s[-6:]}"
        db.execute("INSERT INTO message VALUES (?, ?, ?, ?, ?)", (mid, s, t, t, _j(data)))
        return mid

    def part(s: str, mid: str, t: int, data: dict[str, object]) -> None:
        n[0] += 1
        db.execute("INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)", (f"prt_{n[0]:04d}", mid, s, t, t, _j(data)))

    def tool(s: str, mid: str, t: int, name: str, inp: dict[str, object], status: str = "completed",
             output: str = "", meta: dict[str, object] | None = None, error: str | None = None) -> None:
        state: dict[str, object] = {"status": status, "input": inp, "title": text(f"{name}.title"),
                                    "time": {"start": t, "end": t + 30}}
        if status == "completed":
            state.update(output=output, metadata=meta or {})
        if error is not None:
            state["error"] = error
        part(s, mid, t, {"type": "tool", "tool": name, "callID": f"functions.{name}:{n[0]}", "state": state})

    for s in sessions:
        u1 = msg(s, T0 + 100, {"role": "user", "time": {"created": T0 + 100}, "agent": "build",
                               "model": {"providerID": "opencode", "modelID": "moonshotai/kimi-k2.6"}})
        part(s, u1, T0 + 100, {"type": "text", "text": text("prompt.text")})
        part(s, u1, T0 + 100, {"type": "text", "text": text("prompt.synthetic"), "synthetic": True})
        a1 = msg(s, T0 + 200, {"role": "assistant", "parentID": u1, "modelID": "moonshotai/kimi-k2.6",
                               "providerID": "opencode", "path": {"cwd": ROOT, "root": ROOT}, "cost": 0.01,
                               "time": {"created": T0 + 200, "completed": T0 + 2200}, "finish": "tool-calls",
                               "tokens": {"input": 1200, "output": 40, "reasoning": 5,
                                          "cache": {"read": 100, "write": 0}}})
        part(s, a1, T0 + 210, {"type": "step-start", "snapshot": "abc"})
        part(s, a1, T0 + 220, {"type": "reasoning", "text": text("reasoning.text")})
        part(s, a1, T0 + 230, {"type": "text", "text": text("reply.text")})
        tool(s, a1, T0 + 300, "bash", {"command": "git status && ls " + text("bash.arg").split()[0],
                                        "description": text("bash.description")},
             output=text("bash.output"), meta={"exit": 0, "output": text("bash.meta.output")})
        tool(s, a1, T0 + 400, "bash", {"command": "pytest -q", "description": text("bash2.description")},
             output=text("bash2.output"), meta={"exit": 1})
        tool(s, a1, T0 + 500, "write", {"filePath": ROOT + "/src/app.py", "content": text("write.content")},
             output="Wrote file successfully.", meta={"exists": False, "filepath": ROOT + "/src/app.py"})
        part(s, a1, T0 + 590, {"type": "step-finish", "reason": "tool-calls",
                               "tokens": {"input": 1200, "output": 45}, "cost": 0.01})
        a2 = msg(s, T0 + 600, {"role": "assistant", "parentID": u1, "modelID": "moonshotai/kimi-k2.6",
                               "time": {"created": T0 + 600, "completed": T0 + 900}, "finish": "tool-calls",
                               "tokens": {"input": 900, "output": 60, "reasoning": 0, "cache": {"read": 0, "write": 0}}})
        tool(s, a2, T0 + 610, "edit", {"filePath": ROOT + "/src/app.py", "oldString": text("edit.old"),
                                       "newString": text("edit.new")},
             output="Edit applied successfully.", meta={"diff": text("edit.diff")})
        tool(s, a2, T0 + 620, "read", {"filePath": ROOT + "/README.md"}, output=text("read.output"))
        tool(s, a2, T0 + 630, "grep", {"pattern": text("grep.pattern"), "include": "*.py"},
             output=text("grep.output"), meta={"matches": 1})
        tool(s, a2, T0 + 640, "question", {"questions": [{"question": text("question.text")}]}, status="running")
        u2 = msg(s, T0 + 5000, {"role": "user", "time": {"created": T0 + 5000}})
        part(s, u2, T0 + 5000, {"type": "text", "text": text("prompt2.text")})
        a3 = msg(s, T0 + 5100, {"role": "assistant", "modelID": "moonshotai/kimi-k2.6",
                                "time": {"created": T0 + 5100, "completed": T0 + 5300}, "finish": "stop",
                                "tokens": {"input": 300, "output": 10, "reasoning": 0, "cache": {"read": 0, "write": 0}},
                                "error": {"name": "APIError", "data": {"message": text("error.message")}}})
        tool(s, a3, T0 + 5200, "edit", {"filePath": ROOT + "/src/app.py", "oldString": "a", "newString": "b"},
             status="error", error=text("edit.error"))
    db.commit()
    if keep_open:
        return db  # the caller closes it: until then the rows sit in the -wal file only
    db.close()
    return None


# -- Crush ------------------------------------------------------------------------------------------

CRUSH_SCHEMA = """
CREATE TABLE goose_db_version (id INTEGER PRIMARY KEY AUTOINCREMENT, version_id INTEGER NOT NULL,
  is_applied INTEGER NOT NULL, tstamp TIMESTAMP DEFAULT (datetime('now')));
CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL,
  message_count INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0, cost REAL NOT NULL DEFAULT 0.0, updated_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL, summary_message_id TEXT);
CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL,
  parts TEXT NOT NULL default '[]', model TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
  finished_at INTEGER, provider TEXT);
CREATE TABLE files (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, path TEXT NOT NULL, content TEXT NOT NULL,
  version INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
"""
CRUSH_SID = "5ab22793-cccf-4152-bd86-0961dbffd0f6"
#: calls: bash x2 (one failing), view, multiedit, write, ls, fetch
# the last assistant message holds only a failed finish: an error, no model response
CRUSH_COUNTS = {"user": 2, "llm": 2, "calls": 7, "shell": 2, "edits": 2, "errors": 1}


def crush_db(path: Path, text: Text = _plain, *, root: str = ROOT) -> None:
    db = sqlite3.connect(path)
    db.executescript(CRUSH_SCHEMA)
    db.execute("INSERT INTO goose_db_version (version_id, is_applied) VALUES (20250627000000, 1)")
    t0 = 1_754_564_150
    db.execute("INSERT INTO sessions VALUES (?, NULL, ?, 8, 15361, 146, 0.48, ?, ?, NULL)",
               (CRUSH_SID, text("session.title"), t0 + 90, t0))
    db.execute("INSERT INTO files VALUES ('f', ?, ?, ?, 0, ?, ?)", (CRUSH_SID, root + "/main.go",
                                                                 text("files.content"), t0, t0))
    n = [0]

    def msg(role: str, t: int, parts: list[dict[str, object]], model: str | None = None) -> None:
        n[0] += 1
        db.execute("INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (f"m{n[0]}", CRUSH_SID, role, _j(parts), model, t, t, t + 2, "openai" if model else None))

    def call(cid: str, name: str, inp: dict[str, object]) -> dict[str, object]:
        return {"type": "tool_call", "data": {"id": cid, "name": name, "input": _j(inp), "type": "function",
                                              "finished": True}}

    def res(cid: str, content: str, error: bool = False) -> dict[str, object]:
        return {"type": "tool_result", "data": {"tool_call_id": cid, "name": "", "content": content,
                                                "metadata": _j({"old_content": text("meta.old")}), "is_error": error}}

    stop: dict[str, object] = {"type": "finish", "data": {"reason": "stop", "time": 0}}
    msg("user", t0 + 1, [{"type": "text", "data": {"text": text("prompt.text")}}, stop])
    msg("assistant", t0 + 2, [{"type": "text", "data": {"text": text("reply.text")}},
                              {"type": "reasoning", "data": {"thinking": text("reasoning.text")}},
                              call("c1", "bash", {"command": "go build ./... && go vet", "description": text("d1")}),
                              call("c2", "bash", {"command": "make " + text("make.target").split()[0]}),
                              call("c3", "view", {"file_path": root + "/main.go"}),
                              call("c4", "multiedit", {"file_path": root + "/main.go",
                                                       "edits": [{"old_string": text("edit.old"),
                                                                  "new_string": text("edit.new")}]}),
                              {"type": "finish", "data": {"reason": "tool_use", "time": t0 + 3}}], "gpt-4o")
    msg("tool", t0 + 4, [res("c1", text("c1.out")), res("c2", text("c2.out"), error=True),
                         res("c3", text("c3.out")), res("c4", text("c4.out")), stop])
    msg("assistant", t0 + 5, [call("c5", "write", {"file_path": root + "/README.md", "content": text("write.content")}),
                              call("c6", "ls", {"path": root}),
                              call("c7", "fetch", {"url": "https://docs.example.com/" + text("url.path").split()[0]}),
                              {"type": "finish", "data": {"reason": "tool_use", "time": t0 + 6}}], "gpt-4o")
    msg("tool", t0 + 7, [res("c5", "ok"), res("c6", text("c6.out")), res("c7", text("c7.out")), stop])
    msg("user", t0 + 8, [{"type": "text", "data": {"text": text("prompt2.text")}}, stop])
    msg("assistant", t0 + 9, [{"type": "finish", "data": {"reason": "error", "time": t0 + 9,
                                                         "message": text("finish.message"),
                                                         "details": text("finish.details")}}], "gpt-4o")
    db.commit()
    db.close()


# -- Cursor -----------------------------------------------------------------------------------------

CURSOR_CID = "75551d8c-e91c-461d-a120-c2097f755ba4"
ENC_KEY = "gtDOzHKpdS2n1XL41JaqOh0Jleu9PmCZPhsPLANTEDkey"
#: 2 prompts; 2 agent turns; calls: read_file_v2, edit_file_v2, run_terminal_command_v2 (pytest,
#: failing), glob_file_search, read_lints
CURSOR_COUNTS = {"user": 2, "llm": 2, "calls": 5, "shell": 1, "edits": 1, "in": 500, "out": 70}


def _vscdb(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);"
                     "CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);")
    db.execute("INSERT INTO ItemTable VALUES ('cursorAuth/accessToken', ?)", (SECRET,))
    db.execute("INSERT INTO ItemTable VALUES ('cursorAuth/cachedEmail', ?)", (CRED_EMAIL,))
    return db


def cursor_global_db(path: Path, text: Text = _plain, *, root: str = ROOT, workspace: str | None = None,
                     git_repos: list[str] | None = None) -> None:
    """`workspace`: the folder the composer's workspace names (default: `root`); `git_repos`: its
    `trackedGitRepos` (none by default)."""
    db = _vscdb(path)
    workspace = root if workspace is None else workspace
    bubbles: list[tuple[str, dict[str, object]]] = []

    def tool(name: str, params: dict[str, object], status: str = "completed", result: str = "{}") -> dict[str, object]:
        return {"toolCallId": f"tool_{len(bubbles)}", "name": name, "status": status, "params": _j(params),
                "rawArgs": _j(params), "result": result, "toolCallBinary": text("tool.binary"),
                "additionalData": {"status": "error" if status == "error" else "success"}}

    def bubble(kind: int, at: str, **fields: object) -> None:
        bid = f"b{len(bubbles):03d}-0000-4000-8000-000000000000"
        bubbles.append((bid, {"_v": 3, "type": kind, "bubbleId": bid, "createdAt": at,
                              "tokenCount": {"inputTokens": 0, "outputTokens": 0}, **fields}))

    bubble(1, "2026-07-07T04:13:44.885Z", text=text("prompt.text"), modelInfo={"modelName": "composer-2.5"},
           richText=text("prompt.rich"))
    bubble(2, "2026-07-07T04:13:48.858Z", thinking={"text": text("thinking.text")}, thinkingDurationMs=10,
           tokenCount={"inputTokens": 300, "outputTokens": 50})
    bubble(2, "2026-07-07T04:13:49.000Z", toolFormerData=tool("read_file_v2", {"targetFile": root + "/pom.xml"},
                                                              result=_j({"contents": text("read.contents")})))
    bubble(2, "2026-07-07T04:13:50.000Z", toolFormerData=tool("edit_file_v2", {"relativeWorkspacePath": root + "/pom.xml"}))
    bubble(2, "2026-07-07T04:13:51.000Z", toolFormerData=tool(
        "run_terminal_command_v2", {"command": "cd " + root + " && pytest -q " + text("pytest.arg").split()[0]},
        status="error", result=_j({"output": text("term.output")})))
    bubble(2, "2026-07-07T04:13:52.000Z", text=text("reply.text"))
    bubble(1, "2026-07-07T04:20:00.000Z", text=text("prompt2.text"))
    bubble(2, "2026-07-07T04:20:01.000Z", toolFormerData=tool("glob_file_search", {"targetDirectory": root,
                                                                                 "globPattern": text("glob")}),
           tokenCount={"inputTokens": 200, "outputTokens": 20})
    bubble(2, "2026-07-07T04:20:02.000Z", toolFormerData=tool("read_lints", {"paths": [root + "/src"]}))
    composer = {"_v": 16, "composerId": CURSOR_CID, "text": text("composer.text"), "name": text("composer.name"),
                "fullConversationHeadersOnly": [{"bubbleId": bid, "type": b["type"]} for bid, b in bubbles],
                "createdAt": 1783397624574, "lastUpdatedAt": 1783398307759, "status": "completed",
                "modelConfig": {"modelName": "composer-2.5"}, "unifiedMode": "agent",
                "blobEncryptionKey": ENC_KEY, "speculativeSummarizationEncryptionKey": ENC_KEY,
                "workspaceIdentifier": {"id": "60f9", "uri": {"fsPath": workspace, "path": workspace,
                                                              "scheme": "file"}},
                **({"trackedGitRepos": [{"repoPath": r, "branches": [{"branchName": "main",
                                                                      "lastInteractionAt": 1783398484592}]}
                                        for r in git_repos]} if git_repos is not None else {}),
                "originalFileStates": {"file://" + root + "/pom.xml": {"contentKey": "ofsContent:x"}}}
    db.execute("INSERT INTO cursorDiskKV VALUES (?, ?)", (f"composerData:{CURSOR_CID}", _j(composer)))
    db.execute("INSERT INTO cursorDiskKV VALUES ('composerData:empty-state-draft', NULL)")
    for bid, b in bubbles:
        db.execute("INSERT INTO cursorDiskKV VALUES (?, ?)", (f"bubbleId:{CURSOR_CID}:{bid}", _j(b)))
    db.execute("INSERT INTO cursorDiskKV VALUES ('ofsContent:x', ?)", (text("file.content"),))
    db.execute("INSERT INTO cursorDiskKV VALUES ('agentKv:blob:1', ?)", (text("agentkv"),))
    db.commit()
    db.close()


def cursor_workspace_db(path: Path, text: Text = _plain) -> None:
    db = _vscdb(path)
    db.execute("DROP TABLE cursorDiskKV")
    chat = {"tabs": [{"tabId": "dc0c019d-8edf-46e6-a8ad-7cc1b8493960", "chatTitle": text("tab.title"),
                      "lastSendTime": 1701637651438,
                      "bubbles": [{"type": "user", "id": "1a0f8cde-85fa-4be4-a6bf-4624957fbc99",
                                   "text": text("tab.prompt"), "rawText": text("tab.raw")},
                                  {"type": "ai", "id": "2a0f8cde-85fa-4be4-a6bf-4624957fbc99",
                                   "text": text("tab.reply"), "modelType": "gpt-4"}]},
                     {"tabId": "8c5ad279-32b6-47f6-8152-275d10c7a416", "chatTitle": "New chat", "bubbles": []}]}
    db.execute("INSERT INTO ItemTable VALUES ('workbench.panel.aichat.view.aichat.chatdata', ?)", (_j(chat),))
    db.execute("INSERT INTO ItemTable VALUES ('aiService.prompts', ?)", (_j([{"text": text("aiservice")}]),))
    db.commit()
    db.close()
