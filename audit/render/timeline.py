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
    slot: int = 0  # its rank, in event order, among the events recorded at the same time


@dataclass
class Timeline:
    lanes: list[Lane] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    span: float = 1.0  # ms
    unplaced: int = 0  # events without a usable `t`
    ordered: bool = False  # no per-event times: the marks are drawn in event order, not over time
    duration: float | None = None  # the map's session.durationMs, when it records one

    def kinds(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for m in self.marks:
            counts[m.kind] = counts.get(m.kind, 0) + 1
        return {k: counts[k] for k in KIND_COLOURS if k in counts}

    def ties(self) -> dict[float, int]:
        """Each time recorded for more than one event, and how many events it is recorded for."""
        counts: dict[float, int] = {}
        for m in self.marks:
            counts[m.t] = counts.get(m.t, 0) + 1
        return {t: n for t, n in counts.items() if n > 1}

    def duration_text(self) -> str:
        """The session's duration in words, and where it comes from."""
        if self.duration:
            return f"{format_duration(self.duration)} (the session's durationMs)"
        if not self.ordered and self.marks:
            return (f"{format_duration(self.span)} (from the session's start to the last time it records; the map "
                    "records no durationMs)")
        return "not recorded"

    def summary(self) -> dict[str, Any]:
        return {
            "spanMs": _num(self.span),
            "events": len(self.marks),
            "unplaced": self.unplaced,
            "ordered": self.ordered,
            "duration": self.duration_text(),
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


def _kind(ev: dict[str, Any]) -> str:
    kind = ev.get("kind")
    return kind if isinstance(kind, str) and kind in EVENT_MODELS else "other"


def _seq(ev: dict[str, Any], i: int) -> int:
    seq = ev.get("seq")
    return seq if isinstance(seq, int) and not isinstance(seq, bool) else i


def _untimed(events: list[Any]) -> bool:
    """Whether the map records no per-event time: two events or more, and at most one time among them
    (Continue and Aider record none, or one for the whole session)."""
    found = [ev for ev in events if isinstance(ev, dict)]
    times = {_finite(ev.get("t")) for ev in found} - {None}
    return len(found) >= 2 and len(times) <= 1


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
    session = session_map.get("session")
    tl.duration = _finite(session.get("durationMs")) if isinstance(session, dict) else None
    raw = session_map.get("events")
    events: list[Any] = raw if isinstance(raw, list) else []
    tl.ordered = _untimed(events)
    span = 0.0
    for i, ev in enumerate(events):
        if not isinstance(ev, dict):
            tl.unplaced += 1
            continue
        t = 0.0 if tl.ordered else _finite(ev.get("t"))
        if t is None:
            tl.unplaced += 1
            continue
        lane = lane_of(_agent_key(ev.get("agent")))
        dur = 0.0 if tl.ordered else _finite(ev.get("dur")) or 0.0
        tl.marks.append(Mark(lane, t, dur, _kind(ev), ev.get("err") is True, _seq(ev, i)))
        tl.lanes[lane].events += 1
        span = max(span, t + dur)
    if not tl.lanes:
        lane_of("main")
    if tl.ordered:
        for one in tl.lanes:
            one.start = one.end = None  # the agents' times mean nothing on an axis of event order
    for one in tl.lanes:
        span = max(span, one.end or 0.0)
    order = sorted(range(len(tl.marks)), key=lambda j: (tl.marks[j].t, tl.marks[j].seq, j))
    rank: dict[float, int] = {}
    for j in order:
        mark = tl.marks[j]
        mark.slot = rank.get(mark.t, 0)
        rank[mark.t] = mark.slot + 1
    tl.span = span or 1.0
    return tl


# Round tick steps (ms): sub-second, seconds, then 1, 2, 5, 15, 30 min and 1, 2, 3, 6, 12, 24 h.
TICK_STEPS: tuple[int, ...] = (
    1, 2, 5, 10, 20, 50, 100, 200, 500,
    1_000, 2_000, 5_000, 10_000, 15_000, 30_000,
    60_000, 2 * 60_000, 5 * 60_000, 10 * 60_000, 15 * 60_000, 30 * 60_000,
    3_600_000, 2 * 3_600_000, 3 * 3_600_000, 6 * 3_600_000, 12 * 3_600_000, 24 * 3_600_000,
)
COUNT_STEPS: tuple[int, ...] = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000,
                                20_000, 50_000, 100_000)
TICK_MIN_PX = 64  # ticks at least this far apart
GAP_MS = 5 * 60_000  # an idle stretch longer than this is drawn as a cut
CUT_W = 16  # px of a cut
MIN_CUT_W = 6  # px of a cut when many cuts share the axis
MIN_SEG_W = 6.0  # px of an active stretch, however short
FIXED_SHARE = 0.5  # cuts and the minimum widths of stretches take at most this share of the axis
TIE_STEP = 4.0  # px between events recorded at the same time, drawn side by side in event order
DENSE_BIN_W = 3  # px of a density column
DENSE_PX_PER_MARK = 4  # a lane with more marks than (plot width / this) is drawn as density


@dataclass(frozen=True)
class Axis:
    """Session time to x. Active stretches sit side by side at one scale; each idle gap over `gap` ms
    is a cut `cut_w` px wide; the events recorded at one time get `step` px each, side by side in
    event order, while the time stands still (a format that records one time per request, or none).

    `pieces` are (t0, t1, x0, x1), contiguous in x: a stretch of time (t1 > t0) or a block where time
    stands still (t1 == t0); `cuts` are (t0, t1, x0) per cut; `stretches` are (t0, t1) per active
    stretch."""

    pieces: tuple[tuple[float, float, float, float], ...]
    cuts: tuple[tuple[float, float, float], ...]
    stretches: tuple[tuple[float, float], ...]
    px_per_ms: float  # the scale of the active stretches (0: no time passes in them)
    step: float = 0.0  # px per event at one time (0: such events stack)
    cut_w: float = CUT_W
    gap: float = GAP_MS
    ordered: bool = False  # the axis counts events, not time
    ends: tuple[float, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "ends", tuple(p[1] for p in self.pieces))

    def x(self, t: float) -> float:
        """The x of time `t`: where the first event recorded at `t` is drawn."""
        i = bisect.bisect_left(self.ends, t)
        if i >= len(self.pieces):
            return self.pieces[-1][3]
        t0, t1, x0, x1 = self.pieces[i]
        if t <= t0 or t1 <= t0:
            return x0
        return x0 + (t - t0) / (t1 - t0) * (x1 - x0)

    def pos(self, mark: Mark) -> float:
        return self.x(mark.t) + mark.slot * self.step


def _active(tl: Timeline, gap: float) -> list[tuple[float, float]]:
    spans = sorted((m.t, m.t + m.dur) for m in tl.marks)
    for lane in tl.lanes:
        if lane.end is not None:
            spans.append((lane.end, lane.end))
    spans.append((0.0, 0.0))
    spans.sort()
    merged: list[list[float]] = []
    for a, b in spans:
        if merged and a - merged[-1][1] <= gap:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return [(a, b) for a, b in merged]


def _stretches(tl: Timeline, plot_w: float) -> tuple[list[tuple[float, float]], float, float]:
    """The active stretches, the width of a cut and the idle gap cut: cuts narrow when there are many,
    and when even narrow ones would take more than FIXED_SHARE of the axis, only the longest gaps are
    cut (so the end of a long session is never pushed off the picture)."""
    gap = float(GAP_MS)
    while True:
        stretches = _active(tl, gap)
        n = len(stretches)
        budget = plot_w * FIXED_SHARE - MIN_SEG_W * n
        if n == 1 or CUT_W * (n - 1) <= budget:
            return stretches, float(CUT_W), gap
        if MIN_CUT_W * (n - 1) <= budget:
            return stretches, budget / (n - 1), gap
        gaps = sorted(b[0] - a[1] for a, b in zip(stretches, stretches[1:]))
        gap = gaps[len(gaps) // 4]  # cut only the longer three quarters of the gaps, and try again


def build_axis(tl: Timeline, plot_w: float) -> Axis:
    if tl.ordered:
        step = plot_w / max(1, len(tl.marks))
        return Axis(((0.0, 0.0, float(GUTTER), GUTTER + plot_w),), (), ((0.0, 0.0),), 0.0, step,
                    ordered=True)
    stretches, cut_w, gap = _stretches(tl, plot_w)
    n = len(stretches)
    avail = plot_w - cut_w * (n - 1) - MIN_SEG_W * n
    total = sum(b - a for a, b in stretches)
    ties = tl.ties()
    tied = sum(ties.values())
    extra = 0.0  # px added to each stretch when no time passes in any of them
    if total <= 0:
        step = avail / tied if tied else 0.0
        extra = 0.0 if tied else avail / n
        scale = 0.0
    else:
        share = 0.5 if tied * 2 >= len(tl.marks) else 0.15  # one time per request: give them room
        step = min(TIE_STEP, share * avail / tied) if tied else 0.0
        step = step if step >= 0.5 else 0.0
        scale = (avail - tied * step) / total
    pieces: list[tuple[float, float, float, float]] = []
    cuts: list[tuple[float, float, float]] = []
    x = float(GUTTER)
    times = sorted(ties) if step else []
    for i, (a, b) in enumerate(stretches):
        if i:
            prev = stretches[i - 1][1]
            cuts.append((prev, a, x))
            pieces.append((prev, a, x, x + cut_w))
            x += cut_w
        cur = a
        for t in times[bisect.bisect_left(times, a):bisect.bisect_right(times, b)]:
            if t > cur:
                pieces.append((cur, t, x, x + (t - cur) * scale))
                x += (t - cur) * scale
                cur = t
            pieces.append((t, t, x, x + ties[t] * step))
            x += ties[t] * step
        if b > cur:
            pieces.append((cur, b, x, x + (b - cur) * scale))
            x += (b - cur) * scale
        pieces.append((b, b, x, x + MIN_SEG_W + extra))
        x += MIN_SEG_W + extra
    return Axis(tuple(pieces), tuple(cuts), tuple(stretches), scale, step, cut_w, gap)


def _tick_step(px_per_ms: float) -> int:
    for step in TICK_STEPS:
        if step * px_per_ms >= TICK_MIN_PX:
            return step
    return TICK_STEPS[-1]


def _roundest(t0: float, t1: float) -> int | None:
    """The roundest step one of whose multiples lies in [t0, t1] (whole seconds at least, and for a
    stretch where no time passes, its time to the second, before it)."""
    for step in reversed(TICK_STEPS):
        if step < 1000 <= t1:
            return None
        if math.ceil((t0 - (999 if step >= 1000 else 0)) / step) * step <= t1:
            return step
    return None


def ticks(axis: Axis, count: int = 0) -> list[tuple[float, float, str]]:
    """(time, x, label) of each tick, chosen after the cuts: multiples of one round step inside each
    active stretch, and in a stretch too short for one of them, its roundest time; never two closer
    than 3/4 of TICK_MIN_PX. On an axis of event order (`count` events), event numbers."""
    if axis.ordered:
        each = next((s for s in COUNT_STEPS if s * axis.step >= TICK_MIN_PX), COUNT_STEPS[-1])
        numbers = [1, *range(each, count + 1, each)] if count else []
        return [(float(k), GUTTER + (k - 1) * axis.step, f"#{k}") for k in numbers]
    step = _tick_step(axis.px_per_ms) if axis.px_per_ms > 0 else None
    if step is not None and axis.stretches[-1][1] >= 60_000:
        step = max(step, 1000)  # a session of a minute or more is labelled in whole seconds at least
    found: list[tuple[float, float, str]] = []
    for t0, t1 in axis.stretches:
        mine = []
        if step is not None:
            k = math.ceil(t0 / step)
            while k * step <= t1:
                mine.append((float(k * step), format_tick(k * step, step)))
                k += 1
        if not mine and (best := _roundest(t0, t1)) is not None:
            t = float(math.ceil((t0 - (999 if best >= 1000 else 0)) / best) * best)
            mine.append((t, format_tick(t, best)))
        found.extend((t, axis.x(t), label) for t, label in mine)
    out: list[tuple[float, float, str]] = []
    for t, x, label in sorted(found, key=lambda f: (f[1], f[0])):
        if not out or x - out[-1][1] >= TICK_MIN_PX * 0.75:
            out.append((t, x, label))
    return out


def format_duration(ms: float) -> str:
    """A duration in words a person reads at a glance: `45 s`, `12 min 05 s`, `16 h 28 min`."""
    if ms < 1000:
        return f"{round(ms)} ms"
    s = round(ms / 1000)
    if s < 60:
        return f"{s} s"
    m, s = divmod(s, 60)
    if m < 60:
        return f"{m} min {s:02d} s" if s else f"{m} min"
    h, m = divmod(m, 60)
    if h < 48:
        return f"{h} h {m:02d} min" if m else f"{h} h"
    d, h = divmod(h, 24)
    return f"{d} d {h} h"


def describe(tl: Timeline, axis: Axis) -> list[str]:
    """What the picture shows, in sentences, from the map's own numbers (no text of the map)."""
    out = []
    if tl.ordered:
        out.append("No per-event times: drawn in event order (the format records no time for each "
                   "event); the axis counts events, not time.")
    out.append(f"Duration: {tl.duration_text()}.")
    if axis.cuts:
        idle = sum(t1 - t0 for t0, t1, _ in axis.cuts)
        n = len(axis.cuts)
        out.append(f"{n} gap{'s' if n != 1 else ''} of over {format_duration(axis.gap)} with no event "
                   f"recorded {'are' if n != 1 else 'is'} cut ({format_duration(idle)} in all).")
    if axis.step and not tl.ordered:
        tied = sum(tl.ties().values())
        out.append(f"{tied} events share their recorded time with another event: they are drawn side "
                   "by side in event order from that time.")
    if tl.unplaced:
        out.append(f"{tl.unplaced} events have no usable time and are not drawn.")
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
        bins.setdefault(int((axis.pos(m) - GUTTER) // DENSE_BIN_W), []).append(m)
    if not bins:
        return []
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
            where = f"#{group[0].seq}" if axis.ordered else escape(format_ms(group[0].t))
            out.append(f"{rect}><title>{len(group)} events from {where}: {parts}</title></rect>")
        else:
            out.append(rect + "/>")
    return out


PROMPT_W = 4.0  # px of a prompt's flag, drawn over the lane's other marks at its top
PROMPT_H = 9.0  # px of the flag; a 1 px stem runs down the rest of the lane


def _prompt(m: Mark, axis: Axis, y: float, titles: bool) -> str:
    """A prompt: a flag at the top of its lane and a thin stem, over the other marks (never hidden
    under them, and leaving them visible)."""
    x = min(axis.pos(m), WIDTH - RIGHT - PROMPT_W)
    title = ""
    if titles:
        when = "no time recorded" if axis.ordered else f"at {format_ms(m.t)}"
        title = f"<title>#{m.seq} prompt {escape(when)}</title>"
    return (f'<g class="ev k-user prompt{" err" if m.err else ""}">{title}'
            f'<rect x="{_f(x)}" y="{_f(y + 1)}" width="{_f(PROMPT_W)}" height="{_f(PROMPT_H)}"/>'
            f'<rect x="{_f(x)}" y="{_f(y + 1)}" width="1" height="{_f(LANE_H - 2)}"/></g>')


def _mark(m: Mark, axis: Axis, y: float, titles: bool) -> str:
    x = axis.pos(m)
    least = max(MIN_MARK_W, min(axis.step * 0.7, 8.0))
    w = max(least, axis.x(m.t + m.dur) - x) if m.dur else least
    w = min(w, WIDTH - RIGHT - x)
    cls = f"ev k-{m.kind}" + (" long" if w > 8 and m.dur else "") + (" err" if m.err else "")
    rect = (f'<rect class="{cls}" x="{_f(x)}" y="{_f(y + (LANE_H - MARK_H) / 2)}" '
            f'width="{_f(max(w, 1.0))}" height="{MARK_H}"')
    if not titles:
        return rect + "/>"
    err = ", failed" if m.err else ""
    when = "no time recorded" if axis.ordered else f"at {format_ms(m.t)}"
    return f"{rect}><title>#{m.seq} {escape(m.kind)} {escape(when)}{err}</title></rect>"


def lane_text(lane: Lane) -> tuple[str, str]:
    """(full, shown) label of a lane: the name is cut to fit LABEL_MAX, never its event count."""
    count = f" ({lane.events})"
    full = lane.label + count
    if len(full) <= LABEL_MAX:
        return full, full
    room = max(1, LABEL_MAX - len(count) - 1)
    return full, lane.label[:room] + "\u2026" + count


def timeline_svg(tl: Timeline, axis: Axis | None = None) -> str:
    """One `<svg>`: an axis with round ticks and cuts for idle gaps, a `<g class="lane">` per agent,
    and per event a `<rect class="ev ...">` (or, on a crowded lane, density columns `ev dense`).
    Prompts (`user` events) are drawn last, over the other marks, at full lane height."""
    plot_w = WIDTH - GUTTER - RIGHT
    height = TOP + LANE_H * len(tl.lanes) + 8
    axis = axis or build_axis(tl, plot_w)
    what = "event order" if tl.ordered else "time"
    flag = ' data-ordered="true"' if tl.ordered else ""
    out = [(f'<svg class="timeline" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" '
            f'role="img" aria-label="Events in {what}, one lane per agent"{flag}>')]
    for _t, x, label in ticks(axis, len(tl.marks)):
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
        full, short = lane_text(lane)
        out.append(f'<text class="lanelabel" x="{GUTTER - 8}" y="{y + LANE_H / 2 + 4:g}">'
                   f'<title>{escape(full)}</title>{escape(short)}</text>')
        prompts = [m for m in by_lane[i] if m.kind == "user"]
        others = [m for m in by_lane[i] if m.kind != "user"]
        if len(by_lane[i]) > dense_above:
            out.extend(_density(others, axis, y, titles))
        else:
            # long marks first, so the short ones they span stay visible on top
            for m in sorted(others, key=lambda m: (-m.dur, m.t, m.slot, m.seq)):
                out.append(_mark(m, axis, y, titles))
        out.extend(_prompt(m, axis, y, titles) for m in sorted(prompts, key=lambda m: (m.t, m.slot, m.seq)))
        out.append("</g>")
    for t0, t1, x0 in axis.cuts:
        w = axis.cut_w
        slashes = (f"M{_f(x0 + 3)} {TOP + 2}l4 -10M{_f(x0 + 9)} {TOP + 2}l4 -10" if w >= 14
                   else f"M{_f(x0 + w / 2 - 2)} {TOP + 2}l4 -10")
        out.append(f'<g class="cut"><rect class="cutband" x="{_f(x0)}" y="{TOP - 6}" width="{_f(w)}" '
                   f'height="{height - TOP - 2}"><title>idle {escape(format_ms(t1 - t0))}, cut</title></rect>'
                   f'<path class="cutmark" d="{slashes}"/></g>')
    out.append("</svg>")
    return "\n".join(out)


def legend_html(tl: Timeline) -> str:
    items = []
    for kind, n in tl.kinds().items():
        name = "user (prompts)" if kind == "user" else kind
        items.append(f'<li><svg width="14" height="14" aria-hidden="true"><rect class="sw k-{kind}" '
                     f'width="14" height="14"/></svg> {escape(name)} <span class="n">{n}</span></li>')
    if any(m.err for m in tl.marks):
        items.append('<li><svg width="14" height="14" aria-hidden="true"><rect class="sw err" x="1" '
                     'y="1" width="12" height="12"/></svg> failed (red outline)</li>')
    return '<ul class="legend">' + "".join(items) + "</ul>"


def kind_css() -> str:
    rules = [f".k-{k}{{fill:{c}}}" for k, c in KIND_COLOURS.items()]
    return "\n".join(rules)
