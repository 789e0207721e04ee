"""Throughput of every raw format on its largest corpus session, as a ratio to a bare orjson parse.

Run: PYTHONPATH=$PWD .venv/bin/python bench/bench_formats.py [--runs 5] [--only claude-code,codex]

The formats are the registry's (`redact.formats.registry.raw_formats()`), so a new format is
included as soon as it is registered; its session is the largest file of ../shared/corpus that
opens as that format (`open_path` detects it as the CLI does; a SQLite store's size is the store's).
Each run, in one process and in CPU time (`time.process_time`, the steadier figure on a shared
machine), interleaved:

- the baseline: `orjson.loads` of the bytes the reader reads (the file, a store's export, an
  assembled session), each line of a JSON Lines log or the whole of a JSON document;
- the measured side: `redact_file(path, policy="default", key=K)`, the main job without the write:
  opening (detection, a store's private copy and export), reading, building, the policy walk,
  the content hash and the full scan.

The first run of each is discarded (imports, first use of the shipped tables); caches of shipped
tables stay warm across runs, as in a batch worker, and the per-run caches of input strings are
emptied by every run. The figure is the median ratio over --runs runs.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
sys.path.insert(0, str(ROOT))

from redact.api import redact_file  # noqa: E402
from redact.formats.opened import open_path  # noqa: E402
from redact.formats.registry import raw_formats  # noqa: E402
from redact.keys.material import Key  # noqa: E402

KEY = Key(bytes(range(32)), source="bench")


def largest_sessions(only: set[str] | None) -> dict[str, tuple[Path, bytes]]:
    """format -> (its largest corpus file, the bytes its reader reads)."""
    best: dict[str, tuple[int, Path, bytes]] = {}
    for path in sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "README.md"):
        if path.relative_to(CORPUS).parts[0] == "commands":
            continue
        try:
            opened = open_path(path)
        except Exception:  # noqa: BLE001 - a file that is no session of any format
            continue
        if opened.fmt not in raw_formats() or (only and opened.fmt not in only):
            continue
        size = path.stat().st_size
        if size > best.get(opened.fmt, (-1, path, b""))[0]:
            data = opened.data if opened.data is not None else Path(opened.stream or path).read_bytes()
            best[opened.fmt] = (size, path, data)
    return {fmt: (path, data) for fmt, (_, path, data) in best.items()}


def _parse_all(data: bytes) -> int:
    try:
        orjson.loads(data)
        return 1
    except orjson.JSONDecodeError:
        pass
    n = 0
    for line in data.splitlines():
        if line.strip():
            try:
                orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            n += 1
    return n


def _cpu(run: Any) -> float:
    started = time.process_time()
    run()
    return time.process_time() - started


def measure(path: Path, data: bytes, runs: int) -> dict[str, Any]:
    result = redact_file(path, policy="default", key=KEY)  # warm-up, and the figures of the map
    _parse_all(data)
    events = len(orjson.loads(result.data).get("events", []))
    base, redact = [], []
    for _ in range(runs):
        base.append(_cpu(lambda: _parse_all(data)))
        redact.append(_cpu(lambda: redact_file(path, policy="default", key=KEY)))
    ratios = [r / b for r, b in zip(redact, base, strict=True) if b > 0]
    return {"file": path.stat().st_size, "read": len(data), "events": events,
            "orjson_ms": 1000 * statistics.median(base), "redact_ms": 1000 * statistics.median(redact),
            "ratio": statistics.median(ratios) if ratios else float("nan")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", help="comma-separated format names")
    opts = parser.parse_args()
    if not CORPUS.is_dir():
        print(f"no corpus at {CORPUS}")
        return 0
    only = set(opts.only.split(",")) if opts.only else None
    sessions = largest_sessions(only)
    load = os.getloadavg()[0]
    print(f"medians of {opts.runs} runs (CPU time, one process), load average {load:.1f}")
    print("| format | file | bytes read | events | orjson ms | redact_file ms | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for fmt in raw_formats():
        if only and fmt not in only:
            continue
        if fmt not in sessions:
            print(f"| {fmt} | no corpus session | | | | | |")
            continue
        path, data = sessions[fmt]
        try:
            m = measure(path, data, opts.runs)
        except Exception as exc:  # noqa: BLE001 - a refusal is a row too
            print(f"| {fmt} | {path.stat().st_size:,} | refused ({type(exc).__name__}) | | | | |")
            continue
        print(f"| {fmt} | {m['file']:,} | {m['read']:,} | {m['events']:,} | {m['orjson_ms']:.1f} | "
              f"{m['redact_ms']:.1f} | {m['ratio']:.1f}x |", flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
