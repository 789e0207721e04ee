"""Generate a large, valid agentplay/v1 map for benchmarks (never written into the repo)."""
from __future__ import annotations

import random
from typing import Any

KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "llm", "user", "web", "tool", "subagent")


def generate_map(n_events: int = 20_000, n_files: int = 400, seed: int = 7) -> dict[str, Any]:
    rnd = random.Random(seed)
    files = [{"id": i, "repo": "r0", "path": f"src/pkg{i % 23}/mod{i % 37}/file_{i}.py", "reads": 1,
              "edits": 0, "hits": 0, "first": 0} for i in range(n_files)]
    events: list[dict[str, Any]] = []
    t = 0
    for i in range(n_events):
        t += rnd.randint(1, 900)
        kind = rnd.choice(KINDS)
        agent = "main" if rnd.random() < 0.8 else "sa-0123456789ab"
        ev: dict[str, Any] = {"seq": i, "t": t, "kind": kind, "agent": agent, "model": "claude-sonnet-4-5-20250929"}
        if kind in ("read", "search", "edit"):
            ev.update(cat="file", tool={"read": "Read", "search": "Grep", "edit": "Edit"}[kind],
                      targets=[{"file": rnd.randrange(n_files), "touch": "read" if kind == "read" else "edit"}],
                      outBytes=rnd.randint(10, 90_000), dur=rnd.randint(1, 400))
        elif kind in ("exec", "verify"):
            ev.update(cat="shell", tool="Bash", verb=rnd.choice(["git status", "pytest", "npm run", "ls", "rg"]),
                      outBytes=rnd.randint(10, 9000), dur=rnd.randint(10, 40_000))
        elif kind == "mcp":
            ev.update(cat="mcp", server=rnd.choice(["github", "acme-internal"]), tool="search_code", dur=300)
        elif kind == "llm":
            ev.update({"in": 5, "cw": 300, "cr": 40_000, "out": 200, "latency": 2100, "stop": "tool_use",
                       "thinking": False, "toolCalls": 1, "textChars": 40})
        elif kind == "user":
            ev.update(chars=rnd.randint(5, 3000), images=0, urls=0)
        elif kind == "web":
            ev.update(cat="web", host=rnd.choice(["docs.python.org", "wiki.acme.internal"]))
        elif kind == "tool":
            ev.update(cat="tool", tool="TodoWrite")
        else:
            ev.update(cat="subagent", subagentType="Explore", child="sa-0123456789ab")
        events.append(ev)
    return {
        "schema": "agentplay/v1",
        "session": {"id": "local:claude-code:0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90", "agentTool": "claude-code",
                    "cliVersion": "2.1.3", "startedAt": "2026-11-20T09:14:03.120Z", "durationMs": t,
                    "models": ["claude-sonnet-4-5-20250929"], "pathMode": "relative", "truncated": False,
                    "outcome": "completed", "role": "root"},
        "totals": {"calls": n_events, "requests": 100, "tokens": 10_000_000},
        "repos": [{"id": "r0", "name": "orders-api", "remote": "acme/orders-api"}],
        "files": files,
        "agents": [{"id": "main", "kind": "main"}, {"id": "sa-0123456789ab", "parent": "main", "kind": "subagent",
                                                   "subagentType": "Explore", "launchSeq": 0}],
        "events": events,
    }
