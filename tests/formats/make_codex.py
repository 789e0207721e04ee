"""The project's own Codex rollouts (tests/fixtures/codex/), written by hand-built code, modelled on
the shapes of real rollouts (no corpus content). Regenerate on purpose only:

    .venv/bin/python -m tests.formats.make_codex

- `rollout-...-modern.jsonl`: every record type the corpus and the protocol show (session_meta,
  turn_context, messages, reasoning, function calls of every built-in tool and their outputs in each
  output shape, apply_patch as a custom tool and through the shell, local_shell_call,
  web_search_call, MCP calls, spawn_agent and the other subagent tools, token counts (repeated and
  rate-limit-only ones), compaction, stream errors, errors, an aborted turn, ghost snapshots, and
  unknown records);
- `legacy-2025-08.jsonl`: the August-2025 layout (bare header, `record_type: state` lines, items
  without a time of their own);
- `legacy-2025-08.json`: the single-JSON rollout (chat-completions shaped items).

`SECRETS` are strings of the fixtures that no map may contain.
"""
from __future__ import annotations

import json
from pathlib import Path

from tests.formats.codexfix import Rollout

DIR = Path(__file__).resolve().parents[1] / "fixtures" / "codex"
SESSION = "019c0a11-2b3c-7d4e-8f50-61728394a5b6"
MODERN = DIR / f"rollout-2026-03-02T09-00-00-{SESSION}.jsonl"
LEGACY = DIR / "legacy-2025-08.jsonl"
LEGACY_JSON = DIR / "legacy-2025-08.json"
CWD = "/Users/dana.kowalski/src/acme-shop"
SECRETS = (
    "dana.kowalski", "Fix the failing checkout", "ROUNDING_HALF_EVEN", "sk-live-4f9a8b7c6d5e4f3a2b1c",
    "hunter2-deploy-token", "quantize(Decimal", "checkout totals are off by a cent", "decimal rounding bankers",
    "ENG-4411", "please look at the screenshot", "Reconnecting", "You've hit your usage limit",
    "explore the pricing module", "pricing_scout", "s3cr3t-branch-name", "acme-internal-notes",
    "lee.nakamura", "make the tiny tool print", "print('hello from tiny')", "legacy_secret_phrase",
    "AGENTS.md instructions for", "environment_context", "summarised conversation text",
)

PATCH = """*** Begin Patch
*** Update File: src/shop/checkout.py
@@ def total(cart):
-    return round(sum(cart), 2)
+    return sum(cart).quantize(Decimal("0.01"), ROUNDING_HALF_EVEN)
*** Add File: tests/test_rounding.py
+def test_rounding():
+    assert total([Decimal("0.005")]) == Decimal("0.00")  # ROUNDING_HALF_EVEN
*** Delete File: src/shop/legacy_round.py
*** Update File: src/shop/util.py
*** Move to: src/shop/money.py
@@
-OLD = 1
+NEW = 1
*** End Patch"""

SHELL_PATCH = """cd web && apply_patch <<'EOF'
*** Begin Patch
*** Update File: app.js
@@
-const k = "acme-internal-notes";
+const k = process.env.K;
*** End Patch
EOF"""


def modern() -> bytes:
    r = Rollout(SESSION)
    r.meta(CWD, instructions="You are Codex. acme-internal-notes", branch="s3cr3t-branch-name")
    r.item({"type": "message", "role": "developer",
            "content": [{"type": "input_text", "text": "<permissions instructions>acme-internal-notes"}]})
    r.item({"type": "message", "role": "user", "content": [
        {"type": "input_text", "text": f"# AGENTS.md instructions for {CWD}\n\nacme-internal-notes"},
        {"type": "input_text", "text": f"<environment_context>\n  <cwd>{CWD}</cwd>\n</environment_context>"}]})
    r.turn(CWD, user_instructions="acme-internal-notes")
    r.event({"type": "task_started", "turn_id": "t1", "model_context_window": 272000})
    r.tokens((0, 0, 0), None)  # a rate-limit update only
    r.tick(100).user("Fix the failing checkout test: checkout totals are off by a cent. See https://acme.example/ENG-4411")
    # response 1 (items, then its token count: current clients)
    r.tick(2000).reasoning("**Running the checkout tests**")
    t1 = r.tick(10).function_call("shell_command", {"command": "pytest tests/test_checkout.py -q",
                                                     "workdir": CWD, "timeout_ms": 120000})
    r.tick(10).tokens((11000, 8000, 1000), (11000, 8000, 1000))
    r.tick(2500).event({"type": "exec_command_end", "call_id": t1, "process_id": "4242", "turn_id": "t1",
                        "command": ["/bin/zsh", "-lc", "pytest tests/test_checkout.py -q"], "cwd": CWD,
                        "parsed_cmd": [], "source": "agent", "stdout": "", "stderr": "", "aggregated_output":
                        "FAILED tests/test_checkout.py::test_total - quantize(Decimal", "exit_code": 1,
                        "duration": {"secs": 2, "nanos": 500000000}, "formatted_output": "", "status": "failed"})
    r.tick(5).output(t1, "Exit code: 1\nWall time: 2.5 seconds\nOutput:\nFAILED test_total - quantize(Decimal\n")
    # response 2: the patch tool, its token count repeated once
    r.tick(3000).reasoning("**Patching the rounding** decimal rounding bankers")
    p1 = r.tick(10).patch(PATCH)
    r.tick(10).tokens((23000, 18000, 1800), (12000, 10000, 800))
    r.tick(1).tokens((23000, 18000, 1800), (12000, 10000, 800))  # the same usage reported again
    r.tick(100).event({"type": "patch_apply_end", "call_id": p1, "stdout": "ROUNDING_HALF_EVEN", "stderr": "",
                       "success": True})
    r.tick(5).patch_output(p1, {"output": "Success. Updated the following files:\nM src/shop/checkout.py\n",
                                "metadata": {"exit_code": 0, "duration_seconds": 0.1}})
    # response 3: the same test again (a retry that passes), through the same tool
    t2 = r.tick(2000).function_call("shell_command", {"command": "pytest tests/test_checkout.py -q",
                                                       "workdir": CWD})
    r.tick(10).tokens((36000, 30000, 2000), (13000, 12000, 200))
    r.tick(3200).output(t2, "Exit code: 0\nWall time: 3.2 seconds\nOutput:\n3 passed\n")
    # response 4: commit through `shell` (argv), ls through local_shell, a web search, an MCP call
    c1 = r.tick(1500).function_call("shell", {"command": ["bash", "-lc",
                                                            "git add -A && git commit -m 'Fix rounding: hunter2-deploy-token'"],
                                              "workdir": CWD, "justification": "acme-internal-notes"})
    ls = r.call_id()
    r.tick(10).item({"type": "local_shell_call", "call_id": ls, "status": "completed",
                     "action": {"type": "exec", "command": ["ls", "-la", f"{CWD}/src"], "timeout_ms": 1000,
                                "working_directory": CWD, "env": {"TOKEN": "sk-live-4f9a8b7c6d5e4f3a2b1c"},
                                "user": None}})
    r.tick(10).item({"type": "web_search_call", "id": "ws_0001", "status": "completed",
                     "action": {"type": "search", "query": "decimal rounding bankers python"}})
    r.event({"type": "web_search_end", "call_id": "ws_0001", "query": "decimal rounding bankers python"})
    m1 = r.tick(10).function_call("mcp__linear__get_issue", {"id": "ENG-4411"})
    r.tick(10).tokens((50000, 40000, 2600), (14000, 10000, 600))
    r.tick(400).output(c1, {"output": "[main 4b5c6d7] Fix rounding: hunter2-deploy-token\n 3 files changed, "
                                      "20 insertions(+), 5 deletions(-)\n",
                            "metadata": {"exit_code": 0, "duration_seconds": 0.4}})
    r.tick(10).output(ls, {"output": "total 8\n-rw-r--r-- 1 dana.kowalski staff 10 checkout.py\n",
                           "metadata": {"exit_code": 0, "duration_seconds": 0.0}})
    r.tick(700).event({"type": "mcp_tool_call_end", "call_id": m1,
                       "invocation": {"server": "linear", "tool": "get_issue", "arguments": {"id": "ENG-4411"}},
                       "duration": {"secs": 0, "nanos": 700000000},
                       "result": {"Ok": {"content": [{"type": "text", "text": "ENG-4411 checkout"}],
                                         "isError": False}}})
    r.tick(5).output(m1, [{"type": "input_text", "text": "ENG-4411: checkout totals are off by a cent"}])
    # response 5: a PR through an MCP tool (old `server__tool` naming), the screenshot, a plan
    pr = r.tick(2000).function_call("github__create_pull_request",
                                    {"title": "Fix rounding", "body": "checkout totals are off by a cent"})
    shot = r.tick(10).function_call("view_image", {"path": "/Users/dana.kowalski/Desktop/cart.png"})
    plan = r.tick(10).function_call("update_plan", {"plan": [{"step": "acme-internal-notes", "status": "done"}]})
    r.tick(10).tokens((64000, 52000, 3000), (14000, 12000, 400))
    r.tick(900).output(pr, "Created https://github.com/acme-corp/acme-shop/pull/77")
    r.tick(10).output(shot, "ok")
    r.tick(10).output(plan, "Plan updated")
    # a second prompt, with an image; a subagent and the other collaboration tools
    r.tick(60_000).user("please look at the screenshot", images=["data:image/png;base64,iVBORw0KGgo="])
    sp = r.tick(2000).function_call("spawn_agent", {"message": "explore the pricing module", "task_name":
                                                    "pricing_scout", "agent_type": "explorer",
                                                    "model": "gpt-5.1-codex-mini"})
    wait = r.tick(10).function_call("wait", {"ids": ["019c0a99-0000-7000-8000-000000000001"], "timeout_ms": 30000})
    r.tick(10).tokens((80000, 64000, 3300), (16000, 12000, 300))
    r.tick(50).event({"type": "collab_agent_spawn_begin", "call_id": sp, "sender_thread_id": SESSION,
                      "prompt": "explore the pricing module"})
    r.tick(50).event({"type": "collab_agent_spawn_end", "call_id": sp, "sender_thread_id": SESSION,
                      "new_thread_id": "019c0a99-0000-7000-8000-000000000001", "new_agent_nickname": "pricing_scout",
                      "new_agent_role": "explorer", "prompt": "explore the pricing module",
                      "model": "gpt-5.1-codex-mini", "status": "pending_init"})
    r.tick(5).output(sp, {"agent_id": "019c0a99-0000-7000-8000-000000000001", "nickname": "pricing_scout"})
    r.tick(40_000).output(wait, {"status": {"019c0a99-0000-7000-8000-000000000001": {"completed": "explore the pricing module"}},
                                 "timed_out": False})
    # response 7: apply_patch through the shell, an exec_command that is still running, a dangling call
    sh = r.tick(2000).function_call("shell", {"command": ["bash", "-lc", SHELL_PATCH], "workdir": CWD})
    run = r.tick(10).function_call("exec_command", {"cmd": "npm run dev", "workdir": f"{CWD}/web",
                                                    "yield_time_ms": 1000})
    r.tick(10).function_call("shell", "{not json: acme-internal-notes")  # arguments that do not parse
    r.tick(10).tokens((97000, 76000, 3700), (17000, 12000, 400))
    r.tick(300).output(sh, {"output": "Success. Updated the following files:\nM web/app.js\n",
                            "metadata": {"exit_code": 0, "duration_seconds": 0.3}})
    r.tick(1000).output(run, "Chunk ID: 7f3a9c\nWall time: 1.0012 seconds\nProcess running with session ID 71\n"
                             "Original token count: 12\nOutput:\nready on :3000\n")
    r.tick(10).output("call_unknown", "an output whose call is not in the rollout")
    # trouble: a stream error, compaction, an aborted turn, a hard error
    r.tick(5000).event({"type": "stream_error", "message": "Reconnecting... 1/5",
                        "codex_error_info": {"response_stream_disconnected": {"http_status_code": 502}}})
    r.tick(1000).add("compacted", {"message": "summarised conversation text",
                                   "replacement_history": [{"type": "message", "role": "user",
                                                            "content": [{"type": "input_text",
                                                                         "text": "summarised conversation text"}]}]})
    r.tick(1).event({"type": "context_compacted"})
    r.tick(100).item({"type": "ghost_snapshot", "ghost_commit": {"id": "aca5e85262ed55f95161bab5b99c197de7477f7b",
                                                                 "parent": None, "preexisting_untracked_files": []}})
    r.tick(100).event({"type": "turn_aborted", "turn_id": "t2", "reason": "interrupted"})
    r.tick(10).item({"type": "message", "role": "user", "content": [
        {"type": "input_text", "text": "<turn_aborted>\nThe user interrupted acme-internal-notes\n</turn_aborted>"}]})
    r.tick(100).event({"type": "error", "message": "You've hit your usage limit. Try again later.",
                       "codex_error_info": "usage_limit_exceeded"})
    r.tick(10).event({"type": "task_complete", "turn_id": "t2", "last_agent_message": "acme-internal-notes"})
    r.tick(10).event({"type": "turn_diff", "unified_diff": "+acme-internal-notes"})
    # records this reader does not know
    r.tick(10).add("future_record", {"note": "acme-internal-notes"})
    r.tick(10).event({"type": "brand_new_event", "text": "acme-internal-notes"})
    r.tick(10).add("Weird Type!", {"x": "acme-internal-notes"})
    r.raw({"timestamp": "not a time", "type": "response_item",
           "payload": {"type": "message", "role": "assistant", "content": []}})
    return r.bytes()


def legacy() -> bytes:
    """The August-2025 layout: a bare header, state lines, items without times."""
    lines: list[dict[str, object]] = [
        {"id": "5d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a", "timestamp": "2025-08-20T10:00:00.000Z",
         "instructions": None, "git": {"commit_hash": "1f2e3d4c5b6a79880716f5e4d3c2b1a0f9e8d7c6",
                                       "branch": "main", "repository_url": "https://github.com/lee/tiny.git"}},
        {"record_type": "state"},
        {"type": "message", "id": None, "role": "user", "content": [
            {"type": "input_text", "text": "<environment_context>\nCurrent working directory: "
                                           "/home/lee.nakamura/work/tiny\nApproval policy: on-request\n"
                                           "</environment_context>"}]},
        {"type": "message", "id": None, "role": "user", "content": [
            {"type": "input_text", "text": "make the tiny tool print a greeting legacy_secret_phrase"}]},
        {"record_type": "state"},
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "legacy_secret_phrase"}],
         "encrypted_content": "gAAAAAB" + "y" * 40},
        {"type": "function_call", "id": "fc_1", "name": "shell", "call_id": "call_L1",
         "arguments": json.dumps({"command": ["apply_patch", "*** Begin Patch\n*** Add File: tiny.py\n"
                                              "+print('hello from tiny')\n*** End Patch"]})},
        {"type": "function_call_output", "call_id": "call_L1",
         "output": json.dumps({"output": "Done!", "metadata": {"exit_code": 0, "duration_seconds": 0.0}})},
        {"record_type": "state"},
        {"type": "function_call", "id": "fc_2", "name": "shell", "call_id": "call_L2",
         "arguments": json.dumps({"command": ["bash", "-lc", "python tiny.py"], "workdir": "/home/lee.nakamura/work/tiny"})},
        {"type": "function_call_output", "call_id": "call_L2",
         "output": json.dumps({"output": "hello from tiny legacy_secret_phrase",
                               "metadata": {"exit_code": 0, "duration_seconds": 0.1}})},
        {"type": "message", "id": None, "role": "assistant",
         "content": [{"type": "output_text", "text": "Done: legacy_secret_phrase"}]},
        {"record_type": "state"},
    ]
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)


def legacy_json() -> bytes:
    """The single-JSON rollout (pretty-printed, chat-completions shaped items)."""
    doc = {
        "session": {"timestamp": "2025-08-23T11:12:47.134Z", "id": "7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d",
                    "instructions": ""},
        "items": [
            {"role": "user", "content": [{"type": "text", "text": "make the tiny tool print legacy_secret_phrase"}]},
            {"role": "assistant", "content": "", "reasoning": "legacy_secret_phrase",
             "tool_calls": [{"id": "call_J1", "index": 0, "type": "function",
                             "function": {"name": "shell", "arguments": json.dumps({"command": ["bash", "-lc", "ls -R"]})}}]},
            {"role": "tool", "tool_call_id": "call_J1", "content": json.dumps({"output": "tiny.py legacy_secret_phrase",
                                                                              "metadata": {"exit_code": 0,
                                                                                           "duration_seconds": 0.0}})},
            {"role": "assistant", "content": "", "reasoning": "The tests",
             "tool_calls": [{"id": "call_J2", "index": 0, "type": "function",
                             "function": {"name": "container.exec",
                                          "arguments": json.dumps({"cmd": ["bash", "-lc", "cargo test --quiet"],
                                                                   "timeout": 100000})}}]},
            {"role": "tool", "tool_call_id": "call_J2", "content": json.dumps(
                {"output": "error: could not find `Cargo.toml` in /home/lee.nakamura",
                 "metadata": {"exit_code": 101, "duration_seconds": 0.2}})},
            {"role": "assistant", "content": [{"type": "text", "text": "There is no Cargo.toml legacy_secret_phrase"}]},
        ],
    }
    return json.dumps(doc, indent=2).encode() + b"\n"


def write(folder: Path = DIR) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MODERN.name).write_bytes(modern())
    (folder / LEGACY.name).write_bytes(legacy())
    (folder / LEGACY_JSON.name).write_bytes(legacy_json())


if __name__ == "__main__":
    write()
