"""The audit report renderers: each produces its format from the same safe view."""
from __future__ import annotations

import copy
import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from audit.render import format_for_path, render, write_report
from audit.render.view import build_view
from audit.report_of_map import report_of_map
from redact.errors import BadInput, UsageError
from tests.audit.render_fixtures import clean_map, redaction_report, with_findings

FORMATS = ("json", "md", "html")


class _Elements(HTMLParser):
    """Every start tag with its attributes, and the text of <style> elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.style = ""
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))
        self._in_style = tag == "style"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.style += data


def parse_html(page: str) -> _Elements:
    parser = _Elements()
    parser.feed(page)
    parser.close()
    return parser


def marks(page: str) -> list[dict[str, str]]:
    """One per event drawn: a `rect.ev`, or for a prompt the `g.ev.prompt` of its flag and stem."""
    return [a for t, a in parse_html(page).tags if t in ("rect", "g") and "ev" in a.get("class", "").split()]


def lanes(page: str) -> list[dict[str, str]]:
    return [a for t, a in parse_html(page).tags if t == "g" and a.get("class") == "lane"]


@pytest.fixture
def clean() -> tuple[dict[str, Any], dict[str, Any]]:
    m = clean_map()
    return report_of_map(m, source="clean.json", scan=False), m


# ---- the map -> report function ----------------------------------------------------------------

def test_report_of_map_counts_and_identifiers(clean: tuple[dict[str, Any], dict[str, Any]]) -> None:
    report, m = clean
    assert report["eventCount"] == len(m["events"])
    assert sum(report["eventsByKind"].values()) == len(m["events"])
    assert set(report["eventsByAgent"]) == {"main", "sa-0a1b2c3d4e5f", "sa-9f8e7d6c5b4a"}
    assert report["pathMode"] == "relative" and report["pathModeDeclared"] is True
    assert report["contentHashMatches"] is True and report["contentHash"] == m["contentHash"]
    clear = report["identifiersInClear"]
    assert clear["model"] == ["claude-haiku-4-5", "claude-opus-4-5", "claude-sonnet-4-5"]
    assert "h:aaaaaaaaaaaa" not in clear.get("skill", [])  # hash tokens are not in clear
    assert report["identifiersHashed"] == {"skill": 4, "subagent_type": 1}
    assert report["unknownFields"] == {} and report["textFields"] == {}


def test_report_of_map_sees_unknown_and_text_and_bad_hash() -> None:
    m = clean_map()
    m["session"]["hostName"] = "box"
    m["events"][0]["prompt"] = "some words"
    m["events"].append({"seq": 99, "t": 1, "kind": "mystery", "agent": "main"})
    m["tasks"] = [{"n": 1, "name": "Fix the thing"}]
    report = report_of_map(m, scan=False)
    assert report["unknownFields"] == {"/events/*/prompt": 1, "/session/<unknown field>": 1}
    assert report["unknownEvents"] == {"unknown kind": 1}
    assert report["eventsByKind"]["<unknown kind>"] == 1
    assert report["textFields"] == {"/tasks/*/name": 1}
    assert report["contentHashMatches"] is False  # edited after the hash was written
    assert any("does not match" in w for w in report["warnings"])


def test_report_of_map_path_mode_undeclared_and_off_shape() -> None:
    m = clean_map()
    del m["session"]["pathMode"]
    m["files"].append({"id": 1, "path": "/home/alice/x.py"})
    report = report_of_map(m, scan=False)
    assert report["pathMode"] == "relative" and report["pathModeDeclared"] is False
    assert any("1 of 2 file paths" in w for w in report["warnings"])


@pytest.mark.parametrize("raw", [[], "x", {"schema": "other/v1", "events": []},
                                 {"schema": "agentplay/v1", "events": {}}])
def test_report_of_map_refuses_non_maps(raw: Any) -> None:
    with pytest.raises(BadInput):
        report_of_map(raw, scan=False)


# ---- JSON --------------------------------------------------------------------------------------

def test_render_json_round_trips_the_fields(clean: tuple[dict[str, Any], dict[str, Any]]) -> None:
    report, m = clean
    out = json.loads(render(report, m, "json"))
    for key in ("pathMode", "contentHash", "contentHashMatches", "eventCount", "eventsByKind",
                "eventsByAgent", "identifiersInClear", "identifiersHashed", "unknownFields",
                "textFields", "warnings", "findings", "scanner"):
        assert out[key] == report[key], key
    assert out["source"] == "clean.json"
    assert out["auditOf"] == "map"
    assert [lane["events"] for lane in out["timeline"]["lanes"]] == [40, 10, 10]


def test_render_json_of_a_redaction_report() -> None:
    report = with_findings(redaction_report())
    out = json.loads(render(report, None, "json"))
    for key in ("inputFormat", "pathMode", "requestedMode", "keyFingerprint", "policy", "contentHash",
                "eventsByKind", "identifiersInClear", "identifiersHashed", "identifiersDropped",
                "droppedFields", "droppedValues", "droppedEvents", "skippedRecords", "warnings",
                "scanner", "findings"):
        assert out[key] == report[key], key
    assert out["source"] == "log.jsonl"  # the file's name, not the folders of the person's home
    assert out["verdict"]["status"] == "findings"
    assert out["timeline"] is None


def test_render_json_keeps_the_scanners_masked_forms() -> None:
    report = with_findings(redaction_report())
    report["findings"].append({"layer": "grammar", "rule": "grammar.unknown-field",
                               "pointer": "/session/<key:note\u2026(31 chars)>", "excerpt": "<number>"})
    report["findings"].append({"layer": "taint", "rule": "taint.source-phrase", "pointer": "/tasks/0/name",
                               "excerpt": "Fix \u2026(44 chars)",
                               "sourceField": "assistant:message.content[].text"})
    out = json.loads(render(report, None, "json"))["findings"]
    assert [f["layer"] for f in out] == ["grammar", "secrets", "taint"]
    assert out[0]["pointer"] == "/session/<key:note\u2026(31 chars)>" and out[0]["excerpt"] == "<number>"
    assert out[0]["message"] == "a field the agentplay/v1 table does not define"
    assert out[2]["excerpt"] == "Fix \u2026(44 chars)"
    assert out[2]["sourceField"] == "assistant:message.content[].text"


def test_render_is_deterministic(clean: tuple[dict[str, Any], dict[str, Any]]) -> None:
    report, m = clean
    shuffled = {k: report[k] for k in reversed(list(report))}
    shuffled["identifiersInClear"] = {k: list(reversed(v)) for k, v in report["identifiersInClear"].items()}
    for fmt in FORMATS:
        assert render(report, m, fmt) == render(shuffled, copy.deepcopy(m), fmt)


# ---- Markdown ----------------------------------------------------------------------------------

def test_render_markdown_has_the_sections(clean: tuple[dict[str, Any], dict[str, Any]]) -> None:
    report, m = clean
    page = render(report, m, "md")
    for heading in ("# Pre-upload audit: clean.json", "## Summary", "## Scanner", "### Findings",
                    "## Identifiers in clear", "## Events", "### By kind", "### By agent",
                    "## Dropped and unknown", "## Warnings"):
        assert f"\n{heading}\n" in "\n" + page, heading
    assert "| Key fingerprint | not recorded in the map |" in page
    assert "claude-sonnet-4-5" in page and m["contentHash"] in page
    red = render(with_findings(redaction_report()), None, "md")
    assert "| Policy | public (hash " + "ab" * 32 + ") |" in red
    assert ("| secrets | secrets.github-token | a credential-shaped value | /repos/0/remote | 2 | "
            "ghp\\_\u2026(40 chars) |  |") in red
    assert "### Unknown fields dropped" in red


# ---- HTML --------------------------------------------------------------------------------------

def test_render_html_is_self_contained(clean: tuple[dict[str, Any], dict[str, Any]]) -> None:
    report, m = clean
    page = render(report, m, "html")
    doc = parse_html(page)
    for tag, attrs in doc.tags:
        assert tag not in ("script", "link", "img", "iframe", "object", "embed", "image", "use"), tag
        for name, value in attrs.items():
            assert name not in ("src", "href", "xlink:href", "srcset", "action") and not name.startswith("on")
            assert "http" not in value and "//" not in value, (tag, name)
    assert "url(" not in doc.style and "@import" not in doc.style
    assert not re.search(r"(?:src|href)\s*=|url\(|@import", page, re.IGNORECASE)
    csp = [a["content"] for t, a in doc.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert csp and csp[0].startswith("default-src 'none'")  # refuses any load a later edit might add


def test_render_html_draws_one_lane_per_agent_and_one_mark_per_event(
        clean: tuple[dict[str, Any], dict[str, Any]]) -> None:
    report, m = clean
    page = render(report, m, "html")
    assert len(lanes(page)) == len(m["agents"])
    assert [a["data-agent"] for a in lanes(page)] == [a["id"] for a in m["agents"]]
    drawn = marks(page)
    assert len(drawn) == len(m["events"])
    kinds = {c.split()[1] for c in (a["class"] for a in drawn)}
    assert kinds == {f"k-{e['kind']}" for e in m["events"]}
    assert sum("err" in a["class"].split() for a in drawn) == sum(bool(e.get("err")) for e in m["events"])
    for kind in {e["kind"] for e in m["events"]}:  # a legend entry per kind drawn
        assert f'class="sw k-{kind}"' in page


def test_render_html_extra_lanes_and_unknown_kinds() -> None:
    m = clean_map(10)
    m["events"].append({"seq": 10, "t": 500, "kind": "mystery", "agent": "sa-111111111111"})
    m["events"].append({"seq": 11, "t": "soon", "kind": "llm"})
    page = render(report_of_map(m, scan=False), m, "html")
    assert len(lanes(page)) == len(m["agents"]) + 1  # an agent seen only in events gets a lane
    assert len(marks(page)) == len(m["events"]) - 1  # the event without a time is not drawn
    assert "1 events have no usable time" in page
    assert any("k-other" in a["class"] for a in marks(page))


def test_render_html_escapes_a_planted_script_identifier() -> None:
    m = clean_map(10)
    m["events"][2]["tool"] = "<script>alert(1)</script>"
    m["events"][3]["agent"] = '"><script>alert(2)</script>'
    m["agents"][1]["subagentType"] = "<img/src=x/onerror=alert(3)>"
    report = report_of_map(m, scan=False)
    assert "<script>alert(1)</script>" in report["identifiersInClear"]["tool"]
    page = render(report, m, "html")
    assert "<script" not in page.lower() and "<img" not in page.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # shown, as text
    assert all(tag != "script" for tag, _ in parse_html(page).tags)
    md = render(report, m, "md")
    assert "<script" not in md and "<img" not in md
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in md


def test_render_html_without_a_map_has_no_picture() -> None:
    page = render(redaction_report(), None, "html")
    assert "No map was given" in page and not marks(page)


# ---- view, write_report, boundaries ------------------------------------------------------------

def test_render_takes_a_redaction_report_object() -> None:
    from collections import Counter

    from redact.report import RedactionReport

    rr = RedactionReport(source="in.json", policy_name="public", policy_hash="ab" * 32,
                         key_fingerprint="0123456789abcdef", content_hash="cd" * 32)
    rr.events_by_kind.update({"llm": 2})
    rr.dropped_fields = Counter({"/session/hostName": 1})
    rr.scanner = {"grammar": "clean"}
    out = json.loads(render(rr, None, "json"))
    assert out["keyFingerprint"] == "0123456789abcdef" and out["policy"]["name"] == "public"
    assert out["droppedFields"] == {"/session/hostName": 1} and out["eventsByKind"] == {"llm": 2}
    assert "| Key fingerprint | 0123456789abcdef |" in render(rr, None, "md")


def test_the_library_renderers_do_not_import_rich_or_typer() -> None:
    import subprocess
    import sys

    code = ("import sys, audit.render, audit.report_of_map; "
            "sys.exit(int('rich' in sys.modules or 'typer' in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2]).returncode == 0


def test_verdicts() -> None:
    assert build_view(redaction_report())["verdict"]["status"] == "clean"
    assert build_view(with_findings(redaction_report()))["verdict"]["status"] == "findings"
    no_scan = dict(redaction_report(), scanner={})
    assert build_view(no_scan)["verdict"]["status"] == "not scanned"
    skipped = copy.deepcopy(redaction_report())
    skipped["scanner"] = {"grammar": "pass", "secrets": "pass", "taint": "skipped", "language": "pass"}
    one = build_view(skipped)["verdict"]
    assert one["status"] == "clean" and "skipped: taint (it needs the source log)" in one["summary"]
    skipped["scanner"]["secrets"] = "fail"
    assert build_view(skipped)["verdict"]["status"] == "findings"
    odd = dict(redaction_report(), scanner={"grammar": "pass", "secrets": "timeout"})
    assert build_view(odd)["verdict"]["status"] == "incomplete"
    assert build_view(dict(redaction_report(), scanner={"taint": "skipped"}))["verdict"]["status"] == "incomplete"


def test_write_report_chooses_the_format_by_extension(tmp_path: Path,
                                                      clean: tuple[dict[str, Any], dict[str, Any]]) -> None:
    report, m = clean
    for name, fmt in (("r.json", "json"), ("r.md", "md"), ("r.html", "html"), ("R.HTM", "html")):
        assert write_report(report, m, tmp_path / name) == fmt
        assert (tmp_path / name).read_text(encoding="utf-8") == render(report, m, fmt)
    assert format_for_path("x.markdown") == "md"
    with pytest.raises(UsageError):
        write_report(report, m, tmp_path / "r.txt")
    assert not (tmp_path / "r.txt").exists()
    with pytest.raises(UsageError):
        render(report, m, "terminal")  # the CLI's, through rich


@pytest.mark.parametrize(("mode", "heading"), [("relative", "Paths (relative)"), ("dirs_only", "Paths (dirs_only"),
                                               ("hashed", "Paths (hashed"), (None, "declares no path mode")])
def test_the_paths_heading_names_the_maps_own_mode(mode: str | None, heading: str) -> None:
    """Read from the map (its paths are what is listed), whatever the report says it asked for."""
    m = clean_map()
    if mode is None:
        del m["session"]["pathMode"]
    else:
        m["session"]["pathMode"] = mode
    report = redaction_report()  # says dirs_only, asked for hashed
    for fmt in ("html", "md"):
        page = html.unescape(render(report, m, fmt)).replace("\\", "")  # markdown escapes `_`
        assert heading in page
        others = {"relative", "dirs_only", "hashed"} - {mode}
        assert not any(f"Paths ({o}" in page for o in others)


def test_every_format_writes_the_duration() -> None:
    m = clean_map()
    m["session"]["durationMs"] = 3 * 3_600_000 + 25 * 60_000
    for fmt in ("html", "md"):
        page = html.unescape(render(report_of_map(m, scan=False), m, fmt))
        assert "3 h 25 min (the session's durationMs)" in page
    del m["session"]["durationMs"]
    assert "2 min (from the session's start to the last time it records" in render(report_of_map(m, scan=False), m, "md")
    for ev in m["events"]:
        ev["t"] = 0
    assert "| Duration | not recorded |" in render(report_of_map(m, scan=False), m, "md")
