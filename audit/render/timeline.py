"""The picture of a session: events over time, one lane per agent, a mark per event coloured by kind.

`build_timeline` reads only `t`, `kind`, `agent`, `err`, `dur` and `seq` of the events and the ids,
kinds, subagent types and start/end of the agents; `timeline_svg` draws it as one inline SVG element
(no script, no external reference). Every string drawn passes through `safety`, and every string
written is XML-escaped.
"""
from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field
from html import escape
from typing import Any

from audit.render.safety import show_ident, show_name
from redact.model.agentplay import EVENT_MODELS
from redact.tables.names import agent_label

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


# Round tick steps (ms): sub-second, seconds, then 1, 2, 5, 15, 30 min and 1, 2, 3, 6, 12, 24 h.
TICK_STEPS: tuple[int, ...] = (
    1, 2, 5, 10, 20, 50, 100, 200, 500,
    1_000, 2_000, 5_000, 10_000, 15_000, 30_000,
    60_000, 2 * 60_000, 5 * 60_000, 10 * 60_000, 15 * 60_000, 30 * 60_000,
    3_600_000, 2 * 3_600_000, 3 * 3_600_000, 6 * 3_600_000, 12 * 3_600_000, 24 * 3_600_000,
)
TICK_MIN_PX = 64  # ticks at least this far apart
GAP_MS = 5 * 60_000  # an idle stretch longer than this is drawn as a cut
CUT_W = 16  # px of a cut
MIN_SEG_W = 6.0  # px of an active stretch, however short
DENSE_BIN_W = 3  # px of a density column
DENSE_PX_PER_MARK = 4  # a lane with more marks than (plot width / this) is drawn as density


@dataclass(frozen=True)
class Axis:
    """Session time to x: active stretches side by side, each idle gap over GAP_MS a fixed-width cut."""

    segments: tuple[tuple[float, float, float, float], ...]  # (t0, t1, x0, x1) per active stretch
    cuts: tuple[tuple[float, float, float], ...]  # (t0, t1, x0) per cut; the cut is CUT_W wide
    px_per_ms: float  # the scale of the active stretches

    def x(self, t: float) -> float:
        segs = self.segments
        i = bisect.bisect_right([s[0] for s in segs], t) - 1
        if i < 0:
            return segs[0][2]
        t0, t1, x0, x1 = segs[i]
        if t <= t1:
            return min(x1, x0 + (t - t0) * self.px_per_ms)
        # inside the cut after segment i: spread over the cut's width
        nxt = segs[i + 1] if i + 1 < len(segs) else None
        if nxt is None:
            return x1
        frac = (t - t1) / (nxt[0] - t1) if nxt[0] > t1 else 0.0
        return x1 + frac * (nxt[2] - x1)


def _active(tl: Timeline) -> list[tuple[float, float]]:
    spans = sorted((m.t, m.t + m.dur) for m in tl.marks)
    for lane in tl.lanes:
        if lane.end is not None:
            spans.append((lane.end, lane.end))
    spans.append((0.0, 0.0))
    spans.sort()
    merged: list[list[float]] = []
    for a, b in spans:
        if merged and a - merged[-1][1] <= GAP_MS:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return [(a, b) for a, b in merged]


def build_axis(tl: Timeline, plot_w: float) -> Axis:
    stretches = _active(tl)
    total = sum(b - a for a, b in stretches) or 1.0
    free = plot_w - CUT_W * (len(stretches) - 1) - MIN_SEG_W * len(stretches)
    scale = max(free, plot_w * 0.25) / total
    segments, cuts = [], []
    x = float(GUTTER)
    for i, (a, b) in enumerate(stretches):
        if i:
            cuts.append((stretches[i - 1][1], a, x))
            x += CUT_W
        width = MIN_SEG_W + (b - a) * scale
        segments.append((a, b, x, x + width))
        x += width
    return Axis(tuple(segments), tuple(cuts), scale)


def _tick_step(px_per_ms: float) -> int:
    for step in TICK_STEPS:
        if step * px_per_ms >= TICK_MIN_PX:
            return step
    return TICK_STEPS[-1]


def ticks(axis: Axis) -> list[tuple[float, float, str]]:
    """(time, x, label) of each tick: multiples of one round step inside each active stretch."""
    step = _tick_step(axis.px_per_ms)
    out: list[tuple[float, float, str]] = []
    last_x = -1e9
    for t0, t1, _x0, _x1 in axis.segments:
        k = math.ceil(t0 / step)
        while k * step <= t1:
            t = float(k * step)
            x = axis.x(t)
            if x - last_x >= TICK_MIN_PX * 0.75:
                out.append((t, x, format_tick(t, step)))
                last_x = x
            k += 1
    return out


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


def format_tick(ms: float, step: int) -> str:
    """A tick label, as precise as the step and no more: `250 ms`, `1.5 s`, `1:10`, `15 min`, `1 h 30`."""
    if ms == 0:
        return "0"
    if step < 1000:
        if ms < 1000:
            return f"{ms:g} ms"
        decimals = 3 - int(math.log10(step))
        return f"{ms / 1000:.{decimals}f}".rstrip("0").rstrip(".") + " s"
    if step < 60_000:
        return format_ms(ms)
    minutes = round(ms / 60_000)
    h, m = divmod(minutes, 60)
    if not h:
        return f"{m} min"
    return f"{h} h" if not m else f"{h} h {m:02d}"


def _f(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _density(marks: list[Mark], axis: Axis, y: float, titles: bool) -> list[str]:
    """A dense lane: one column per DENSE_BIN_W px, its height the share of events, its colour the
    most frequent kind, outlined red when one of them failed."""
    bins: dict[int, list[Mark]] = {}
    for m in marks:
        bins.setdefault(int((axis.x(m.t) - GUTTER) // DENSE_BIN_W), []).append(m)
    top = max(len(v) for v in bins.values())
    out = []
    for col in sorted(bins):
        group = bins[col]
        kinds: dict[str, int] = {}
        for m in group:
            kinds[m.kind] = kinds.get(m.kind, 0) + 1
        kind = max(kinds, key=lambda k: (kinds[k], k))
        hgt = max(3.0, MARK_H * len(group) / top)
        err = any(m.err for m in group)
        cls = f"ev dense k-{kind}" + (" err" if err else "")
        rect = (f'<rect class="{cls}" data-n="{len(group)}" x="{_f(GUTTER + col * DENSE_BIN_W)}" '
                f'y="{_f(y + (LANE_H + MARK_H) / 2 - hgt)}" width="{DENSE_BIN_W}" height="{_f(hgt)}"')
        if titles:
            parts = ", ".join(f"{n} {escape(k)}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1]))
            out.append(f"{rect}><title>{len(group)} events from {escape(format_ms(group[0].t))}: "
                       f"{parts}</title></rect>")
        else:
            out.append(rect + "/>")
    return out


def timeline_svg(tl: Timeline) -> str:
    """One `<svg>`: an axis with round ticks and cuts for idle gaps, a `<g class="lane">` per agent,
    and per event a `<rect class="ev ...">` (or, on a crowded lane, density columns `ev dense`)."""
    plot_w = WIDTH - GUTTER - RIGHT
    height = TOP + LANE_H * len(tl.lanes) + 8
    axis = build_axis(tl, plot_w)
    out = [(f'<svg class="timeline" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" '
            'role="img" aria-label="Events over time, one lane per agent">')]
    for _t, x, label in ticks(axis):
        out.append(f'<line class="tick" x1="{_f(x)}" y1="{TOP - 6}" x2="{_f(x)}" y2="{height - 8}"/>')
        out.append(f'<text class="ticklabel" x="{_f(x)}" y="{TOP - 10}">{escape(label)}</text>')
    titles = len(tl.marks) <= TITLES_UP_TO
    by_lane: list[list[Mark]] = [[] for _ in tl.lanes]
    for mark in tl.marks:
        by_lane[mark.lane].append(mark)
    dense_above = plot_w / DENSE_PX_PER_MARK
    for i, lane in enumerate(tl.lanes):
        y = TOP + i * LANE_H
        out.append(f'<g class="lane" data-agent="{escape(lane.agent)}">')
        out.append(f'<rect class="lanebg" x="{GUTTER}" y="{y}" width="{plot_w}" height="{LANE_H}"/>')
        if lane.start is not None and lane.end is not None and lane.end >= lane.start:
            x0 = axis.x(lane.start)
            out.append(f'<rect class="active" x="{_f(x0)}" y="{y + 3}" '
                       f'width="{_f(max(1.0, axis.x(lane.end) - x0))}" height="{LANE_H - 6}"/>')
        label = f"{lane.label} ({lane.events})"
        short = label if len(label) <= LABEL_MAX else label[:LABEL_MAX - 1] + "\u2026"
        out.append(f'<text class="lanelabel" x="{GUTTER - 8}" y="{y + LANE_H / 2 + 4:g}">'
                   f'<title>{escape(label)}</title>{escape(short)}</text>')
        if len(by_lane[i]) > dense_above:
            out.extend(_density(by_lane[i], axis, y, titles))
            out.append("</g>")
            continue
        # long marks first, so the short ones they span stay visible on top
        for m in sorted(by_lane[i], key=lambda m: (-m.dur, m.t, m.seq)):
            x = axis.x(m.t)
            w = min(max(MIN_MARK_W, axis.x(m.t + m.dur) - x), WIDTH - RIGHT - x)
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
    for t0, t1, x0 in axis.cuts:
        out.append(f'<g class="cut"><rect class="cutband" x="{_f(x0)}" y="{TOP - 6}" width="{CUT_W}" '
                   f'height="{height - TOP - 2}"><title>idle {escape(format_ms(t1 - t0))}, cut</title></rect>'
                   f'<path class="cutmark" d="M{_f(x0 + 3)} {TOP + 2}l4 -10M{_f(x0 + 9)} {TOP + 2}l4 -10"/></g>')
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
