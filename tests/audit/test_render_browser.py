"""The HTML report in a real browser: Debian's headless chromium parses the page (the DOM it builds
has one lane per agent and one mark per event) and paints it (the screenshot is not blank and shows
the kind colours). Skipped when /usr/bin/chromium is absent."""
from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import zlib
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from audit.render import render
from audit.render.timeline import GUTTER, KIND_COLOURS, RIGHT, WIDTH
from audit.report_of_map import report_of_map
from tests.audit.render_fixtures import (
    CODEX_CUTS,
    LONG_TYPE,
    PROMPTS,
    aider_like,
    busy_with_prompts,
    clean_map,
    codex_long,
    continue_like,
    long_subagent_lanes,
    vscode_short,
)
from tests.conftest import corpus_case, corpus_params

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "screenshot_report.sh"

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium)")

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-extensions", "--no-first-run",
         "--no-default-browser-check", "--hide-scrollbars", "--host-resolver-rules=MAP * ~NOTFOUND")


def read_png(path: Path) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB bytes) of an 8-bit, non-interlaced RGB or RGBA PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, ihdr = 8, b"", b""
    while pos < len(data):
        (length,), kind = struct.unpack(">I", data[pos:pos + 4]), data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            ihdr = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", ihdr)
    assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        ftype, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ftype == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ftype == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    if bpp == 3:
        return width, height, rows
    return width, height, [b"".join(r[i:i + 3] for i in range(0, stride, 4)) for r in rows]


def _env() -> dict[str, str]:
    """The screenshot script runs the interpreter running these tests (a checkout may have no .venv)."""
    return {**os.environ, "PYTHON": sys.executable}


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16)


def test_chromium_builds_the_dom_with_every_lane_and_mark(tmp_path: Path) -> None:
    m = clean_map(120)
    page = tmp_path / "report.html"
    page.write_text(render(report_of_map(m, scan=False), m, "html"), encoding="utf-8")
    profile = tmp_path / "profile"
    dom = subprocess.run([str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", "--dump-dom",
                          page.as_uri()], capture_output=True, text=True, timeout=120, check=True).stdout
    assert dom.count('<g class="lane"') == len(m["agents"])
    assert dom.count('<rect class="ev ') + dom.count('<g class="ev ') == len(m["events"])
    assert "<svg" in dom and "</svg>" in dom


def test_chromium_screenshot_is_not_blank(tmp_path: Path) -> None:
    m = clean_map(120)
    page = tmp_path / "report.html"
    page.write_text(render(report_of_map(m, scan=False), m, "html"), encoding="utf-8")
    png = tmp_path / "report.png"
    assert shutil.which("bash")
    subprocess.run(["bash", str(SCRIPT), str(page), str(png), "1000,700"], cwd=ROOT, check=True,
                   capture_output=True, timeout=180, env=_env())
    assert png.exists()
    width, height, rows = read_png(png)
    assert (width, height) == (1000, 700)
    pixels = [row[i:i + 3] for row in rows[::2] for i in range(0, len(row), 6)]
    colours = set(pixels)
    background = max(colours, key=pixels.count)
    assert len(colours) > 50, "a blank or near-blank page"
    assert sum(p != background for p in pixels) > len(pixels) // 20
    # The picture is painted: pixels close to several kinds' colours (marks are drawn at 0.9 or
    # 0.45 opacity over a near-white lane, so allow for the blend).
    seen = set()
    for kind, colour in KIND_COLOURS.items():
        r, g, b = _rgb(colour)
        for alpha in (0.9, 0.45):
            want = tuple(round(alpha * c + (1 - alpha) * 251) for c in (r, g, b))
            if any(all(abs(p[i] - want[i]) <= 6 for i in range(3)) for p in colours):
                seen.add(kind)
    assert len(seen) >= 8, seen


@pytest.mark.corpus
def test_a_large_real_session_with_subagents_renders_lanes_and_ticks(tmp_path: Path) -> None:
    """The biggest Claude Code transcript of the shared corpus that has subagent lanes, redacted, then
    drawn by chromium: one lane per agent, round ticks on the axis, and a painted (not blank) picture."""
    from redact.api import redact_file
    from tests.conftest import corpus_dir

    files = sorted(corpus_dir("claude-code").glob("*.jsonl"), key=lambda p: -p.stat().st_size)
    chosen = None
    for path in files:
        if "_subagents_" in path.name or "_agent-" in path.name:
            continue
        result = redact_file(path, policy="default")
        if len(result.session_map.get("agents", [])) >= 2 and len(result.session_map["events"]) >= 300:
            chosen = result
            break
    assert chosen is not None, "the corpus holds a large session with subagents"
    m = chosen.session_map
    page = tmp_path / "report.html"
    page.write_text(render(chosen.report.as_dict(), m, "html"), encoding="utf-8")
    profile = tmp_path / "profile"
    dom = subprocess.run([str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", "--dump-dom",
                          page.as_uri()], capture_output=True, text=True, timeout=120, check=True).stdout
    assert dom.count('<g class="lane"') == len(m["agents"])
    labels = [chunk.split("<", 1)[0] for chunk in dom.split('class="ticklabel"')[1:]]
    labels = [lbl.split(">", 1)[1] for lbl in labels] if labels and ">" in labels[0] else labels
    assert len(labels) >= 3, labels
    marks = dom.count('<rect class="ev ')
    assert 0 < marks <= len(m["events"])
    png = tmp_path / "report.png"
    subprocess.run(["bash", str(SCRIPT), str(page), str(png), "1100,1000"], cwd=ROOT, check=True,
                   capture_output=True, timeout=180, env=_env())
    width, height, rows = read_png(png)
    pixels = [row[i:i + 3] for row in rows[::2] for i in range(0, len(row), 6)]
    background = max(set(pixels), key=pixels.count)
    assert len(set(pixels)) > 50 and sum(p != background for p in pixels) > len(pixels) // 20


# The picture's cases (issue 27, item 5), each drawn by chromium from a map shaped like a real session
# of the corpus. The DOM is chromium's (after it parsed the page); the pixels are its screenshot.

PLOT_W = WIDTH - GUTTER - RIGHT
LANE_BG = (251, 252, 253), (238, 242, 247)  # the lane's background, and an agent's active band
SHOTS = Path("/tmp/agentplay-report-shots")


class _Svg(HTMLParser):
    """The picture's elements as chromium serialised them: (tag, attributes, text) in order."""

    def __init__(self) -> None:
        super().__init__()
        self.items: list[tuple[str, dict[str, str], str]] = []
        self._open: list[int] = []  # the items of the elements not yet closed

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.items.append((tag, {k: v or "" for k, v in attrs}, ""))
        self._open.append(len(self.items) - 1)

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            if self.items[self._open.pop()][0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._open:  # a text belongs to the innermost open element: a label's, not its tooltip's
            i = self._open[-1]
            tag, attrs, text = self.items[i]
            self.items[i] = (tag, attrs, text + data)


def _dump(page: Path, tmp_path: Path) -> str:
    return subprocess.run([str(CHROMIUM), *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
                           page.as_uri()], capture_output=True, text=True, timeout=120, check=True).stdout


def _page(m: dict[str, Any], tmp_path: Path, name: str, report: dict[str, Any] | None = None) -> Path:
    page = tmp_path / f"{name}.html"
    page.write_text(render(report or report_of_map(m, scan=False), m, "html"), encoding="utf-8")
    return page


def _shot(page: Path, name: str) -> tuple[int, int, list[bytes]]:
    """The page's screenshot, kept in SHOTS to be looked at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    png = SHOTS / f"{name}.png"
    subprocess.run(["bash", str(SCRIPT), str(page), str(png), "1100,900"], cwd=ROOT, check=True,
                   capture_output=True, timeout=180, env=_env())
    return read_png(png)


def _picture(dom: str) -> list[tuple[str, dict[str, str], str]]:
    start, end = dom.index("<svg"), dom.index("</svg>") + len("</svg>")
    parser = _Svg()
    parser.feed(dom[start:end])
    return parser.items


def _classes(attrs: dict[str, str]) -> list[str]:
    return attrs.get("class", "").split()


def _mark_xs(items: list[tuple[str, dict[str, str], str]]) -> list[tuple[float, float]]:
    """(x, right edge) of every mark drawn (one per event, density columns, prompt flags)."""
    out = []
    flag = False  # the next rect is a prompt's flag
    for tag, attrs, _ in items:
        if tag == "g" and "prompt" in _classes(attrs):
            flag = True
        elif tag == "rect" and ("ev" in _classes(attrs) or flag):
            x, w = float(attrs["x"]), float(attrs.get("width", "0"))
            out.append((x, x + w))
            flag = False
    return out


def _tick_labels(items: list[tuple[str, dict[str, str], str]]) -> list[tuple[float, str]]:
    return [(float(a["x"]), text) for tag, a, text in items if tag == "text" and "ticklabel" in _classes(a)]


def _lane_rows(rows: list[bytes]) -> list[int]:
    """The screenshot's rows that cross a lane: a long run of the lane's background colours."""
    backgrounds = {bytes(c) for c in LANE_BG}
    return [y for y, row in enumerate(rows)
            if sum(row[i:i + 3] in backgrounds for i in range(0, len(row), 3)) > 150]


def _kind_pixels(kinds: set[str]) -> list[tuple[int, int, int]]:
    """The colours a mark of one of `kinds` can paint: its colour at each opacity the page uses, over
    the lane's backgrounds."""
    out = []
    for kind in kinds:
        r, g, b = _rgb(KIND_COLOURS[kind])
        for alpha in (1.0, 0.9, 0.85, 0.45):
            for bg in LANE_BG:
                out.append(tuple(round(alpha * c + (1 - alpha) * k) for c, k in zip((r, g, b), bg)))
    return out  # type: ignore[return-value]


def _marked_columns(shot: tuple[int, int, list[bytes]], kinds: set[str], tol: int = 6) -> list[int]:
    """The x of every screenshot column that shows a mark's colour inside a lane."""
    width, _, rows = shot
    lanes = _lane_rows(rows)
    assert lanes, "no lane found in the screenshot"
    wanted = {bytes(min(255, max(0, c + d)) for c, d in zip(colour, (dr, dg, db)))
              for colour in _kind_pixels(kinds)
              for dr in range(-tol, tol + 1) for dg in range(-tol, tol + 1) for db in range(-tol, tol + 1)}
    return sorted({x for y in range(lanes[0], lanes[-1] + 1) for x in range(width)
                   if rows[y][3 * x:3 * x + 3] in wanted})


def _kinds_of(m: dict[str, Any]) -> set[str]:
    return {e["kind"] for e in m["events"]}


@pytest.mark.parametrize("fixture", [continue_like, aider_like], ids=["continue", "aider"])
def test_a_session_without_per_event_times_is_drawn_in_event_order(tmp_path: Path, fixture: Any) -> None:
    """Continue records one time for the whole session, Aider none: every event would sit in one
    2 px stack at 0. Drawn in event order instead, across the width, and the page says so."""
    m = fixture()
    page = _page(m, tmp_path, fixture.__name__)
    dom = _dump(page, tmp_path)
    assert "No per-event times: drawn in event order" in dom
    items = _picture(dom)
    assert items[0][1].get("data-ordered") == "true"
    xs = _mark_xs(items)
    assert len(xs) == len(m["events"])
    assert max(x for x, _ in xs) - min(x for x, _ in xs) > 0.8 * PLOT_W
    assert len({x for x, _ in xs}) == len(m["events"])  # one place per event: no stack
    labels = [text for _, text in _tick_labels(items)]
    assert len(labels) > 2 and all(text.startswith("#") for text in labels), labels  # event numbers
    cols = _marked_columns(_shot(page, fixture.__name__), _kinds_of(m))
    assert cols and cols[-1] - cols[0] > 0.8 * PLOT_W, (cols[:3], cols[-3:])


def test_a_long_session_with_idle_cuts_has_ticks_across_the_width_and_its_duration(tmp_path: Path) -> None:
    m = codex_long()
    page = _page(m, tmp_path, "codex_long")
    dom = _dump(page, tmp_path)
    items = _picture(dom)
    cuts = [a for tag, a, _ in items if tag == "g" and "cut" in _classes(a)]
    assert len(cuts) == CODEX_CUTS
    ticks = _tick_labels(items)
    assert len(ticks) > 2, ticks
    assert ticks[-1][0] - ticks[0][0] > 0.6 * PLOT_W, ticks  # not all at the start
    hours = [text for _, text in ticks if " h" in text]
    assert len(hours) >= 3, ticks  # ticks deep into the session, in hours
    assert "Duration: 17 h 04 min" in dom  # written, not only drawn
    xs = _mark_xs(items)
    assert max(r for _, r in xs) <= WIDTH - RIGHT + 0.01  # the end of the session is on the picture
    cols = _marked_columns(_shot(page, "codex_long"), _kinds_of(m))
    assert cols[-1] - cols[0] > 0.8 * PLOT_W


def test_prompts_are_visible_over_a_busy_lane(tmp_path: Path) -> None:
    """Eight prompts among 1200 calls and long llm marks: each is a mark of its own, in its own colour
    at full strength, drawn after (over) the lane's other marks."""
    m = busy_with_prompts()
    page = _page(m, tmp_path, "prompts")
    dom = _dump(page, tmp_path)
    items = _picture(dom)
    prompts = [i for i, (tag, a, _) in enumerate(items) if tag == "g" and "prompt" in _classes(a)]
    assert len(prompts) == PROMPTS
    others = [i for i, (tag, a, _) in enumerate(items) if tag == "rect" and "ev" in _classes(a)]
    assert others and max(others) < min(prompts)  # painted last, so on top
    width, height, rows = _shot(page, "prompts")
    amber = _rgb(KIND_COLOURS["user"])
    lanes = _lane_rows(rows)
    near_amber = {bytes((amber[0] + a, amber[1] + b, amber[2] + c)) for a in range(-4, 5)
                  for b in range(-4, 5) for c in range(0, 5)}
    cols = sorted({x for y in range(lanes[0], lanes[-1] + 1) for x in range(width)
                   if rows[y][3 * x:3 * x + 3] in near_amber})
    flags = [c for i, c in enumerate(cols) if i == 0 or c - cols[i - 1] > 2]
    assert len(flags) == PROMPTS, cols


def test_a_short_session_uses_the_full_width(tmp_path: Path) -> None:
    """45 minutes of VS Code Copilot (six requests, every event at its request's time): the axis spans
    the session, and the marks of the first and the last request are at its two ends."""
    m = vscode_short()
    page = _page(m, tmp_path, "vscode_short")
    dom = _dump(page, tmp_path)
    xs = _mark_xs(_picture(dom))
    assert max(r for _, r in xs) - min(x for x, _ in xs) > 0.8 * PLOT_W
    cols = _marked_columns(_shot(page, "vscode_short"), _kinds_of(m))
    assert cols[-1] - cols[0] > 0.8 * PLOT_W, (cols[:3], cols[-3:])
    assert "Duration: 45 min" in dom


def test_subagent_lane_labels_keep_their_counts(tmp_path: Path) -> None:
    m = long_subagent_lanes()
    dom = _dump(_page(m, tmp_path, "lanes"), tmp_path)
    labels = [text for tag, a, text in _picture(dom) if tag == "text" and "lanelabel" in _classes(a)]
    counts = {a["id"]: sum(e["agent"] == a["id"] for e in m["events"]) for a in m["agents"]}
    assert len(labels) == len(counts)
    for agent, n in counts.items():
        shown = next(text for text in labels if agent in text)
        assert shown.endswith(f"({n})"), shown  # the count, after the full label's tooltip and name
    assert any(LONG_TYPE not in text.split("(")[-2] for text in labels)  # the long name was cut


def test_the_public_report_names_the_path_mode_it_used(tmp_path: Path) -> None:
    """A map redacted under the public preset has hashed paths: the list of paths that leave says so."""
    import redact

    key_path = tmp_path / "key"
    key_path.write_text("5c" * 32)
    key_path.chmod(0o600)
    source = tmp_path / "session.json"
    source.write_text(json.dumps(clean_map(30)), encoding="utf-8")
    result = redact.redact_file(source, policy="public", key=redact.load_key_file(key_path))
    m = result.session_map
    assert m["session"]["pathMode"] == "hashed" and m["files"]
    dom = _dump(_page(m, tmp_path, "public", result.report.as_dict()), tmp_path)
    assert "Paths (relative)" not in dom
    assert "Paths (hashed" in dom


# The same cases on the real sessions of the shared corpus (skipped without it). Every session of the
# four agents the issue names is redacted and its picture checked as the page draws it; the longest
# Codex rollout is also drawn by chromium.

PICTURE_AGENTS = {"continue": "*.json", "aider": "*.chat.history.md", "copilot-vscode": "*.json",
                  "codex": "*.jsonl"}


def _corpus_sessions() -> list[Any]:
    from tests.conftest import corpus_dir

    from redact.batch.inputs import in_store
    from redact.formats.auxiliary import reason

    found = []
    for agent, pattern in PICTURE_AGENTS.items():
        for p in sorted(corpus_dir(agent).glob(pattern)):
            if reason(p) is not None:  # an index the session is read with (Continue's sessions.json)
                continue
            # a log of several launches (Aider's history) is a session per launch: FILE#N each
            found.extend(pytest.param(one, id=f"{agent}/{one.name[-48:]}") for one in in_store(p))
    return found


def _redacted(path: Path) -> Any:
    from redact.api import redact_file

    return redact_file(path, policy="default")  # a refusal is a failure: every param is one session


@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_params(_corpus_sessions))
def test_each_real_sessions_picture(path: Any) -> None:
    corpus_case(path)
    result = _redacted(path)
    m = result.session_map
    page = render(result.report.as_dict(), m, "html")
    assert "Duration: " in page
    if len(m["events"]) < 2:  # nothing to spread: the page still draws its one mark (or none)
        assert len(_mark_xs(_picture(page))) >= len(m["events"])
        return
    items = _picture(page)
    times = {e.get("t") for e in m["events"]}
    untimed = len(times - {None}) <= 1
    assert (items[0][1].get("data-ordered") == "true") is untimed
    assert ("No per-event times: drawn in event order" in page) is untimed
    assert "Duration: " in page
    xs = _mark_xs(items)
    assert max(r for _, r in xs) <= WIDTH - RIGHT + 0.01  # nothing pushed off the picture
    # the axis spans the session; in event order each of n events has a slot of the width, so the
    # marks span (n - 1) of n slots (a launch of two events: half of it)
    n = len(m["events"])
    assert max(r for _, r in xs) - min(x for x, _ in xs) > 0.8 * PLOT_W * ((n - 1) / n if untimed else 1)
    duration = m["session"].get("durationMs") or 0
    if not untimed and duration > 30 * 60_000:
        assert len(_tick_labels(items)) > 2
    labels = [text for tag, a, text in items if tag == "text" and "lanelabel" in _classes(a)]
    for label, agent in zip(labels, m["agents"]):
        n = sum(e.get("agent", "main") == agent["id"] for e in m["events"])
        assert label.endswith(f"({n})"), label
    users = sum(e["kind"] == "user" for e in m["events"])
    assert sum(1 for tag, a, _ in items if tag == "g" and "prompt" in _classes(a)) == users


@pytest.mark.corpus
def test_the_longest_real_codex_rollout_in_chromium(tmp_path: Path) -> None:
    from tests.conftest import corpus_dir

    path = max(corpus_dir("codex").glob("*.jsonl"), key=lambda p: p.stat().st_size)
    result = _redacted(path)
    m = result.session_map
    page = tmp_path / "codex.html"
    page.write_text(render(result.report.as_dict(), m, "html"), encoding="utf-8")
    dom = _dump(page, tmp_path)
    items = _picture(dom)
    ticks = _tick_labels(items)
    assert len(ticks) > 2 and ticks[-1][0] - ticks[0][0] > 0.5 * PLOT_W, ticks
    assert "Duration: " in dom
    cols = _marked_columns(_shot(page, "codex_corpus"), _kinds_of(m))
    assert cols[-1] - cols[0] > 0.8 * PLOT_W
