"""Codex rollout -> redacted, scanned map: throughput and peak memory next to a bare orjson parse.

Run: .venv/bin/python bench/bench_codex.py [--runs 5] [--size-mb 100] [--corpus ../shared/corpus]

Inputs: the largest rollout of the shared corpus (skipped when the corpus is absent) and a generated
rollout of --size-mb (written to a temporary file under /tmp, deleted afterwards; its records have
the proportions of real rollouts: shell calls with JSON-in-string arguments and outputs, reasoning
with encrypted content, token counts, patches). Each measurement runs in a fresh child process, so
its peak RSS is its own: `orjson` parses every line and throws the objects away; `redact` is
`redact_bytes` under the default policy (read, build, policy, validate, contentHash, and the leak
scanner with the rollout as taint source, as the CLI runs it) on the bytes in memory; `redact_file`
streams the rollout from disk. The stage split (read, build, policy+finish, scan) is timed
separately. Figures are medians of --runs runs; the ratio to orjson is the number to compare.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, BinaryIO

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _median(fn: Any, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def generate(fh: BinaryIO, size: int, seed: int = 11) -> None:
    """A rollout of about `size` bytes in the current layout."""
    import orjson

    rng = random.Random(seed)
    words = ("alpha", "beta", "gamma", "delta", "pytest", "src", "module", "render", "cache", "token")
    t = 1_770_000_000_000.0
    cwd = "/Users/bench/src/project"

    def rec(kind: str, payload: dict[str, Any]) -> None:
        nonlocal written, t
        t += rng.randint(5, 3000)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t / 1000)) + f".{int(t % 1000):03d}Z"
        line = orjson.dumps({"timestamp": stamp, "type": kind, "payload": payload}) + b"\n"
        fh.write(line)
        written += len(line)

    def text(n: int) -> str:
        return " ".join(rng.choice(words) for _ in range(n))

    written = 0
    rec("session_meta", {"id": "019c0d44-5e6f-7a80-9b12-a3b4c5d6e7f8", "timestamp": "2026-02-02T00:00:00Z",
                         "cwd": cwd, "originator": "codex_cli_rs", "cli_version": "0.128.0",
                         "git": {"repository_url": "git@github.com:bench/project.git", "branch": "main"}})
    total = [0, 0, 0]
    n = 0
    while written < size:
        n += 1
        rec("turn_context", {"cwd": cwd, "model": "gpt-5.1-codex", "approval_policy": "on-request",
                             "sandbox_policy": {"type": "workspace-write"}, "summary": "auto"})
        rec("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text(40)}]})
        rec("event_msg", {"type": "user_message", "message": text(40), "images": []})
        for _ in range(rng.randint(3, 12)):
            rec("response_item", {"type": "reasoning", "summary": [{"type": "summary_text", "text": text(8)}],
                                  "content": None, "encrypted_content": "gAAAAAB" + "x" * rng.randint(800, 3000)})
            cid = f"call_{n}_{rng.getrandbits(32):08x}"
            if rng.random() < 0.2:
                patch = "*** Begin Patch\n*** Update File: src/m.py\n@@\n" + "\n".join(
                    "+" + text(8) for _ in range(rng.randint(5, 60))) + "\n*** End Patch"
                rec("response_item", {"type": "custom_tool_call", "status": "completed", "call_id": cid,
                                      "name": "apply_patch", "input": patch})
                out = {"output": "Success. Updated the following files:\nM src/m.py\n",
                       "metadata": {"exit_code": 0, "duration_seconds": 0.1}}
                kind = "custom_tool_call_output"
            else:
                cmd = rng.choice(["rg -n cache src", "sed -n '1,200p' src/m.py", "pytest -q", "git status",
                                  "ls -la src", "cat README.md"])
                rec("response_item", {"type": "function_call", "name": "shell", "call_id": cid,
                                      "arguments": json.dumps({"command": ["bash", "-lc", cmd], "workdir": cwd})})
                out = {"output": "\n".join(text(12) for _ in range(rng.randint(5, 400))),
                       "metadata": {"exit_code": rng.choice([0, 0, 0, 1]), "duration_seconds": 0.2}}
                kind = "function_call_output"
            total = [total[0] + 9000, total[1] + 8000, total[2] + 300]
            rec("event_msg", {"type": "token_count", "info": {
                "total_token_usage": {"input_tokens": total[0], "cached_input_tokens": total[1],
                                      "output_tokens": total[2], "total_tokens": total[0] + total[2]},
                "last_token_usage": {"input_tokens": 9000, "cached_input_tokens": 8000, "output_tokens": 300,
                                     "total_tokens": 9300}}})
            rec("response_item", {"type": kind, "call_id": cid, "output": json.dumps(out)})
        rec("event_msg", {"type": "agent_message", "message": text(60)})
        rec("response_item", {"type": "message", "role": "assistant", "content": [{"type": "output_text",
                                                                                     "text": text(60)}]})


def child(mode: str, path: str, runs: int) -> dict[str, float]:
    sys.path.insert(0, str(ROOT))
    import orjson

    data = Path(path).read_bytes() if mode != "file" else b""
    out: dict[str, float] = {}
    if mode == "orjson":
        def parse() -> None:
            loads = orjson.loads
            for line in data.split(b"\n"):
                if line:
                    loads(line)
        out["s"], out["best"] = _median(parse, runs)
    elif mode == "redact":
        from redact.api import redact_bytes
        from redact.policy.load import load_policy

        eff = load_policy("default")
        out["s"], out["best"] = _median(lambda: redact_bytes(data, name=path, policy=eff, input_format="codex"), runs)
    elif mode == "file":
        from redact.api import redact_file
        from redact.policy.load import load_policy

        eff = load_policy("default")
        out["s"], out["best"] = _median(lambda: redact_file(path, policy=eff, input_format="codex"), runs)
    elif mode == "stages":
        from redact.api import finish_map, scan_output
        from redact.apply.walk import redact_map
        from redact.build import build_map
        from redact.formats.codex.reader import read_session
        from redact.policy.load import load_policy
        from redact.report import RedactionReport

        eff = load_policy("default")
        facts = read_session(data, path, report=RedactionReport(source=path))
        raw = build_map(facts)
        out["read"], _ = _median(lambda: read_session(data, path, report=RedactionReport(source=path)), runs)
        out["build"], _ = _median(lambda: build_map(facts), runs)

        def policy() -> tuple[dict[str, Any], RedactionReport]:
            report = RedactionReport(source=path)
            return finish_map(redact_map(json.loads(json.dumps(raw)), eff, None, report), report), report
        copy_cost, _ = _median(lambda: json.loads(json.dumps(raw)), runs)
        out["policy"] = max(_median(policy, runs)[0] - copy_cost, 0.0)
        done, done_report = policy()  # the scan needs the report: it lists the identifiers kept
        out["scan"], _ = _median(lambda: scan_output(done, done_report, eff, source=data,
                                                     source_format="codex"), runs)
        out["events"] = float(len(raw["events"]))
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def run_child(mode: str, path: Path, runs: int) -> dict[str, float]:
    cmd = [sys.executable, __file__, "--child", mode, str(path), "--runs", str(runs)]
    done = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def report(label: str, path: Path, runs: int) -> dict[str, object]:
    mb = path.stat().st_size / 1e6
    base = run_child("orjson", path, runs)
    red = run_child("redact", path, runs)
    stages = run_child("stages", path, runs)
    streamed = run_child("file", path, runs)
    row = {
        "input": label, "mb": round(mb, 2), "events": int(stages["events"]),
        "orjson_ms": round(base["s"] * 1000, 1), "orjson_rss_mb": round(base["rss_mb"]),
        "redact_ms": round(red["s"] * 1000, 1), "redact_mb_s": round(mb / red["s"], 1),
        "redact_rss_mb": round(red["rss_mb"]), "ratio": round(red["s"] / base["s"], 2),
        "ratio_best": round(red["best"] / base["best"], 2), "file_ms": round(streamed["s"] * 1000, 1),
        "file_rss_mb": round(streamed["rss_mb"]), "read_ms": round(stages["read"] * 1000, 1),
        "build_ms": round(stages["build"] * 1000, 1), "policy_ms": round(stages["policy"] * 1000, 1),
        "scan_ms": round(stages["scan"] * 1000, 1),
    }
    print(f"{label}: {mb:.2f} MB, {row['events']} events")
    print(f"  orjson.loads per line      : {row['orjson_ms']:9.1f} ms  {mb / base['s']:7.1f} MB/s  "
          f"peak RSS {row['orjson_rss_mb']} MB")
    print(f"  redact_bytes (with scan)   : {row['redact_ms']:9.1f} ms  {row['redact_mb_s']:7.1f} MB/s  "
          f"peak RSS {row['redact_rss_mb']} MB  = {row['ratio']}x orjson (best runs {row['ratio_best']}x)")
    print(f"  redact_file (streamed)     : {row['file_ms']:9.1f} ms  {mb / streamed['s']:7.1f} MB/s  "
          f"peak RSS {row['file_rss_mb']} MB")
    print(f"  stages: read {row['read_ms']} ms, build {row['build_ms']} ms, policy+validate+hash "
          f"{row['policy_ms']} ms, scan {row['scan_ms']} ms")
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--size-mb", type=float, default=100.0)
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--child", nargs=2, metavar=("MODE", "PATH"))
    ap.add_argument("--json", action="store_true", help="also print the rows as JSON")
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], args.child[1], args.runs)))
        return
    rows = []
    corpus = args.corpus / "codex"
    if corpus.is_dir():
        largest = max((p for p in corpus.glob("*.jsonl")), key=lambda p: p.stat().st_size)
        rows.append(report("largest corpus rollout", largest, args.runs))
    else:
        print("corpus absent: skipping the corpus rollout")
    if args.size_mb > 0:
        fd, name = tempfile.mkstemp(prefix="codex-bench-", suffix=".jsonl", dir="/tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                generate(fh, int(args.size_mb * 1e6))
            rows.append(report(f"generated {args.size_mb:.0f} MB rollout", Path(name), max(2, args.runs // 2)))
        finally:
            os.unlink(name)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
