"""The redaction contract, as a property: canaries in every text slot of a Claude Code transcript never
reach the map, under every preset policy.

Hypothesis draws a session: a sequence of steps (prompts, replies, every kind of tool call with its
result, subagents inside the file and as progress records, API errors, hooks, compaction, the
records the reader skips, unknown record types and unknown fields) with a fresh canary in each text
slot: prompt and reply text, thinking, every tool input field that is not a path, tool outputs and
`toolUseResult`, subagent prompts and descriptions, summaries and titles, file contents, command
arguments and unknown programs, branch names and slugs, hook commands, and the user name in the
working directory. Paths inside the repository are paths (shown in relative mode by design), so no
canary goes into one; identifiers (MCP server names, models...) are policy-controlled and get their
own test under the public policy.
"""
from __future__ import annotations

from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.api import redact_bytes
from redact.keys.material import Key
from tests.formats.ccfix import Transcript, text, thinking, tool_use

KEY = Key(bytes(range(1, 33)), source="test")
SID = "3c9e1f20-4b5a-4c6d-8e7f-9a0b1c2d3e4f"
STEPS = ("prompt", "prompt_blocks", "reply", "read", "read_outside", "bash", "edit", "write", "grep", "glob",
         "task", "web", "websearch", "mcp", "todo", "system", "meta", "unknown", "commit", "pr", "interrupt",
         "skill", "hook", "api_message", "progress", "compact_summary", "notebook")
BASH = (
    "git commit -m '{c}'", "ls -la {c}/", "./{c}.sh --token {c}", "TOKEN={c} make deploy", "{c} --help",
    "curl -s https://{c}.example.com/api?key={c}", "cat <<'EOF' > notes.txt\n{c}\nEOF", "bash -c 'echo {c}'",
    "python -c 'print(\"{c}\")'", "grep -r '{c}' src", "docker run --env SECRET={c} img", "npm run {c}",
    "cd /Users/{c}/x && pytest -k {c}", "export API_KEY={c}; node index.js",
)
_ALPHA = "abcdefghijklmnopqrstuvwxyz0123456789"


class Canaries:
    def __init__(self, base: str) -> None:
        self.base = base
        self.all: list[str] = []

    def __call__(self, extra: str = "") -> str:
        value = f"zq{self.base}{len(self.all)}qz{extra}"
        self.all.append(value)
        return value


def transcript(steps: list[str], base: str, flips: list[bool]) -> tuple[bytes, Canaries]:
    c = Canaries(base)
    user = c()
    cwd = f"/Users/{user}/proj"
    t = Transcript(SID, cwd, branch=f"feature/{c()}", slug=c(), seed=len(steps))
    flip = iter(flips + [False] * 200)

    def call(name: str, inp: dict[str, Any], result: Any, *, err: bool = False, tur: Any = None) -> str:
        tid = t.tool_id()
        t.assistant([text(c()), tool_use(tid, name, inp)])
        t.tick(500)
        t.result(tid, result, is_error=err, tur=tur)
        t.tick(500)
        return tid

    for step in steps:
        t.tick(1000)
        if step == "prompt":
            wide = c("\u00e9\u5b57")
            t.user(f"{c()} see https://{c()}.example.org/x?y={c()} \u2028 {wide}")
        elif step == "prompt_blocks":
            t.user([text(c()), {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                            "data": c()}}])
        elif step == "reply":
            t.assistant([thinking(c()), text(c())], stop="end_turn")
        elif step == "read":
            call("Read", {"file_path": f"{cwd}/src/app.py", "offset": 1, "limit": 5, "extra": c()},
                 f"     1\u2192{c()}", tur={"type": "text", "file": {"filePath": f"{cwd}/src/app.py",
                                                                     "content": c(), "numLines": 1}})
        elif step == "read_outside":
            call("Read", {"file_path": f"/Users/{user}/Downloads/{c()}.pdf"}, c())
        elif step == "bash":
            cmd = BASH[len(c.all) % len(BASH)].format(c=c())
            err = next(flip)
            call("Bash", {"command": cmd, "description": c()}, f"Exit code 1\n{c()}" if err else c(), err=err,
                 tur={"stdout": c(), "stderr": c(), "interrupted": False, "isImage": False})
        elif step == "edit":
            call("Edit", {"file_path": f"{cwd}/src/app.py", "old_string": c(), "new_string": c()},
                 c(), tur={"filePath": f"{cwd}/src/app.py", "oldString": c(), "newString": c(),
                           "originalFile": c(), "structuredPatch": [{"lines": [c()]}]})
        elif step == "write":
            call("Write", {"file_path": f"{cwd}/docs/new.md", "content": c()}, c(),
                 tur={"type": "create", "filePath": f"{cwd}/docs/new.md", "content": c()})
        elif step == "notebook":
            call("NotebookEdit", {"notebook_path": f"{cwd}/nb.ipynb", "new_source": c(), "cell_id": c()}, c())
        elif step == "grep":
            content = f"{cwd}/src/app.py:12:{c()}\n{cwd}/src/b.py:3:{c()}"
            call("Grep", {"pattern": c(), "path": cwd, "glob": c(), "output_mode": "content"}, content,
                 tur={"mode": "content", "content": content, "numLines": 2})
        elif step == "glob":
            call("Glob", {"pattern": f"**/{c()}*"}, f"{cwd}/src/app.py",
                 tur={"filenames": [f"{cwd}/src/app.py"], "numFiles": 1, "truncated": False})
        elif step == "task":
            prompt = c()
            tid = call("Task", {"description": c(), "prompt": prompt, "subagent_type": "Explore"},
                       [text(c())], tur={"status": "completed", "prompt": prompt, "content": [text(c())]})
            before = t.parent
            t.parent = None
            side = t.envelope("user", message={"role": "user", "content": prompt})
            side["isSidechain"] = True
            t.add(side)
            rec = t.envelope("assistant", message={"id": c(), "model": "claude-haiku-4-5", "role": "assistant",
                                                   "content": [text(c()), thinking(c())]})
            rec["isSidechain"] = True
            t.add(rec)
            t.parent = before
            assert tid
        elif step == "web":
            call("WebFetch", {"url": f"https://docs.python.org/{c()}?q={c()}#{c()}", "prompt": c()},
                 c(), tur={"bytes": 10, "code": 200, "codeText": "OK", "result": c(), "url": c()})
        elif step == "websearch":
            call("WebSearch", {"query": c(), "allowed_domains": [c()]}, c(),
                 tur={"query": c(), "results": [{"title": c(), "url": c()}]})
        elif step == "mcp":
            call("mcp__github__create_issue", {"title": c(), "body": c(), "repo": c()}, [text(c())],
                 err=next(flip))
        elif step == "todo":
            call("TodoWrite", {"todos": [{"content": c(), "status": "pending", "activeForm": c()}]}, c(),
                 tur={"oldTodos": [], "newTodos": [{"content": c()}]})
        elif step == "skill":
            call("Skill", {"skill": "pdf", "args": c()}, c())
        elif step == "system":
            t.system("api_error", level="error", error={"message": c(), "status": 500}, cause={"code": c()},
                     retryAttempt=1, maxRetries=10)
            t.system("informational", content=f"{c()} operation blocked by hook: {c()}")
            t.system("stop_hook_summary", hookCount=1, hookInfos=[{"command": c(), "durationMs": 3}],
                     hookErrors=[c()], preventedContinuation=next(flip), stopReason=c())
            t.system("local_command", content=f"<command-name>/{c()}</command-name>")
            before = t.parent
            t.parent = None
            t.system("compact_boundary", content=c(), compactMetadata={"trigger": "auto", "preTokens": 10})
            t.parent = before
        elif step == "meta":
            t.raw({"type": "summary", "summary": c(), "leafUuid": t.uid()})
            t.raw({"type": "queue-operation", "operation": "enqueue", "content": c(), "sessionId": SID,
                   "timestamp": "2026-03-02T09:00:00.000Z"})
            t.raw({"type": "last-prompt", "lastPrompt": c(), "sessionId": SID})
            t.raw({"type": "custom-title", "customTitle": c(), "sessionId": SID})
            t.raw({"type": "ai-title", "aiTitle": c(), "sessionId": SID})
            t.raw({"type": "agent-name", "agentName": c(), "sessionId": SID})
            t.raw({"type": "pr-link", "prUrl": f"https://github.com/a/b/pull/1?{c()}", "sessionId": SID})
            t.raw({"type": "file-history-snapshot", "messageId": t.uid(), "isSnapshotUpdate": False,
                   "snapshot": {"trackedFileBackups": {f"/Users/{user}/{c()}.py": {"backupFileName": c()}}}})
        elif step == "unknown":
            rec = t.envelope("user", message={"role": "user", "content": c(), c(): c()}, **{c(): c()})
            rec["futureField"] = {"nested": [c()]}
            t.add(rec)
            t.raw({"type": c(), "payload": c(), "sessionId": SID})
            t.raw({"type": "attachment", "attachment": {"type": c(), "content": c()}, "uuid": t.uid(),
                   "timestamp": "2026-03-02T09:00:00.000Z", "sessionId": SID})
        elif step == "commit":
            call("Bash", {"command": f"git commit -m '{c()}'"},
                 f"[{c()} 1a2b3c4] {c()}\n 1 file changed, 1 insertion(+)\n create mode 100644 {c()}.txt")
        elif step == "pr":
            call("Bash", {"command": f"gh pr create --title '{c()}' --body '{c()}'"},
                 f"{c()}\nhttps://github.com/acme/api/pull/3\n")
        elif step == "interrupt":
            t.user([text("[Request interrupted by user]")])
        elif step == "hook":
            t.add(t.envelope("attachment", attachment={"type": "hook_non_blocking_error", "hookName": "PostToolUse:Edit",
                                                        "hookEvent": "PostToolUse", "stderr": c(), "command": c()}))
            t.add(t.envelope("progress", data={"type": "hook_progress", "hookEvent": "PreToolUse",
                                               "hookName": "PreToolUse:Bash", "command": c()},
                             toolUseID="x", parentToolUseID="x"))
            t.add(t.envelope("progress", data={"type": "bash_progress", "output": c(), "fullOutput": c()}))
        elif step == "api_message":
            t.add(t.envelope("assistant", isApiErrorMessage=True, error="unknown", message={
                "id": t.uid(), "model": "<synthetic>", "role": "assistant", "content": [text(c())]}))
        elif step == "progress":
            inner = {"type": "assistant", "uuid": t.uid(), "timestamp": "2026-03-02T09:00:01.000Z",
                     "message": {"id": c(), "model": "claude-haiku-4-5", "role": "assistant",
                                 "content": [text(c()), tool_use(t.tool_id(), "Bash", {"command": f"rm -rf {c()}"})]}}
            t.add(t.envelope("progress", data={"type": "agent_progress", "agentId": "a9f8e7d6c5", "prompt": c(),
                                               "message": inner}, parentToolUseID="toolu_x", toolUseID="agent_msg_x"))
        elif step == "compact_summary":
            t.user(c(), isCompactSummary=True)
    return t.bytes(), c


session_steps = st.lists(st.sampled_from(STEPS), min_size=1, max_size=14)
canary_base = st.text(alphabet=_ALPHA, min_size=4, max_size=8)
flips = st.lists(st.booleans(), max_size=20)


def _check(data: bytes, canaries: Canaries, policy: str, key: Key | None) -> None:
    result = redact_bytes(data, name="session.jsonl", policy=policy, key=key)
    out = result.data.decode("utf-8")
    leaked = [c for c in canaries.all if c in out]
    assert not leaked, (policy, leaked[:3])
    report = orjson.dumps(result.report.as_dict()).decode()
    in_report = [c for c in canaries.all if c in report]
    # the only canary a report may name is an unknown record type of a strict, safe shape (by design)
    assert all(c.isascii() and c.replace("_", "").isalnum() for c in in_report), in_report


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=session_steps, base=canary_base, flip=flips)
def test_no_canary_under_default(steps: list[str], base: str, flip: list[bool]) -> None:
    data, canaries = transcript(steps, base, flip)
    _check(data, canaries, "default", None)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=session_steps, base=canary_base, flip=flips)
def test_no_canary_under_internal(steps: list[str], base: str, flip: list[bool]) -> None:
    data, canaries = transcript(steps, base, flip)
    _check(data, canaries, "internal", None)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=session_steps, base=canary_base, flip=flips)
def test_no_canary_under_public_with_a_key(steps: list[str], base: str, flip: list[bool]) -> None:
    data, canaries = transcript(steps, base, flip)
    _check(data, canaries, "public", KEY)


def test_every_step_at_once() -> None:
    data, canaries = transcript(list(STEPS) * 2, "all0", [True, False] * 10)
    for policy, key in (("default", None), ("internal", None), ("public", KEY)):
        _check(data, canaries, policy, key)


def test_identifier_and_path_canaries_vanish_under_public() -> None:
    """Under public, identifiers and repo paths are hashed too (unless on the public allowlists)."""
    t = Transcript(SID, "/home/dev/zqrepozq", seed=9)
    t.user("go")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "mcp__zqserverzq__zqtoolzq", {})], model="zqmodelzq")
    t.result(tid, "ok")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Read", {"file_path": "/home/dev/zqrepozq/zqdirzq/zqfilezq.py"})])
    t.result(tid, "ok")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "WebFetch", {"url": "https://zqhostzq.internal/x", "prompt": "p"})])
    t.result(tid, "ok")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Task", {"description": "d", "prompt": "p", "subagent_type": "zqtypezq"})])
    t.result(tid, "ok")
    out = redact_bytes(t.bytes(), name="s.jsonl", policy="public", key=KEY).data.decode()
    assert "zq" not in out
