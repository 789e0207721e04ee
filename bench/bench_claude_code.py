"""Claude Code transcript -> redacted map: throughput and peak memory next to a bare orjson parse.

Run: .venv/bin/python bench/bench_claude_code.py [--runs 5] [--size-mb 100] [--corpus ../shared/corpus]

Inputs: the largest transcript of the shared corpus (skipped when the corpus is absent) and a
generated transcript of --size-mb (written to a temporary file under /tmp, deleted afterwards).
Each measurement runs in a fresh child process, so its peak RSS is its own: `orjson` parses every
line (split on \\n) and throws the objects away; `redact` is the library's `redact_bytes` under the
default policy (read, build the map, apply the policy, validate, contentHash) on the file's bytes in
memory, timed like the orjson pass; `redact_file` is what the CLI does (the log streamed from disk,
so memory does not hold the log). The stage split (`read`, `build`, `policy+finish`) is timed separately.
Figures are medians of --runs runs, timed in the same invocation; the ratio to orjson is the number
to compare across machines.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


_BEST: list[float] = []


def _median(fn, runs: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    _BEST.append(min(times))
    return statistics.median(times)


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
        out["s"] = _median(parse, runs)
        out["best"] = _BEST[-1]
    elif mode == "redact":
        from redact.api import redact_bytes
        from redact.policy.load import load_policy

        eff = load_policy("default")  # loaded once, as the CLI does
        out["s"] = _median(lambda: redact_bytes(data, name=path, policy=eff, companions=[]), runs)
        out["best"] = _BEST[-1]
    elif mode == "file":
        from redact.api import redact_file
        from redact.policy.load import load_policy

        # the file is streamed from disk, as the CLI does: its bytes are never all in memory
        eff = load_policy("default")
        out["s"] = _median(lambda: redact_file(path, policy=eff, companions=[]), runs)
        out["best"] = _BEST[-1]
    elif mode == "stages":
        from redact.apply.walk import redact_map
        from redact.build import build_map
        from redact.formats.claude_code.files import read_session
        from redact.policy.load import load_policy
        from redact.report import RedactionReport
        from redact.api import finish_map

        eff = load_policy("default")
        facts = read_session(data, path, report=RedactionReport(source=path))
        raw = build_map(facts)
        out["read"] = _median(lambda: read_session(data, path, report=RedactionReport(source=path)), runs)
        out["build"] = _median(lambda: build_map(facts), runs)

        def policy() -> None:
            report = RedactionReport(source=path)
            finish_map(redact_map(json.loads(json.dumps(raw)), eff, None, report), report)
        copy_cost = _median(lambda: json.loads(json.dumps(raw)), runs)
        out["policy"] = max(_median(policy, runs) - copy_cost, 0.0)
        out["events"] = float(len(raw["events"]))
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def run_child(mode: str, path: Path, runs: int) -> dict[str, float]:
    cmd = [sys.executable, __file__, "--child", mode, str(path), "--runs", str(runs)]
    done = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def report(label: str, path: Path, runs: int) -> dict[str, object]:
    size = path.stat().st_size
    base = run_child("orjson", path, runs)
    red = run_child("redact", path, runs)
    stages = run_child("stages", path, runs)
    streamed = run_child("file", path, runs)
    mb = size / 1e6
    row = {
        "input": label, "mb": round(mb, 1), "events": int(stages["events"]),
        "orjson_s": round(base["s"], 3), "orjson_mb_s": round(mb / base["s"], 1), "orjson_rss_mb": round(base["rss_mb"]),
        "redact_s": round(red["s"], 3), "redact_mb_s": round(mb / red["s"], 1), "redact_rss_mb": round(red["rss_mb"]),
        "ratio": round(red["s"] / base["s"], 2), "ratio_best": round(red["best"] / base["best"], 2),
        "file_s": round(streamed["s"], 3), "file_rss_mb": round(streamed["rss_mb"]),
        "read_s": round(stages["read"], 3), "build_s": round(stages["build"], 3), "policy_s": round(stages["policy"], 3),
    }
    print(f"{label}: {mb:.1f} MB, {row['events']} events")
    print(f"  orjson.loads per line : {base['s'] * 1000:8.1f} ms  {row['orjson_mb_s']:7.1f} MB/s  "
          f"peak RSS {row['orjson_rss_mb']} MB")
    print(f"  redact (default)      : {red['s'] * 1000:8.1f} ms  {row['redact_mb_s']:7.1f} MB/s  "
          f"peak RSS {row['redact_rss_mb']} MB  = {row['ratio']}x orjson")
    print(f"  best runs             : orjson {base['best'] * 1000:.1f} ms, redact {red['best'] * 1000:.1f} ms "
          f"= {row['ratio_best']}x")
    print(f"  redact_file (streamed): {streamed['s'] * 1000:8.1f} ms  {mb / streamed['s']:7.1f} MB/s  "
          f"peak RSS {row['file_rss_mb']} MB")
    print(f"  stages: read {stages['read'] * 1000:.1f} ms, build {stages['build'] * 1000:.1f} ms, "
          f"policy+validate+hash {stages['policy'] * 1000:.1f} ms")
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
    corpus = args.corpus / "claude-code"
    if corpus.is_dir():
        mains = [p for p in corpus.glob("*.jsonl") if "_subagents_" not in p.name]
        largest = max(mains, key=lambda p: p.stat().st_size)
        rows.append(report("largest corpus transcript", largest, args.runs))
    else:
        print("corpus absent: skipping the corpus transcript")
    sys.path.insert(0, str(HERE))
    from gen_claude_code import generate

    fd, name = tempfile.mkstemp(prefix="cc-bench-", suffix=".jsonl", dir="/tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            generate(fh, int(args.size_mb * 1e6))
        rows.append(report(f"generated {args.size_mb:.0f} MB transcript", Path(name), max(2, args.runs // 2)))
    finally:
        os.unlink(name)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
