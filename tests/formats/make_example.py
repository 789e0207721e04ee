"""The shipped example transcript, `examples/claude-code/` (written by this project, not copied).

A realistic Claude Code 2.1.x session: a user asks to fix invoice rounding for a customer; the agent
reads code, sends an Explore subagent (its own transcript under `<session>/subagents/`), calls an MCP
server, fetches a web page, edits, writes a test, fails and re-runs the tests, is blocked by a hook
when it tries a deploy script, survives an overloaded API and an auto-compaction, switches model,
commits and opens a PR. Its text is full of what must never leave the machine: a user name in every
path, customer names, a database password, API keys, e-mail addresses, a branch name.

Regenerate (only on purpose; tests check the checked-in copy matches this script):

    .venv/bin/python -m tests.formats.make_example
"""
from __future__ import annotations

import sys
from pathlib import Path

from tests.formats.ccfix import Transcript, text, thinking, tool_use

SESSION = "5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77"
AGENT = "a4c81e2f9b3d7e15"
CWD = "/Users/dana.kowalski/src/acme-billing"
BRANCH = "fix/globex-rounding-INC-4411"
SONNET = "claude-sonnet-4-5-20250929"
OPUS = "claude-opus-4-5-20251101"
HAIKU = "claude-haiku-4-5-20251001"
ROOT = Path(__file__).resolve().parents[2] / "examples" / "claude-code"

#: Strings from the example's text that must never appear in any map made from it.
SECRETS = (
    "dana.kowalski", "Globex", "globex", "Initech", "Tr0ub4dor-horse-battery", "ak_live_7f3b9c2e1d4a6b8c0e2f4a6b",
    "npm_Xq7RzLk2VvB9sT4mWc8Hn1Ja5Dp3Ge6Yf0Ui", "AKIAIOSFODNN7EXAMPLE", "alice.nguyen", "hunter2",
    "INC-4411", "wiki.acme.test", "db.internal.acme.test", "half-even", "roundHalfEven", "deploy-acme-staging",
    "tok_secret123", "fix/globex",
)


def main_transcript() -> Transcript:
    m = Transcript(SESSION, CWD, branch=BRANCH, slug="tidy-copper-lantern", start="2026-03-02T09:14:05.120Z")
    m.raw({"type": "permission-mode", "permissionMode": "default", "sessionId": SESSION})
    m.raw({"type": "file-history-snapshot", "messageId": m.uid(), "snapshot": {
        "messageId": m.uid(), "trackedFileBackups": {f"{CWD}/src/export/invoice.ts": {
            "backupFileName": "3c1e9a@v1", "version": 1}}, "timestamp": "2026-03-02T09:14:05.100Z"},
        "isSnapshotUpdate": False})
    m.user([
        text("The invoice export for Globex Corporation breaks when an amount has three decimals "
             f"(10.005 comes out as 10.00). Fix it in {CWD}/src/export/invoice.ts and add a test. "
             "Staging DB is postgres://billing:Tr0ub4dor-horse-battery@db.internal.acme.test:5432/billing. "
             "Runbook: https://wiki.acme.test/billing/runbook and the ticket "
             "https://linear.app/acme/issue/INC-4411/globex-rounding. Screenshot attached."),
        {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                     "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"}},
    ], permissionMode="default")
    m.tick(2600)
    read1 = m.tool_id()
    m.assistant([
        thinking("Globex reported 10.005 -> 10.00; probably toFixed. Must not print the DB password "
                 "Tr0ub4dor-horse-battery anywhere."),
        text("I'll start with the export code."),
        tool_use(read1, "Read", {"file_path": f"{CWD}/src/export/invoice.ts"}),
    ], usage=(3, 8214, 11020, 212))
    m.tick(180)
    code = ("import { roundHalfEven } from '../money/round';\n"
            "const API_KEY = process.env.ACME_API_KEY ?? 'ak_live_7f3b9c2e1d4a6b8c0e2f4a6b';\n"
            "export function formatAmount(x: number) { return x.toFixed(2); } // Globex, Initech\n")
    m.result(read1, "".join(f"{i + 1:6}\u2192{line}\n" for i, line in enumerate(code.splitlines())),
             tur={"type": "text", "file": {"filePath": f"{CWD}/src/export/invoice.ts", "content": code,
                                           "numLines": 3, "startLine": 1, "totalLines": 3}})
    m.tick(1900)
    npmrc = m.tool_id()
    m.assistant([tool_use(npmrc, "Read", {"file_path": "/Users/dana.kowalski/.npmrc"})], usage=(3, 640, 19234, 61))
    m.tick(90)
    m.result(npmrc, "     1\u2192//registry.npmjs.org/:_authToken=npm_Xq7RzLk2VvB9sT4mWc8Hn1Ja5Dp3Ge6Yf0Ui\n",
             tur={"type": "text", "file": {"filePath": "/Users/dana.kowalski/.npmrc",
                                           "content": "//registry.npmjs.org/:_authToken=npm_Xq7RzLk2VvB9sT4mWc8Hn1Ja5Dp3Ge6Yf0Ui",
                                           "numLines": 1, "startLine": 1, "totalLines": 1}})
    m.tick(2100)
    todo = m.tool_id()
    todos = [{"content": "Fix half-even rounding for Globex amounts", "status": "in_progress",
              "activeForm": "Fixing rounding"},
             {"content": "Add a regression test with Initech's 3-decimal totals", "status": "pending",
              "activeForm": "Adding a test"}]
    m.assistant([tool_use(todo, "TodoWrite", {"todos": todos})], usage=(3, 410, 19874, 150))
    m.tick(40)
    m.result(todo, "Todos have been modified successfully. Ensure that you continue to use the todo list.",
             tur={"oldTodos": [], "newTodos": todos})
    m.tick(1700)
    task = m.tool_id()
    prompt = (f"Search {CWD} for every rounding helper (roundHalfEven, toFixed) used by the invoice export, "
              "including the legacy adapter Initech uses. Do not open .env (it has the staging password hunter2).")
    m.assistant([
        text("Let me have a subagent map the rounding helpers while I check the ticket."),
        tool_use(task, "Task", {"description": "Find rounding helpers for Globex/Initech",
                                "prompt": prompt, "subagent_type": "Explore"}),
    ], usage=(3, 520, 20284, 240))
    launch_t = m.t
    m.tick(38_400)
    m.result(task, [text("round.ts exports roundHalfEven; invoice.ts uses toFixed(2) instead. Initech's "
                         "legacy CSV adapter calls roundHalfEven correctly."),
                    text(f"agentId: {AGENT} (for resuming to continue this agent's work if needed)")],
             tur={"status": "completed", "prompt": prompt, "agentId": AGENT, "agentType": "Explore",
                  "content": [text("round.ts exports roundHalfEven ...")], "totalDurationMs": 38210,
                  "totalTokens": 41234, "totalToolUseCount": 3,
                  "usage": {"input_tokens": 4, "cache_creation_input_tokens": 900,
                            "cache_read_input_tokens": 30000, "output_tokens": 410}})
    m.tick(700)
    m.system("api_error", level="error", cause={}, error={"status": 529, "error": {
        "type": "overloaded_error", "message": "Overloaded"}}, retryInMs=612.5, retryAttempt=1, maxRetries=10)
    m.tick(2300)
    mcp = m.tool_id()
    m.assistant([tool_use(mcp, "mcp__linear__get_issue", {"id": "INC-4411"})], usage=(3, 2400, 20804, 70))
    m.tick(650)
    m.result(mcp, [text("INC-4411 Globex invoices round 10.005 down. Reporter: alice.nguyen@globex.example. "
                        "Priority: urgent.")])
    m.tick(1500)
    web = m.tool_id()
    m.assistant([tool_use(web, "WebFetch", {
        "url": "https://docs.stripe.com/api/invoices?expand[]=lines&token=tok_secret123",
        "prompt": "How does Stripe round invoice line amounts for Globex-like 3-decimal currencies?"})],
        usage=(3, 300, 23204, 95))
    m.tick(2900)
    m.result(web, "Stripe rounds half-even at the line level ...",
             tur={"bytes": 182733, "code": 200, "codeText": "OK", "result": "Stripe rounds half-even ...",
                  "durationMs": 2876, "url": "https://docs.stripe.com/api/invoices?expand[]=lines&token=tok_secret123"})
    m.tick(2200)
    edit1 = m.tool_id()
    m.assistant([
        text("Switching formatAmount to roundHalfEven."),
        tool_use(edit1, "Edit", {"file_path": f"{CWD}/src/export/invoice.ts", "replace_all": False,
                                 "old_string": "return x.toFixed(2); } // Globex, Initech",
                                 "new_string": "return roundHalfEven(x, 2).toFixed(2); } // Globex, Initech"}),
    ], usage=(3, 980, 23504, 310))
    m.tick(120)
    m.result(edit1, f"The file {CWD}/src/export/invoice.ts has been updated. Here's the result ...",
             tur={"filePath": f"{CWD}/src/export/invoice.ts", "oldString": "return x.toFixed(2);",
                  "newString": "return roundHalfEven(x, 2).toFixed(2);", "originalFile": code,
                  "structuredPatch": [{"oldStart": 3, "oldLines": 1, "newStart": 3, "newLines": 1,
                                       "lines": ["-export function formatAmount", "+export function formatAmount"]}],
                  "userModified": False, "replaceAll": False})
    m.tick(60)
    m.add(m.envelope("attachment", attachment={
        "type": "hook_non_blocking_error", "hookName": "PostToolUse:Edit", "toolUseID": edit1,
        "hookEvent": "PostToolUse", "stderr": f"prettier: cannot find {CWD}/node_modules/.bin/prettier",
        "exitCode": 1, "command": f"npx prettier --write {CWD}/src/export/invoice.ts"}))
    m.tick(2400)
    write = m.tool_id()
    test_src = ("import { formatAmount } from './invoice';\n"
                "test('Globex 10.005', () => expect(formatAmount(10.005)).toBe('10.01'));\n"
                "test('Initech 2.675', () => expect(formatAmount(2.675)).toBe('2.68'));\n")
    m.assistant([tool_use(write, "Write", {"file_path": f"{CWD}/src/export/invoice.test.ts",
                                           "content": test_src})], usage=(3, 700, 24484, 260))
    m.tick(110)
    m.result(write, f"File created successfully at: {CWD}/src/export/invoice.test.ts",
             tur={"type": "create", "filePath": f"{CWD}/src/export/invoice.test.ts", "content": test_src,
                  "structuredPatch": []})
    m.tick(1800)
    test1 = m.tool_id()
    cmd_test = "npm test -- src/export/invoice.test.ts"
    m.assistant([tool_use(test1, "Bash", {"command": cmd_test, "description": "Run the invoice tests"})],
                usage=(3, 380, 25184, 88))
    m.tick(41_300)
    m.result(test1, "Exit code 1\nFAIL src/export/invoice.test.ts\n  \u25cf Initech 2.675 \u203a expected '2.68', got '2.67'\n",
             is_error=True, tur="Error: Exit code 1\nFAIL src/export/invoice.test.ts")
    m.tick(3100)
    edit2 = m.tool_id()
    m.assistant([
        thinking("Binary floating point: 2.675 is 2.67499999. Use a decimal-safe half-even for Initech."),
        text("2.675 is not exact in binary; rounding on the string form instead."),
        tool_use(edit2, "Edit", {"file_path": f"{CWD}/src/export/invoice.ts", "replace_all": False,
                                 "old_string": "roundHalfEven(x, 2)", "new_string": "roundHalfEven(x.toString(), 2)"}),
    ], usage=(3, 1500, 25564, 420))
    m.tick(100)
    m.result(edit2, f"The file {CWD}/src/export/invoice.ts has been updated.",
             tur={"filePath": f"{CWD}/src/export/invoice.ts", "oldString": "roundHalfEven(x, 2)",
                  "newString": "roundHalfEven(x.toString(), 2)", "originalFile": code, "structuredPatch": [],
                  "userModified": False, "replaceAll": False})
    m.tick(1500)
    test2 = m.tool_id()
    m.assistant([tool_use(test2, "Bash", {"command": cmd_test, "description": "Re-run the invoice tests"})],
                usage=(3, 520, 27064, 80))
    m.tick(12_400)
    out = "PASS src/export/invoice.test.ts\n  \u2713 Globex 10.005 (3 ms)\n  \u2713 Initech 2.675 (1 ms)\n\nTests: 2 passed\n"
    m.result(test2, out, tur={"stdout": out, "stderr": "", "interrupted": False, "isImage": False})
    m.tick(2600)
    deploy = m.tool_id()
    m.assistant([tool_use(deploy, "Bash", {
        "command": "ACME_API_KEY=ak_live_7f3b9c2e1d4a6b8c0e2f4a6b ./scripts/deploy-acme-staging.sh --customer globex",
        "description": "Deploy to staging for Globex"})], usage=(3, 300, 27584, 120))
    m.tick(300)
    m.result(deploy, "PreToolUse:Bash hook error: [/Users/dana.kowalski/.claude/hooks/guard.sh]: Blocked: "
                     "deploys need a human (AKIAIOSFODNN7EXAMPLE is not allowed here)", is_error=True,
             tur="Error: PreToolUse:Bash hook error: Blocked")
    m.tick(2000)
    m.assistant([text("The deploy hook blocked me; tests pass locally. Anything else?")],
                usage=(3, 260, 27884, 70), stop="end_turn")
    m.tick(400)
    m.system("stop_hook_summary", hookCount=1, hookInfos=[{"command": "~/.claude/hooks/notify.sh", "durationMs": 31}],
             hookErrors=[], preventedContinuation=False, stopReason="", hasOutput=False, level="suggestion",
             toolUseID=m.uid())
    m.system("turn_duration", durationMs=131_900, messageCount=41, isMeta=False)
    # The user comes back later; the conversation is compacted automatically first.
    m.tick(95_000)
    before = m.parent
    m.parent = None
    m.system("compact_boundary", content="Conversation compacted", isMeta=False, level="info",
             logicalParentUuid=before, compactMetadata={"trigger": "auto", "preTokens": 167_245})
    m.user("This session is being continued from a previous conversation. Summary: fixed Globex rounding "
           "(INC-4411) in invoice.ts; DB password Tr0ub4dor-horse-battery must stay secret.",
           isCompactSummary=True, isVisibleInTranscriptOnly=True)
    m.tick(5_000)
    m.user("<command-name>/model</command-name>\n            <command-message>model</command-message>\n"
           "            <command-args></command-args>")
    m.user("<local-command-stdout>Set model to \u001b[1mOpus 4.5\u001b[22m</local-command-stdout>")
    m.tick(20_000)
    m.user("Looks good. Commit it and open a PR against main. Mention Globex in the title but not "
           "the contact alice.nguyen@globex.example.")
    m.tick(3000)
    commit = m.tool_id()
    cmd_commit = 'git add -A && git commit -m "Fix half-even rounding for Globex invoices (INC-4411)"'
    m.assistant([thinking("Commit without the customer contact."),
                 tool_use(commit, "Bash", {"command": cmd_commit, "description": "Commit the fix"})],
                model=OPUS, usage=(3, 14000, 9000, 140))
    m.tick(900)
    out = (f"[{BRANCH} 3f9a2c1] Fix half-even rounding for Globex invoices (INC-4411)\n"
           " 2 files changed, 48 insertions(+), 6 deletions(-)\n create mode 100644 src/export/invoice.test.ts\n")
    m.result(commit, out, tur={"stdout": out, "stderr": "", "interrupted": False, "isImage": False})
    m.tick(1800)
    push = m.tool_id()
    m.assistant([tool_use(push, "Bash", {"command": f"git push -u origin {BRANCH}", "description": "Push"})],
                model=OPUS, usage=(3, 400, 23000, 60))
    m.tick(2600)
    out = (f"branch '{BRANCH}' set up to track 'origin/{BRANCH}'.\n")
    m.result(push, out, tur={"stdout": out, "stderr": "To github.com:acme-corp/acme-billing.git\n * [new branch]",
                             "interrupted": False, "isImage": False})
    m.tick(2100)
    pr = m.tool_id()
    cmd_pr = ('gh pr create --base main --title "Fix half-even rounding for Globex invoices" --body "$(cat <<\'EOF\'\n'
              "## Summary\n- Round Globex and Initech 3-decimal amounts half-even (INC-4411)\nEOF\n)\"")
    m.assistant([tool_use(pr, "Bash", {"command": cmd_pr, "description": "Open the PR"})],
                model=OPUS, usage=(3, 350, 23400, 190))
    m.tick(3400)
    out = "https://github.com/acme-corp/acme-billing/pull/482\n"
    m.result(pr, out, tur={"stdout": out, "stderr": "", "interrupted": False, "isImage": False})
    m.tick(2200)
    m.assistant([text("Opened https://github.com/acme-corp/acme-billing/pull/482 for the Globex fix.")],
                model=OPUS, usage=(3, 300, 23750, 45), stop="end_turn")
    m.tick(300)
    m.system("turn_duration", durationMs=18_000, messageCount=9, isMeta=False)
    m.raw({"type": "custom-title", "customTitle": "globex rounding fix", "sessionId": SESSION})
    m.raw({"type": "last-prompt", "lastPrompt": "Looks good. Commit it and open a PR (Globex)", "sessionId": SESSION})
    m.launch_t = launch_t  # type: ignore[attr-defined]
    return m


def subagent_transcript(start_ms: float) -> Transcript:
    from tests.formats.ccfix import iso

    s = Transcript(SESSION, CWD, branch=BRANCH, slug="tidy-copper-lantern", agent_id=AGENT, seed=11,
                   start=iso(start_ms + 250))
    s.user(f"Search {CWD} for every rounding helper (roundHalfEven, toFixed) used by the invoice export, "
           "including the legacy adapter Initech uses. Do not open .env (it has the staging password hunter2).")
    s.tick(1900)
    grep = s.tool_id()
    s.assistant([text("Searching for rounding helpers."),
                 tool_use(grep, "Grep", {"pattern": "roundHalfEven|toFixed", "path": CWD,
                                         "output_mode": "files_with_matches"})],
                model=HAIKU, usage=(3, 9000, 0, 90))
    s.tick(160)
    hits = [f"{CWD}/src/money/round.ts", f"{CWD}/src/export/invoice.ts", f"{CWD}/src/export/legacy/csv_adapter.ts"]
    s.result(grep, "Found 3 files\n" + "\n".join(hits),
             tur={"mode": "files_with_matches", "filenames": hits, "numFiles": 3})
    s.tick(1700)
    read = s.tool_id()
    s.assistant([tool_use(read, "Read", {"file_path": f"{CWD}/src/money/round.ts"})], model=HAIKU,
                usage=(3, 400, 9000, 60))
    s.tick(70)
    s.result(read, "     1\u2192export function roundHalfEven(x, digits) { /* Initech legacy */ }\n",
             tur={"type": "text", "file": {"filePath": f"{CWD}/src/money/round.ts",
                                           "content": "export function roundHalfEven(x, digits) {}",
                                           "numLines": 1, "startLine": 1, "totalLines": 1}})
    s.tick(1600)
    glob = s.tool_id()
    s.assistant([tool_use(glob, "Glob", {"pattern": "src/**/*.test.ts"})], model=HAIKU, usage=(3, 300, 9400, 40))
    s.tick(30)
    tests = [f"{CWD}/src/money/round.test.ts", f"{CWD}/src/export/csv.test.ts"]
    s.result(glob, "\n".join(tests), tur={"filenames": tests, "durationMs": 12, "numFiles": 2, "truncated": False})
    s.tick(30_000)
    s.assistant([text("round.ts exports roundHalfEven; invoice.ts uses toFixed(2). Initech's legacy CSV "
                      "adapter already rounds half-even.")], model=HAIKU, usage=(3, 600, 9700, 380),
                stop="end_turn")
    return s


def build() -> tuple[bytes, bytes]:
    main = main_transcript()
    sub = subagent_transcript(main.launch_t)  # type: ignore[attr-defined]
    return main.bytes(), sub.bytes()


def paths(root: Path = ROOT) -> tuple[Path, Path]:
    return root / f"{SESSION}.jsonl", root / SESSION / "subagents" / f"agent-{AGENT}.jsonl"


def write(root: Path = ROOT) -> None:
    main_bytes, sub_bytes = build()
    main_path, sub_path = paths(root)
    sub_path.parent.mkdir(parents=True, exist_ok=True)
    main_path.write_bytes(main_bytes)
    sub_path.write_bytes(sub_bytes)


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)
