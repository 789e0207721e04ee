"""Benchmark the sweep (redact/sweep/) against Betterleaks, side by side in one run.

    .venv/bin/python bench/bench_sweep.py [--betterleaks PATH] [--per-agent N] [--parts 123] [--jobs N]

Three parts, each printed as a Markdown table; no value found is ever printed (hits are counted):

1. Recall per source on the labeled rows of ../shared/benchmarks/secrets/labeled.jsonl (rows
   labeled `secret`): the secrets layer today (`find_secrets` on the row), the sweep (the row as a
   text file's content, `scan_text`) and Betterleaks (each row its own file, `betterleaks fs`).
2. Recall per class on secrets planted in copies of real corpus sessions (../shared/corpus): for
   each agent, up to N session files, one random secret of every class planted into its own string
   (tests/sweep/plant.py); a plant is found when the tool reports it on its file and line (the
   sweep: also with the right class and fingerprint).
3. Findings on the real corpus sessions as they are, per class and per 10 MB (every finding is
   counted: the corpus holds some real credentials, which the table's notes say), and throughput
   over the same files: the sweep (one process; and `--jobs` processes) and Betterleaks
   (GOMAXPROCS=1, `-j 1`, and with its defaults), wall and CPU time, in the same run.

Only agents' logs are swept: the corpus folders of agents (`AGENT_FOLDERS`), not `commands/`, which
holds command-line help pages collected for the verb vocabulary, not sessions.

Betterleaks runs without `--validate` (no network) and with `--redact`; its reports are written to
a private temporary folder and deleted. Without a Betterleaks binary its columns say `n/a`.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from redact.contract.secrets import find_secrets  # noqa: E402
from redact.keys.material import Key  # noqa: E402
from redact.sweep.engine import fingerprinter, sweep  # noqa: E402
from redact.sweep.find import scan_text  # noqa: E402
from redact.sweep.targets import sweep_inputs  # noqa: E402
from tests.sweep.plant import make_secrets, plant_file, secret_value  # noqa: E402

SHARED = ROOT.parent / "shared"
DATA = SHARED / "benchmarks" / "secrets" / "labeled.jsonl"
CORPUS = SHARED / "corpus"
KEY = Key(os.urandom(32), source="bench")
#: corpus folders that hold no agent's logs (help pages collected for the verb vocabulary)
NOT_AGENTS = frozenset({"commands"})


def agent_folders() -> list[Path]:
    """The corpus folders of agents: the ones the bench sweeps."""
    return [p for p in sorted(CORPUS.iterdir()) if p.is_dir() and p.name not in NOT_AGENTS]


#: CPU seconds (user + system) of each Betterleaks run, by (target, one_core): on a shared machine
#: the steadier figure, as the sweep's own CPU time is
CPU_SECONDS: dict[tuple[str, bool], float] = {}


def betterleaks(binary: str | None, target: Path, *, one_core: bool = True) -> tuple[list[dict[str, Any]], float]:
    """Betterleaks' findings on `target` (redacted) and its wall time."""
    if binary is None:
        return [], float("nan")
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        env = dict(os.environ, GOMAXPROCS="1") if one_core else dict(os.environ)
        cmd = [binary, "fs", str(target), "-o", str(report), "--redact", "--no-banner", "-l", "error",
               "--exit-code", "0", "--max-target-megabytes", "200", "--follow-symlinks"]
        if one_core:
            cmd += ["-j", "1"]
        started = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seconds = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        CPU_SECONDS[(str(target), one_core)] = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        doc = json.loads(report.read_text() or "{}") if report.exists() else {}
    found = doc.get("findings") or [] if isinstance(doc, dict) else doc
    return [{"File": f["location"]["path"], "StartLine": f["location"]["start_line"], "Rule": f["rule_id"]}
            for f in found], seconds


def part_labeled(binary: str | None) -> list[str]:
    rows = [json.loads(line) for line in DATA.open(encoding="utf-8")]
    secret_rows = [r for r in rows if r["label"] == "secret"]
    fp = fingerprinter(KEY)
    layer, ours, total = Counter(), Counter(), Counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for r in secret_rows:
            total[r["source"]] += 1
            layer[r["source"]] += bool(find_secrets([r["text"]]))
            ours[r["source"]] += bool(scan_text(r["text"], fp, as_json=False).places)
            (folder / f"row-{r['id']}.txt").write_text(r["text"], encoding="utf-8")
        found, _ = betterleaks(binary, folder, one_core=False)
    by_file = {Path(f["File"]).name for f in found}
    theirs = Counter(r["source"] for r in secret_rows if f"row-{r['id']}.txt" in by_file)
    out = ["| source | rows | secrets layer | sweep | Betterleaks |", "|---|---:|---:|---:|---:|"]
    for source in sorted(total):
        n = total[source]
        bl = f"{theirs[source] / n:.3f}" if binary else "n/a"
        out.append(f"| {source} | {n} | {layer[source] / n:.3f} | {ours[source] / n:.3f} | {bl} |")
    return out


def _sessions(agent: Path, n: int) -> list[Path]:
    files = [f for f in sweep_inputs([str(agent)]).files
             if f.stat().st_size < 5_000_000 and f.read_bytes()[:6] != b"SQLite" and f.read_bytes()[:2] != b"\x1f\x8b"]
    random.Random(agent.name).shuffle(files)
    return files[:n]


#: words of Betterleaks' rule ids for each class (a finding of another rule on the line is not this one)
BL_RULE_WORDS = {
    "aws-access-key": ("aws",), "anthropic-api-key": ("anthropic",), "database-url": ("postgres", "database", "db-", "connection", "uri", "url", "basic-auth"),
    "github-token": ("github",), "google-api-key": ("gcp", "google"), "jwt": ("jwt",), "openai-api-key": ("openai",),
    "private-key": ("private-key",), "slack-token": ("slack",), "stripe-key": ("stripe",),
}


def part_planted(binary: str | None, per_agent: int) -> list[str]:
    fp = fingerprinter(KEY)
    want: list[tuple[str, int, str, str]] = []  # (file, line, class, fingerprint)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        seed = 0
        for agent in agent_folders():
            for src in _sessions(agent, per_agent):
                seed += 1
                secrets = make_secrets(seed)
                dst = folder / f"{agent.name}-{seed}{''.join(src.suffixes[-1:])}"
                try:
                    placed = plant_file(src, dst, secrets)
                except ValueError:  # a log with no string to plant into
                    continue
                for cls, line in placed.items():
                    want.append((str(dst), line, cls, fp(secret_value(cls, secrets[cls]))))
        result = sweep(sweep_inputs([str(p) for p in sorted(folder.iterdir())]), KEY)
        got = {(f.path, p.line, p.cls, p.fingerprint) for f, p in result.places}
        found_bl, _ = betterleaks(binary, folder, one_core=False)
    bl_lines: dict[tuple[str, int], set[str]] = defaultdict(set)
    for f in found_bl:
        bl_lines[(f["File"], int(f["StartLine"]))].add(f["Rule"])
    total, ours, theirs = Counter(), Counter(), Counter()
    rules_seen: Counter[str] = Counter()
    for path, line, cls, print_ in want:
        total[cls] += 1
        ours[cls] += (path, line, cls, print_) in got
        rules = bl_lines.get((path, line), set())
        rules_seen.update(rules)
        theirs[cls] += any(any(word in rule for word in BL_RULE_WORDS[cls]) for rule in rules)
    out = [f"{len({w[0] for w in want})} planted copies of corpus sessions, {sum(total.values())} secrets "
           "(Betterleaks: a finding of a rule of that class on the secret's line)", "",
           "| class | planted | sweep | Betterleaks |", "|---|---:|---:|---:|"]
    for cls in sorted(total):
        bl = f"{theirs[cls] / total[cls]:.3f}" if binary else "n/a"
        out.append(f"| {cls} | {total[cls]} | {ours[cls] / total[cls]:.3f} | {bl} |")
    if binary:
        out += ["", "Betterleaks rules seen on planted lines: " + ", ".join(f"{r} ({n})" for r, n in rules_seen.most_common())]
    return out


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def part_corpus(binary: str | None, jobs: int) -> list[str]:
    inputs = sweep_inputs([str(p) for p in agent_folders()])
    started, started_cpu = time.perf_counter(), time.process_time()
    result = sweep(inputs, KEY)
    ours_s, ours_cpu = time.perf_counter() - started, time.process_time() - started_cpu
    started, started_cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
    pooled = sweep(inputs, KEY, jobs=jobs)
    pool_s = time.perf_counter() - started
    pool_cpu = time.process_time() - started_cpu + _children_cpu() - children
    same = [(f.path, p.line, p.cls, p.fingerprint) for f, p in pooled.places] == \
        [(f.path, p.line, p.cls, p.fingerprint) for f, p in result.places]
    mb = result.bytes_read / 1e6
    by_class: Counter[str] = Counter(p.cls for _, p in result.places)
    distinct: dict[str, set[str]] = defaultdict(set)
    for _, p in result.places:
        distinct[p.cls].add(p.fingerprint)
    with tempfile.TemporaryDirectory() as tmp:  # Betterleaks on exactly the same files
        folder = Path(tmp)
        for i, f in enumerate(inputs.files):
            os.symlink(f.resolve(), folder / f"{i}-{f.name}")
        bl_found, bl_one = betterleaks(binary, folder, one_core=True)
        _, bl_all = betterleaks(binary, folder, one_core=False) if binary else ([], float("nan"))
        bl_found = bl_found if binary else []
    out = [f"{len(result.files)} files of {len(agent_folders())} agent folders, {mb:.1f} MB, "
           f"{len(result.unreadable)} not read", "",
           "| class | places | distinct | per 10 MB |", "|---|---:|---:|---:|"]
    for cls, n in by_class.most_common():
        out.append(f"| {cls} | {n} | {len(distinct[cls])} | {n / mb * 10:.2f} |")
    out.append(f"| all | {sum(by_class.values())} | {sum(len(v) for v in distinct.values())} | "
               f"{sum(by_class.values()) / mb * 10:.2f} |")
    if binary:
        out.append(f"| Betterleaks (all rules) | {len(bl_found)} | | {len(bl_found) / mb * 10:.2f} |")
    out += ["", "Every finding on the real corpus, by class, for a person to judge (open the file at the line;"
            " the value is never printed: its length and keyed fingerprint only):", ""]
    listed: dict[tuple[str, str], list[str]] = defaultdict(list)
    for f, p in result.places:
        listed[(p.cls, p.fingerprint)].append(f"{Path(f.path).parent.name}/{Path(f.path).name[:60]}:{p.line}")
    for (cls, print_), where in sorted(listed.items()):
        more = f" (+{len(where) - 3} more)" if len(where) > 3 else ""
        out.append(f"- {cls} {print_} x{len(where)}: {', '.join(where[:3])}{more}")
    out += ["", "| tool | wall seconds | MB/s wall | CPU seconds | MB/s CPU |", "|---|---:|---:|---:|---:|",
            f"| sweep (1 process) | {ours_s:.1f} | {mb / ours_s:.2f} | {ours_cpu:.1f} | {mb / ours_cpu:.2f} |",
            f"| sweep --jobs {jobs} (findings {'the same' if same else 'DIFFERENT'}) | {pool_s:.1f} | "
            f"{mb / pool_s:.2f} | {pool_cpu:.1f} | {mb / pool_cpu:.2f} |"]
    if binary:
        c_one, c_all = CPU_SECONDS.get((str(folder), True), 0.0), CPU_SECONDS.get((str(folder), False), 0.0)
        out.append(f"| Betterleaks, GOMAXPROCS=1 -j 1 | {bl_one:.1f} | {mb / bl_one:.2f} | {c_one:.1f} | "
                   f"{mb / c_one if c_one else float('nan'):.2f} |")
        out.append(f"| Betterleaks, defaults ({os.cpu_count()} cores) | {bl_all:.1f} | {mb / bl_all:.2f} | {c_all:.1f} | "
                   f"{mb / c_all if c_all else float('nan'):.2f} |")
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--betterleaks", default=shutil.which("betterleaks"))
    ap.add_argument("--per-agent", type=int, default=3)
    ap.add_argument("--parts", default="123")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="processes of the pooled sweep (part 3)")
    args = ap.parse_args()
    if not CORPUS.is_dir() or not DATA.is_file():
        print("../shared/corpus or ../shared/benchmarks/secrets is absent: nothing to measure")
        return 0
    binary = args.betterleaks
    if binary:
        version = subprocess.run([binary, "version"], capture_output=True, text=True).stdout.strip()
        print(f"Betterleaks {version}\n")
    else:
        print("no Betterleaks binary (--betterleaks PATH): its columns say n/a\n")
    parts = {"1": ("Recall on labeled rows", lambda: part_labeled(binary)),
             "2": ("Recall on secrets planted in corpus sessions", lambda: part_planted(binary, args.per_agent)),
             "3": ("Findings on the real corpus, and throughput", lambda: part_corpus(binary, args.jobs))}
    for key in args.parts:
        if key in parts:
            title, run = parts[key]
            print(f"## {title}\n")
            print("\n".join(run()))
            print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
