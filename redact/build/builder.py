"""The map builder: `SessionFacts` -> an agentplay/v1 map (a dict), for every raw format.

The map it returns is *raw* in one sense only: identifiers (model, MCP server, host, repo...) are as
the log spelled them, and `redact.apply.walk.redact_map` scrubs them under the policy afterwards. It is
already safe in every other sense: no text (facts hold none), paths repo-relative or bucket labels
(`pathMode` "relative"), shell commands reduced to verbs. Steps:

facts -> events (events.py) -> sort by time -> retries and delays (signals.py) -> seq -> files ->
tasks (tasks.py) -> lanes and outcomes (outcome.py) -> PRs -> totals (totals.py) -> truncation.
"""
from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone
from functools import cache
from typing import Any

from redact.build.events import Ev, EventMaker, Hasher, num
from redact.build.facts import PrAction, SessionFacts
from redact.build.outcome import outcome
from redact.build.signals import delays, mark_retries
from redact.build.tasks import assign_tasks
from redact.build.totals import lane_counters, totals

EVENT_CAP = 20_000
SYNTHETIC_MODELS = frozenset({"<synthetic>"})


@cache  # the installed version does not change in a process
def producer_version() -> str:
    from redact.io.version import installed_version

    return installed_version() or "0.0.0"  # pragma: no branch - "0.0.0": not installed


def iso(ms: float) -> str:
    dt = datetime.fromtimestamp(ms / 1000.0, tz=timezone.utc)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def build_map(session: SessionFacts, *, hasher: Hasher | None = None, cap: int = EVENT_CAP,
              vocab: Any = None) -> dict[str, Any]:
    """The map of `session` (see the module docstring). `hasher` names programs outside the verb
    vocabulary under hashed mode; `cap` is the most events kept (totals count them all); `vocab` is
    a policy's extended verb vocabulary (None: the shipped one)."""
    maker = EventMaker(session, hasher, vocab)
    events = maker.run()
    events.sort(key=lambda ev: ev.key)
    mark_retries(events)
    events.extend(delays(events))
    events.sort(key=lambda ev: ev.key)
    start = events[0].t if events else (session.first_seen or 0.0)
    for seq, ev in enumerate(events):
        ev.t -= start
        ev.seq = seq
    files = _files(events, maker.files.where)
    tasks = assign_tasks(events)
    lanes, lane_models = _lanes(session, events)
    present = {lane["id"] for lane in lanes}
    for ev in events:  # a lane with no events has no entry: nothing may point at it
        if ev.kind == "subagent" and ev.f.get("child") not in present:
            ev.f.pop("child", None)
    prs = _prs(maker.prs)
    created = sum(1 for pr in prs if pr["_created"])
    main_events = [ev for ev in events if ev.agent == "main"]
    pr_lanes = {ev.agent for pr, ev in maker.prs if pr.action == "create"}
    models = _models(events)
    for ev in events:  # a subagent event names the model its lane really used
        if ev.kind == "subagent" and ev.f.get("child") in lane_models:
            ev.model = lane_models[ev.f["child"]]
    tot = totals(events, subagents=sum(1 for a in lanes if a.get("kind") == "subagent"),
                 tasks=len(tasks), files=files, prs_created=created)
    session_outcome = outcome(main_events, bool(pr_lanes))
    for lane in lanes:
        lane_events = [ev for ev in events if ev.agent == lane["id"]]
        lane["outcome"] = outcome(lane_events, lane["id"] in pr_lanes)
    truncated = len(events) > cap
    kept = events[:cap]
    return _assemble(session, kept, truncated, start, files, tasks, lanes, prs, tot, models,
                     session_outcome, events)


def event_end(ev: Ev) -> float:
    """When an event ends: its start plus its own duration (a tool call's `dur`, a model response's
    latency). A delay only restates another event's time, so it ends where it starts."""
    if ev.kind == "delay" or ev.dur is None or ev.dur <= 0:
        return ev.t
    return ev.t + ev.dur


def _models(events: list[Ev]) -> list[str]:
    seen: dict[str, None] = {}
    for ev in events:
        if ev.kind == "llm" and ev.model and ev.model not in SYNTHETIC_MODELS:
            seen.setdefault(ev.model, None)
    return list(seen)


def _files(events: list[Ev], where: dict[str, tuple[str, str]]) -> dict[str, dict[str, Any]]:
    """Repo files in order of first touch; the event order is final, so ids are stable. `where`
    gives each place's repository and repo-relative path (`redact.build.filetable.FileTable.where`)."""
    files: dict[str, dict[str, Any]] = {}
    for ev in events:
        for place, touch, op in ev.targets:
            if place.startswith("@"):
                continue
            entry = files.get(place)
            if entry is None:
                repo, path = where.get(place, ("r0", place))
                entry = files[place] = {"id": len(files), "repo": repo, "path": path, "reads": 0,
                                        "edits": 0, "hits": 0, "first": ev.seq}
            entry[{"read": "reads", "edit": "edits", "hit": "hits"}[touch]] += 1
            if op is not None:
                entry["op"] = op
                if op == "create":
                    entry["created"] = True
    return files


def _lanes(session: SessionFacts, events: list[Ev]) -> tuple[list[dict[str, Any]], dict[str, str]]:
    by_lane: dict[str, list[Ev]] = {}
    for ev in events:
        by_lane.setdefault(ev.agent, []).append(ev)
    launch: dict[str, int] = {}
    for ev in events:
        if ev.kind == "subagent" and ev.f.get("child"):
            launch.setdefault(ev.f["child"], ev.seq)
    calls = {ev.call_id: ev for ev in events if ev.call_id}
    lane_models: dict[str, str] = {}
    out: list[dict[str, Any]] = []
    for lane in session.lanes.values():
        evs = by_lane.get(lane.id)
        if not evs and lane.id != "main":
            continue
        counters = lane_counters(evs or [])
        entry: dict[str, Any] = {"id": lane.id, "parent": None if lane.id == "main" else "main",
                                 "kind": lane.kind}
        if lane.id != "main":
            models = Counter(ev.model for ev in evs or [] if ev.kind == "llm" and ev.model
                             and ev.model not in SYNTHETIC_MODELS)
            launcher = calls.get(lane.launch_call) if lane.launch_call else None
            subagent_type = lane.subagent_type or (launcher.f.get("subagentType") if launcher else None)
            if subagent_type:
                entry["subagentType"] = subagent_type
            if models:
                entry["model"] = lane_models[lane.id] = models.most_common(1)[0][0]
            seq = launch.get(lane.id)
            if seq is None and launcher is not None and launcher.kind == "subagent":
                seq = launcher.seq
            if seq is not None:
                entry["launchSeq"] = seq
        entry.update(counters)
        out.append(entry)
    return out, lane_models


def _prs(found: list[tuple[PrAction, Ev]]) -> list[dict[str, Any]]:
    prs: list[dict[str, Any]] = []
    for pr, ev in found:
        if pr.action == "create":
            entry: dict[str, Any] = {"provider": pr.provider}
            if pr.repo:
                entry["repo"] = pr.repo
            if pr.number is not None:
                entry["number"] = pr.number
            if pr.url:
                entry["url"] = pr.url
            entry.update({"seq": ev.seq, "state": "open", "_created": True})
            prs.append(entry)
            continue
        state = {"merge": "merged", "close": "closed"}.get(pr.action)
        if state is None:
            continue
        for entry in prs:
            if entry.get("number") == pr.number and (pr.repo is None or entry.get("repo") == pr.repo):
                entry["state"] = state
    return prs


_FIELD_ORDER = ("seq", "t", "kind", "agent", "err", "task", "model", "cat")


def _event_dict(ev: Ev, cap: int) -> dict[str, Any]:
    out: dict[str, Any] = {"seq": ev.seq, "t": num(ev.t), "kind": ev.kind, "agent": ev.agent}
    if ev.err:
        out["err"] = True
    if ev.task is not None:
        out["task"] = ev.task
    if ev.model and ev.kind != "user":
        out["model"] = ev.model
    f = ev.f
    if "cat" in f:
        out["cat"] = f["cat"]
    for name, value in f.items():
        if name != "cat":
            out[name] = value
    if ev.err and ev.kind != "error" and ev.err_class:
        out["errClass"] = ev.err_class
    if ev.targets:
        out["targets"] = [_target(place, touch, op) for place, touch, op in ev.targets]
    for name, ref in ev.refs.items():
        if 0 <= ref.seq < cap:
            out[name] = ref.seq
    if ev.attempt is not None and "retryOf" in out:
        out["attempt"] = ev.attempt
    return out


def _target(place: str, touch: str, op: str | None) -> dict[str, Any]:
    out: dict[str, Any]
    if place.startswith("@"):
        out = {"scope": "outside", "label": place[1:], "touch": touch}
    else:
        out = {"file": place, "touch": touch}
    if op is not None:
        out["op"] = op
    return out


def _assemble(session: SessionFacts, kept: list[Ev], truncated: bool, start: float,
              files: dict[str, dict[str, Any]], tasks: list[dict[str, Any]], lanes: list[dict[str, Any]],
              prs: list[dict[str, Any]], tot: dict[str, Any], models: list[str], session_outcome: str,
              all_events: list[Ev]) -> dict[str, Any]:
    cap = len(kept)
    end = max((event_end(ev) for ev in all_events), default=0.0)
    if all_events and session.last_seen is not None:
        end = max(end, session.last_seen - start)  # the last record's time: the last request's end
    sess: dict[str, Any] = {
        "id": f"local:{session.agent_tool}:{session.native_id}",
        "agentTool": session.agent_tool,
        "cliVersion": producer_version(),
        "startedAt": iso(start),
        "durationMs": num(end),
        "models": models,
        "pathMode": "relative",
        "truncated": truncated,
        "outcome": session_outcome,
        "role": session.role,
        "parentSessionId": (f"local:{session.agent_tool}:{session.parent_native_id}"
                            if session.parent_native_id else None),
    }
    events = [_event_dict(ev, cap) for ev in kept]
    ids = {place: entry["id"] for place, entry in files.items()}
    for ev in events:
        for target in ev.get("targets", ()):
            if "file" in target:
                target["file"] = ids[target["file"]]
    file_list = []
    for entry in files.values():
        if entry["first"] >= cap:
            continue  # first touched after the cap: ids of later files are all larger
        file_list.append({k: v for k, v in entry.items() if k != "created"})
    for task in tasks:
        task["endSeq"] = min(task["endSeq"], cap - 1)
    tasks = [t for t in tasks if t["startSeq"] < cap]
    for lane in lanes:
        if lane.get("launchSeq") is not None and lane["launchSeq"] >= cap:
            del lane["launchSeq"]
        for name in ("start", "end"):
            lane[name] = num(lane[name])
    for pr in prs:
        pr.pop("_created", None)
        if pr["seq"] >= cap:
            del pr["seq"]
    out: dict[str, Any] = {"schema": "agentplay/v1", "session": sess, "totals": tot}
    if session.roots or session.rootless_repo:
        repos: list[dict[str, Any]] = []
        for n, (repo_name, remote) in enumerate([(session.repo_name, session.remote)] +
                                                [(r.name, r.remote) for r in session.more_repos]):
            repo: dict[str, Any] = {"id": f"r{n}"}
            if repo_name:
                repo["name"] = repo_name
            if remote:
                repo["remote"] = remote
            repos.append(repo)
        out["repos"] = repos
    out["files"] = file_list
    out["agents"] = lanes
    if tasks:
        out["tasks"] = tasks
    out["prs"] = prs
    out["events"] = events
    return out


__all__ = ["EVENT_CAP", "build_map"]
