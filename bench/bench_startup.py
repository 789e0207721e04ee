"""Start-up time of the command line next to a bare `python -c pass`, measured in the same run.

Run: .venv/bin/python bench/bench_startup.py [--runs 21] [--check]

Every command runs in a fresh interpreter (`python -m redact ...` from this checkout), round-robin
with the bare interpreter so that both meet the same machine load; each is run once first, with
bytecode written to a temporary cache (PYTHONPYCACHEPREFIX), so the timed runs read compiled
modules as an installed package does. The figure is the median wall time over --runs runs. The
target (issue 16): `--help` and `verb` under 3x the bare interpreter plus 0.1 s; `--check` exits 1
when one is over it.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "--version": ["-m", "redact", "--version"],
    "--help": ["-m", "redact", "--help"],
    "verb 'ls'": ["-m", "redact", "verb", "ls"],
    "redact --help": ["-m", "redact", "redact", "--help"],
    "scan --help": ["-m", "redact", "scan", "--help"],
}
TARGETED = ("--help", "verb 'ls'")


def _once(args: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def measure(runs: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPYCACHEPREFIX=cache, PYTHONPATH=str(ROOT))
        for args in COMMANDS.values():  # compile once: the timed runs read bytecode
            _once(args, env)
        times: dict[str, list[float]] = {name: [] for name in COMMANDS}
        for _ in range(runs):
            for name, args in COMMANDS.items():
                times[name].append(_once(args, env))
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--check", action="store_true", help="exit 1 when a targeted command is over")
    opts = parser.parse_args()
    medians = measure(opts.runs)
    bare = medians["python -c pass"]
    target = 3 * bare + 0.1
    print(f"median of {opts.runs} runs; target for {', '.join(TARGETED)}: 3 x {bare:.3f} + 0.1 = {target:.3f} s")
    print(f"{'command':<16} {'median s':>9} {'x bare':>7}")
    over = []
    for name, seconds in medians.items():
        mark = ""
        if name in TARGETED:
            mark = "  ok" if seconds < target else "  OVER"
            if seconds >= target:
                over.append(name)
        print(f"{name:<16} {seconds:9.3f} {seconds / bare:7.1f}{mark}")
    return 1 if opts.check and over else 0


if __name__ == "__main__":
    sys.exit(main())
