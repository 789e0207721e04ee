"""Session-wide counters (`totals`) and per-lane counters (`agents[]`), from all events.

Totals always count the whole session, also when `events` is truncated (seed 000, `truncated`).
`calls` counts tool-like events (read, search, edit, exec, verify, mcp, skill, subagent, web, tool):
the seed excludes llm, user, compaction, error and delay events, and the output events (commit,
pr_*, ticket, skill_write, model_switch) are not calls either.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from redact.build.events import Ev, is_call, num


def percentile(values: Sequence[float], p: float) -> float | None:
    """Nearest-rank percentile of `values` (None when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def tokens_of(ev: Ev) -> int:
    f = ev.f
    return int(f.get("in", 0)) + int(f.get("cw", 0)) + int(f.get("cr", 0)) + int(f.get("out", 0))


def error_source(ev: Ev) -> str:
    if ev.kind == "error":
        return str(ev.f.get("source") or "orchestration")
    return "mcp" if ev.kind == "mcp" else "tool"


def lane_counters(events: Iterable[Ev]) -> dict[str, Any]:
    calls = requests = errors = tokens = 0
    cost = 0.0
    start: float | None = None
    end: float | None = None
    for ev in events:
        start = ev.t if start is None else min(start, ev.t)
        last = ev.t + (ev.dur or 0.0) if ev.kind != "delay" else ev.t
        end = last if end is None else max(end, last)
        if is_call(ev):
            calls += 1
        elif ev.kind == "llm":
            requests += 1
            tokens += tokens_of(ev)
            cost += float(ev.f.get("cost", 0.0))
        if ev.err:
            errors += 1
    return {"start": num(start or 0.0), "end": num(end or 0.0), "calls": calls,
            "requests": requests, "errors": errors, "tokens": tokens, "cost": round(cost, 6)}


def totals(events: Sequence[Ev], *, subagents: int, tasks: int, files: dict[str, dict[str, Any]],
           prs_created: int, main_agent: str = "main") -> dict[str, Any]:
    kinds: Counter[str] = Counter()
    by_source: Counter[str] = Counter()
    by_class: Counter[str] = Counter()
    latencies: list[float] = []
    tokens = out_tokens = max_context = 0
    cost = 0.0
    retries = 0
    delay_ms = 0.0
    prompt_chars = prompt_images = prompt_urls = 0
    calls = errors = 0
    for ev in events:
        kinds[ev.kind] += 1
        if is_call(ev):
            calls += 1
        if ev.err:
            errors += 1
            by_source[error_source(ev)] += 1
            by_class[ev.err_class or "other"] += 1
        if "retryOf" in ev.refs:
            retries += 1
        f = ev.f
        if ev.kind == "llm":
            tokens += tokens_of(ev)
            out_tokens += int(f.get("out", 0))
            cost += float(f.get("cost", 0.0))
            if "latency" in f:
                latencies.append(float(f["latency"]))
            if ev.agent == main_agent:
                context = int(f.get("in", 0)) + int(f.get("cw", 0)) + int(f.get("cr", 0))
                max_context = max(max_context, context)
        elif ev.kind == "user":
            prompt_chars += int(f.get("chars", 0))
            prompt_images += int(f.get("images", 0))
            prompt_urls += int(f.get("urls", 0))
        elif ev.kind == "delay":
            delay_ms += float(f.get("ms", 0.0))
        elif ev.kind == "ticket":
            kinds["ticket:" + str(f.get("action"))] += 1
        elif ev.kind == "skill_write":
            kinds["skill_write:" + str(f.get("action"))] += 1
    p50 = percentile(latencies, 50)
    p95 = percentile(latencies, 95)
    out: dict[str, Any] = {
        "calls": calls,
        "requests": kinds["llm"],
        "userTurns": kinds["user"],
        "subagents": subagents,
        "errors": errors,
        "tokens": tokens,
        "costUsd": round(cost, 6),
        "filesTouched": sum(1 for f in files.values() if f["reads"] or f["edits"]),
        "filesCreated": sum(1 for f in files.values() if f.get("created")),
        "filesDeleted": sum(1 for f in files.values() if f.get("op") == "delete"),
        "errorsBySource": dict(sorted(by_source.items())),
        "errorsByClass": dict(sorted(by_class.items())),
        "retries": retries,
        "delays": kinds["delay"],
        "delayMs": num(delay_ms),
        "maxContext": max_context,
        "compactions": kinds["compaction"],
        "outputTokens": out_tokens,
        "tasks": tasks,
        "prsCreated": prs_created,
        "prsMerged": kinds["pr_merge"],
        "prsClosed": kinds["pr_close"],
        "prComments": kinds["pr_comment"],
        "commits": kinds["commit"],
        "ticketsCreated": kinds["ticket:create"],
        "ticketsUpdated": kinds["ticket:update"],
        "artifacts": kinds["artifact"],
        "skillsCreated": kinds["skill_write:create"],
        "skillsUpdated": kinds["skill_write:update"],
        "modelSwitches": kinds["model_switch"],
        "promptChars": prompt_chars,
        "promptImages": prompt_images,
        "promptUrls": prompt_urls,
    }
    if p50 is not None:
        out["llmLatencyP50"] = num(p50)
    if p95 is not None:
        out["llmLatencyP95"] = num(p95)
    return out
