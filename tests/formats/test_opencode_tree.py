"""opencode's pre-1.x JSON storage tree: one session's session, message and part files read as one
session (built from opencode's source and docs; the shared corpus has no example)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest

from redact.api import redact_bytes, redact_file
from redact.cli import main
from redact.formats.detect import detect
from tests.formats.canary import KEY

ROOT = "/home/dana/src/shop"
SID = "ses_469cf929cffeBICghRNeI7BWy6"


def tree(storage: Path, text: Any = lambda s: f"words for {s}") -> Path:
    def write(rel: str, doc: dict[str, object]) -> None:
        path = storage / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2))

    write(f"session/4b0ea68d7af9a6031a7ffda7ad66e0cb83315750/{SID}.json",
          {"id": SID, "slug": text("slug"), "version": "0.15.18", "projectID": "4b0ea68d7af9a6031a7ffda7ad66e0cb83315750",
           "directory": ROOT, "title": text("title"), "time": {"created": 1761596306663, "updated": 1761596406663}})
    write(f"message/{SID}/msg_0001.json", {"id": "msg_0001", "sessionID": SID, "role": "user",
                                           "time": {"created": 1761596306700}})
    write("part/msg_0001/prt_0001.json", {"id": "prt_0001", "sessionID": SID, "messageID": "msg_0001",
                                          "type": "text", "text": text("prompt")})
    write(f"message/{SID}/msg_0002.json", {
        "id": "msg_0002", "sessionID": SID, "role": "assistant", "modelID": "claude-sonnet-4-5",
        "time": {"created": 1761596306800, "completed": 1761596309800}, "finish": "tool-calls",
        "tokens": {"input": 500, "output": 20, "reasoning": 0, "cache": {"read": 0, "write": 0}}})
    write("part/msg_0002/prt_0002.json", {
        "id": "prt_0002", "sessionID": SID, "messageID": "msg_0002", "type": "tool", "tool": "bash", "callID": "toolu_1",
        "state": {"status": "completed", "input": {"command": "npm test -- " + text("arg").split()[0]},
                  "output": text("output"), "metadata": {"exit": 0}, "time": {"start": 1761596307000, "end": 1761596308000}}})
    write("part/msg_0002/prt_0003.json", {
        "id": "prt_0003", "sessionID": SID, "messageID": "msg_0002", "type": "tool", "tool": "edit", "callID": "toolu_2",
        "state": {"status": "completed", "input": {"filePath": ROOT + "/src/app.ts", "oldString": text("old"),
                                                   "newString": text("new")},
                  "output": "", "time": {"start": 1761596308000, "end": 1761596308500}}})
    (storage / "auth.json").write_text('{"anthropic": {"type": "api", "key": "sk-ant-planted"}}')
    return storage / "session" / "4b0ea68d7af9a6031a7ffda7ad66e0cb83315750" / f"{SID}.json"


def test_the_tree_is_one_session(tmp_path: Path) -> None:
    session = tree(tmp_path / "opencode" / "storage")
    assert detect(session.read_bytes(), "x") == "opencode"
    result = redact_file(session)
    m = result.session_map
    kinds = Counter(e["kind"] for e in m["events"])
    assert m["session"]["agentTool"] == "opencode"
    assert kinds["user"] == 1 and kinds["llm"] == 1 and kinds["edit"] == 1
    assert kinds["exec"] + kinds["verify"] == 1
    assert sum(e.get("in", 0) for e in m["events"] if e["kind"] == "llm") == 500
    assert [f["path"] for f in m["files"]] == ["src/app.ts"]
    out = tmp_path / "out"
    assert main([str(tmp_path / "opencode"), "--out-dir", str(out)]) == 0  # ~/.local/share/opencode
    assert [p.name for p in out.glob("*.json.gz")] == [f"{SID}.json.gz"]


@pytest.mark.parametrize("policy", ["default", "internal", "public"])
def test_no_text_of_any_file_reaches_the_map(tmp_path: Path, policy: str) -> None:
    seen: list[str] = []

    def text(slot: str) -> str:
        value = f"zqcanary{len(seen)}qz more"
        seen.append(value.split()[0])
        return value

    session = tree(tmp_path / "storage", text)
    result = redact_file(session, policy=policy, key=KEY if policy == "public" else None)
    out = result.data.decode() + str(result.report.as_dict())
    assert not [c for c in seen if c in out] and "sk-ant-planted" not in out


def test_a_session_file_alone_is_a_session_without_messages(tmp_path: Path) -> None:
    session = tree(tmp_path / "storage")
    m = redact_bytes(session.read_bytes(), name="ses.json").session_map
    assert m["session"]["agentTool"] == "opencode" and not [e for e in m["events"] if e["kind"] == "llm"]
