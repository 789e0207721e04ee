"""Generate a large synthetic Claude Code transcript (2.1.x shapes) for benchmarks.

The mix follows the corpus: about half the records are `progress` (hooks, bash output), responses
are split one record per content block, tool results carry their content twice (the block and
`toolUseResult`), file reads and edits carry whole files, and text is made of ordinary words so
JSON parsing costs what it costs on real logs. Deterministic for a given seed. Writes to the path
given (use /tmp: never commit generated logs).

Run: .venv/bin/python bench/gen_claude_code.py /tmp/cc-100mb.jsonl --size-mb 100
"""
from __future__ import annotations

import argparse
import random
import uuid as uuidlib
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, BinaryIO

import orjson

WORDS = ("the of and to in is that for it with as was on be by this are or from at which an have not "
         "function return value error file test build config user request response data model cache "
         "client server module import export class method string number list object async await retry "
         "timeout invoice amount round decimal format parse handler route query index update create "
         "delete patch commit branch merge review deploy staging release version schema migration").split()
SESSION = "b3a1f0e2-7c4d-4e5f-8a9b-0c1d2e3f4a5b"
CWD = "/Users/bench.user/src/large-repo"


class Gen:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.t = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc).timestamp() * 1000
        self.parent: str | None = None
        self.pool = [self._para(self.rng.randint(20, 4000)) for _ in range(300)]
        self.files = [f"{CWD}/src/{self.rng.choice(WORDS)}/{self.rng.choice(WORDS)}_{i}.ts" for i in range(400)]

    def _para(self, n_words: int) -> str:
        """Prose or code, like tool output and files: quotes, braces, tabs, escapes, some non-ASCII."""
        rng = self.rng
        if rng.random() < 0.5:
            words = [rng.choice(WORDS) for _ in range(n_words)]
            for i in range(12, len(words), 13):
                words[i] += ".\n"
            return " ".join(words)
        lines = []
        for _ in range(max(1, n_words // 8)):
            a, b, c = rng.choice(WORDS), rng.choice(WORDS), rng.choice(WORDS)
            lines.append(rng.choice((
                f'    const {a}_{b} = await {c}.request("/api/{a}/{b}", {{ retry: {rng.randint(0, 9)} }});',
                f"\tif ({a} === '{b}') {{ return {c}[\"{a}\"]; }} // {b} \u2192 {c}",
                f"def {a}_{b}(self, {c}: str = \"{a}\\n\") -> dict[str, int]:",
                f"  \u2713 {a} {b} ({rng.randint(1, 900)} ms)",
                f"{a}/{b}/{c}.ts:{rng.randint(1, 400)}:{rng.randint(1, 80)} - error TS2345: '{c}' \u2014 {b}",
            )))
        return "\n".join(lines)

    def text(self, approx: int) -> str:
        out: list[str] = []
        size = 0
        while size < approx:
            piece = self.rng.choice(self.pool)
            out.append(piece)
            size += len(piece)
        return "\n".join(out)[: max(approx, 1)]

    def uid(self) -> str:
        return str(uuidlib.UUID(int=self.rng.getrandbits(128), version=4))

    def env(self, kind: str, **extra: Any) -> dict[str, Any]:
        self.t += self.rng.randint(20, 4000)
        ts = datetime.fromtimestamp(self.t / 1000, tz=timezone.utc)
        rec = {"parentUuid": self.parent, "isSidechain": False, "userType": "external", "cwd": CWD,
               "sessionId": SESSION, "version": "2.1.39", "gitBranch": "feature/bench", "slug": "bench-slug",
               "type": kind, **extra, "uuid": self.uid(),
               "timestamp": ts.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ts.microsecond // 1000:03d}Z"}
        self.parent = rec["uuid"]
        return rec

    def turn(self) -> list[dict[str, Any]]:
        rng = self.rng
        recs = [self.env("user", message={"role": "user", "content": self.text(rng.randint(40, 1500))},
                         permissionMode="default")]
        for _ in range(rng.randint(3, 12)):
            recs.extend(self.step())
        msg = {"model": "claude-sonnet-4-5-20250929", "id": "msg_" + self.uid(), "type": "message",
               "role": "assistant", "content": [{"type": "text", "text": self.text(rng.randint(100, 2000))}],
               "stop_reason": "end_turn", "usage": {"input_tokens": 3, "cache_creation_input_tokens": 500,
                                                    "cache_read_input_tokens": 40000, "output_tokens": 300}}
        recs.append(self.env("assistant", message=msg, requestId="req_" + self.uid()))
        recs.append(self.env("system", subtype="turn_duration", durationMs=60000, isMeta=False))
        return recs

    def step(self) -> list[dict[str, Any]]:
        rng = self.rng
        tid = "toolu_" + self.uid().replace("-", "")[:24]
        kind = rng.choices(("Read", "Bash", "Edit", "Grep", "Write", "Glob"), (30, 30, 18, 10, 6, 6))[0]
        path = rng.choice(self.files)
        body = self.text(rng.choice((300, 2000, 6000, 15000, 30000)))
        if kind == "Bash":
            inp: dict[str, Any] = {"command": rng.choice(("npm test -- --watch=false", "git status", "ls -la src",
                                                          "pytest -q tests/unit", "git diff --stat", "make build")),
                                   "description": self.text(40)}
            result: Any = body
            tur: Any = {"stdout": body, "stderr": "", "interrupted": False, "isImage": False}
        elif kind == "Read":
            inp = {"file_path": path}
            result = "".join(f"{i + 1:6}\u2192{line}\n" for i, line in enumerate(body.splitlines()))
            tur = {"type": "text", "file": {"filePath": path, "content": body, "numLines": 200, "startLine": 1,
                                            "totalLines": 200}}
        elif kind in ("Edit", "Write"):
            old, new = self.text(300), self.text(400)
            inp = {"file_path": path, "old_string": old, "new_string": new} if kind == "Edit" else \
                {"file_path": path, "content": body}
            result = f"The file {path} has been updated."
            tur = {"filePath": path, "oldString": old, "newString": new, "originalFile": body,
                   "structuredPatch": [{"oldStart": 1, "oldLines": 3, "newStart": 1, "newLines": 4,
                                        "lines": [self.text(80) for _ in range(4)]}]}
        else:
            inp = {"pattern": rng.choice(WORDS), "path": CWD}
            hits = rng.sample(self.files, 8)
            result = "Found 8 files\n" + "\n".join(hits)
            tur = {"mode": "files_with_matches", "filenames": hits, "numFiles": 8}
        msg_id, req = "msg_" + self.uid(), "req_" + self.uid()
        usage = {"input_tokens": 3, "cache_creation_input_tokens": rng.randint(100, 5000),
                 "cache_read_input_tokens": rng.randint(10000, 150000), "output_tokens": rng.randint(20, 800)}
        recs = []
        blocks: list[dict[str, Any]] = []
        if rng.random() < 0.3:
            blocks.append({"type": "thinking", "thinking": self.text(rng.randint(200, 3000)), "signature": "Eq" + "A" * 300})
        if rng.random() < 0.5:
            blocks.append({"type": "text", "text": self.text(rng.randint(50, 600))})
        blocks.append({"type": "tool_use", "id": tid, "name": kind, "input": inp})
        for block in blocks:
            recs.append(self.env("assistant", requestId=req, message={
                "model": "claude-sonnet-4-5-20250929", "id": msg_id, "type": "message", "role": "assistant",
                "content": [block], "stop_reason": None, "usage": usage}))
        for _ in range(rng.randint(1, 4)):
            recs.append(self.env("progress", data={"type": "hook_progress", "hookEvent": "PreToolUse",
                                                   "hookName": f"PreToolUse:{kind}", "command": "~/.claude/hooks/guard.sh"},
                                 toolUseID=tid, parentToolUseID=tid))
        if kind == "Bash" and rng.random() < 0.4:
            recs.append(self.env("progress", data={"type": "bash_progress", "output": body[:2000],
                                                   "fullOutput": body[:8000], "elapsedTimeSeconds": 3,
                                                   "totalLines": 90}, toolUseID="bash-progress-0",
                                 parentToolUseID=tid))
        recs.append(self.env("user", message={"role": "user", "content": [
            {"tool_use_id": tid, "type": "tool_result", "content": result}]}, toolUseResult=tur,
            sourceToolAssistantUUID=self.parent))
        return recs


def generate(out: BinaryIO, size_bytes: int, seed: int = 1) -> int:
    gen = Gen(seed)
    written = 0
    while written < size_bytes:
        for rec in gen.turn():
            line = orjson.dumps(rec) + b"\n"
            out.write(line)
            written += len(line)
    return written


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--size-mb", type=float, default=100.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with args.out.open("wb") as fh:
        n = generate(fh, int(args.size_mb * 1e6), args.seed)
    print(f"wrote {args.out} ({n / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
