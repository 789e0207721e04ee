"""Re-redact a generated 20,000-event map under each preset; compare with a bare orjson round trip.

Run: .venv/bin/python bench/bench_map.py [--events 20000] [--runs 7]
Reports the median of several runs and the ratio to orjson.loads + orjson.dumps of the same bytes,
timed in the same run (the machine is shared and noisy: ratios are the stable figure).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_map import generate_map  # noqa: E402

from redact.api import redact_bytes  # noqa: E402
from redact.keys import Key  # noqa: E402
from redact.policy import load_policy  # noqa: E402


def median_time(fn, runs: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    data = orjson.dumps(generate_map(args.events))
    key = Key(bytes(range(32)), source="bench")
    base = median_time(lambda: orjson.dumps(orjson.loads(data)), args.runs)
    print(f"map: {args.events} events, {len(data) / 1e6:.1f} MB")
    print(f"baseline orjson loads+dumps: {base * 1000:.1f} ms")
    for name in ("internal", "default", "public"):
        policy = load_policy(name)
        t = median_time(lambda: redact_bytes(data, policy=policy, key=key, input_format="agentplay"), args.runs)
        print(f"redact under {name:<8}: {t * 1000:7.1f} ms  ({t / base:5.1f}x baseline)")


if __name__ == "__main__":
    main()
