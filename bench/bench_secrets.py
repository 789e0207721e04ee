"""Benchmark the secrets layer (redact/contract/secrets/) against detect-secrets' own file scan.

    .venv/bin/python bench/bench_secrets.py [--runs 5] [--data PATH] [--json]

Data: ../shared/benchmarks/secrets/labeled.jsonl (9,996 labeled rows from the test suites of gitleaks,
detect-secrets, secretlint and trufflehog). The script exits 0 with a note when it is absent. It prints
a Markdown table; nothing from the data set is written anywhere, and hits are counted, never shown.

How each side sees a row:
- ours: the row's whole text is one string, as the layer receives a JSON string value of a map
  (a multi-line value stays one string; the layer does not split it). A row is found when
  `find_secrets` reports any hit on it.
- detect-secrets: the row is written to its own temporary `.txt` file and scanned with
  `detect_secrets.core.scan.scan_file` under `default_settings()` (all plugins, default filters:
  line by line, entropy plugins on quoted strings only). Verification is off in that mode, and every
  plugin class's `verify` is patched to raise during the run, with sockets blocked, to be sure.

Recall is over rows labeled `secret`; the false-positive rate is over benign rows of kind `plain`
and, separately, `near_miss`; `contested` rows are left out. Times are medians of --runs runs on one
core, the two sides taking turns run after run, with the files already written (detect-secrets) and
the modules already imported; the CPU time of this process is reported beside the wall time.
A second part times the layer on the inputs it is built for: 20,000 distinct map-like strings, and
the distinct short strings of ../shared/corpus when present.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import statistics
import string
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from redact.contract.secrets import find_secrets  # noqa: E402 - importable once sys.path has the folder

SHARED = ROOT.parent / "shared"
DATA = SHARED / "benchmarks" / "secrets" / "labeled.jsonl"
CORPUS = SHARED / "corpus"
SOURCES = ("gitleaks", "detect-secrets", "secretlint", "trufflehog", "documented")
HEX = "0123456789abcdef"
ALNUM = string.ascii_letters + string.digits

# Key formats as each provider documents them (issue 23, item 4); the bodies are drawn at random
# here, so no real key is ever written. rule -> a maker of one key.
DOCUMENTED: dict[str, Callable[[random.Random], str]] = {
    "openrouter-api-key": lambda r: "sk-" + "or-v1-" + "".join(r.choice(HEX) for _ in range(64)),
    "mailgun-api-key": lambda r: "ke" + "y-" + "".join(r.choice(HEX) for _ in range(32)),
    "circleci-token": lambda r: "CCI" + r.choice(["PAT", "PRJ"]) + "_" + "".join(r.choice(ALNUM) for _ in range(22))
    + "_" + "".join(r.choice(HEX) for _ in range(40)),
    "langsmith-api-key": lambda r: "lsv2_" + r.choice(["pt", "sk"]) + "_" + "".join(r.choice(HEX) for _ in range(32))
    + "_" + "".join(r.choice(HEX) for _ in range(10)),
    "supabase-token": lambda r: "sb_" + "secret_" + "".join(r.choice(ALNUM + "-_") for _ in range(31)),
}
# Where a kept name slot holds a key: a file name, an MCP tool, a repository, a host label.
_SLOTS = ("{k}", "config/{k}.env", "mcp__acme__call-{k}", "{k}-dotfiles", "{k}.example.com")


def documented_rows(per_rule: int = 40, seed: int = 23) -> list[dict[str, Any]]:
    """Labeled rows for the documented formats: each key in each slot (`secret`), and near misses
    (`benign`, `near_miss`: the prefix with a body too short or of the wrong alphabet)."""
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for rule, make in DOCUMENTED.items():
        for n in range(per_rule):
            key = make(rng)
            rows.append({"source": "documented", "rule": rule, "label": "secret", "synthesized": True,
                         "text": _SLOTS[n % len(_SLOTS)].format(k=key)})
            short = key[: len(key) // 2]
            rows.append({"source": "documented", "rule": rule, "label": "benign", "benign_kind": "near_miss",
                         "synthesized": True, "text": short})
    return rows


@contextmanager
def no_network() -> Iterator[None]:
    """Every internet connect raises while the benchmark runs."""

    def refuse(self: socket.socket, address: object) -> None:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            raise RuntimeError("network access attempted during the benchmark")

    saved = socket.socket.connect, socket.socket.connect_ex
    socket.socket.connect = refuse  # type: ignore[method-assign,assignment]
    socket.socket.connect_ex = refuse  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        socket.socket.connect, socket.socket.connect_ex = saved  # type: ignore[method-assign]


def timed(fn: Callable[[], Any], runs: int) -> tuple[Any, float]:
    """fn's result and the median of `runs` wall times."""
    [(result, seconds)] = interleaved([fn], runs)
    return result, seconds


CPU: dict[int, float] = {}  # id(fn) -> median CPU seconds of this process, from the last interleaved()


def interleaved(fns: Sequence[Callable[[], Any]], runs: int) -> list[tuple[Any, float]]:
    """Each fn's result and median wall time, the fns taking turns run after run so that a change in
    the machine's load falls on all of them alike. The median CPU time of this process for each fn
    goes to CPU (the steadier figure on a loaded machine: it leaves out what other processes took)."""
    times: list[list[float]] = [[] for _ in fns]
    cpu: list[list[float]] = [[] for _ in fns]
    results: list[Any] = [None] * len(fns)
    for _ in range(runs):
        for i, fn in enumerate(fns):
            start, start_cpu = time.perf_counter(), time.process_time()
            results[i] = fn()
            times[i].append(time.perf_counter() - start)
            cpu[i].append(time.process_time() - start_cpu)
    CPU.clear()
    CPU.update({id(fn): statistics.median(cs) for fn, cs in zip(fns, cpu)})
    return [(result, statistics.median(ts)) for result, ts in zip(results, times)]


def ours(texts: Sequence[str]) -> set[int]:
    return {hit.index for hit in find_secrets(texts)}


def detect_secrets_file_scan(paths: Sequence[str]) -> set[int]:
    """Rows on which detect-secrets' own file scan reports anything (call inside default_settings)."""
    # The reference we compare with. Besides redact/contract/secrets/plugins.py, only this benchmark imports detect_secrets.
    from detect_secrets.core.scan import scan_file

    return {i for i, path in enumerate(paths) if list(scan_file(path))}  # all findings, as a scan would


@contextmanager
def detect_secrets_reference() -> Iterator[None]:
    """detect-secrets' default settings, with every plugin's `verify` made to raise."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.settings import default_settings

    def forbidden(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("verify() called during the benchmark")

    classes: list[Any] = list(get_mapping_from_secret_type_to_class().values())
    saved = [(cls, cls.__dict__.get("verify")) for cls in classes]
    for cls in classes:
        cls.verify = forbidden
    try:
        with default_settings():
            yield
    finally:
        for cls, original in saved:
            if original is None:
                del cls.verify
            else:
                cls.verify = original


def rates(rows: Sequence[dict[str, Any]], found: set[int]) -> dict[str, Any]:
    def rate(indices: list[int]) -> dict[str, Any]:
        hits = sum(1 for i in indices if i in found)
        return {"n": len(indices), "hits": hits, "rate": hits / len(indices) if indices else 0.0}

    def select(label: str, kind: str | None = None, source: str | None = None) -> list[int]:
        return [
            i
            for i, row in enumerate(rows)
            if row["label"] == label
            and (kind is None or row.get("benign_kind") == kind)
            and (source is None or row["source"] == source)
        ]

    out: dict[str, Any] = {
        "recall": rate(select("secret")),
        "recall_not_synthesized": rate([i for i in select("secret") if not rows[i].get("synthesized")]),
        "fp_plain": rate(select("benign", "plain")),
        "fp_near_miss": rate(select("benign", "near_miss")),
    }
    for source in SOURCES:
        out[f"recall[{source}]"] = rate(select("secret", source=source))
        out[f"fp_plain[{source}]"] = rate(select("benign", "plain", source))
    return out


def map_like_strings(n: int, seed: int = 7) -> list[str]:
    """n distinct strings shaped like what survives in a redacted map."""
    rng = random.Random(seed)
    hexd = "0123456789abcdef"
    words = ["src", "lib", "tests", "api", "orders", "components", "utils", "README.md", "index.ts",
             "main.py", "docs", "config", "server", "client", "models", "views", "handlers"]
    fixed = ["claude-sonnet-4-5", "gpt-5-codex", "github.com", "git log", "npm run", "pytest",
             "gh pr view", "Explore", "acme/api", "PostToolUse:Bash", "mcp__github__get_issue",
             "relative", "dirs_only", "hashed", "tool", "exec", "edit", "read", "outside-repo"]

    def hx(k: int) -> str:
        return "".join(rng.choice(hexd) for _ in range(k))

    makers: list[Callable[[], str]] = [
        lambda: "h:" + hx(12),
        lambda: "/".join(hx(10) for _ in range(rng.randint(1, 5))),
        lambda: "/".join(rng.choice(words) for _ in range(rng.randint(1, 4))) + "/\u2022" + hx(6),
        lambda: "/".join(rng.choice(words) for _ in range(rng.randint(1, 5))),
        lambda: "sa-" + hx(12),
        lambda: f"local:claude-code:{hx(8)}-{hx(4)}-{hx(4)}-{hx(4)}-{hx(12)}",
        lambda: hx(40),
        lambda: f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:"
        f"{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}.{rng.randint(0, 999):03d}Z",
        lambda: rng.choice(fixed) + "-" + "".join(rng.choice(string.ascii_lowercase) for _ in range(6)),
        lambda: "<script:" + hx(10) + ">",
    ]
    out: set[str] = set()
    while len(out) < n:
        out.add(rng.choice(makers)())
    return sorted(out)


def corpus_strings() -> list[str]:
    """Distinct keys and string values of ../shared/corpus logs of at most 200 characters, one line."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                found.add(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for path in sorted(CORPUS.glob("claude-code/*")) + sorted(CORPUS.glob("codex/*")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            if line.strip():
                try:
                    walk(json.loads(line))
                except ValueError:
                    continue
    return sorted(s for s in found if len(s) <= 200 and "\n" not in s)


def fmt(r: dict[str, Any]) -> str:
    return f"{r['rate']:.3f} ({r['hits']}/{r['n']})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timing runs per side (median reported)")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument(
        "--one-file",
        action="store_true",
        help="also time detect-secrets on all rows joined into one file (speed only: no per-row figures)",
    )
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(f"skipped: {args.data} is not present")
        return 0
    rows = [json.loads(line) for line in args.data.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows += documented_rows()
    texts = [row["text"] for row in rows]
    lines = sum(text.count("\n") + 1 for text in texts)
    megabytes = sum(len(text.encode()) for text in texts) / 1e6

    with no_network(), tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, text in enumerate(texts):
            path = Path(tmp) / f"row{i}.txt"
            path.write_text(text, encoding="utf-8")
            paths.append(str(path))
        joined = Path(tmp) / "all-rows.txt"
        joined.write_text("\n".join(texts), encoding="utf-8")
        sides: list[Callable[[], Any]] = [lambda: ours(texts), lambda: detect_secrets_file_scan(paths)]
        if args.one_file:
            sides.append(lambda: detect_secrets_file_scan([str(joined)]))
        with detect_secrets_reference():  # ours never reads detect-secrets' settings: no effect on it
            measured = interleaved(sides, args.runs)
        (found_ours, t_ours), (found_ds, t_ds) = measured[:2]
        c_ours, c_ds = CPU[id(sides[0])], CPU[id(sides[1])]
        t_one = measured[2][1] if args.one_file else 0.0
        maps = map_like_strings(20_000)
        map_hits, t_maps = timed(lambda: find_secrets(maps), args.runs)
        corpus = corpus_strings() if CORPUS.is_dir() else []
        corpus_hits, t_corpus = timed(lambda: find_secrets(corpus), args.runs) if corpus else ([], 0.0)

    r_ours, r_ds = rates(rows, found_ours), rates(rows, found_ds)
    print(f"# Secrets layer benchmark ({len(rows)} rows, {lines} lines, {megabytes:.2f} MB; "
          f"median of {args.runs} runs)\n")
    print("| measure | agentplay-redact secrets layer | detect-secrets 1.5.0 file scan |")
    print("|---|---|---|")
    for key in r_ours:
        print(f"| {key} | {fmt(r_ours[key])} | {fmt(r_ds[key])} |")
    print(f"| time (s) | {t_ours:.2f} | {t_ds:.2f} |")
    print(f"| CPU time of this process (s) | {c_ours:.2f} | {c_ds:.2f} |")
    print(f"| rows/s | {len(rows) / t_ours:,.0f} | {len(rows) / t_ds:,.0f} |")
    print(f"| lines/s | {lines / t_ours:,.0f} | {lines / t_ds:,.0f} |")
    print(f"| speed ratio | {t_ds / t_ours:.1f}x | 1.0x |")
    print(f"| speed ratio, CPU time | {c_ds / c_ours:.1f}x | 1.0x |")
    print()
    if t_one:
        print(f"detect-secrets on all rows joined into one file: {t_one:.2f} s, {lines / t_one:,.0f} lines/s "
              f"(speed ratio to ours: {t_one / t_ours:.1f}x).")
    print(f"Map-like strings: {len(maps):,} distinct in {t_maps * 1000:.0f} ms "
          f"({len(maps) / t_maps:,.0f} strings/s), {len(map_hits)} hits.")
    if corpus:
        rules = Counter(hit.rule for hit in corpus_hits)
        print(f"Corpus strings (../shared/corpus, keys and values <= 200 chars, one line): {len(corpus):,} "
              f"distinct in {t_corpus * 1000:.0f} ms ({len(corpus) / t_corpus:,.0f} strings/s), "
              f"{len({h.index for h in corpus_hits})} flagged: {dict(rules)}.")
    if args.json:
        seconds = {"ours": t_ours, "ds": t_ds, "ds_one_file": t_one, "maps": t_maps, "corpus": t_corpus,
                   "ours_cpu": c_ours, "ds_cpu": c_ds}
        print(json.dumps({"ours": r_ours, "detect_secrets": r_ds, "seconds": seconds}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
