"""Time the leak scanner on a 20,000-event output map, alone and against a 100 MB source log.

Run: .venv/bin/python bench/bench_scanner.py [--events 20000] [--source-mb 100] [--runs 5]

The map is `bench/gen_map.py`'s, redacted under `internal` (a real redactor output, with a
contentHash). The source is a synthetic Claude Code transcript (JSONL) generated once into /tmp
(`--dir`): prompts, replies, reasoning, tool calls, file contents and command output, mentioning the
map's paths, repository and models the way a real log does, plus many distinct identifiers so that
the token set is large. Nothing is written into the repository.

Figures: median of `--runs` runs for each case, next to a bare `orjson.loads` of every source line
timed in the same run (the machine is shared and noisy: the ratio is the stable figure).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_map import generate_map

from audit.scan import scan_map
from redact.api import redact_bytes

WORDS = ["the", "customer", "asked", "for", "refunds", "rounding", "bug", "order", "service", "invoice", "total", "amount", "we", "should", "fix", "check", "test", "run", "build", "deploy", "update", "config", "because", "when", "after", "before", "this", "that", "with", "from", "into", "please", "make", "sure", "value", "field", "error", "warning", "request", "response", "handler", "database", "migration", "schema", "query", "cache", "retry", "timeout", "limit", "token", "session", "user", "account", "payment", "currency", "decimal", "precision", "report", "quarterly", "globex", "initech", "umbrella", "hooli"]


def _ident(rnd: random.Random) -> str:
    return "_".join(rnd.choice(WORDS) for _ in range(rnd.randint(2, 4))) + str(rnd.randint(0, 99999))


def _sentence(rnd: random.Random) -> str:
    return " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(6, 18))).capitalize() + "."


def _code(rnd: random.Random, lines: int) -> str:
    out = []
    for _ in range(lines):
        name = _ident(rnd)
        out.append(rnd.choice((
            f"def {name}(self, {rnd.choice(WORDS)}_{rnd.choice(WORDS)}):",
            f"    return {name}.{rnd.choice(WORDS)}({rnd.randint(0, 999)})",
            f"    # {_sentence(rnd)}",
            f"{name} = compute_{rnd.choice(WORDS)}(order_id={rnd.randint(0, 10**9)})",
            f"import {rnd.choice(WORDS)}.{name}",
        )))
    return "\n".join(out)


def make_source(path: Path, target_mb: int, paths: list[str], seed: int = 3) -> None:
    """Write a synthetic Claude Code JSONL transcript of about `target_mb` MB to `path`."""
    rnd = random.Random(seed)
    home = "/Users/alice/src/orders-api"
    size, n = 0, 0
    target = target_mb * 1_000_000
    with path.open("wb") as fh:
        while size < target:
            n += 1
            base = {"sessionId": "0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90", "cwd": home, "version": "2.1.3",
                    "gitBranch": "fix/refund-rounding", "userType": "external",
                    "timestamp": f"2026-11-20T09:{n % 60:02d}:{n % 59:02d}.000Z"}
            rel = rnd.choice(paths)
            recs: list[dict[str, Any]] = [
                {**base, "type": "user", "uuid": f"{n:08x}-0000-4000-8000-000000000001",
                 "message": {"role": "user", "content": " ".join(_sentence(rnd) for _ in range(rnd.randint(1, 6)))
                             + f" See {rel} in orders-api."}},
                {**base, "type": "assistant", "uuid": f"{n:08x}-0000-4000-8000-000000000002",
                 "message": {"model": "claude-sonnet-4-5-20250929", "role": "assistant", "content": [
                     {"type": "thinking", "thinking": " ".join(_sentence(rnd) for _ in range(4)),
                      "signature": "E" + "".join(rnd.choices("ABCDEFGHabcdefgh0123456789+/", k=600))},
                     {"type": "text", "text": _sentence(rnd) + f" I will edit {home}/{rel} now."},
                     {"type": "tool_use", "id": f"toolu_{n:020d}", "name": rnd.choice(("Bash", "Read", "Edit")),
                      "input": {"command": f"git commit -m \"{_sentence(rnd)}\" && pytest {rel}",
                                "file_path": f"{home}/{rel}", "description": _sentence(rnd)}}]}},
                {**base, "type": "user", "uuid": f"{n:08x}-0000-4000-8000-000000000003",
                 "message": {"role": "user", "content": [
                     {"type": "tool_result", "tool_use_id": f"toolu_{n:020d}", "content": _code(rnd, 30)}]},
                 "toolUseResult": {"stdout": _code(rnd, 10), "stderr": "",
                                   "file": {"filePath": f"{home}/{rel}", "content": _code(rnd, 25)}}},
            ]
            for rec in recs:
                line = orjson.dumps(rec) + b"\n"
                fh.write(line)
                size += len(line)


def median_time(fn: Any, runs: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(runs):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=20_000)
    ap.add_argument("--source-mb", type=int, default=100)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--dir", default="/tmp/agentplay-bench-scanner")
    args = ap.parse_args()

    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    raw_map = generate_map(args.events)
    out = redact_bytes(orjson.dumps(raw_map), policy="internal").session_map
    paths = [f["path"] for f in out.get("files", [])]
    src_path = folder / f"source-{args.source_mb}mb.jsonl"
    if not src_path.exists():
        make_source(src_path, args.source_mb, paths)
    source = src_path.read_bytes()
    print(f"map: {len(out['events'])} events, {len(orjson.dumps(out)) / 1e6:.1f} MB (internal policy, "
          f"{out['session']['pathMode']} paths); source: {len(source) / 1e6:.0f} MB JSONL")

    def bare_parse() -> int:
        return sum(1 for line in source.split(b"\n") if line and orjson.loads(line) is not None)

    base, _ = median_time(bare_parse, max(1, args.runs // 2))
    t_alone, res = median_time(lambda: scan_map(out), args.runs)
    print(f"1. scan, no source (grammar, secrets, language; contentHash recomputed): {t_alone * 1000:7.1f} ms"
          f"  verdicts {res.verdicts}")
    no_hash = {k: v for k, v in out.items() if k != "contentHash"}
    t_nohash, _ = median_time(lambda: scan_map(no_hash), args.runs)
    print(f"   the same map without a contentHash to check:                         {t_nohash * 1000:7.1f} ms")
    print(f"baseline: orjson.loads of every source line: {base:5.2f} s")

    def with_source(doc: dict[str, Any], label: str) -> None:
        t, r = median_time(lambda: scan_map(doc, source=source, source_format="claude-code"),
                           max(1, args.runs // 2))
        print(f"{label}: {t:5.2f} s ({t / base:4.1f}x baseline); taint {r.verdicts['taint']}, "
              f"{r.taint_patterns} patterns, {r.taint_searched} output strings searched, "
              f"{r.taint_source_strings} source strings walked, {len(r.by_layer('taint'))} taint findings")

    with_source(out, "2. clean map + source (nothing left open: the source is not read)")
    rnd = random.Random(11)
    out = no_hash  # the variants below are edited maps: no stale contentHash to report as well
    unseen = dict(out, session=dict(out["session"], note="zq unrelated words about nothing in particular",
                                    extra="quux_frobnicator_9999"))
    with_source(unseen, "3. map with 2 rejected strings absent from the source (full raw pass, no hit)")
    line = source[: source.index(b"\n")]
    said = orjson.loads(line)["message"]["content"]
    leaky = dict(out, session=dict(out["session"], note=said[:80], extra=_ident(rnd)))
    with_source(leaky, "4. map with a sentence copied from the source (hit, attribution)")
    many = dict(out)
    many["session"] = dict(out["session"], **{f"n{i}": " ".join(rnd.choice(WORDS) for _ in range(8))
                                             for i in range(200)})
    with_source(many, "5. map with 200 rejected 8-word strings of the source's vocabulary")


if __name__ == "__main__":
    main()
