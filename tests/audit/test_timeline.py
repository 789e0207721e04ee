"""The session picture's time axis: round ticks, idle gaps drawn as cuts, crowded lanes as density.

Each test reads the SVG the HTML report embeds (an XML document), not the layout code's numbers.
"""
from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from audit.render.timeline import GUTTER, RIGHT, WIDTH, build_timeline, timeline_svg
from tests.audit.render_fixtures import clean_map

SVG = "{http://www.w3.org/2000/svg}"
MIN = 60_000
HOUR = 60 * MIN
# what a person calls a round time on an axis: whole seconds, 5/10/15/30 s, whole minutes of 1, 2, 5,
# 10, 15, 30, whole hours
ROUND_MS = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, MIN, 2 * MIN, 5 * MIN, 10 * MIN, 15 * MIN,
            30 * MIN, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, 24 * HOUR}


def _svg(m: dict[str, Any]) -> ET.Element:
    text = timeline_svg(build_timeline(m))
    return ET.fromstring(text.replace('<svg class', '<svg xmlns="http://www.w3.org/2000/svg" class', 1))


def _label_ms(label: str) -> int:
    """A tick label read back as a person would: `0`, `30 s`, `15 min`, `1 h`, `2 h 30`."""
    if label == "0":
        return 0
    if m := re.fullmatch(r"(\d+) ms", label):
        return int(m[1])
    if m := re.fullmatch(r"(\d+(?:\.\d+)?) s", label):
        return round(float(m[1]) * 1000)
    if m := re.fullmatch(r"(\d+) min", label):
        return int(m[1]) * MIN
    if m := re.fullmatch(r"(\d+) h(?: (\d\d))?", label):
        return int(m[1]) * HOUR + int(m[2] or 0) * MIN
    if m := re.fullmatch(r"(?:(\d+):)?(\d+):(\d\d)", label):  # h:mm:ss or m:ss, for steps under a minute
        return (int(m[1] or 0) * 3600 + int(m[2]) * 60 + int(m[3])) * 1000
    raise AssertionError(f"not a round tick label: {label!r}")


def _ticks(svg: ET.Element) -> list[tuple[float, int]]:
    return [(float(t.get("x", "0")), _label_ms(t.text or "")) for t in svg.iter(f"{SVG}text")
            if t.get("class") == "ticklabel"]


def _lane(svg: ET.Element, agent: str) -> ET.Element:
    return next(g for g in svg.iter(f"{SVG}g") if g.get("class") == "lane" and g.get("data-agent") == agent)


def _marks(lane: ET.Element) -> list[ET.Element]:
    return [r for r in lane.iter(f"{SVG}rect") if (r.get("class") or "").startswith("ev ")]


def _session(events: list[tuple[str, float, float]]) -> dict[str, Any]:
    """A map whose events are (agent, t, dur); agents main and one subagent."""
    m = clean_map(3)
    m["agents"] = [a for a in m["agents"] if a["id"] in ("main", "sa-0a1b2c3d4e5f")]
    for a in m["agents"]:
        a.pop("start", None)
        a.pop("end", None)
    m["events"] = [{"seq": i, "t": t, "kind": "read", "agent": agent, "tool": "Read", "dur": dur}
                   for i, (agent, t, dur) in enumerate(events)]
    return m


@settings(max_examples=60)
@given(st.lists(st.tuples(st.integers(0, 30 * HOUR), st.integers(0, 20 * MIN)), min_size=2, max_size=40))
def test_ticks_fall_on_round_times_in_order(spans: list[tuple[int, int]]) -> None:
    svg = _svg(_session([("main", t, d) for t, d in spans]))
    if len({t for t, _ in spans}) < 2:  # no per-event times: the axis counts events
        labels = [t.text or "" for t in svg.iter(f"{SVG}text") if t.get("class") == "ticklabel"]
        assert labels and labels[0] == "#1" and all(lbl.startswith("#") for lbl in labels)
        return
    ticks = _ticks(svg)
    assert ticks, "an axis without ticks"
    assert ticks[0][1] == 0  # the session's start is always labelled
    values = [ms for _, ms in ticks]
    assert values == sorted(values) and len(set(values)) == len(values)
    xs = [x for x, _ in ticks]
    assert all(b - a >= 48 for a, b in zip(xs, xs[1:])), xs  # labels never crowd each other
    assert all(GUTTER <= x <= WIDTH - RIGHT for x in xs)
    end = max(t + d for t, d in spans)
    if end >= MIN:  # a session of a minute or more is labelled in whole seconds at least
        assert all(v % 1000 == 0 for v in values), values
    assert all(v <= end for v in values)


def test_a_47_minute_session_is_ticked_in_round_minutes() -> None:
    svg = _svg(_session([("main", i * 15_000, 2_000) for i in range(190)]))  # 0 .. 47:30
    labels = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "ticklabel"]
    assert labels[0] == "0" and all(lbl.endswith(" min") for lbl in labels[1:]), labels
    minutes = [_label_ms(lbl) // MIN for lbl in labels]
    assert len({b - a for a, b in zip(minutes, minutes[1:])}) == 1  # one step
    assert minutes[1] in (5, 10)


def test_a_four_hour_pause_is_a_cut_and_the_subagent_after_it_stays_readable() -> None:
    main = [("main", i * 20_000, 5_000) for i in range(30)]  # 10 minutes of work
    sub = [("sa-0a1b2c3d4e5f", 4 * HOUR + i * 2_500, 1_000) for i in range(46)]  # 2 minutes, after 4 h
    svg = _svg(_session(main + sub))
    cuts = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "cut"]
    assert len(cuts) == 1
    title = next(cuts[0].iter(f"{SVG}title")).text or ""
    assert title.startswith("idle 3:5"), title  # about four hours of nothing, said in its tooltip
    xs = [float(r.get("x", "0")) for r in _marks(_lane(svg, "sa-0a1b2c3d4e5f"))]
    assert len(xs) == 46
    # Without the cut, 2 of 242 minutes would be under 7 px of a 734 px axis.
    assert max(xs) - min(xs) > 100, (min(xs), max(xs))
    main_xs = [float(r.get("x", "0")) for r in _marks(_lane(svg, "main"))]
    assert max(main_xs) - min(main_xs) > 100
    cut_x = float(next(cuts[0].iter(f"{SVG}rect")).get("x", "0"))
    assert max(main_xs) < cut_x < min(xs)


def test_short_gaps_are_not_cut() -> None:
    svg = _svg(_session([("main", i * 2 * MIN, 1_000) for i in range(20)]))  # a call every 2 minutes
    assert not [g for g in svg.iter(f"{SVG}g") if g.get("class") == "cut"]


def test_a_lane_of_a_thousand_events_is_drawn_as_density_columns() -> None:
    events = [("main", i * 1_700, 600 + (i % 7) * 300) for i in range(1000)]
    events += [("sa-0a1b2c3d4e5f", 100_000 + i * 3_000, 500) for i in range(20)]
    m = _session(events)
    for i, ev in enumerate(m["events"]):
        ev["kind"] = ("read", "exec", "llm")[i % 3]
        if i == 500:
            ev["err"] = True
    svg = _svg(m)
    cols = _marks(_lane(svg, "main"))
    plot_w = WIDTH - GUTTER - RIGHT
    assert 0 < len(cols) <= plot_w // 3 + 1, len(cols)  # at most one column per 3 px
    assert all("dense" in (c.get("class") or "") for c in cols)
    assert sum(int(c.get("data-n", "0")) for c in cols) == 1000  # every event is in a column
    xs = sorted(float(c.get("x", "0")) for c in cols)
    assert all(b - a >= 3 for a, b in zip(xs, xs[1:])), "columns overlap"
    assert any("err" in (c.get("class") or "").split() for c in cols)
    # the quiet lane is still one mark per event
    sub = _marks(_lane(svg, "sa-0a1b2c3d4e5f"))
    assert len(sub) == 20 and not any("dense" in (c.get("class") or "") for c in sub)


def test_the_picture_is_deterministic() -> None:
    m = _session([("main", i * 7_000 + (i % 5) * 400_000, 900) for i in range(300)])
    assert timeline_svg(build_timeline(m)) == timeline_svg(build_timeline(copy.deepcopy(m)))


def _positions(svg: ET.Element) -> list[tuple[int, float, float]]:
    """(seq, x, right edge) of each mark drawn one per event, read from its tooltip (`#seq ...`)."""
    out = []
    for lane in svg.iter(f"{SVG}g"):
        if lane.get("class") != "lane":
            continue
        for el in lane:
            rect = el if el.tag == f"{SVG}rect" else next(iter(el.iter(f"{SVG}rect")), None)
            title = next(iter(el.iter(f"{SVG}title")), None)
            cls = (el.get("class") or "").split()
            if rect is None or title is None or "ev" not in cls or "dense" in cls:
                continue
            x, w = float(rect.get("x", "0")), float(rect.get("width", "0"))
            out.append((int((title.text or "#0").split()[0][1:]), x, x + w))
    return out


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["main", "sa-0a1b2c3d4e5f"]),
                          st.integers(0, 40) | st.integers(0, 30 * HOUR),
                          st.sampled_from([0, 0, 500, 40_000])), min_size=2, max_size=120),
       st.booleans())
@example([("main", i * 20 * MIN + (i % 3) * 7, 500) for i in range(60)], True)  # 59 cuts
@example([("main", (i // 9) * 9 * MIN, 0) for i in range(90)], False)  # ten requests, one time each
def test_every_mark_is_on_the_picture_in_time_order(events: list[tuple[str, int, int]], prompts: bool) -> None:
    """Whatever the times (bursts on one ms, gaps of hours, many cuts): every mark starts and ends on the
    plot, and a later event is never drawn left of an earlier one."""
    events = sorted(events, key=lambda e: e[1])
    m = _session([(a, t, d) for a, t, d in events])
    if prompts:
        for ev in m["events"][::7]:
            ev["kind"] = "user"
    svg = _svg(m)
    drawn = _positions(svg)
    assert len(drawn) == len(events)
    assert all(GUTTER <= x and r <= WIDTH - RIGHT + 0.01 for _, x, r in drawn), drawn
    by_seq = sorted(drawn)
    xs = [x for _, x, _ in by_seq]
    assert all(b >= a - 0.01 for a, b in zip(xs, xs[1:])), xs  # seq order is time order here
