"""A strict reading of seed 000 (the agentplay/v1 format page), written out by hand from the seed's
own tables, independent of `redact.model`: every object may hold only the fields the seed names for
it, and every enum only the values the seed lists. `violations(m)` returns JSON pointers with what
is wrong; an empty list means the map keeps to the seed.

Where the project writes a field the seed's tables do not name for that place, the field is listed
in `TOLERATED` with the reason; nothing else passes.
"""
from __future__ import annotations

from typing import Any

TOP = {"schema", "session", "totals", "repos", "files", "agents", "tasks", "prs", "events",
       "contentHash"}  # contentHash: seed "Content hash"
SESSION = {"id", "agentTool", "cliVersion", "startedAt", "durationMs", "models", "pathMode", "truncated",
           "outcome", "role", "parentSessionId"}
TOTALS = {"calls", "requests", "userTurns", "subagents", "errors", "tokens", "costUsd", "filesTouched",
          "filesCreated", "filesDeleted", "errorsBySource", "errorsByClass", "retries", "delays", "delayMs",
          "maxContext", "compactions", "llmLatencyP50", "llmLatencyP95", "outputTokens", "tasks",
          "prsCreated", "prsMerged", "prsClosed", "prComments", "commits", "ticketsCreated",
          "ticketsUpdated", "artifacts", "skillsCreated", "skillsUpdated", "modelSwitches", "promptChars",
          "promptImages", "promptUrls"}
REPO = {"id", "name", "remote"}
FILE = {"id", "repo", "path", "reads", "edits", "hits", "first", "op"}
# agents: the example's fields; "…: same counters" is the main lane's counters (errors is one of
# the counters totals has per lane in the example's spirit: calls, requests, errors, tokens, cost)
AGENT = {"id", "parent", "kind", "subagentType", "model", "launchSeq", "start", "end", "calls", "requests",
         "errors", "tokens", "cost", "outcome"}
TASK = {"n", "id", "name", "source", "startSeq", "endSeq", "startT", "endT", "firstTurn", "lastTurn"}
PR = {"provider", "repo", "number", "url", "seq", "state"}
TARGET = {"file", "scope", "label", "touch", "op"}
VCS = {"provider", "action", "repo", "number"}

COMMON = {"seq", "t", "kind", "agent", "err", "task", "model", "cat"}
CALL_SIGNALS = {"errClass", "exitCode", "retryOf", "attempt"}  # Signals: on failed calls (retries too)
_FILE_SHELL = {"tool", "verb", "targets", "outBytes", "dur", "vcs"}
KIND_FIELDS: dict[str, set[str]] = {
    **{k: _FILE_SHELL for k in ("read", "search", "edit", "exec", "verify")},
    "mcp": {"server", "tool", "outBytes", "dur"},
    "skill": {"skill"},
    "subagent": {"subagentType", "model", "child"},
    "web": {"host"},
    "tool": {"tool"},
    "llm": {"model", "in", "cw", "cr", "out", "cost", "latency", "stop", "thinking", "toolCalls",
            "textChars"},
    "user": {"chars", "images", "urls"},
    "error": {"source", "errClass", "hook", "hookEvent", "srcUuid", "ref", "retry"},
    "delay": {"cause", "ms", "ref"},
    "compaction": {"trigger", "preTokens", "postTokens", "ms"},
    "commit": {"repo", "sha", "files", "ins", "del"},
    "pr_merge": {"repo", "number", "url"},
    "pr_close": {"repo", "number", "url"},
    "pr_comment": {"repo", "number", "url"},
    "ticket": {"tracker", "action", "id"},
    "artifact": {"url", "title", "version"},
    "skill_write": {"name", "action"},
    "model_switch": {"from", "to"},
}
CALL_KINDS = {"read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool"}
FILE_SHELL_KINDS = {"read", "search", "edit", "exec", "verify"}
# Fields the project writes beyond the seed's kind table, each for a reason the seed itself gives:
# the seed's delay rule ("a tool call of 30 s or more", cause `subagent` for a subagent call) and
# `outBytes` are measured on every call, so skill/subagent/web/tool calls carry `dur` and `outBytes`
# as file/shell/mcp calls do (the format's evolution rule: fields are only added inside v1).
TOLERATED: dict[str, set[str]] = {k: {"outBytes", "dur"} for k in ("skill", "subagent", "web", "tool")}
# sourceDigest: the keyed digest of the raw log (issue 27), added at the top level under the seed's
# "Evolution" rule (fields are only added inside v1; readers ignore fields they do not know). Only
# with a key, and of one fixed form (hmac-sha256: and 64 hex), checked below.
TOLERATED_TOP = {"sourceDigest"}

ENUMS = {
    "pathMode": {"relative", "dirs_only", "hashed"},
    "outcome": {"pr_created", "interrupted", "blocked", "verified", "unresolved_errors", "incomplete",
                "completed"},
    "role": {"root", "subagent", "helper", "unknown", None},
    "agent.kind": {"main", "subagent"},
    "task.source": {"segments", "turns"},
    "file.op": {"create", "modify", "delete", "rename-from", "rename-to"},
    "touch": {"hit", "read", "edit"},
    "cat": {"file", "shell", "vcs", "test", "cloud", "http", "fs", "package", "build", "mcp", "subagent",
            "skill", "web", "tool"},
    "call.errClass": {"exit_code", "timeout", "not_found", "validation", "needs_approval",
                      "permission_denied", "blocked", "browser", "patch_failed", "stale_file",
                      "model_unavailable", "rate_limit",
                      "api_error", "interrupted", "no_result", "subagent_failed", "subagent_killed", "other"},
    "error.errClass": {"rate_limit", "usage_limit", "spend_limit", "overloaded", "server_error", "auth",
                       "bad_request", "api_error", "refusal_fallback", "hook_blocking", "hook_error",
                       "interrupted"},
    "error.source": {"llm", "hook", "orchestration", "tool", "mcp", None},
    "errorsBySource": {"tool", "mcp", "llm", "hook", "orchestration"},
    "delay.cause": {"tool", "subagent", "llm", "stall"},
    "trigger": {"auto", "manual"},
    "action": {"create", "update"},
    "vcs.provider": {"git", "github", "gitlab", "bitbucket"},
    "pr.provider": {"github", "gitlab", "bitbucket"},
}


def _keys(obj: Any, allowed: set[str], ptr: str, out: list[str]) -> bool:
    if not isinstance(obj, dict):
        out.append(f"{ptr}: not an object")
        return False
    for key in obj:
        if key not in allowed:
            out.append(f"{ptr}/{key}: field the seed does not allow here")
    return True


def _enum(value: Any, name: str, ptr: str, out: list[str]) -> None:
    if value not in ENUMS[name]:
        out.append(f"{ptr}: {value!r} is not one of the seed's values for {name}")


def violations(m: dict[str, Any]) -> list[str]:
    out: list[str] = []
    _keys(m, TOP | TOLERATED_TOP, "", out)
    digest = m.get("sourceDigest") if isinstance(m, dict) else None
    if digest is not None and not (isinstance(digest, str) and len(digest) == 76
                                   and digest.startswith("hmac-sha256:")
                                   and all(c in "0123456789abcdef" for c in digest[12:])):
        out.append("/sourceDigest: not hmac-sha256: and 64 lowercase hex")
    if m.get("schema") not in ("agentplay/v1", "entelligence.session-map/v1"):
        out.append("/schema: not agentplay/v1")
    s = m.get("session", {})
    if _keys(s, SESSION, "/session", out):
        for name in ("pathMode", "outcome", "role"):
            if name in s:
                _enum(s[name], name, f"/session/{name}", out)
    tot = m.get("totals", {})
    if _keys(tot, TOTALS, "/totals", out):
        for src in tot.get("errorsBySource") or {}:
            _enum(src, "errorsBySource", f"/totals/errorsBySource/{src}", out)
        for cls in tot.get("errorsByClass") or {}:
            if cls not in ENUMS["call.errClass"] | ENUMS["error.errClass"]:
                out.append(f"/totals/errorsByClass/{cls}: not an errClass of the seed")
    for i, r in enumerate(m.get("repos") or []):
        _keys(r, REPO, f"/repos/{i}", out)
    repo_ids = {r.get("id") for r in m.get("repos") or []}
    for i, f in enumerate(m.get("files") or []):
        if _keys(f, FILE, f"/files/{i}", out):
            if "op" in f:
                _enum(f["op"], "file.op", f"/files/{i}/op", out)
            if f.get("repo") is not None and f["repo"] not in repo_ids:
                out.append(f"/files/{i}/repo: names no repos[] entry")
    lane_ids = set()
    for i, a in enumerate(m.get("agents") or []):
        if _keys(a, AGENT, f"/agents/{i}", out):
            lane_ids.add(a.get("id"))
            _enum(a.get("kind"), "agent.kind", f"/agents/{i}/kind", out)
            if "outcome" in a:
                _enum(a["outcome"], "outcome", f"/agents/{i}/outcome", out)
            if a.get("kind") == "main" and a.get("parent") is not None:
                out.append(f"/agents/{i}/parent: the main lane has no parent")
            if a.get("kind") == "subagent" and a.get("parent") != "main":
                out.append(f"/agents/{i}/parent: a subagent has no further nesting")
    for i, t in enumerate(m.get("tasks") or []):
        if _keys(t, TASK, f"/tasks/{i}", out) and "source" in t:
            _enum(t["source"], "task.source", f"/tasks/{i}/source", out)
    for i, p in enumerate(m.get("prs") or []):
        if _keys(p, PR, f"/prs/{i}", out) and "provider" in p:
            _enum(p["provider"], "pr.provider", f"/prs/{i}/provider", out)
    for i, ev in enumerate(m.get("events") or []):
        _event(ev, i, lane_ids, out)
    return out


def _event(ev: Any, i: int, lanes: set[Any], out: list[str]) -> None:
    ptr = f"/events/{i}"
    kind = ev.get("kind") if isinstance(ev, dict) else None
    if kind not in KIND_FIELDS:
        out.append(f"{ptr}/kind: {kind!r} is not a kind of the seed")
        return
    allowed = COMMON | KIND_FIELDS[kind] | TOLERATED.get(kind, set())
    if kind in CALL_KINDS:
        allowed = allowed | CALL_SIGNALS
    _keys(ev, allowed, ptr, out)
    if ev.get("seq") != i:
        out.append(f"{ptr}/seq: events[i].seq must be i")
    if lanes and ev.get("agent") not in lanes:
        out.append(f"{ptr}/agent: names no agents[] lane")
    if "cat" in ev:
        _enum(ev["cat"], "cat", f"{ptr}/cat", out)
    # Signals lists exitCode for a failed call; a file or shell call run as a process (a shell
    # command, Codex's apply_patch) carries its exit code 0 on success too (the one tolerance on
    # signals: a viewer tells a clean exit from an unknown one)
    if "exitCode" in ev and ev.get("err") is not True and kind not in FILE_SHELL_KINDS:
        out.append(f"{ptr}/exitCode: only a failed call or a file/shell call carries exitCode")
    if kind in CALL_KINDS and "errClass" in ev:
        _enum(ev["errClass"], "call.errClass", f"{ptr}/errClass", out)
        if ev.get("err") is not True:
            out.append(f"{ptr}/errClass: only a failed call carries errClass")
    if kind == "error":
        _enum(ev.get("errClass"), "error.errClass", f"{ptr}/errClass", out)
        _enum(ev.get("source"), "error.source", f"{ptr}/source", out)
    if kind == "delay":
        _enum(ev.get("cause"), "delay.cause", f"{ptr}/cause", out)
    if kind == "compaction" and "trigger" in ev:
        _enum(ev["trigger"], "trigger", f"{ptr}/trigger", out)
    if kind in ("ticket", "skill_write"):
        _enum(ev.get("action"), "action", f"{ptr}/action", out)
    # the seed's file/shell row: "tool, verb (shell only), targets[]": a verb rides on any of the five
    # kinds when the call was a shell line (a read-only `cat`/`rg` line is a read or search event)
    if kind not in ("read", "search", "edit", "exec", "verify") and "verb" in ev:
        out.append(f"{ptr}/verb: verb is for shell calls only")
    for j, target in enumerate(ev.get("targets") or []):
        if _keys(target, TARGET, f"{ptr}/targets/{j}", out):
            _enum(target.get("touch"), "touch", f"{ptr}/targets/{j}/touch", out)
            if "op" in target:
                _enum(target["op"], "file.op", f"{ptr}/targets/{j}/op", out)
            if ("file" in target) == ("scope" in target):
                out.append(f"{ptr}/targets/{j}: a target is a file or an outside scope")
    if "vcs" in ev and _keys(ev["vcs"], VCS, f"{ptr}/vcs", out):
        _enum(ev["vcs"].get("provider"), "vcs.provider", f"{ptr}/vcs/provider", out)
