"""The Claude Code reader on small transcripts written here, one quirk of the format per test."""
from __future__ import annotations

from typing import Any

import orjson
import pytest

from redact.api import redact_bytes
from redact.build import build_map
from redact.build.facts import LlmResponse, ToolCall, UserTurn
from redact.errors import BadInput
from redact.formats.claude_code.reader import ClaudeCodeReader, label
from redact.formats.claude_code.files import read_session
from redact.report import RedactionReport
from tests.formats.ccfix import Transcript, text, thinking, tool_use

SID = "0b9c7e52-5d2a-4c3e-9f1a-6a2b8c4d0e11"
CWD = "/home/riley/work/shop"


def session(t: Transcript, **kw: Any) -> tuple[dict[str, Any], RedactionReport]:
    report = RedactionReport(source="t.jsonl")
    facts = read_session(t.bytes(), "t.jsonl", report=report, **kw)
    return build_map(facts), report


def kinds(m: dict[str, Any]) -> list[str]:
    return [e["kind"] for e in m["events"]]


def base() -> Transcript:
    return Transcript(SID, CWD, seed=3)


def test_one_llm_event_per_response_however_many_records() -> None:
    t = base()
    t.user("hello")
    t.tick(1000)
    a, b = t.tool_id(), t.tool_id()
    t.assistant([thinking("hmm"), text("Looking."), tool_use(a, "Read", {"file_path": f"{CWD}/a.py"}),
                 tool_use(b, "Read", {"file_path": f"{CWD}/b.py"})], usage=(5, 100, 2000, 77))
    t.tick(50)
    t.result(a, "x")
    t.result(b, "y")
    m, _ = session(t)
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert len(llm) == 1
    assert llm[0]["toolCalls"] == 2 and llm[0]["thinking"] is True and llm[0]["textChars"] == len("Looking.")
    assert (llm[0]["in"], llm[0]["cw"], llm[0]["cr"], llm[0]["out"]) == (5, 100, 2000, 77)
    # four records 400 ms apart, the request started at the prompt 1 s earlier
    assert llm[0]["latency"] == 1000 + 3 * 400
    assert m["totals"]["requests"] == 1 and m["totals"]["tokens"] == 5 + 100 + 2000 + 77


def test_stop_reason_is_inferred_when_the_client_did_not_record_it() -> None:
    t = base()
    t.user("go")
    a = t.tool_id()
    t.assistant([tool_use(a, "Bash", {"command": "ls"})])  # stop_reason null on every record
    t.result(a, "file")
    t.assistant([text("done")])
    m, _ = session(t)
    stops = [e["stop"] for e in m["events"] if e["kind"] == "llm"]
    assert stops == ["tool_use", "end_turn"]


def test_repeated_records_are_read_once() -> None:
    t = base()
    t.user("go")
    a = t.tool_id()
    t.assistant([tool_use(a, "Bash", {"command": "make"})])
    t.result(a, "ok")
    t.records.extend(list(t.records))  # a resumed 0.2.x session repeats earlier records verbatim
    m, report = session(t)
    assert kinds(m).count("exec") == 1 and kinds(m).count("user") == 1 and kinds(m).count("llm") == 1
    assert report.skipped_records["<duplicate>"] == 3


def test_tool_result_only_records_are_not_turns_and_meta_is_ignored() -> None:
    t = base()
    t.user("<local-command-caveat>Caveat: ...</local-command-caveat>", isMeta=True)
    t.user("real prompt with https://example.org/a and http://x.test/b", permissionMode="default")
    a = t.tool_id()
    t.assistant([tool_use(a, "Glob", {"pattern": "*.py"})])
    t.result(a, "No files found", tur={"filenames": [], "durationMs": 3, "numFiles": 0, "truncated": False})
    t.user("<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>")
    t.user("Summary of the earlier conversation", isCompactSummary=True)
    m, _ = session(t)
    users = [e for e in m["events"] if e["kind"] == "user"]
    assert len(users) == 1
    assert users[0]["urls"] == 2 and users[0]["chars"] == len("real prompt with https://example.org/a and http://x.test/b")


def test_a_local_slash_command_is_not_a_turn_but_a_prompt_command_is() -> None:
    t = base()
    t.user("<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>")
    t.user("<local-command-stdout>Set model to Opus</local-command-stdout>")
    t.user("<command-message>review</command-message>\n<command-name>/review</command-name>")
    t.assistant([text("Reviewing.")], stop="end_turn")
    t.user("<command-name>/exit</command-name>")  # nothing answered it: withdrawn at the end
    m, _ = session(t)
    assert kinds(m).count("user") == 1


def test_images_are_counted_never_kept() -> None:
    t = base()
    t.user([text("see"), {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "QUJD" * 50}}])
    m, _ = session(t)
    assert m["events"][0]["images"] == 1 and "QUJD" not in orjson.dumps(m).decode()


def test_interruption_is_an_error_event() -> None:
    t = base()
    t.user("go")
    a = t.tool_id()
    t.assistant([tool_use(a, "Bash", {"command": "sleep 100"})])
    t.result(a, "[Request interrupted by user for tool use]", is_error=True)
    t.user([text("[Request interrupted by user for tool use]")])
    m, _ = session(t)
    ex = next(e for e in m["events"] if e["kind"] == "exec")
    assert ex["err"] is True and ex["errClass"] == "interrupted"
    err = next(e for e in m["events"] if e["kind"] == "error")
    assert err["source"] == "orchestration" and err["errClass"] == "interrupted"
    assert m["session"]["outcome"] == "interrupted"


@pytest.mark.parametrize("content, cls, code", [
    ("Exit code 2\nboom", "exit_code", 2),
    ("The user doesn't want to proceed with this tool use.", "permission_denied", None),
    ("<tool_use_error>String to replace not found in file.</tool_use_error>", "patch_failed", None),
    ("<tool_use_error>File has been modified since read</tool_use_error>", "stale_file", None),
    ("<tool_use_error>File does not exist.</tool_use_error>", "not_found", None),
    ("PreToolUse:Bash hook error: Blocked by policy", "blocked", None),
    ("Command timed out after 2m 0.0s", "timeout", None),
    ("something else", "other", None),
])
def test_error_classes(content: str, cls: str, code: int | None) -> None:
    t = base()
    t.user("go")
    a = t.tool_id()
    t.assistant([tool_use(a, "Bash", {"command": "make"})])
    t.result(a, content, is_error=True)
    m, _ = session(t)
    ex = next(e for e in m["events"] if e["kind"] == "exec")
    assert ex["errClass"] == cls and ex.get("exitCode") == code


def test_api_errors_and_hook_failures() -> None:
    t = base()
    t.user("go")
    t.system("api_error", level="error", error={"status": 429}, retryAttempt=1, maxRetries=10)
    t.add(t.envelope("assistant", isApiErrorMessage=True, error="rate_limit", message={
        "id": "x1", "model": "<synthetic>", "role": "assistant", "type": "message",
        "content": [text("You've hit your limit · resets 5pm")], "usage": {"input_tokens": 0, "output_tokens": 0}}))
    t.system("stop_hook_summary", hookErrors=["Failed with non-blocking status code"], preventedContinuation=False)
    t.system("informational", content="UserPromptSubmit operation blocked by hook:\n[/home/riley/x.sh]: no")
    t.system("informational", content="Something unrelated")
    m, report = session(t)
    errors = [(e["source"], e["errClass"], e.get("hookEvent")) for e in m["events"] if e["kind"] == "error"]
    assert errors == [("llm", "rate_limit", None), ("llm", "usage_limit", None), ("hook", "hook_error", "Stop"),
                      ("hook", "hook_blocking", "UserPromptSubmit")]
    assert m["totals"]["requests"] == 0  # a synthetic API-error message is not a model response
    assert report.skipped_records["system:informational"] == 1


def test_compaction() -> None:
    t = base()
    t.user("go")
    t.system("compact_boundary", compactMetadata={"trigger": "manual", "preTokens": 9000, "postTokens": 1200})
    m, _ = session(t)
    comp = next(e for e in m["events"] if e["kind"] == "compaction")
    assert (comp["trigger"], comp["preTokens"], comp["postTokens"]) == ("manual", 9000, 1200)


def test_sidechain_records_inside_the_main_file_get_their_own_lane() -> None:
    t = base()
    t.user("go")
    task = t.tool_id()
    t.assistant([tool_use(task, "Task", {"description": "d", "prompt": "look around"})])
    # an old client writes the subagent's records into the main file, without agentId
    t.parent = None
    side = t.envelope("user", message={"role": "user", "content": "look around"})
    side["isSidechain"] = True
    t.add(side)
    g = t.tool_id()
    rec = t.envelope("assistant", message={"id": "m9", "model": "claude-haiku-4-5", "role": "assistant",
                                           "content": [tool_use(g, "Grep", {"pattern": "x"})],
                                           "usage": {"input_tokens": 1, "output_tokens": 2}})
    rec["isSidechain"] = True
    t.add(rec)
    t.parent = None
    t.result(task, "found it")
    m, _ = session(t)
    lanes = [a for a in m["agents"] if a["id"] != "main"]
    assert len(lanes) == 1 and lanes[0]["kind"] == "subagent"
    grep = next(e for e in m["events"] if e["kind"] == "search")
    assert grep["agent"] == lanes[0]["id"]
    assert lanes[0]["launchSeq"] == next(e["seq"] for e in m["events"] if e["kind"] == "subagent")
    assert lanes[0]["subagentType"] == "general-purpose"


def test_agent_progress_stands_in_for_a_missing_subagent_transcript() -> None:
    t = base()
    t.user("go")
    task = t.tool_id()
    t.assistant([tool_use(task, "Agent", {"description": "d", "prompt": "p", "subagent_type": "Explore"})])
    g = t.tool_id()
    inner = {"type": "assistant", "uuid": "5e0c2d4a-1111-4a2b-8c3d-000000000001", "timestamp": "2026-03-02T09:00:01.000Z",
             "message": {"id": "m2", "model": "claude-haiku-4-5-20251001", "role": "assistant",
                         "content": [tool_use(g, "Bash", {"command": "ls"})], "usage": {"input_tokens": 3}}}
    t.add(t.envelope("progress", data={"type": "agent_progress", "agentId": "a1b2c3d4e5", "prompt": "p",
                                       "message": inner}, parentToolUseID=task, toolUseID="agent_msg_1"))
    t.result(task, "done", tur={"status": "completed", "agentId": "a1b2c3d4e5", "content": []})
    m, _ = session(t)
    lane = next(a for a in m["agents"] if a["id"] == "sa-a1b2c3d4e5")
    assert lane["calls"] == 1 and lane["model"] == "claude-haiku-4-5-20251001"
    assert m["events"][lane["launchSeq"]]["child"] == "sa-a1b2c3d4e5"
    # the same progress record is a duplicate once the subagent has its own transcript
    m2, report = session(t, sidechains=[])
    report2 = RedactionReport(source="t")
    reader = ClaudeCodeReader(report2, agent_files=["a1b2c3d4e5"])
    reader.read(t.bytes(), "t.jsonl")
    assert not any(isinstance(f, ToolCall) and f.agent != "main" for f in reader.finish().facts)
    assert report2.skipped_records["progress:agent_progress"] == 1


def test_a_subagent_transcript_alone_is_a_subagent_session() -> None:
    t = Transcript(SID, CWD, agent_id="a0edd2b", seed=5)
    t.user("Warmup")
    t.assistant([text("ready")], stop="end_turn")
    m, _ = session(t)
    assert m["session"]["role"] == "subagent"
    assert m["session"]["parentSessionId"] == f"local:claude-code:{SID}"
    assert m["session"]["id"] == "local:claude-code:a0edd2b"
    assert [a["id"] for a in m["agents"]] == ["main"]


def test_bad_line_names_file_and_line_and_skip_bad_lines_counts() -> None:
    t = base()
    t.user("one")
    data = t.bytes() + b'{"type": "user", "broken\n' + b"[1, 2]\n"
    t2 = Transcript(SID, CWD, seed=4)  # other record ids
    t2.user("two")
    data += t2.bytes()
    with pytest.raises(BadInput) as info:
        redact_bytes(data, name="s.jsonl")
    assert info.value.where == "s.jsonl:2"
    result = redact_bytes(data, name="s.jsonl", skip_bad_lines=True)
    assert any("skipped 2 bad line(s)" in w for w in result.report.warnings)
    assert result.session_map["totals"]["userTurns"] == 2


def test_lines_split_on_newline_only() -> None:
    t = base()
    t.user("a prompt with a raw \u2028 line separator and \u0085 next line")
    raw = t.bytes()
    assert "\u2028".encode() in raw  # orjson writes it raw: a text-mode reader would split here
    m, _ = session(t)
    assert m["events"][0]["chars"] == len("a prompt with a raw \u2028 line separator and \u0085 next line")


def test_unknown_record_types_are_counted_under_safe_labels() -> None:
    t = base()
    t.user("go")
    t.raw({"type": "brand-new-kind", "sessionId": SID, "secret": "s3cr3t"})
    t.raw({"type": "Has Spaces and /Users/riley", "sessionId": SID})
    t.raw({"type": "ai-title", "aiTitle": "Secret project title", "sessionId": SID})
    m, report = session(t)
    assert "brand-new-kind" not in report.skipped_records  # plain, but not a type this tool knows
    assert report.skipped_records["<other>"] == 2
    assert report.skipped_records["ai-title"] == 1
    assert "riley" not in "".join(report.skipped_records)
    assert label("system", "/Users/x") == "system:<other>"


def test_reader_facts_never_hold_text() -> None:
    t = base()
    t.user("SECRET-PROMPT")
    a = t.tool_id()
    t.assistant([thinking("SECRET-THOUGHT"), text("SECRET-REPLY"), tool_use(a, "Write", {
        "file_path": f"{CWD}/n.txt", "content": "SECRET-CONTENT"})])
    t.result(a, "SECRET-OUTPUT", tur={"type": "create", "filePath": f"{CWD}/n.txt", "content": "SECRET-CONTENT"})
    report = RedactionReport(source="t")
    facts = read_session(t.bytes(), "t", report=report).facts
    dumped = repr(facts)
    assert "SECRET" not in dumped
    assert any(isinstance(f, UserTurn) for f in facts) and any(isinstance(f, LlmResponse) for f in facts)


@pytest.mark.parametrize("cwd", ["/Users/riley", "/home/riley/Desktop", "C:\\Users\\riley", "/tmp"])
def test_a_home_or_scratch_working_directory_is_no_repository(cwd: str) -> None:
    t = Transcript(SID, cwd, seed=8)
    t.user("go")
    tid = t.tool_id()
    sep = "\\" if cwd.startswith("C:") else "/"
    t.assistant([tool_use(tid, "Read", {"file_path": f"{cwd}{sep}notes{sep}todo.txt"})])
    t.result(tid, "x")
    m, _ = session(t)
    assert m["files"] == [] and "repos" not in m
    assert "riley" not in orjson.dumps(m).decode()


def test_latency_stops_when_a_tool_of_the_response_already_returned() -> None:
    t = base()
    t.user("go")
    t.tick(1000)
    a, b = t.tool_id(), t.tool_id()
    first = t.envelope("assistant", requestId="req_1", message={
        "id": "msg_x", "model": "claude-sonnet-4-5", "role": "assistant", "content": [tool_use(a, "Bash", {"command": "ls"})],
        "usage": {"input_tokens": 1, "output_tokens": 5}})
    t.add(first)
    t.tick(5000)
    t.result(a, "done")  # the client ran the first tool while the response still streamed
    t.tick(100)
    t.add(t.envelope("assistant", requestId="req_1", message={
        "id": "msg_x", "model": "claude-sonnet-4-5", "role": "assistant", "content": [tool_use(b, "Bash", {"command": "pwd"})],
        "usage": {"input_tokens": 1, "output_tokens": 9}}))
    m, _ = session(t)
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert len(llm) == 1 and llm[0]["latency"] == 1000 and llm[0]["toolCalls"] == 2 and llm[0]["out"] == 9


def _stated(t: Transcript, ms: float) -> None:
    """A 0.2.x response: one record that states its request's duration (`durationMs`)."""
    message = {"model": "claude-3-7-sonnet-20250219", "id": f"msg_01{t.uid()[:20]}", "type": "message",
               "role": "assistant", "content": [text("ok")], "stop_reason": "end_turn",
               "usage": {"input_tokens": 4, "output_tokens": 9}}
    t.add(t.envelope("assistant", message=message, durationMs=ms))


def test_a_stated_duration_never_starts_the_session_before_its_prompt() -> None:
    # 0.2.x clients time records to the second: a 3.369 s request written 3 s after its prompt
    t = Transcript(SID, CWD, start="2025-05-06T18:58:14.000Z", seed=3)
    t.user("hello")
    t.tick(3000)
    _stated(t, 3369)
    t.tick(10_000)
    t.user("again")
    t.tick(5000)
    _stated(t, 2000)  # well inside its gap: the stated duration stands
    m, _ = session(t)
    assert m["session"]["startedAt"] == "2025-05-06T18:58:14.000Z"
    assert m["session"]["durationMs"] == 18_000
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert [e["t"] for e in llm] == [0, 16_000]
    assert [e["latency"] for e in llm] == [3000, 2000]
