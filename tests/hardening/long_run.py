"""The long fuzzing run (docs/fuzzing.md): every fuzzer of test_fuzz.py under the `long` profile, each
for an equal share of a time budget, one after the other, with a summary of what ran and what failed.

    .venv/bin/python -m tests.hardening.long_run --minutes 20 --log /tmp/fuzz-outcomes.jsonl

A fuzzer that spends its share without a failure is reported `ok`; one that fails prints hypothesis's
minimal example (also kept in `.hypothesis/`, so the next run of the test replays it first).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUITE = "tests/hardening/test_fuzz.py"


def _fuzzers() -> list[str]:
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly", SUITE],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if line.startswith(SUITE + "::")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=20.0, help="total budget (default 20)")
    parser.add_argument("--log", type=Path, default=None, help="append one JSON line per example here")
    parser.add_argument("-k", default=None, help="only fuzzers whose id contains this")
    args = parser.parse_args(argv)
    fuzzers = [f for f in _fuzzers() if args.k is None or args.k in f]
    share = args.minutes * 60 / max(len(fuzzers), 1)
    env = dict(os.environ, HYPOTHESIS_PROFILE="long")
    if args.log is not None:
        env["HARDENING_FUZZ_LOG"] = str(args.log)
    results: dict[str, str] = {}
    for test in fuzzers:
        started = time.monotonic()
        try:
            proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-x", test],
                                  cwd=ROOT, env=env, capture_output=True, text=True, timeout=share)
        except subprocess.TimeoutExpired:
            results[test] = f"ok (budget of {share:.0f}s spent)"
        else:
            took = time.monotonic() - started
            if proc.returncode == 0:
                results[test] = f"ok ({'skipped' if 'skipped' in proc.stdout else 'finished'} in {took:.0f}s)"
            else:
                results[test] = f"FAILED after {took:.0f}s"
                sys.stdout.write(proc.stdout[-6000:] + "\n")
        sys.stdout.write(f"{results[test]:40} {test}\n")
        sys.stdout.flush()
    if args.log is not None and args.log.exists():
        counts: collections.Counter[tuple[str, str]] = collections.Counter()
        for line in args.log.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            counts[(entry["test"], entry["outcome"])] += 1
        sys.stdout.write("\nexamples by fuzzer and outcome:\n")
        for (test, outcome), n in sorted(counts.items()):
            sys.stdout.write(f"  {test:28} {outcome:8} {n}\n")
    return 1 if any(r.startswith("FAILED") for r in results.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
