"""The HTML audit report: one self-contained page (inline CSS, an inline SVG picture, no script).

Nothing is fetched: no external stylesheet, font, image or script, and a Content-Security-Policy
(`default-src 'none'`) makes the browser refuse any load a future edit might add. Every value is
HTML-escaped (`html.escape`, quotes included).
"""
from __future__ import annotations

from html import escape
from typing import Any

from audit.render.timeline import (
    GUTTER,
    RIGHT,
    WIDTH,
    build_axis,
    build_timeline,
    describe,
    kind_css,
    legend_html,
    timeline_svg,
)
from audit.render.view import build_view, dropped_groups, facts, leaving_groups, masked_reasons

_CSS = """
:root{color-scheme:light}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;margin:0;
 background:#f6f8fa}
main{max-width:1040px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 12px}
h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
h3{font-size:14px;margin:16px 0 6px}
section{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:12px 16px;margin:12px 0}
section>h2:first-child{margin-top:4px}
table{border-collapse:collapse;margin:4px 0 8px;font-size:13px}
th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa;font-weight:600}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;
 word-break:break-all}
.verdict{border-radius:6px;padding:10px 14px;font-weight:600;margin:8px 0 4px}
.verdict.clean{background:#dafbe1;border:1px solid #4ac26b}
.verdict.findings{background:#ffebe9;border:1px solid #ff8182}
.verdict.not-scanned,.verdict.incomplete{background:#fff8c5;border:1px solid #d4a72c}
.masked{color:#9a6700}
code.masked{white-space:nowrap;word-break:normal}
code.ptr{word-break:normal;overflow-wrap:normal}
td.v-pass,td.v-clean{color:#1a7f37;font-weight:600}
td.v-fail,td.v-findings{color:#d1242f;font-weight:600}
td.v-skipped{color:#9a6700}
.muted{color:#59636e}
ul.legend{list-style:none;padding:0;margin:8px 0 0;display:flex;flex-wrap:wrap;gap:4px 16px}
ul.legend li{display:flex;align-items:center;gap:5px;font-size:12px}
ul.legend .n{color:#59636e}
.picture{overflow-x:auto}
ul.leaving{columns:2 320px;margin:4px 0 8px;padding-left:18px}
details>summary{cursor:pointer;font-weight:600;margin:6px 0}
svg.timeline{display:block;font-size:11px}
svg.timeline .lanebg{fill:#fbfcfd;stroke:#eaeef2}
svg.timeline .active{fill:#eef2f7}
svg.timeline .tick{stroke:#d8dee4;stroke-width:1}
svg.timeline .ticklabel{fill:#59636e;text-anchor:middle}
svg.timeline .lanelabel{fill:#1f2328;text-anchor:end;font-family:ui-monospace,Menlo,Consolas,monospace}
svg.timeline .ev{opacity:.9}
svg.timeline .ev.long{opacity:.45}
svg.timeline .ev.dense{opacity:.85}
svg.timeline .ev.prompt{opacity:1}
ul.facts{margin:4px 0 8px;padding-left:18px}
svg.timeline .cutband{fill:#fff;opacity:.92}
svg.timeline .cutmark{stroke:#8c959f;stroke-width:1.5;fill:none}
.ev.err,.sw.err{stroke:#d1242f;stroke-width:1.5;fill-opacity:.9}
.sw.err{fill:#fff}
"""

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; form-action 'none'"


def h(value: Any) -> str:
    return escape(str(value), quote=True)


def _table(head: tuple[str, ...], rows: list[tuple[Any, ...]], numeric: tuple[int, ...] = ()) -> str:
    ths = "".join(f'<th{" class=n" if i in numeric else ""}>{h(c)}</th>' for i, c in enumerate(head))
    body = []
    for row in rows:
        tds = "".join(f'<td{" class=n" if i in numeric else ""}>{c}</td>' for i, c in enumerate(row))
        body.append(f"<tr>{tds}</tr>")
    return f"<table><thead><tr>{ths}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _counts(head: str, items: dict[str, int], mono: bool = True) -> str:
    cls = ' class="mono"' if mono else ""
    return _table((head, "Count"), [(f"<span{cls}>{h(k)}</span>", h(n)) for k, n in items.items()], (1,))


def _pointer(pointer: Any) -> str:
    """A JSON pointer that wraps only after a `/`, never inside a key or a number."""
    return '<code class="ptr">' + "/<wbr>".join(h(part) for part in str(pointer).split("/")) + "</code>"


def _summary(view: dict[str, Any]) -> str:
    rows = "".join(f"<tr><th>{h(label)}</th><td class=mono>{h(value)}</td></tr>"
                   for label, value in facts(view))
    return f"<table>{rows}</table>"


def _scanner(view: dict[str, Any]) -> str:
    parts = ["<h2>Scanner</h2>"]
    if view["scanner"]:
        rows = "".join(f'<tr><td>{h(k)}</td><td class="v-{h(v)}">{h(v)}</td></tr>'
                       for k, v in view["scanner"].items())
        parts.append(f"<table><thead><tr><th>Layer</th><th>Verdict</th></tr></thead><tbody>{rows}</tbody></table>")
    else:
        parts.append('<p class="muted">No scanner verdicts are recorded.</p>')
    parts.append(f"<h3>Findings ({len(view['findings'])})</h3>")
    if view["findings"]:
        found = [(h(f["layer"]), h(f["rule"]), h(f.get("message", "")), _pointer(f["pointer"]),
                  h(f.get("places", 1)), f'<code class="masked">{h(f.get("excerpt", ""))}</code>',
                  f'<code>{h(f.get("sourceField", ""))}</code>') for f in view["findings"]]
        parts.append(_table(("Layer", "Rule", "What", "Pointer", "Places", "Excerpt (masked)",
                             "From source field"), list(found), (4,)))
    else:
        parts.append('<p class="muted">None.</p>')
    return "<section id=scanner>" + "".join(parts) + "</section>"


def _identifiers(view: dict[str, Any]) -> str:
    parts = ["<h2>Identifiers in clear</h2>",
             ("<p>Every identifier below leaves the machine as shown. Values that could be secret are "
              'masked (<span class="masked">first characters…(length)</span>).</p>')]
    reasons = masked_reasons(view)
    if view["identifiersInClear"]:
        rows = []
        for category, values in view["identifiersInClear"].items():
            for value in values:
                reason = reasons.get((category, value))
                cell = (f'<code class="masked">{h(value)}</code> <span class="muted">masked: {h(reason)}'
                        "</span>" if reason else f"<code>{h(value)}</code>")
                rows.append((h(category), cell))
        parts.append(_table(("Category", "Value"), rows))
    else:
        parts.append('<p class="muted">None: every identifier is hashed or dropped.</p>')
    cats = sorted(set(view["identifiersHashed"]) | set(view["identifiersDropped"]))
    if cats:
        parts.append("<h3>Hashed or dropped</h3>")
        parts.append(_table(("Category", "Hashed", "Dropped"),
                            [(h(c), h(view["identifiersHashed"].get(c, 0)),
                              h(view["identifiersDropped"].get(c, 0))) for c in cats], (1, 2)))
    return "<section id=identifiers>" + "".join(parts) + "</section>"


def _leaving(view: dict[str, Any]) -> str:
    parts = ["<h2>Every other string that leaves</h2>"]
    if view["stringsLeaving"] is None:
        parts.append('<p class="muted">Not listed: there is no map to read them from (a native scrub).</p>')
    else:
        parts.append("<p>Besides the identifiers above, these strings leave the machine as shown, by the class "
                     "of their field (text fields never do: they are counted, not kept).</p>")
        for _cls, title, values in leaving_groups(view):
            items = "".join(f"<li><code>{h(v)}</code></li>" for v in values)
            parts.append(f'<details open><summary>{h(title)} ({len(values)})</summary><ul class="leaving">'
                         f"{items}</ul></details>")
    return "<section id=leaving>" + "".join(parts) + "</section>"


def _picture(session_map: dict[str, Any] | None) -> str:
    if not isinstance(session_map, dict):
        return ('<section id=picture><h2>Session</h2><p class="muted">No map was given: '
                "no picture.</p></section>")
    tl = build_timeline(session_map)
    axis = build_axis(tl, WIDTH - GUTTER - RIGHT)
    facts_of = "".join(f"<li>{h(line)}</li>" for line in describe(tl, axis))
    if tl.ordered:
        how = ("Events in event order, one lane per agent, coloured by kind; prompts are flags at the top "
               "of their lane, over the other marks.")
    else:
        how = ("Events over time, one lane per agent, coloured by kind; prompts are flags at the top of "
               "their lane, over the other marks. A mark's width is the call's duration when the map "
               "records one (at least 2 px). Long gaps between events are cut (a narrow band with "
               "slashes); a crowded lane is drawn as density columns (height: share of events, colour: "
               "the most frequent kind).")
    return ("<section id=picture><h2>Session</h2>"
            f'<p class="muted">{h(how)}</p><ul class="facts">{facts_of}</ul>'
            f'<div class="picture">{timeline_svg(tl, axis)}</div>{legend_html(tl)}</section>')


def _events(view: dict[str, Any]) -> str:
    return ("<section id=events><h2>Events</h2><div style=\"display:flex;gap:32px;flex-wrap:wrap\">"
            f"<div><h3>By kind</h3>{_counts('Kind', view['eventsByKind'])}</div>"
            f"<div><h3>By agent</h3>{_counts('Agent', view['eventsByAgent'])}</div></div></section>")


def _dropped(view: dict[str, Any]) -> str:
    parts = ["<h2>Dropped and unknown</h2>"]
    groups = dropped_groups(view)
    if not groups:
        parts.append('<p class="muted">Nothing was dropped, and the map holds nothing the format '
                     "does not define.</p>")
    for title, column, items in groups:
        parts.append(f"<h3>{h(title)}</h3>{_counts(column.capitalize(), items)}")
    return "<section id=dropped>" + "".join(parts) + "</section>"


def _warnings(view: dict[str, Any]) -> str:
    items = "".join(f"<li>{h(w)}</li>" for w in view["warnings"])
    body = f"<ul>{items}</ul>" if items else '<p class="muted">None.</p>'
    return f"<section id=warnings><h2>Warnings</h2>{body}</section>"


def render_html(report: dict[str, Any], session_map: dict[str, Any] | None = None) -> str:
    view = build_view(report, session_map)
    verdict = view["verdict"]
    status_cls = verdict["status"].replace(" ", "-")
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{h(_CSP)}">',
        '<meta name="referrer" content="no-referrer">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Pre-upload audit: {h(view['source'])}</title>",
        f"<style>{_CSS}{kind_css()}</style></head><body><main>",
        f"<h1>Pre-upload audit: <span class=mono>{h(view['source'])}</span></h1>",
        (f'<div class="verdict {h(status_cls)}">Verdict: {h(verdict["status"])}. '
         f'<span style="font-weight:400">{h(verdict["summary"])}</span></div>'),
        (f'<p class="passes">{h(view["whatPasses"])}</p>' if view.get("whatPasses") else ""),
        f"<section id=summary><h2>Summary</h2>{_summary(view)}</section>",
        _picture(session_map),
        _scanner(view),
        _identifiers(view),
        _leaving(view),
        _events(view),
        _dropped(view),
        _warnings(view),
        f'<p class="muted">{h(view["reportFormat"])}</p>',
        "</main></body></html>",
        "",
    ])
