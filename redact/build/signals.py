"""Failure and timing signals derived from the ordered events (seed 000, "Signals").

- retries: a call repeating a failed call of the same agent (same tool, verb or server, and first
  target) within that agent's last 8 calls gets `retryOf` (the failed attempt) and `attempt` >= 2;
- delays: a tool call of 30 s or more (cause `tool`, or `subagent` for a subagent call), model
  latency of 60 s or more (cause `llm`), and a stall: the main agent idle for 120 s or more while
  not waiting on the user (cause `stall`).
"""
from __future__ import annotations

from collections import deque

from redact.build.events import Ev, is_call, num

RETRY_WINDOW = 8
TOOL_DELAY_MS = 30_000
LLM_DELAY_MS = 60_000
STALL_MS = 120_000
_WAITING_STOPS = frozenset({"end_turn", "max_tokens", "stop_sequence", "refusal"})


def mark_retries(events: list[Ev]) -> None:
    """`events` in final order. Sets `refs['retryOf']` and `attempt`."""
    windows: dict[str, deque[Ev]] = {}
    for ev in events:
        if not is_call(ev):
            continue
        window = windows.setdefault(ev.agent, deque(maxlen=RETRY_WINDOW))
        for prior in reversed(window):
            if prior.sig == ev.sig:  # the latest attempt at the same thing decides
                if prior.err:
                    ev.refs["retryOf"] = prior
                    ev.attempt = (prior.attempt or 1) + 1
                break
        window.append(ev)


def delays(events: list[Ev]) -> list[Ev]:
    """New delay events for `events` in final order (the caller merges and re-sorts)."""
    out: list[Ev] = []
    for ev in events:
        if is_call(ev) and ev.dur is not None and ev.dur >= TOOL_DELAY_MS and not ev.waits_on_user:
            cause = "subagent" if ev.kind == "subagent" else "tool"
            out.append(Ev(ev.t, (ev.key[0], ev.key[1], 9), "delay", ev.agent,
                          {"cause": cause, "ms": num(ev.dur)}, refs={"ref": ev}))
        elif ev.kind == "llm" and ev.dur is not None and ev.dur >= LLM_DELAY_MS:
            out.append(Ev(ev.t, (ev.key[0], ev.key[1], 9), "delay", ev.agent,
                          {"cause": "llm", "ms": num(ev.dur)}, refs={"ref": ev}))
    out.extend(_stalls(events))
    return out


def _stalls(events: list[Ev]) -> list[Ev]:
    out: list[Ev] = []
    busy_until: float | None = None
    last: Ev | None = None
    waiting = False  # the main agent handed the turn back to the user
    for ev in events:
        if ev.agent != "main" or ev.kind in ("delay", "model_switch"):
            continue
        if busy_until is not None and last is not None:
            gap = ev.t - busy_until
            if gap >= STALL_MS and ev.kind != "user" and not waiting:
                out.append(Ev(busy_until, (busy_until, last.key[1], 10), "delay", "main",
                              {"cause": "stall", "ms": num(gap)}))
        end = ev.t + (ev.dur or 0.0)
        busy_until = end if busy_until is None else max(busy_until, end)
        last = ev
        if ev.kind == "llm":
            waiting = ev.f.get("stop") in _WAITING_STOPS and not ev.f.get("toolCalls")
        elif ev.kind == "user":
            waiting = False
        elif ev.kind == "error" and ev.err_class in ("interrupted", "usage_limit", "spend_limit", "auth",
                                                     "hook_blocking"):
            waiting = True
        elif is_call(ev):
            waiting = False
    return out
