"""The HTML report in a real browser: Debian's headless chromium parses the page (the DOM it builds
has one lane per agent and one mark per event) and paints it (the screenshot is not blank and shows
the kind colours). Skipped when /usr/bin/chromium is absent."""
from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from audit.render import render
from audit.render.timeline import KIND_COLOURS
from audit.report_of_map import report_of_map
from tests.audit.render_fixtures import clean_map

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
    assert dom.count('<rect class="ev ') == len(m["events"])
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
