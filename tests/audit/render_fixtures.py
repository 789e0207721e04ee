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
