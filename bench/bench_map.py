"""Re-redact a generated 20,000-event map under each preset and scan it fully; compare with orjson.

Run: .venv/bin/python bench/bench_map.py [--events 20000] [--runs 7] [--json]

What is timed is `redact_bytes(map_bytes, policy=...)`, the CLI's work for a map: parse, the policy
walk (redact/apply/walk.py), contentHash, and the leak scanner on the output (grammar proof, secrets,
language, and taint against the input map: every layer). The baseline is orjson.loads + orjson.dumps
of the same bytes. Each run times the baseline and every preset in turn (interleaved, so a change in
the machine's load falls on all of them), and figures are medians of wall time and of this process's
CPU time; the ratio to the baseline is the figure to compare across machines. A stage split (parse,
walk, contentHash, scan) is timed the same way under `default`.
"""
from __future__ import annotations

import argparse
import functools
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from gen_map import generate_map

from redact.api import finish_map, redact_bytes, scan_output
from redact.apply.walk import redact_map
from redact.keys.material import Key
from redact.policy import load_policy
from redact.report import RedactionReport

PRESETS = ("internal", "default", "public")


def interleaved(fns: dict[str, Callable[[], Any]], runs: int) -> dict[str, tuple[float, float]]:
    """name -> (median wall seconds, median CPU seconds), the fns taking turns run after run."""
    wall: dict[str, list[float]] = {name: [] for name in fns}
    cpu: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(runs):
        for name, fn in fns.items():
            w, c = time.perf_counter(), time.process_time()
            fn()
            wall[name].append(time.perf_counter() - w)
            cpu[name].append(time.process_time() - c)
    return {name: (statistics.median(wall[name]), statistics.median(cpu[name])) for name in fns}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    data = orjson.dumps(generate_map(args.events))
    key = Key(bytes(range(32)), source="bench")
    policies = {name: load_policy(name) for name in PRESETS}
    for name in PRESETS:  # warm: verb vocabulary, compiled tables, detect-secrets plugins
        redact_bytes(data, policy=policies[name], key=key, input_format="agentplay")
    fns: dict[str, Callable[[], Any]] = {"baseline": lambda: orjson.dumps(orjson.loads(data))}
    for name in PRESETS:
        fns[name] = functools.partial(redact_bytes, data, policy=policies[name], key=key, input_format="agentplay")
    results = interleaved(fns, args.runs)
    verdicts = redact_bytes(data, policy=policies["default"], key=key, input_format="agentplay").report.scanner

    eff = policies["default"]
    parsed = orjson.loads(data)
    report = RedactionReport(source="b")
    walked = redact_map(orjson.loads(data), eff, key, report)
    finished = finish_map(dict(walked), report)

    def scan() -> None:
        scan_output(finished, report, eff, source=data, source_format="agentplay")

    stages = interleaved({
        "parse": lambda: orjson.loads(data),
        "walk": lambda: redact_map(parsed, eff, key, RedactionReport(source="b")),
        "contentHash": lambda: finish_map(dict(walked), RedactionReport(source="b")),
        "scan": scan,
    }, args.runs)

    base_wall, base_cpu = results["baseline"]
    print(f"map: {args.events} events, {len(data) / 1e6:.1f} MB; median of {args.runs} interleaved runs; "
          f"scanner verdicts under default: {verdicts}")
    print(f"baseline orjson loads+dumps: {base_wall * 1000:.1f} ms wall, {base_cpu * 1000:.1f} ms CPU")
    print("| policy | re-redact + full scan (wall) | CPU | ratio to baseline (wall / CPU) | under 1 s |")
    print("|---|---|---|---|---|")
    rows = {}
    for name in PRESETS:
        w, c = results[name]
        rows[name] = {"wall_ms": round(w * 1000, 1), "cpu_ms": round(c * 1000, 1),
                      "ratio_wall": round(w / base_wall, 1), "ratio_cpu": round(c / base_cpu, 1)}
        print(f"| {name} | {w * 1000:.0f} ms | {c * 1000:.0f} ms | {w / base_wall:.1f}x / {c / base_cpu:.1f}x "
              f"| {'yes' if w < 1 else 'NO'} |")
    print("stages under default (median wall / CPU): " + ", ".join(
        f"{name} {w * 1000:.0f}/{c * 1000:.0f} ms" for name, (w, c) in stages.items()))
    if args.json:
        print(json.dumps({"events": args.events, "mb": len(data) / 1e6, "baseline_wall_ms": base_wall * 1000,
                          "baseline_cpu_ms": base_cpu * 1000, "presets": rows,
                          "stages_ms": {k: [v[0] * 1000, v[1] * 1000] for k, v in stages.items()}}, indent=1))


if __name__ == "__main__":
    main()
