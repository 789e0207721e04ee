"""Maps and reports for the audit renderer tests (not a test module)."""
from __future__ import annotations

import copy
from typing import Any

from redact.model.canonical import content_hash

KINDS = ("user", "llm", "read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web",
         "tool", "error", "delay", "commit", "model_switch")


def clean_map(n_events: int = 60) -> dict[str, Any]:
    """A well-formed redacted map: three agents, many kinds, hash tokens and identifiers in clear."""
    agents = [
        {"id": "main", "parent": None, "kind": "main", "start": 0, "end": 120000},
        {"id": "sa-0a1b2c3d4e5f", "parent": "main", "kind": "subagent", "subagentType": "Explore",
         "model": "claude-haiku-4-5", "launchSeq": 3, "start": 10000, "end": 50000},
        {"id": "sa-9f8e7d6c5b4a", "parent": "main", "kind": "subagent", "subagentType": "h:0123456789ab",
         "start": 60000, "end": 90000},
    ]
    events: list[dict[str, Any]] = []
    for i in range(n_events):
        kind = KINDS[i % len(KINDS)]
        agent = "main" if i % 3 else ("sa-0a1b2c3d4e5f" if i % 2 else "sa-9f8e7d6c5b4a")
        ev: dict[str, Any] = {"seq": i, "t": i * 2000, "kind": kind, "agent": agent}
        if kind in ("read", "search", "edit", "exec", "verify"):
            ev.update(tool="Bash" if kind in ("exec", "verify") else "Read", dur=300 + 50 * i)
            if kind == "exec":
                ev["verb"] = "git log"
                ev["err"] = i % 2 == 0
        elif kind == "mcp":
            ev.update(server="github", tool="search_code", dur=800)
        elif kind == "skill":
            ev["skill"] = "h:aaaaaaaaaaaa"
        elif kind == "subagent":
            ev.update(subagentType="Explore", child="sa-0a1b2c3d4e5f", dur=4000)
        elif kind == "web":
            ev["host"] = "docs.python.org"
        elif kind == "tool":
            ev["tool"] = "TodoWrite"
        elif kind == "llm":
            ev.update(model="claude-sonnet-4-5", out=120, latency=900)
        elif kind == "error":
            ev.update(source="hook", errClass="hook_error", hook="PostToolUse:Bash")
        elif kind == "commit":
            ev.update(repo="acme/orders-api", sha="0123abc", files=2)
        elif kind == "model_switch":
            ev.update(**{"from": "claude-sonnet-4-5", "to": "claude-opus-4-5"})
        events.append(ev)
    m: dict[str, Any] = {
        "schema": "agentplay/v1",
        "session": {"id": "local:claude-code:0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90",
                    "agentTool": "claude-code", "cliVersion": "2.1.3",
                    "startedAt": "2026-11-20T09:14:03.120Z", "durationMs": events[-1]["t"],
                    "models": ["claude-sonnet-4-5", "claude-opus-4-5"], "pathMode": "relative"},
        "totals": {"calls": n_events},
        "repos": [{"id": "r0", "name": "orders-api", "remote": "acme/orders-api"}],
        "files": [{"id": 0, "repo": "r0", "path": "src/orders/service.py", "first": 2}],
        "agents": agents,
        "prs": [{"provider": "github", "repo": "acme/orders-api", "number": 142,
                 "url": "https://github.com/acme/orders-api/pull/142", "seq": 5, "state": "open"}],
        "events": events,
    }
    m["contentHash"] = content_hash(m)
    return m


def redaction_report() -> dict[str, Any]:
    """A `RedactionReport.as_dict()`-shaped dict, as `redact` produces it."""
    return {
        "source": "/home/someone/sessions/log.jsonl",
        "inputFormat": "claude-code",
        "pathMode": "dirs_only",
        "requestedMode": "hashed",
        "keyFingerprint": None,
        "policy": {"name": "public", "hash": "ab" * 32},
        "contentHash": "cd" * 32,
        "eventsByKind": {"llm": 4, "read": 3, "user": 1},
        "eventsByAgent": {"main": 8},
        "identifiersInClear": {"model": ["claude-sonnet-4-5"], "tool": ["Bash", "Read"]},
        "identifiersHashed": {"remote": 2},
        "identifiersDropped": {"host": 1},
        "droppedFields": {"/session/hostName": 1, "/agents/*/description": 2},
        "droppedValues": {"/tasks/*/name": 2},
        "droppedEvents": {"unknown kind": 1},
        "skippedRecords": {"summary": 3},
        "warnings": [("hashed mode needs a key: no key given, so paths fall back to dirs_only "
                      "(unkeyed, guessable for common names)")],
        "scanner": {"grammar": "clean", "secrets": "clean", "taint": "clean", "language": "clean"},
        "findings": [],
    }


def with_findings(report: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(report)
    out["scanner"]["secrets"] = "findings"
    out["findings"] = [{"layer": "secrets", "rule": "secrets.github-token", "pointer": "/repos/0/remote",
                        "excerpt": "ghp_\u2026(40 chars)", "message": "a credential-shaped value",
                        "places": 2}]
    return out


# Sessions shaped like the shared corpus's, for the picture's cases (issue 27, item 5). Each builds a
# map by hand; the numbers are chosen to look like the real logs, never copied from them.

MIN = 60_000
HOUR = 60 * MIN


def _shell(events: list[dict[str, Any]], agent_tool: str, duration: int | None,
           agents: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    session: dict[str, Any] = {"id": f"local:{agent_tool}:5f0c2a9e-1d3b-4e7a-8c6f-0a1b2c3d4e5f",
                               "agentTool": agent_tool, "cliVersion": "0.1.0",
                               "startedAt": "2026-11-20T09:14:03.120Z", "models": ["gpt-5.2-codex"],
                               "pathMode": "relative"}
    if duration is not None:
        session["durationMs"] = duration
    for i, ev in enumerate(events):
        ev["seq"] = i
    m: dict[str, Any] = {"schema": "agentplay/v1", "session": session, "totals": {"calls": len(events)},
                         "repos": [], "files": [],
                         "agents": agents or [{"id": "main", "parent": None, "kind": "main"}],
                         "events": events}
    m["contentHash"] = content_hash(m)
    return m


def _turns(n: int, per_turn: int) -> list[dict[str, Any]]:
    """A chat's events in order: each turn a prompt, then llm replies and tool calls."""
    kinds = ("llm", "read", "llm", "edit", "llm", "exec")
    events: list[dict[str, Any]] = []
    for _ in range(n):
        events.append({"kind": "user", "agent": "main"})
        events.extend({"kind": kinds[j % len(kinds)], "agent": "main"} for j in range(per_turn))
    return events


def continue_like() -> dict[str, Any]:
    """Continue: one time for the whole session (every event at t 0) and durationMs 0."""
    events = _turns(21, 5)
    for ev in events:
        ev["t"] = 0
    return _shell(events, "continue", 0)


def aider_like() -> dict[str, Any]:
    """Aider's chat history: no time at all, on any event, and no duration."""
    return _shell(_turns(11, 3), "aider", None)


def codex_long() -> dict[str, Any]:
    """A 17-hour Codex rollout (the issue saw 16): 31 bursts of work (3 to 20 minutes each) and 30 idle gaps of 10 to 35
    minutes between them, a prompt opening each burst."""
    events: list[dict[str, Any]] = []
    t = 0
    for burst in range(31):
        length = (3 + (burst * 7) % 18) * MIN
        events.append({"kind": "user", "agent": "main", "t": t})
        for j in range(1, length // 25_000):
            kind = ("llm", "exec", "edit", "llm", "read")[j % 5]
            ev: dict[str, Any] = {"kind": kind, "agent": "main", "t": t + j * 25_000}
            if kind in ("exec", "edit", "read"):
                ev["dur"] = 1_500 + (j % 4) * 900
            events.append(ev)
        t += length + (10 + (burst * 11) % 26) * MIN
    end = events[-1]["t"] + 2_000
    return _shell(events, "codex", end)


CODEX_CUTS = 30


def vscode_short() -> dict[str, Any]:
    """45 minutes of VS Code Copilot Chat: six requests, 6 to 11 minutes apart; every event of a request
    carries the request's time (the format records no other)."""
    events: list[dict[str, Any]] = []
    for i, start in enumerate((0, 7, 15, 24, 33, 45)):
        t = start * MIN + 1_234 * i
        events.append({"kind": "user", "agent": "main", "t": t})
        for j in range(6):
            events.append({"kind": "llm" if j % 2 == 0 else "mcp", "agent": "main", "t": t})
    return _shell(events, "copilot-vscode", events[-1]["t"],
                  [{"id": "main", "parent": None, "kind": "main", "start": 0, "end": events[-1]["t"]}])


PROMPTS = 8


def busy_with_prompts() -> dict[str, Any]:
    """A busy Claude Code lane: 1200 calls in 40 minutes, long llm calls spanning them, and eight
    prompts in the middle of the traffic."""
    events: list[dict[str, Any]] = []
    for i in range(1200):
        t = i * 2_000
        if i % 150 == 75:
            events.append({"kind": "user", "agent": "main", "t": t})
        elif i % 10 == 0:
            events.append({"kind": "llm", "agent": "main", "t": t, "dur": 60_000})
        else:
            events.append({"kind": ("read", "exec", "edit")[i % 3], "agent": "main", "t": t, "dur": 1_800})
    return _shell(events, "claude-code", events[-1]["t"] + 60_000)


LONG_TYPE = "general-purpose-research-assistant"


def long_subagent_lanes() -> dict[str, Any]:
    """A main agent and two subagents whose type names are longer than a lane label."""
    agents = [{"id": "main", "parent": None, "kind": "main"},
              {"id": "sa-0a1b2c3d4e5f", "parent": "main", "kind": "subagent", "subagentType": LONG_TYPE},
              {"id": "sa-9f8e7d6c5b4a", "parent": "main", "kind": "subagent",
               "subagentType": "statusline-setup"}]
    events: list[dict[str, Any]] = []
    for i in range(40):
        agent = ("main", "sa-0a1b2c3d4e5f", "sa-0a1b2c3d4e5f", "sa-9f8e7d6c5b4a")[i % 4]
        events.append({"kind": "read", "agent": agent, "t": i * 3_000, "dur": 800})
    return _shell(events, "claude-code", 120_000, agents)
