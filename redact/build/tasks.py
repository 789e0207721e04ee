"""Tasks with source "turns": one task per user turn of the main agent (seed 000, "tasks").

Task n starts at the n-th user event of the main lane and runs to the event before the next one;
events before the first turn (start-up hooks, a resumed session's first replies) belong to task 1.
Every event, in any lane, carries the number of the task in progress when it happened. Tasks carry
no names: names would be text.
"""
from __future__ import annotations

from typing import Any

from redact.build.events import Ev, num


def assign_tasks(events: list[Ev]) -> list[dict[str, Any]]:
    """`events` in final order with seq set. Sets `ev.task` and returns the tasks block."""
    starts = [ev.seq for ev in events if ev.kind == "user" and ev.agent == "main"]
    if not starts:
        return []
    starts[0] = 0
    tasks: list[dict[str, Any]] = []
    for n, start in enumerate(starts, 1):
        end = starts[n] - 1 if n < len(starts) else len(events) - 1
        for ev in events[start:end + 1]:
            ev.task = n
        tasks.append({
            "n": n, "id": f"t{n}", "source": "turns", "startSeq": start, "endSeq": end,
            "startT": num(events[start].t), "endT": num(events[end].t), "firstTurn": n - 1, "lastTurn": n - 1,
        })
    return tasks
