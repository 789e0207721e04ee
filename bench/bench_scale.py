"""The scale targets (DESIGN.md section 13, issue 8): throughput, scanner speed, parallel speed-up, memory.

    .venv/bin/python bench/bench_scale.py throughput [--size-mb 100] [--runs 5]
    .venv/bin/python bench/bench_scale.py scanner [--events 20000] [--runs 5]
    .venv/bin/python bench/bench_scale.py jobs [--files 8] [--size-mb 12] [--runs 3]
    .venv/bin/python bench/bench_scale.py memory [--size-mb 1000]
    .venv/bin/python bench/bench_scale.py all

Inputs are generated into a temporary folder under /tmp (bench/gen_claude_code.py, bench/gen_map.py)
and deleted afterwards; nothing is written into the repository. The machine is shared and noisy:
every figure is a median over --runs runs, the measured side and its baseline taking turns run after
run, and both wall time and this process's CPU time are reported (CPU time is what the work costs;
wall time adds what other processes took from us). Each part prints a Markdown table row.

throughput  A raw Claude Code transcript -> redacted, scanned map (`redact.api.redact_file`, the log
            streamed from disk as the CLI reads it, nothing written), on one core. Baselines:
            `orjson.loads` of every line read from the same file (binary line iteration, as the
            reader does), and of every line of the bytes already in memory (`split`).
scanner     The leak scanner (`audit.scan.scan_map`: grammar, secrets, language; no source) on the
            20,000-event map of bench/gen_map.py redacted under `default`, against detect-secrets
            1.5.0's `scan_file` (default plugins and filters, verification patched out) on the same
            map serialized one JSON line per event (top-level fields on the first line). Recall on
            ../shared/benchmarks/secrets/labeled.jsonl comes from bench/bench_secrets.py's scoring.
jobs        `agentplay-redact FILES --out-dir DIR --jobs 1` against `--jobs 2`, each a fresh process
            (startup included), on --files generated transcripts of --size-mb each.
memory      `agentplay-redact BIG.jsonl -o OUT.json.gz` in a child process on a generated transcript of
            --size-mb; its peak RSS (ru_maxrss).
(A whole `~/.claude/projects` tree: bench/bench_tree.py.)
"""
from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

CLI = "import sys; from redact.cli import main; sys.exit(main())"


def interleaved(fns: dict[str, Callable[[], Any]], runs: int) -> dict[str, tuple[float, float]]:
    """name -> (median wall s, median CPU s of this process), the fns taking turns run after run."""
    wall: dict[str, list[float]] = {n: [] for n in fns}
    cpu: dict[str, list[float]] = {n: [] for n in fns}
    for _ in range(runs):
        for name, fn in fns.items():
            w, c = time.perf_counter(), time.process_time()
            fn()
            wall[name].append(time.perf_counter() - w)
            cpu[name].append(time.process_time() - c)
    return {n: (statistics.median(wall[n]), statistics.median(cpu[n])) for n in fns}


def generate_transcript(path: Path, size_mb: float, seed: int = 1) -> int:
    from gen_claude_code import generate

    with path.open("wb") as fh:
        return generate(fh, int(size_mb * 1e6), seed)


# -- throughput -------------------------------------------------------------------------------------

def throughput(size_mb: float, runs: int, tmp: Path, given: Path | None = None) -> dict[str, Any]:
    import orjson

    from redact.api import redact_file
    from redact.policy.load import load_policy

    if given is not None:
        path = given
    else:
        path = tmp / "transcript.jsonl"
        generate_transcript(path, size_mb)
    mb = path.stat().st_size / 1e6
    data = path.read_bytes()
    eff = load_policy("default")
    verdicts = redact_file(path, policy=eff, companions=[]).report.scanner  # warm

    def from_file() -> None:
        loads = orjson.loads
        with path.open("rb") as fh:
            for line in fh:
                loads(line)

    def from_memory() -> None:
        loads = orjson.loads
        for line in data.split(b"\n"):
            if line:
                loads(line)

    r = interleaved({"orjson_file": from_file, "orjson_memory": from_memory,
                     "redact": lambda: redact_file(path, policy=eff, companions=[])}, runs)
    (bw, bc), (mw, mc), (rw, rc) = r["orjson_file"], r["orjson_memory"], r["redact"]
    what = "the given transcript" if given is not None else "a generated Claude Code transcript"
    print(f"\n## throughput: {what}, {mb:.1f} MB; median of {runs}; verdicts {verdicts}")
    print("| measure | wall | CPU |")
    print("|---|---|---|")
    print(f"| orjson.loads per line, from the file | {bw * 1e3:.0f} ms ({mb / bw:.0f} MB/s) | {bc * 1e3:.0f} ms |")
    print(f"| orjson.loads per line, bytes in memory | {mw * 1e3:.0f} ms ({mb / mw:.0f} MB/s) | {mc * 1e3:.0f} ms |")
    print(f"| redact_file -> scanned map (streamed) | {rw * 1e3:.0f} ms ({mb / rw:.1f} MB/s) | {rc * 1e3:.0f} ms "
          f"({mb / rc:.1f} MB/s) |")
    print(f"| ratio to orjson from the file | {rw / bw:.2f}x | {rc / bc:.2f}x |")
    print(f"| ratio to orjson in memory | {rw / mw:.2f}x | {rc / mc:.2f}x |")
    return {"mb": mb, "orjson_file": r["orjson_file"], "orjson_memory": r["orjson_memory"], "redact": r["redact"],
            "mb_s_wall": mb / rw, "mb_s_cpu": mb / rc, "ratio_file": [rw / bw, rc / bc],
            "ratio_memory": [rw / mw, rc / mc]}


# -- scanner against detect-secrets -----------------------------------------------------------------

def scanner(events: int, runs: int, tmp: Path) -> dict[str, Any]:
    import orjson
    from bench_secrets import (
        DATA,
        detect_secrets_file_scan,
        detect_secrets_reference,
        no_network,
        ours,
        rates,
    )
    from gen_map import generate_map

    from audit.scan import scan_map
    from redact.contract.secrets import find_secrets
    from redact.api import redact_bytes

    out = redact_bytes(orjson.dumps(generate_map(events)), policy="default").session_map
    lines = [orjson.dumps({k: v for k, v in out.items() if k != "events"})]
    lines += [orjson.dumps(ev) for ev in out["events"]]
    as_jsonl = tmp / "map.jsonl"
    as_jsonl.write_bytes(b"\n".join(lines) + b"\n")
    mb = as_jsonl.stat().st_size / 1e6
    kept = redact_bytes(orjson.dumps(generate_map(events)), policy="default").report.idents.kept
    strings = sorted({s for line in lines for s in _strings(orjson.loads(line))})
    with no_network(), detect_secrets_reference():
        found_ds = detect_secrets_file_scan([str(as_jsonl)])
        r = interleaved({
            "scan_map": lambda: scan_map(out, kept_identifiers=kept),
            "secrets_layer": lambda: find_secrets(strings),
            "detect_secrets": lambda: detect_secrets_file_scan([str(as_jsonl)]),
        }, runs)
    result = scan_map(out, kept_identifiers=kept)
    (sw, sc), (lw, lc), (dw, dc) = r["scan_map"], r["secrets_layer"], r["detect_secrets"]
    print(f"\n## scanner: {events}-event map under default, {mb:.1f} MB as JSON lines (one per event); "
          f"median of {runs}")
    print("| measure | wall | CPU |")
    print("|---|---|---|")
    print(f"| detect-secrets scan_file on the JSON lines ({'a finding' if found_ds else 'no finding'}) | "
          f"{dw * 1e3:.0f} ms | {dc * 1e3:.0f} ms |")
    print(f"| scan_map, every layer but taint ({'clean' if result.clean else 'findings'}) | {sw * 1e3:.0f} ms | "
          f"{sc * 1e3:.0f} ms |")
    print(f"| the secrets layer alone on the map's {len(strings)} distinct strings | {lw * 1e3:.0f} ms | "
          f"{lc * 1e3:.0f} ms |")
    print(f"| speed-up of scan_map over detect-secrets | {dw / sw:.1f}x | {dc / sc:.1f}x |")
    recall: dict[str, Any] = {}
    if DATA.is_file():
        rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
        texts = [row["text"] for row in rows]
        with no_network(), tempfile.TemporaryDirectory() as folder:
            paths = []
            for i, text in enumerate(texts):
                p = Path(folder) / f"row{i}.txt"
                p.write_text(text, encoding="utf-8")
                paths.append(str(p))
            with detect_secrets_reference():
                ds = rates(rows, detect_secrets_file_scan(paths))
        mine = rates(rows, ours(texts))
        recall = {"ours": mine["recall"], "detect_secrets": ds["recall"], "ours_fp_plain": mine["fp_plain"],
                  "ds_fp_plain": ds["fp_plain"]}
        print(f"| recall on labeled.jsonl ({mine['recall']['n']} secrets) | ours {mine['recall']['rate']:.3f} | "
              f"detect-secrets {ds['recall']['rate']:.3f} |")
        print(f"| false positives on plain benign rows | ours {mine['fp_plain']['rate']:.3f} | "
              f"detect-secrets {ds['fp_plain']['rate']:.3f} |")
    else:
        print(f"| recall | skipped: {DATA} is absent | |")
    return {"mb": mb, "times": r, "speedup": [dw / sw, dc / sc], "recall": recall}


def _strings(value: Any) -> list[str]:
    out: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, dict):
            out.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return out


# -- --jobs -------------------------------------------------------------------------------------------

def jobs(files: int, size_mb: float, runs: int, tmp: Path) -> dict[str, Any]:
    src = tmp / "inputs"
    src.mkdir()
    for i in range(files):
        generate_transcript(src / f"session-{i}.jsonl", size_mb, seed=i + 1)
    total = sum(p.stat().st_size for p in src.iterdir()) / 1e6

    child_cpu: dict[int, list[float]] = {1: [], 2: []}

    def cli(n: int) -> Callable[[], None]:
        def run() -> None:
            out = tmp / f"out-{n}"
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run([sys.executable, "-c", CLI, str(src), "--out-dir", str(out), "--jobs", str(n)],
                                  capture_output=True, text=True, cwd=ROOT, check=False)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            child_cpu[n].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            if done.returncode != 0:
                raise SystemExit(done.stderr)
        return run

    # wall time of the whole command; this process's CPU time does not see the children's
    r = interleaved({"jobs1": cli(1), "jobs2": cli(2), "spin1": lambda: _spin(1), "spin2": lambda: _spin(2)},
                    runs)
    w1, w2 = r["jobs1"][0], r["jobs2"][0]
    ceiling = 2 * r["spin1"][0] / r["spin2"][0]
    same = all((tmp / "out-1" / p.name).read_bytes() == p.read_bytes() for p in (tmp / "out-2").iterdir())
    print(f"\n## --jobs: {files} generated transcripts, {total:.0f} MB in all; CLI wall time, median of {runs}")
    print("| measure | wall | throughput | CPU of the command and its workers |")
    print("|---|---|---|---|")
    c1, c2 = statistics.median(child_cpu[1]), statistics.median(child_cpu[2])
    print(f"| --jobs 1 | {w1:.2f} s | {total / w1:.1f} MB/s | {c1:.2f} s ({c1 / w1:.2f} cores busy) |")
    print(f"| --jobs 2 | {w2:.2f} s | {total / w2:.1f} MB/s | {c2:.2f} s ({c2 / w2:.2f} cores busy) |")
    print(f"| speed-up | {w1 / w2:.2f}x | outputs identical: {same} | CPU ratio {c2 / c1:.2f} |")
    print(f"| the machine's ceiling: 2 processes of a pure-Python loop against 1 | {ceiling:.2f}x | | |")
    return {"mb": total, "jobs1_s": w1, "jobs2_s": w2, "speedup": w1 / w2, "identical": same,
            "ceiling": ceiling, "cpu1_s": c1, "cpu2_s": c2}


def _spin_one(n: int) -> int:
    x = 0
    for i in range(n):
        x += i
    return x


def _spin(processes: int, n: int = 15_000_000) -> None:
    """`processes` processes each running the same CPU-bound loop at once (what 2 cores can give)."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_spin_one, args=(n,)) for _ in range(processes)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join()


# -- memory -------------------------------------------------------------------------------------------

def memory(size_mb: float, tmp: Path) -> dict[str, Any]:
    big = tmp / "big.jsonl"
    generate_transcript(big, size_mb)
    mb = big.stat().st_size / 1e6
    probe = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
             f"r = subprocess.run([sys.executable, '-c', {CLI!r}, sys.argv[1], '-o', sys.argv[2]]); "
             "print(r.returncode, time.perf_counter() - t, "
             "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", probe, str(big), str(tmp / "big.json.gz")], capture_output=True,
                          text=True, cwd=ROOT, check=False)
    code, seconds, rss_kb = done.stdout.split()[-3:]
    rss = int(rss_kb) / 1024
    print(f"\n## memory: generated transcript of {mb:.0f} MB -> map, `agentplay-redact IN -o OUT.json.gz`")
    print("| input | exit | wall | peak RSS | under 500 MB |")
    print("|---|---|---|---|---|")
    print(f"| {mb:.0f} MB | {code} | {float(seconds):.1f} s | {rss:.0f} MB | {'yes' if rss < 500 else 'NO'} |")
    return {"mb": mb, "exit": int(code), "seconds": float(seconds), "peak_rss_mb": rss}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=("throughput", "scanner", "jobs", "memory", "all"))
    ap.add_argument("--size-mb", type=float,
                    help="transcript size (throughput 100, jobs 12 each, memory 1000)")
    ap.add_argument("--events", type=int, default=20_000)
    ap.add_argument("--files", type=int, default=8)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--input", type=Path, help="throughput: this transcript instead of a generated one")
    ap.add_argument("--json", action="store_true", help="also print the figures as JSON")
    args = ap.parse_args()
    results: dict[str, Any] = {}
    tmp = Path(tempfile.mkdtemp(prefix="agentplay-bench-", dir="/tmp"))
    try:
        parts = ("throughput", "scanner", "jobs", "memory") if args.part == "all" else (args.part,)
        for part in parts:
            sub = tmp / part
            sub.mkdir()
            if part == "throughput":
                results[part] = throughput(args.size_mb or 100, args.runs, sub, args.input)
            elif part == "scanner":
                results[part] = scanner(args.events, args.runs, sub)
            elif part == "jobs":
                results[part] = jobs(args.files, args.size_mb or 12, max(1, min(args.runs, 3)), sub)
            else:
                results[part] = memory(args.size_mb or 1000, sub)
            shutil.rmtree(sub, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=1, default=str))


if __name__ == "__main__":
    main()
