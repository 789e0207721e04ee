"""Goose sessions of our own, built from Goose's own source (`crates/goose/src/conversation/message.rs`:
`Message {id, role, created, content, metadata}`, `MessageContent` tagged by `type` in camelCase, a
tool call and result as `{status: success, value} | {status: error, error}`; the session storage's
metadata line and the `sessions.db` schema) and from the fragments of the corpus for the older
generations (Rust-enum items of February 2025, untagged items of late 2024).

Every free-text slot takes its value from `text(slot)`, so a property test can plant a canary in each.
"""
from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

Text = Callable[[str], str]
ROOT = "/home/dana/src/shop"
SID = "20260301_1"
T0 = 1_772_359_200
#: What the 2025 session holds (the tests count against these, not against the reader).
COUNTS = {"user": 2, "llm": 4, "calls": 5, "shell": 2, "edits": 1, "reads": 1, "failed": 1, "skipped_items": 1}
DB_SCHEMA = """
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
  user_set_name BOOLEAN DEFAULT FALSE, session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL,
  created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
  extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER,
  accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER,
  schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
  role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL,
  timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT);
"""


def _plain(slot: str) -> str:
    return f"some words for {slot.replace('.', ' ')}"


def messages(text: Text = _plain, *, root: str = ROOT) -> list[dict[str, object]]:
    n = iter(range(1000))

    def msg(role: str, dt: int, *content: dict[str, object]) -> dict[str, object]:
        return {"id": f"msg_{next(n)}", "role": role, "created": T0 + dt, "content": list(content),
                "metadata": {"userVisible": True, "agentVisible": True}}

    def call(cid: str, name: str, args: dict[str, object]) -> dict[str, object]:
        return {"type": "toolRequest", "id": cid, "toolCall": {"status": "success", "value": {"name": name,
                                                                                              "arguments": args}}}

    def ok(cid: str, out: str, *, wrapped: bool = False) -> dict[str, object]:
        items = [{"type": "text", "text": out, "annotations": {"audience": ["assistant"]}}]
        value: object = {"content": items, "isError": False} if wrapped else items
        return {"type": "toolResponse", "id": cid, "toolResult": {"status": "success", "value": value}}

    def failed(cid: str, why: str) -> dict[str, object]:
        return {"type": "toolResponse", "id": cid, "toolResult": {"status": "error", "error": why}}

    def txt(slot: str) -> dict[str, object]:
        return {"type": "text", "text": text(slot)}

    return [
        msg("user", 0, txt("prompt.text")),
        msg("assistant", 5, txt("reply.text"),
            call("toolu_01", "developer__shell", {"command": "pytest -q " + text("pytest.arg").split()[0]}),
            call("toolu_02", "developer__text_editor", {"command": "view", "path": root + "/src/app.py"})),
        msg("user", 9, failed("toolu_01", text("pytest.error")), ok("toolu_02", text("view.output"), wrapped=True)),
        msg("assistant", 12, {"type": "thinking", "thinking": text("thinking"), "signature": text("signature")},
            call("toolu_03", "developer__text_editor", {"command": "write", "path": root + "/src/new.py",
                                                        "file_text": text("file.text")}),
            call("toolu_04", "memory__remember_memory", {"category": text("memory.category"),
                                                         "data": text("memory.data")})),
        msg("user", 15, ok("toolu_03", text("write.output")), ok("toolu_04", text("memory.output"))),
        msg("assistant", 18, txt("reply2.text"), {"type": "summarizationRequested", "msg": text("summary")}),
        msg("user", 60, txt("prompt2.text"), {"type": "image", "data": text("image"), "mimeType": "image/png"}),
        msg("assistant", 64, {"type": "redactedThinking", "data": text("redacted")},
            call("toolu_05", "developer__shell", {"command": "git status"})),
        msg("user", 66, ok("toolu_05", text("git.output"))),
    ]


def metadata(text: Text = _plain, *, root: str = ROOT) -> dict[str, object]:
    return {"working_dir": root, "description": text("description"), "message_count": 9, "total_tokens": 12710,
            "input_tokens": 11685, "output_tokens": 1025, "accumulated_total_tokens": 75280,
            "accumulated_input_tokens": 72872, "accumulated_output_tokens": 2408}


def _lines(records: list[dict[str, object]]) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


def session_2025(text: Text = _plain, *, root: str = ROOT) -> bytes:
    """`~/.local/share/goose/sessions/<id>.jsonl`: the metadata line, then the messages."""
    return _lines([metadata(text, root=root), *messages(text, root=root)])


def session_feb_2025(text: Text = _plain, *, root: str = ROOT) -> bytes:
    """Rust-enum content items, as the February 2025 fragment shows them: 1 prompt, 2 responses,
    2 calls (one Goose could not parse), 1 result."""
    return _lines([
        {"role": "user", "created": T0, "content": [{"Text": {"text": text("old.prompt")}}]},
        {"role": "assistant", "created": T0 + 3, "content": [
            {"Text": {"text": text("old.reply")}},
            {"ToolRequest": {"id": "toolu_11", "tool_call": {"Ok": {"name": "developer__shell", "arguments": {
                "command": "ls " + text("ls.arg").split()[0]}}}}}]},
        {"role": "user", "created": T0 + 4, "content": [
            {"ToolResponse": {"id": "toolu_11", "tool_result": {"Ok": [{"type": "text", "text": text("ls.out")}]}}}]},
        {"role": "assistant", "created": T0 + 6, "content": [
            {"ToolRequest": {"id": "toolu_12", "tool_call": {"Err": {"InvalidParameters": text("invalid")}}}}]},
    ])


def session_2024(text: Text = _plain, *, root: str = ROOT) -> bytes:
    """`~/.config/goose/sessions/<id>.jsonl` of late 2024: untagged items, calls without ids."""
    return _lines([
        {"role": "user", "created": T0, "content": [{"text": text("v0.prompt")}]},
        {"role": "assistant", "created": T0 + 1, "content": [
            {"tool_name": "DeveloperSystem__text_editor", "arguments": {"command": "view", "path": "inst.md"}}]},
        {"role": "user", "created": T0 + 2, "content": [{"id": "call_BgjqexrCgphltEw2UzUBqZyv",
                                                          "tool_result": json.dumps([{"Text": {"text": text("v0.out")}}])}]},
        {"role": "assistant", "created": T0 + 3, "content": [
            {"tool_name": "DeveloperSystem__bash", "arguments": {"command": "make " + text("make.arg").split()[0]}}]},
        {"role": "user", "created": T0 + 5, "content": [{"id": "call_jTmKuCrtgR8TZJY4gn9pQl1e", "tool_result": "[]"}]},
        {"role": "assistant", "created": T0 + 7, "content": [{"text": text("v0.reply")}]},
    ])


def sessions_db(path: Path, text: Text = _plain, *, root: str = ROOT) -> None:
    """A sessions.db (schema version 5) with the 2025 session's messages, and the credential-free
    columns the store keeps beside them (a recipe, extension data) holding text."""
    db = sqlite3.connect(path)
    db.executescript(DB_SCHEMA)
    db.execute("INSERT INTO schema_version (version) VALUES (5)")
    db.execute("INSERT INTO sessions (id, name, description, working_dir, created_at, updated_at, extension_data, "
               "total_tokens, input_tokens, output_tokens, recipe_json) VALUES (?, ?, ?, ?, ?, ?, ?, 900, 800, 100, ?)",
               (SID, text("db.name"), text("db.description"), root, "2026-03-01 10:00:00", "2026-03-01 10:05:00",
                json.dumps({"todo": text("db.todo")}), json.dumps({"prompt": text("db.recipe")})))
    for m in messages(text, root=root):
        db.execute("INSERT INTO messages (session_id, role, content_json, created_timestamp, metadata_json) "
                   "VALUES (?, ?, ?, ?, ?)", (SID, m["role"], json.dumps(m["content"]), m["created"],
                                              json.dumps(m["metadata"])))
    db.commit()
    db.close()
