"""The shared corpus's Claude Code sessions, regrouped, and an independent count of what they hold.

The corpus stores files flat, with `__` for `/` and `_subagents_agent-<id>.jsonl` for a session's
`<session>/subagents/agent-<id>.jsonl`. The counts here are made straight from the JSON, without the
reader, so a test can compare the map with what the transcript shows.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from redact.formats.claude_code.files import Sidechain

_SUB = "_subagents_agent-"


@dataclass
class CorpusSession:
    main: Path
    sidechains: list[Sidechain]

    @property
    def name(self) -> str:
        return self.main.name

    def source(self) -> bytes:
        return self.main.read_bytes() + b"".join(s.path.read_bytes() for s in self.sidechains)


def sessions(folder: Path) -> list[CorpusSession]:
    files = sorted(folder.glob("*.jsonl"))
    out = []
    for path in files:
        if _SUB in path.name:
            continue
        stem = path.name[: -len(".jsonl")]
        sides = [Sidechain(p, p.name.split(_SUB, 1)[1][: -len(".jsonl")])
                 for p in files if p.name.startswith(stem + _SUB)]
        out.append(CorpusSession(path, sides))
    return out


def records(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in path.read_bytes().split(b"\n") if line.strip()]


@dataclass
class Shown:
    """What the transcript shows, counted from the raw JSON."""

    tool_uses: Counter[str] = field(default_factory=Counter)  # tool name -> distinct tool_use ids
    types: Counter[str] = field(default_factory=Counter)


def shown(session: CorpusSession) -> Shown:
    out = Shown()
    ids: set[str] = set()
    with_files = {s.agent_id for s in session.sidechains}

    def assistant(message: object) -> None:
        if not isinstance(message, dict) or message.get("model") == "<synthetic>":
            return
        for block in message.get("content") or []:
            if isinstance(block, dict) and block.get("type") == "tool_use" and block["id"] not in ids:
                ids.add(block["id"])
                inp = block.get("input")
                batch = block["name"] == "Batch" and isinstance(inp, dict)
                runs = inp.get("invocations") if batch else None
                if isinstance(runs, list):  # a 0.2.x Batch: each tool it ran is a call of its own
                    for run in runs:
                        out.tool_uses[run["tool_name"]] += 1
                    continue
                out.tool_uses[block["name"]] += 1

    for path in [session.main] + [s.path for s in session.sidechains]:
        for rec in records(path):
            out.types[str(rec.get("type"))] += 1
            if rec.get("type") == "assistant" and not rec.get("isApiErrorMessage"):
                assistant(rec.get("message"))
            data = rec.get("data")
            if rec.get("type") == "progress" and isinstance(data, dict) and data.get("type") == "agent_progress" \
                    and data.get("agentId") not in with_files:
                inner = data.get("message")
                if isinstance(inner, dict) and inner.get("type") == "assistant":
                    assistant(inner.get("message"))
    return out
