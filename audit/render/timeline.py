"""The picture of a session: events over time, one lane per agent, a mark per event coloured by kind.

`build_timeline` reads only `t`, `kind`, `agent`, `err`, `dur` and `seq` of the events and the ids,
kinds, subagent types and start/end of the agents; `timeline_svg` draws it as one inline SVG element
(no script, no external reference). Every string drawn passes through `safety`, and every string
written is XML-escaped.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape
from typing import Any

from audit.render.safety import show_ident, show_name
from redact.model.agentplay import EVENT_MODELS
from redact.names import agent_label

# One colour per kind, by family: file blues, shell greens, model purple, user amber, errors red.
KIND_COLOURS: dict[str, str] = {
    "user": "#e69f00",
    "llm": "#8e6bd8",
    "read": "#3b82c4",
    "search": "#7fb3e6",
    "edit": "#1d4f91",
    "exec": "#2e9e6a",
    "verify": "#8fd19e",
    "mcp": "#c2559e",
    "skill": "#e59ccd",
    "subagent": "#8c5a2b",
    "web": "#17a2b8",
    "tool": "#9aa0a6",
    "error": "#d62728",
    "delay": "#c7c7c7",
    "compaction": "#f2c84b",
    "commit": "#0f766e",
    "pr_merge": "#15803d",
    "pr_close": "#9f1239",
    "pr_comment": "#84cc16",
    "ticket": "#b45309",
    "artifact": "#4338ca",
    "skill_write": "#a21caf",
    "model_switch": "#475569",
    "other": "#111111",
}
assert set(EVENT_MODELS) <= set(KIND_COLOURS)

WIDTH = 1000
GUTTER = 250  # lane labels
LABEL_MAX = 34  # characters of a lane label drawn; the full label is its tooltip
RIGHT = 16
TOP = 30  # axis
LANE_H = 28
MARK_H = 18
MIN_MARK_W = 2.0
TITLES_UP_TO = 5000  # per-mark tooltips; beyond this the page stays light


@dataclass
class Lane:
    agent: str  # as shown
    label: str  # as shown: the id, and the subagent type when there is one
    start: float | None = None
    end: float | None = None
    events: int = 0


@dataclass
class Mark:
    lane: int
    t: float
    dur: float
    kind: str  # a key of KIND_COLOURS
    err: bool
    seq: int


@dataclass
class Timeline:
    lanes: list[Lane] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    span: float = 1.0  # ms
    unplaced: int = 0  # events without a usable `t`

    def kinds(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for m in self.marks:
            counts[m.kind] = counts.get(m.kind, 0) + 1
        return {k: counts[k] for k in KIND_COLOURS if k in counts}

    def summary(self) -> dict[str, Any]:
        return {
            "spanMs": _num(self.span),
            "events": len(self.marks),
            "unplaced": self.unplaced,
            "lanes": [{"agent": ln.agent, "label": ln.label, "events": ln.events} for ln in self.lanes],
        }


def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() else round(x, 3)


def _finite(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) and value >= 0 else None


def _agent_key(value: Any) -> str:
    return agent_label(value)


def build_timeline(session_map: dict[str, Any]) -> Timeline:
    tl = Timeline()
    index: dict[str, int] = {}

    def lane_of(agent: str, info: dict[str, Any] | None = None) -> int:
        if agent in index:
            return index[agent]
        shown = show_name(agent)
        label = shown
        if info is not None and isinstance(info.get("subagentType"), str):
            label = f"{shown} · {show_ident(info['subagentType'])[0]}"
        lane = Lane(shown, label)
        if info is not None:
            lane.start, lane.end = _finite(info.get("start")), _finite(info.get("end"))
        index[agent] = len(tl.lanes)
        tl.lanes.append(lane)
        return index[agent]

    agents = session_map.get("agents")
    for info in agents if isinstance(agents, list) else []:
        if isinstance(info, dict):
            lane_of(_agent_key(info.get("id")), info)
    events = session_map.get("events")
    span = 0.0
    for i, ev in enumerate(events if isinstance(events, list) else []):
        if not isinstance(ev, dict):
            tl.unplaced += 1
            continue
        t = _finite(ev.get("t"))
        if t is None:
            tl.unplaced += 1
            continue
        lane = lane_of(_agent_key(ev.get("agent")))
        kind = ev.get("kind")
        kind = kind if isinstance(kind, str) and kind in EVENT_MODELS else "other"
        dur = _finite(ev.get("dur")) or 0.0
        seq = ev.get("seq")
        tl.marks.append(Mark(lane, t, dur, kind, ev.get("err") is True,
                             seq if isinstance(seq, int) and not isinstance(seq, bool) else i))
        tl.lanes[lane].events += 1
        span = max(span, t + dur)
    if not tl.lanes:
        lane_of("main")
    for one in tl.lanes:
        span = max(span, one.end or 0.0)
    tl.span = span or 1.0
    return tl


def _tick_step(span: float) -> float:
    raw = span / 8
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    for mult in (1, 2, 5, 10):
        if mult * power >= raw:
            return mult * power
    return 10 * power  # pragma: no cover


def format_ms(ms: float) -> str:
    if ms == 0:
        return "0"
    if ms < 1000:
        return f"{ms:g} ms"
    s = ms / 1000
    if s < 60:
        return f"{s:g} s"
    m, s = divmod(round(s), 60)
    if m < 60:
        return f"{m}:{s:02d}"
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}"


def _f(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def timeline_svg(tl: Timeline) -> str:
    """One `<svg>`: an axis, a `<g class="lane">` per agent, a `<rect class="ev ...">` per event."""
    plot_w = WIDTH - GUTTER - RIGHT
    height = TOP + LANE_H * len(tl.lanes) + 8
    scale = plot_w / tl.span
    out = [(f'<svg class="timeline" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" '
            'role="img" aria-label="Events over time, one lane per agent">')]
    step = _tick_step(tl.span)
    tick = 0.0
    while tick <= tl.span + 1e-9:
        x = GUTTER + tick * scale
        out.append(f'<line class="tick" x1="{_f(x)}" y1="{TOP - 6}" x2="{_f(x)}" y2="{height - 8}"/>')
        out.append(f'<text class="ticklabel" x="{_f(x)}" y="{TOP - 10}">{escape(format_ms(tick))}</text>')
        tick += step
    titles = len(tl.marks) <= TITLES_UP_TO
    by_lane: list[list[Mark]] = [[] for _ in tl.lanes]
    for mark in tl.marks:
        by_lane[mark.lane].append(mark)
    for i, lane in enumerate(tl.lanes):
        y = TOP + i * LANE_H
        out.append(f'<g class="lane" data-agent="{escape(lane.agent)}">')
        out.append(f'<rect class="lanebg" x="{GUTTER}" y="{y}" width="{plot_w}" height="{LANE_H}"/>')
        if lane.start is not None and lane.end is not None and lane.end >= lane.start:
            x0 = GUTTER + lane.start * scale
            out.append(f'<rect class="active" x="{_f(x0)}" y="{y + 3}" '
                       f'width="{_f(max(1.0, (lane.end - lane.start) * scale))}" height="{LANE_H - 6}"/>')
        label = f"{lane.label} ({lane.events})"
        short = label if len(label) <= LABEL_MAX else label[:LABEL_MAX - 1] + "\u2026"
        out.append(f'<text class="lanelabel" x="{GUTTER - 8}" y="{y + LANE_H / 2 + 4:g}">'
                   f'<title>{escape(label)}</title>{escape(short)}</text>')
        # long marks first, so the short ones they span stay visible on top
        for m in sorted(by_lane[i], key=lambda m: (-m.dur, m.t, m.seq)):
            x = GUTTER + m.t * scale
            w = min(max(MIN_MARK_W, m.dur * scale), WIDTH - RIGHT - x)
            cls = f"ev k-{m.kind}" + (" long" if w > 8 else "") + (" err" if m.err else "")
            rect = (f'<rect class="{cls}" x="{_f(x)}" y="{y + (LANE_H - MARK_H) / 2:g}" '
                    f'width="{_f(max(w, 1.0))}" height="{MARK_H}"')
            if titles:
                err = ", failed" if m.err else ""
                out.append(f"{rect}><title>#{m.seq} {escape(m.kind)} at {escape(format_ms(m.t))}"
                           f"{err}</title></rect>")
            else:
                out.append(rect + "/>")
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def legend_html(tl: Timeline) -> str:
    items = []
    for kind, n in tl.kinds().items():
        items.append(f'<li><svg width="14" height="14" aria-hidden="true"><rect class="sw k-{kind}" '
                     f'width="14" height="14"/></svg> {escape(kind)} <span class="n">{n}</span></li>')
    if any(m.err for m in tl.marks):
        items.append('<li><svg width="14" height="14" aria-hidden="true"><rect class="sw err" x="1" '
                     'y="1" width="12" height="12"/></svg> failed (red outline)</li>')
    return '<ul class="legend">' + "".join(items) + "</ul>"


def kind_css() -> str:
    rules = [f".k-{k}{{fill:{c}}}" for k, c in KIND_COLOURS.items()]
    return "\n".join(rules)
