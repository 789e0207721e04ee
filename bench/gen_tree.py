"""Generate a synthetic `~/.claude/projects` tree: project folders of Claude Code sessions (2.1.x
layout), each main transcript with its subagent transcripts in `<session>/subagents/agent-<id>.jsonl`.

Records come from bench/gen_claude_code.py's generator (the corpus mix: progress records, responses
one record per content block, tool results carried twice, whole files in reads and edits); each
session has its own id, each project its own working directory, and the main transcript launches
each subagent with a `Task` call whose result names the agent, as Claude Code writes it. Session
sizes are skewed like a real tree (many small sessions, a few large ones). Deterministic for a seed.
Write only to a temporary folder: never commit generated logs.

    .venv/bin/python bench/gen_tree.py /tmp/tree --mb 200
"""
from __future__ import annotations

import argparse
import random
import sys
import uuid as uuidlib
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_claude_code import WORDS, Gen  # noqa: E402 - the folder is on sys.path now


_POOL: list[str] = []  # Gen's 300 paragraphs, made once: making them per session took most of the time


class SessionGen(Gen):
    """Gen with one session's id and working directory; a subagent's records carry its agent id."""

    def __init__(self, seed: int, session: str, cwd: str, agent: str | None = None) -> None:
        if not _POOL:
            _POOL.extend(Gen(0).pool)
        self.rng = random.Random(seed)
        self.t = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc).timestamp() * 1000 + self.rng.randint(0, 10**10)
        self.parent = None
        self.pool = _POOL
        self.session, self.cwd, self.agent = session, cwd, agent
        self.files = [f"{cwd}/src/{self.rng.choice(WORDS)}/{self.rng.choice(WORDS)}_{i}.ts" for i in range(400)]

    def env(self, kind: str, **extra: Any) -> dict[str, Any]:
        rec = super().env(kind, **extra)
        rec["sessionId"], rec["cwd"] = self.session, self.cwd
        if self.agent is not None:
            rec["isSidechain"], rec["agentId"] = True, self.agent
        return rec

    def task(self, agent: str) -> list[dict[str, Any]]:
        """The main agent launching subagent `agent` (a Task call) and its result."""
        rng = self.rng
        tid = "toolu_" + self.uid().replace("-", "")[:24]
        prompt = self.text(rng.randint(100, 800))
        msg = {"model": "claude-sonnet-4-5-20250929", "id": "msg_" + self.uid(), "type": "message",
               "role": "assistant", "stop_reason": None,
               "content": [{"type": "tool_use", "id": tid, "name": "Task",
                            "input": {"description": self.text(30), "prompt": prompt, "subagent_type": "Explore"}}],
               "usage": {"input_tokens": 3, "cache_creation_input_tokens": 200, "cache_read_input_tokens": 30000,
                         "output_tokens": 120}}
        call = self.env("assistant", message=msg, requestId="req_" + self.uid())
        answer = self.text(rng.randint(300, 3000))
        result = self.env("user", message={"role": "user", "content": [
            {"tool_use_id": tid, "type": "tool_result", "content": [{"type": "text", "text": answer}]}]},
            toolUseResult={"status": "completed", "prompt": prompt, "agentId": agent,
                           "content": [{"type": "text", "text": answer}], "totalDurationMs": rng.randint(5000, 90000),
                           "totalTokens": rng.randint(5000, 90000), "totalToolUseCount": rng.randint(1, 40)},
            sourceToolAssistantUUID=call["uuid"])
        return [call, result]


def _write(path: Path, gen: SessionGen, size: int, tasks: tuple[str, ...] = ()) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    pending = list(tasks)
    with path.open("wb") as fh:
        while written < size or pending:
            recs = gen.turn()
            if pending:
                recs.extend(gen.task(pending.pop(0)))
            for rec in recs:
                line = orjson.dumps(rec) + b"\n"
                fh.write(line)
                written += len(line)
    return written


def write_session(folder: Path, size: int, seed: int, subagents: int = 1, cwd: str = "/Users/bench.user/src/app",
                  *, flat: bool = False) -> int:
    """One session in `folder`: `<id>.jsonl` of about `size` bytes less its subagents' share, and
    `subagents` transcripts (about a fifth of `size` between them) in `<id>/subagents/`, or with
    `flat` beside it as `agent-<id>.jsonl` (clients before 2.1). Bytes written."""
    rng = random.Random(seed)
    session = str(uuidlib.UUID(int=rng.getrandbits(128), version=4))
    agents = [f"a{rng.getrandbits(64):016x}" for _ in range(subagents)]
    side = size // 5 // max(1, subagents) if subagents else 0
    total = _write(folder / f"{session}.jsonl", SessionGen(seed, session, cwd), size - side * subagents, tuple(agents))
    for i, agent in enumerate(agents):
        where = folder if flat else folder / session / "subagents"
        total += _write(where / f"agent-{agent}.jsonl",
                        SessionGen(seed * 1000 + i + 1, session, cwd, agent), side)
    return total


def generate_tree(root: Path, total: int, seed: int = 1, *, max_session: int = 40_000_000) -> tuple[int, int]:
    """A projects tree of about `total` bytes under `root`: folders named as Claude Code names them
    (the project's path, `/` spelled `-`), sessions of skewed sizes (median about 1 MB, up to
    `max_session`), about a third with one to three subagents. Returns (sessions, bytes)."""
    rng = random.Random(seed)
    written = sessions = 0
    project = 0
    while written < total:
        project += 1
        cwd = f"/Users/bench.user/src/project-{project}"
        folder = root / cwd.replace("/", "-").replace(".", "-")
        for _ in range(rng.randint(2, 12)):
            if written >= total:
                break
            size = min(max_session, int(rng.lognormvariate(13.8, 1.3)), max(total - written, 20_000))
            subagents = rng.choice((0, 0, 1, 2, 3)) if size > 100_000 else 0
            written += write_session(folder, max(size, 20_000), rng.getrandbits(32), subagents, cwd)
            sessions += 1
    return sessions, written


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", type=Path)
    ap.add_argument("--mb", type=float, default=200.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    n, size = generate_tree(args.root, int(args.mb * 1e6), args.seed)
    print(f"wrote {n} sessions ({size / 1e6:.1f} MB) under {args.root}")


if __name__ == "__main__":
    main()
