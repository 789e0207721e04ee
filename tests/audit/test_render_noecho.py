"""No echo (issue 4, item 9): canaries planted everywhere a value could slip into a report; none of
them may appear in any byte of any format, escaped or not.

Each canary hides a unique marker (`Q7x` + 12 hex) after its first characters, so the masked form
(at most four leading characters and a length) never contains it, while any echo of the value, even
a partial or escaped one, does.
"""
from __future__ import annotations

import hashlib
import html
import io
import json
from typing import Any

import pytest
from rich.console import Console

from audit.render import render
from audit.render.terminal import render_terminal
from audit.report_of_map import report_of_map
from tests.audit.render_fixtures import clean_map, redaction_report

_MARKERS: list[str] = []


def canary(template: str) -> str:
    """`template` with `{}` replaced by a fresh marker (after the first 4 characters)."""
    marker = "Q7x" + hashlib.sha256(f"{template}{len(_MARKERS)}".encode()).hexdigest()[:12]
    _MARKERS.append(marker)
    return template.format(marker)


def planted_map() -> dict[str, Any]:
    m = clean_map(20)
    m["tasks"] = [{"n": 1, "name": canary("Fix the refund bug {} for Globex")}]
    m["events"].append({"seq": 20, "t": 41000, "kind": "artifact", "agent": "main",
                        "title": canary("Quarterly plan {} draft")})
    m["session"]["hostName"] = canary("alice-{}.corp.internal")  # an unknown field's value
    m["session"][canary("note {} the user wrote")] = 1  # an unknown field's name
    first = {}
    for ev in m["events"]:
        first.setdefault(ev["kind"], ev)
    first["user"]["prompt"] = canary("please {} delete the prod db")
    first["read"]["tool"] = canary("tool with {} spaces")  # an identifier with white space
    first["web"]["host"] = canary("a" * 80 + "{}.example.org")  # longer than 80
    first["mcp"]["server"] = "ghp_" + canary("{}") + "abcdefghij0123456789ab"  # secret-shaped
    first["error"]["hook"] = canary("bob.{}@example.com")  # an e-mail address
    m["prs"][0]["url"] = "https://bob:" + canary("pw{}") + "@github.com/acme/x/pull/1"
    m["events"][14]["agent"] = canary("lane {} words")  # an agent id that is text
    m["agents"].append({"id": canary("agent-{}-" + "z" * 40), "kind": "subagent",
                        "subagentType": canary("Explore {} now")})
    m["events"][13]["kind"] = canary("kind {} words")  # an unknown kind
    aws = canary("{}").upper().replace("X", "Z") + "W"  # AWS-key-shaped: AKIA + 16 of [0-9A-Z]
    _MARKERS.append(aws)
    m["repos"][0]["remote"] = "AKIA" + aws
    return m


def planted_report() -> dict[str, Any]:
    r = redaction_report()
    r["source"] = "/home/" + canary("user{}") + "/sessions/log.jsonl"
    r["policy"] = {"name": canary("my policy {}"), "hash": canary("notahex{}")}
    r["keyFingerprint"] = canary("key{}")
    r["identifiersInClear"]["remote"] = [canary("acme/api {}")]
    r["droppedFields"][f"/session/{canary('word {} word')}"] = 1
    r["droppedEvents"][canary("because {}")] = 1
    r["skippedRecords"][canary("record type {} with words")] = 2
    r["eventsByAgent"][canary("agent {}")] = 1
    r["scanner"][canary("layer{}" + "x" * 40)] = canary("verdict {}")
    r["findings"] = [
        {"layer": "secrets", "rule": "github-token", "pointer": "/repos/0/remote",
         "excerpt": "ghp_" + canary("{}") + "0" * 20},  # a scanner that forgot to mask
        {"layer": "taint", "rule": "source-text", "pointer": "/events/3/" + canary("field{}" + "y" * 40),
         "excerpt": canary("the {} excerpt"), "sourceField": "/message/content/" + canary("{0}{0}{0}{0}")},
        {"layer": canary("layer {} x"), "rule": canary("rule {} y"), "pointer": canary("{} no slash"),
         "message": canary("a message {} built from a value"), "places": canary("{}")},
    ]
    return r


def _variants(marker: str) -> set[str]:
    return {marker, marker.lower(), html.escape(marker), json.dumps(marker)[1:-1],
            "".join("\\" + c if c in "\\`*_[]|~#!" else c for c in marker)}


def _terminal(report: dict[str, Any], m: dict[str, Any] | None) -> str:
    buf = io.StringIO()
    render_terminal(report, m, Console(file=buf, width=1000, color_system=None, highlight=False))
    return buf.getvalue()


def _cases() -> list[tuple[str, dict[str, Any], dict[str, Any] | None]]:
    m = planted_map()
    return [("map", report_of_map(m, source="/home/" + canary("u{}") + "/m.json", scan=False), m),
            ("report", planted_report(), planted_map())]


@pytest.mark.parametrize("fmt", ["json", "md", "html", "terminal"])
def test_no_canary_in_any_report_byte(fmt: str) -> None:
    for name, report, m in _cases():
        out = _terminal(report, m) if fmt == "terminal" else render(report, m, fmt)
        data = out.encode("utf-8")
        squashed = "".join(out.split()).encode("utf-8")  # a value wrapped across lines
        for marker in _MARKERS:
            for variant in _variants(marker):
                assert variant.encode() not in data, (name, fmt, marker)
                assert variant.encode() not in squashed, (name, fmt, marker)


def test_masked_values_are_announced_not_dropped() -> None:
    m = planted_map()
    view = json.loads(render(report_of_map(m, scan=False), m, "json"))
    reasons = {(x["category"], x["reason"]) for x in view["maskedIdentifiers"]}
    assert ("tool", "contains white space or invisible characters") in reasons
    assert ("host", "longer than 80 characters") in reasons
    assert ("hook", "contains an e-mail address") in reasons
    assert ("pr", "contains URL credentials") in reasons
    assert ("mcp_server", "looks like a secret") in reasons
    assert ("remote", "looks like a secret") in reasons
    masked = [v for vals in view["identifiersInClear"].values() for v in vals if "\u2026(" in v]
    assert len(masked) == len(view["maskedIdentifiers"])


def test_the_plain_identifiers_are_still_shown() -> None:
    m = planted_map()
    page = render(report_of_map(m, scan=False), m, "html")
    for value in ("claude-sonnet-4-5", "search_code", "TodoWrite", "orders-api", "Explore"):
        assert value in page
