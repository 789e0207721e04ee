"""Hypothesis strategies and helpers for agentplay/v1 maps, written for the tests.

`maps()` draws valid maps whose identifier, path, id and text slots may hold a planted canary, so a
test can assert that no canary survives a policy.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "session-map.json"
CANARY = "Zq7Canary"


def example_map() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


def canaried(draw: st.DrawFn, plain: str) -> str:
    """`plain`, or a value carrying the canary in one of several shapes."""
    shape = draw(st.sampled_from(["plain", "word", "url", "email", "path", "sentence"]))
    return {
        "plain": plain,
        "word": f"{CANARY}-{plain}",
        "url": f"https://bob:{CANARY}@git.{CANARY}.internal/x?{CANARY}#{CANARY}",
        "email": f"{CANARY.lower()}@corp-{CANARY.lower()}.com",
        "path": f"/Users/{CANARY.lower()}/src/{CANARY}.py",
        "sentence": f"please fix the {CANARY} bug for the customer",
    }[shape]


@st.composite
def maps(draw: st.DrawFn) -> dict[str, Any]:
    n_files = draw(st.integers(0, 4))
    files = [{"id": i, "repo": "r0", "path": canaried(draw, f"src/mod{i}/file{i}.py"), "reads": 1, "first": 0}
             for i in range(n_files)]
    events: list[dict[str, Any]] = []
    n = draw(st.integers(1, 25))
    for i in range(n):
        kind = draw(st.sampled_from(["read", "exec", "mcp", "web", "llm", "user", "skill", "subagent",
                                     "commit", "error", "tool", "model_switch", "artifact", "ticket"]))
        ev: dict[str, Any] = {"seq": i, "t": draw(st.integers(0, 10_000)), "kind": kind, "agent": "main"}
        if kind == "read" and files:
            ev["targets"] = [{"file": draw(st.integers(0, n_files - 1)), "touch": "read"}]
        elif kind == "exec":
            ev["verb"] = draw(st.sampled_from(["git status", f"git commit -m {CANARY}", f"./{CANARY}.sh"]))
            ev["tool"] = canaried(draw, "Bash")
        elif kind == "mcp":
            ev["server"] = canaried(draw, "github")
            ev["tool"] = canaried(draw, "search_code")
        elif kind == "web":
            ev["host"] = canaried(draw, "docs.python.org")
        elif kind == "llm":
            ev.update({"model": canaried(draw, "claude-sonnet-4-5"), "in": 3, "out": 7, "stop": "end_turn"})
        elif kind == "user":
            ev.update({"chars": 10, "images": 0, "urls": 0})
        elif kind == "skill":
            ev["skill"] = canaried(draw, "pdf")
        elif kind == "subagent":
            ev.update({"subagentType": canaried(draw, "Explore"), "child": "sa-0123456789ab"})
        elif kind == "commit":
            ev.update({"repo": canaried(draw, "acme/api"), "sha": "0123abcd", "files": 1, "ins": 1, "del": 0})
        elif kind == "error":
            ev.update({"source": "hook", "errClass": "hook_error", "hook": canaried(draw, "PostToolUse:Bash"),
                       "srcUuid": canaried(draw, "6f1c2b7e-3f1a-4d7a-9d53-0a1b2c3d4e5f")})
        elif kind == "tool":
            ev["tool"] = canaried(draw, "TodoWrite")
        elif kind == "model_switch":
            ev.update({"from": canaried(draw, "gpt-5"), "to": canaried(draw, "o3")})
        elif kind == "artifact":
            ev.update({"url": canaried(draw, "https://example.org/a"), "title": f"{CANARY} title words"})
        elif kind == "ticket":
            ev.update({"tracker": canaried(draw, "jira"), "action": "create", "id": canaried(draw, "ABC-12")})
        if draw(st.booleans()):
            ev[f"x{CANARY}"] = f"unknown field {CANARY}"
        events.append(ev)
    return {
        "schema": "agentplay/v1",
        "session": {"id": canaried(draw, "local:claude-code:0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90"),
                    "agentTool": canaried(draw, "claude-code"), "startedAt": "2026-11-20T09:14:03.120Z",
                    "pathMode": "relative", "models": [canaried(draw, "claude-opus-4-5")]},
        "totals": {"calls": n, "tokens": 10},
        "repos": [{"id": "r0", "name": canaried(draw, "orders-api"), "remote": canaried(draw, "acme/orders-api")}],
        "files": files,
        "agents": [{"id": "main", "kind": "main"}],
        "tasks": [{"n": 1, "id": "t1", "name": f"{CANARY} task name", "source": "segments"}],
        "prs": [{"provider": "github", "repo": canaried(draw, "acme/api"), "number": 3,
                 "url": canaried(draw, "https://github.com/acme/api/pull/3"), "seq": 0, "state": "open"}],
        "events": events,
    }


def clone(value: Any) -> Any:
    return copy.deepcopy(value)


def shell_commands(session_map: dict[str, Any]) -> int:
    """The events of a map that are shell commands: exec and verify, and the read or search events a
    read-only shell line became (`cat`, `rg`: they keep the line's verb)."""
    return sum(1 for e in session_map.get("events", []) if e.get("kind") in ("exec", "verify")
               or (e.get("kind") in ("read", "search") and "verb" in e))
