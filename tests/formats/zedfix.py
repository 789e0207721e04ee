"""A small Zed `threads.db` of our own, modelled on the real one (Zed 0.3.0 threads: `threads(id,
summary, updated_at, data_type, data, parent_id, folder_paths, folder_paths_order, created_at)`,
`data` zstd-compressed JSON) and on Zed's thread types as its source defines them (`User` / `Agent`
/ `"Resume"` messages, externally tagged content items, `tool_results` keyed by tool-use id,
`request_token_usage` keyed by user message id).

Every free-text slot takes its value from `text(slot)`, so a property test can plant a canary in each.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import zstandard

Text = Callable[[str], str]
SCHEMA = """CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL,
  data_type TEXT NOT NULL, data BLOB NOT NULL, parent_id TEXT, folder_paths TEXT, folder_paths_order TEXT,
  created_at TEXT)"""
ROOT = "/home/dana/src/shop"
TID = "4a1f6e2c-9b3d-4c7e-8f10-2d3c4b5a6e7f"
LEGACY_TID = "5b2a7f3d-0c4e-4d8f-9a21-3e4d5c6b7a80"
U1, U2 = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a", "0e9d8c7b-6a5f-4e4d-9c3b-2a1f0e9d8c7b"
#: What the fixture thread holds (the tests count against these, not against the reader).
COUNTS = {"user": 2, "llm": 4, "calls": 6, "shell": 2, "edits": 1, "reads": 1, "errors": 1,
          "in": 5200, "out": 310, "cr": 1200, "cw": 40}


def _plain(slot: str) -> str:
    return f"some words for {slot.replace('.', ' ')}"


def thread(text: Text = _plain, *, root: str = ROOT) -> dict[str, object]:
    name = root.rstrip("/").rsplit("/", 1)[-1]

    def use(cid: str, tool: str, inp: dict[str, object]) -> dict[str, object]:
        return {"ToolUse": {"id": cid, "name": tool, "raw_input": json.dumps(inp), "input": inp,
                            "is_input_complete": True, "thought_signature": text("signature")}}

    def res(cid: str, tool: str, out: str, error: bool = False) -> dict[str, object]:
        return {"tool_use_id": cid, "tool_name": tool, "is_error": error, "content": {"Text": out}, "output": out}

    agent1 = {"Agent": {"content": [{"Thinking": {"text": text("thinking.text"), "signature": text("sig")}},
                                    {"Text": text("reply.text")},
                                    use("read_file-1", "read_file", {"path": f"{name}/src/app.py"}),
                                    use("terminal-2", "terminal", {"command": "pytest -q " + text("pytest.arg").split()[0],
                                                                   "cd": name})],
                        "tool_results": {"read_file-1": res("read_file-1", "read_file", text("read.output")),
                                         "terminal-2": res("terminal-2", "terminal", text("term.output"), True)},
                        "reasoning_details": None}}
    agent2 = {"Agent": {"content": [use("edit_file-3", "edit_file", {"path": f"{name}/src/app.py",
                                                                     "display_description": text("edit.desc"),
                                                                     "mode": "edit"}),
                                    use("grep-4", "grep", {"regex": text("grep.regex"), "include_pattern": "**/*.py"})],
                        "tool_results": {"edit_file-3": res("edit_file-3", "edit_file", text("edit.output")),
                                         "grep-4": res("grep-4", "grep", text("grep.output"))},
                        "reasoning_details": {"opaque": text("reasoning.details")}}}
    agent3 = {"Agent": {"content": [{"RedactedThinking": text("redacted")}, {"Text": text("reply2.text")},
                                    use("terminal-5", "terminal", {"command": "git status", "cd": name}),
                                    use("fetch-6", "fetch", {"url": "https://docs.example.com/" +
                                                             text("url.path").split()[0]})],
                        "tool_results": {"terminal-5": res("terminal-5", "terminal", text("git.output")),
                                         "fetch-6": res("fetch-6", "fetch", text("fetch.output"))},
                        "reasoning_details": None}}
    agent4 = {"Agent": {"content": [{"Text": text("reply3.text")}], "tool_results": {}, "reasoning_details": None}}
    return {
        "title": text("title"),
        "messages": [
            {"User": {"id": U1, "content": [{"Text": text("prompt.text")},
                                            {"Mention": {"uri": {"File": {"abs_path": root + "/secret.txt"}},
                                                         "content": text("mention.content")}}]}},
            agent1, agent2, "Resume",
            {"User": {"id": U2, "content": [{"Text": text("prompt2.text")}, {"Image": {"source": text("image")}}]}},
            agent3, agent4,
        ],
        "updated_at": "2026-03-01T10:05:00.123456789Z",
        "detailed_summary": text("detailed"),
        "initial_project_snapshot": {
            "timestamp": "2026-03-01T10:00:00.000000001Z",
            "worktree_snapshots": [{"worktree_path": root, "git_state": {
                "remote_url": "https://github.com/dana/shop.git", "head_sha": "ecafe692489c30a66cc2ce15591f1770d47d2100",
                "current_branch": "main", "diff": text("git.diff")}}],
            "unsaved_buffer_paths": [root + "/notes.txt"]},
        "cumulative_token_usage": {"input_tokens": 99999, "output_tokens": 9999},
        "request_token_usage": {U1: {"input_tokens": 3000, "output_tokens": 200, "cache_read_input_tokens": 1200},
                                U2: {"input_tokens": 2200, "output_tokens": 110, "cache_creation_input_tokens": 40},
                                "not-a-message": {"input_tokens": 777777}},
        "model": {"provider": "anthropic", "model": "Claude Sonnet 4"},
        "profile": "write", "completion_mode": "normal", "imported": False,
        "version": "0.3.0",
    }


def legacy(text: Text = _plain) -> dict[str, object]:
    """A thread of the older layout (version 0.2.0: messages with `role` and `segments`)."""
    return {"version": "0.2.0", "summary": text("legacy.summary"), "updated_at": "2025-05-01T10:00:00Z",
            "messages": [{"id": 0, "role": "user", "segments": [{"type": "text", "text": text("legacy.prompt")}],
                          "tool_uses": [], "tool_results": [], "context": text("legacy.context")}]}


def threads_db(path: Path, text: Text = _plain, *, root: str = ROOT, with_legacy: bool = False,
               data_type: str = "zstd", blob: bytes | None = None) -> None:
    """A threads.db with the fixture thread (and a 0.2.0 thread with `with_legacy`); `blob` replaces
    the thread's data as written (a bomb, a damaged frame)."""
    db = sqlite3.connect(path)
    db.execute(SCHEMA)
    raw = json.dumps(thread(text, root=root)).encode()
    data = blob if blob is not None else (zstandard.ZstdCompressor(level=3).compress(raw) if data_type == "zstd" else raw)
    db.execute("INSERT INTO threads VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?)",
               (TID, text("summary"), "2026-03-01T10:05:00.123456789+00:00", data_type, data, root, "0",
                "2026-03-01T10:00:00.000000001+00:00"))
    if with_legacy:
        db.execute("INSERT INTO threads VALUES (?, ?, ?, 'json', ?, NULL, NULL, NULL, NULL)",
                   (LEGACY_TID, text("legacy.title"), "2025-05-01T10:00:00+00:00", json.dumps(legacy(text)).encode()))
    db.commit()
    db.close()
