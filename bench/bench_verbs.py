"""Throughput of the verb engine over the shared command corpora.

    .venv/bin/python bench/bench_verbs.py [--runs 7] [--json]

Each run times, on the same commands and in the same process:
- `parse`: a bare tree-sitter parse of every command (encode, parse, has_error): the floor;
- `cold`: `extract()` on every command right after the cache was cleared (every call a miss);
- `warm`: `extract()` on every command again (every call a cache hit: repeated commands in a log).
Times are CPU seconds of this process (`time.process_time`), so other work on the machine disturbs
them less than wall time; the figure reported is the median over the runs. The ratio is cold time
over bare-parse time.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "commands"
sys.path.insert(0, str(ROOT))

from redact.verbs import UNPARSED, clear_cache, default_vocabulary, extract  # noqa: E402
from redact.verbs.parse import encode, parser  # noqa: E402


def load() -> list[str]:
    commands: list[str] = []
    for name in ("nl2bash.txt", "tldr.txt"):
        path = CORPUS / name
        if path.is_file():
            commands.extend(line for line in path.read_text(encoding="utf-8").split("\n") if line)
    return commands


def bare_parse(commands: list[str]) -> float:
    ts_parser = parser()
    start = time.process_time()
    for command in commands:
        ts_parser.parse(encode(command)).root_node.has_error  # noqa: B018
    return time.process_time() - start


def engine(commands: list[str]) -> float:
    start = time.process_time()
    for command in commands:
        extract(command)
    return time.process_time() - start


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--runs", type=int, default=7)
    options.add_argument("--json", action="store_true")
    args = options.parse_args()
    commands = load()
    if not commands:
        print(f"no corpus at {CORPUS}", file=sys.stderr)
        return 2
    default_vocabulary()  # load the tables outside the timed part
    extract("git log")
    parse_t: list[float] = []
    cold_t: list[float] = []
    warm_t: list[float] = []
    for _ in range(args.runs):
        parse_t.append(bare_parse(commands))
        clear_cache()
        cold_t.append(engine(commands))
        warm_t.append(engine(commands))
    n = len(commands)
    unparsed = sum(extract(command).verb == UNPARSED for command in commands)
    report = {
        "commands": n,
        "distinct": len(set(commands)),
        "runs": args.runs,
        "parse_per_s": round(n / statistics.median(parse_t)),
        "cold_per_s": round(n / statistics.median(cold_t)),
        "warm_per_s": round(n / statistics.median(warm_t)),
        "cold_over_parse": round(statistics.median(cold_t) / statistics.median(parse_t), 2),
        "cold_us_per_command": round(statistics.median(cold_t) / n * 1e6, 1),
        "unparsed_fraction": round(unparsed / n, 4),
        "python": sys.version.split()[0],
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{n} commands ({report['distinct']} distinct), median of {args.runs} runs, CPU time")
        print(f"  bare tree-sitter parse : {report['parse_per_s']:>10,} commands/s")
        print(f"  extract, cold cache    : {report['cold_per_s']:>10,} commands/s "
              f"({report['cold_us_per_command']} us each, {report['cold_over_parse']}x the bare parse)")
        print(f"  extract, warm cache    : {report['warm_per_s']:>10,} commands/s")
        print(f"  <unparsed>             : {report['unparsed_fraction']:.2%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
