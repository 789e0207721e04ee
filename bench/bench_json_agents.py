"""Gemini CLI, Copilot CLI, VS Code Copilot Chat and Cline logs -> scanned map, and -> native: throughput.

Run: .venv/bin/python bench/bench_json_agents.py [--runs 3] [--size-mb 4] [--corpus ../shared/corpus]

Inputs per format: a generated log of about --size-mb (the test fixtures of tests/native/*fix.py, their
messages repeated with fresh ids, so the records have the fixtures' mix of prompts, model responses,
tool calls and outputs), and the largest file of the format's folder in the shared corpus (skipped when
absent). Timed, as the CLI runs them on bytes in memory: `redact_bytes` under the default policy (read,
build, policy, validate, contentHash, and the leak scanner with the log as taint source), and
`scrub_native` (scrub and the native scan). Baseline: `orjson.loads` of the same bytes (every line for
JSON Lines). Figures are medians of --runs runs; the ratio to orjson is the number to compare.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402  (after the sys.path insert)


def _counter() -> Callable[[], str]:
    n = iter(range(10**9))
    return lambda: f"word{next(n)}"


def _repeat_jsonl(head: list[dict[str, Any]], body: list[dict[str, Any]], size: int, fresh: Callable[[Any, int], Any]
                  ) -> bytes:
    out = [orjson.dumps(r) for r in head]
    total, i = sum(map(len, out)), 0
    while total < size:
        i += 1
        for r in body:
            line = orjson.dumps(fresh(r, i))
            out.append(line)
            total += len(line) + 1
    return b"\n".join(out) + b"\n"


def _fresh_ids(keys: tuple[str, ...]) -> Callable[[Any, int], Any]:
    def fresh(value: Any, i: int) -> Any:
        if isinstance(value, dict):
            return {k: (f"{v}-{i}" if k in keys and isinstance(v, str) else fresh(v, i)) for k, v in value.items()}
        if isinstance(value, list):
            return [fresh(v, i) for v in value]
        return value
    return fresh


def gemini(size: int) -> bytes:
    from tests.native.geminifix import messages, meta
    return _repeat_jsonl([{**meta(_counter()), "kind": "main"}], messages(_counter()), size, _fresh_ids(("id",)))


def copilot(size: int) -> bytes:
    from tests.native.copilotfix import records
    recs = records(_counter())
    body = [r for r in recs if r["type"] != "session.start"]
    return _repeat_jsonl(recs[:1], body, size, _fresh_ids(("id", "toolCallId", "parentToolCallId", "messageId")))


def vscode(size: int) -> bytes:
    from tests.native.vscodefix import SESSION_ID, requests
    reqs = requests(_counter())
    fresh = _fresh_ids(("id", "requestId", "toolCallId"))
    out: list[Any] = []
    while len(orjson.dumps(out)) < size:
        out += [fresh(r, len(out)) for r in reqs]
    return orjson.dumps({"version": 3, "sessionId": SESSION_ID, "creationDate": 1, "requests": out})


def cline(size: int) -> bytes:
    from tests.native.clinefix import messages
    msgs = [m for m in messages(_counter()) if m.get("say") in ("api_req_started", "text", "reasoning", "tool",
                                                                  "command", "user_feedback", "error_retry")
            or m.get("ask") in ("command_output", "followup")]
    out: list[Any] = []
    while len(orjson.dumps(out)) < size:
        out += msgs
    return orjson.dumps(out)


FORMATS: dict[str, tuple[Callable[[int], bytes], str, str]] = {
    "gemini-cli": (gemini, "gemini-cli", "**/chats/*.json*"),
    "copilot-cli": (copilot, "copilot-cli", "**/*.jsonl"),
    "copilot-vscode": (vscode, "copilot-vscode", "*.json"),
    "cline": (cline, "cline", "*.json"),
}


def _median(fn: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(fmt: str, data: bytes, runs: int) -> dict[str, float]:
    from redact.api import redact_bytes
    from redact.api_native import scrub_native
    from redact.policy.load import load_policy
    from redact.report import RedactionReport

    jsonl = fmt in ("gemini-cli", "copilot-cli") and data.lstrip()[:1] == b"{" and b"\n{" in data[:1 << 20]
    parse = (lambda: [orjson.loads(x) for x in data.split(b"\n") if x]) if jsonl else (lambda: orjson.loads(data))
    policy = load_policy("default")
    base = _median(parse, runs)
    to_map = _median(lambda: redact_bytes(data, name="bench", policy="default"), runs)
    to_native = _median(lambda: scrub_native(data, fmt, name="bench", policy=policy, key=None, mode=None,
                                             report=RedactionReport(source="bench")), runs)
    mb = len(data) / 1e6
    return {"mb": mb, "map_mbs": mb / to_map, "native_mbs": mb / to_native, "map_x": to_map / base,
            "native_x": to_native / base}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--size-mb", type=float, default=4.0)
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    args = ap.parse_args()
    print("| format | input | MB | map MB/s | map / orjson | native MB/s | native / orjson |")
    print("|---|---|---|---|---|---|---|")
    for fmt, (gen, folder, pattern) in FORMATS.items():
        inputs = [("generated", gen(int(args.size_mb * 1e6)))]
        found = sorted((p for p in (Path(args.corpus) / folder).glob(pattern) if p.is_file()),
                       key=lambda p: p.stat().st_size) if (Path(args.corpus) / folder).is_dir() else []
        if found:
            inputs.append(("largest corpus file", found[-1].read_bytes()))
        for label, data in inputs:
            r = measure(fmt, data, args.runs)
            print(f"| {fmt} | {label} | {r['mb']:.1f} | {r['map_mbs']:.1f} | {r['map_x']:.1f}x | "
                  f"{r['native_mbs']:.1f} | {r['native_x']:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
