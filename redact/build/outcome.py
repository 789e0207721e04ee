"""Outcome rules (seed 000, "Outcomes"): the first rule that matches wins.

1. pr_created: a confirmed PR or MR creation in the lane.
2. interrupted: an `interrupted` error in the last 12 events.
3. blocked: a `blocked` or `permission_denied` error in the last 12 events.
4. verified: the last verify event succeeded, with no edit after it.
5. unresolved_errors: 2 or more errors in the last 12 events.
6. incomplete: the lane ends on an edit or exec with no assistant text after it.
7. completed: none of the above.

"Events" here are the lane's own events, without the builder's derived delay and model_switch
events (they say nothing about how the work ended).
"""
from __future__ import annotations

from collections.abc import Sequence

from redact.build.events import Ev, is_call

TAIL = 12
_DERIVED = frozenset({"delay", "model_switch"})


def outcome(lane_events: Sequence[Ev], pr_created: bool) -> str:
    if pr_created:
        return "pr_created"
    own = [ev for ev in lane_events if ev.kind not in _DERIVED]
    tail = own[-TAIL:]
    if any(ev.err and ev.err_class == "interrupted" for ev in tail):
        return "interrupted"
    if any(ev.err and ev.err_class in ("blocked", "permission_denied") for ev in tail):
        return "blocked"
    last_verify = None
    for i in range(len(own) - 1, -1, -1):
        if own[i].kind == "verify":
            last_verify = i
            break
    if last_verify is not None and not own[last_verify].err:
        if not any(ev.kind == "edit" for ev in own[last_verify + 1:]):
            return "verified"
    if sum(1 for ev in tail if ev.err) >= 2:
        return "unresolved_errors"
    last_call = None
    for i in range(len(own) - 1, -1, -1):
        if is_call(own[i]):
            last_call = i
            break
    if last_call is not None and own[last_call].kind in ("edit", "exec", "verify"):
        if not any(ev.kind == "llm" and ev.f.get("textChars", 0) > 0 for ev in own[last_call + 1:]):
            return "incomplete"
    return "completed"
