"""The map side of the fidelity tests of issue 25 (test_{copilot_vscode,cline,aider,gemini_cli}_fidelity.py),
and the agreement table they print.

Each of those tests counts, with a small parser of its own written from the raw log (sharing no code
with the format's reader), what a corpus session holds; `map_counts` counts the same quantities in
the session's map, from its events and totals only. The two must agree on every field of `Counts`.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import astuple, dataclass, field, fields
from datetime import UTC, datetime
from typing import Any

CALL_KINDS = ("read", "search", "edit", "exec", "verify", "mcp", "skill", "subagent", "web", "tool")


@dataclass
class Counts:
    turns: int = 0  # user prompts
    requests: int = 0  # model responses
    tokens: int = 0  # input + cache write + cache read + output
    calls: int = 0  # tool calls
    by_tool: dict[str, int] = field(default_factory=dict)  # tool calls by name (MCP: server/tool; web: <web>)
    shell: int = 0  # shell commands
    reads: int = 0  # file reads naming a file
    edits: int = 0  # file edits naming a file
    creates: int = 0  # of those, files created
    mcp: int = 0  # MCP calls
    subagents: int = 0
    errors: int = 0  # failed calls and error events the log shows
    start: str = ""  # the first time the log records, ISO 8601 to the millisecond ("" when none)
    duration: int = 0  # ms from it to the last time the log records
    models: tuple[str, ...] = ()  # the models, sorted
    order: tuple[str, ...] = ()  # the kind of each tool call in order: shell, read, edit, search, mcp, web, other


FIELDS = tuple(f.name for f in fields(Counts))


def iso(ms: float | None) -> str:
    if ms is None:
        return ""
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{int(ms) % 1000:03d}Z"


def map_counts(m: dict[str, Any], shell_tools: tuple[str, ...]) -> Counts:
    """The quantities of `Counts` in a map; `shell_tools`: the format's shell tool names (a shell
    line that only reads is a read or search event of that tool, one that tests a verify event)."""
    evs = m["events"]
    calls = [e for e in evs if e["kind"] in CALL_KINDS]
    tot = m["totals"]
    c = Counts(turns=tot["userTurns"], requests=tot["requests"], tokens=tot["tokens"], calls=tot["calls"],
               subagents=tot["subagents"], models=tuple(sorted(m["session"]["models"])))
    by_tool: Counter[str] = Counter()
    order = []
    for e in calls:
        shell = e.get("tool") in shell_tools and "verb" in e
        # a web event names its host, not its tool: both sides count it as <web>; a subagent or a
        # skill event names what it ran, not the tool that ran it: <subagent>, <skill>
        name = f"{e.get('server')}/{e.get('tool')}" if e["kind"] == "mcp" else \
            f"<{e['kind']}>" if e["kind"] in ("web", "subagent", "skill") else str(e.get("tool"))
        by_tool[name] += 1
        if shell:
            c.shell += 1
            order.append("shell")
        else:
            order.append({"read": "read", "edit": "edit", "search": "search", "mcp": "mcp",
                          "web": "web"}.get(e["kind"], "other"))
        if e["kind"] == "mcp":
            c.mcp += 1
        for t in e.get("targets", ()) if not shell else ():
            if t["touch"] == "read":
                c.reads += 1
            elif t["touch"] == "edit":
                c.edits += 1
                c.creates += t.get("op") == "create"
    c.by_tool = dict(sorted(by_tool.items()))
    c.order = tuple(order)
    # a call with no result at all is the map's own finding (no_result), not a failure the log shows
    c.errors = sum(1 for e in calls if e.get("err") and e.get("errClass") != "no_result") + \
        sum(1 for e in evs if e["kind"] == "error")
    # a session that records no time starts at the epoch, a stand-in its report names: no start
    c.start = "" if m["session"]["startedAt"] == "1970-01-01T00:00:00.000Z" else m["session"]["startedAt"]
    c.duration = round(m["session"]["durationMs"])  # a source timed to the microsecond: to the ms
    return c


def differences(source: Counts, produced: Counts) -> dict[str, tuple[Any, Any]]:
    return {name: (a, b) for name, a, b in zip(FIELDS, astuple(source), astuple(produced)) if a != b}


def table(rows: list[tuple[str, Counts, Counts]]) -> str:
    """The agreement per client version: rows of (version, source counts, map counts)."""
    by_version: dict[str, list[int]] = {}
    for version, source, produced in rows:
        agg = by_version.setdefault(version, [0, 0, 0])
        agg[0] += 1
        agg[1] += len(FIELDS) - len(differences(source, produced))
        agg[2] += len(FIELDS)
    lines = ["| client version | sessions | counts agreeing |", "|---|---|---|"]
    for version, (n, agree, total) in sorted(by_version.items()):
        lines.append(f"| {version} | {n} | {agree}/{total} ({100 * agree / total:.1f}%) |")
    return "\n".join(lines)
