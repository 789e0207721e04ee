"""The Markdown audit report (GitHub-flavoured tables). Every value is escaped: `<`, `>` and `&` as
entities, other Markdown punctuation with a backslash, so nothing in the data becomes markup."""
from __future__ import annotations

from typing import Any

from audit.render.view import build_view, dropped_groups, facts, leaving_groups, masked_reasons

_PUNCT = set("\\`*_[]|~#!")
_ENTITIES = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}


def md(value: Any) -> str:
    out = []
    for ch in str(value):
        if ch in _ENTITIES:
            out.append(_ENTITIES[ch])
        elif ch in _PUNCT:
            out.append("\\" + ch)
        elif ch in "\r\n\t":
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out)


def _table(head: tuple[str, ...], rows: list[tuple[Any, ...]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(md(c) for c in row) + " |" for row in rows]
    return lines + [""]


def render_markdown(report: dict[str, Any], session_map: dict[str, Any] | None = None) -> str:
    view = build_view(report, session_map)
    verdict = view["verdict"]
    out = [f"# Pre-upload audit: {md(view['source'])}", "",
           f"**Verdict: {md(verdict['status'])}.** {md(verdict['summary'])}", ""]
    if view.get("whatPasses"):
        out += [md(view["whatPasses"]), ""]

    out += ["## Summary", ""]
    out += _table(("", ""), [(label, value) for label, value in facts(view)])

    out += ["## Scanner", ""]
    if view["scanner"]:
        out += _table(("Layer", "Verdict"), list(view["scanner"].items()))
    else:
        out += ["No scanner verdicts are recorded.", ""]
    out += ["### Findings", ""]
    if view["findings"]:
        out += _table(("Layer", "Rule", "What", "Pointer", "Places", "Excerpt (masked)", "From source field"),
                      [(f["layer"], f["rule"], f.get("message", ""), f["pointer"], f.get("places", 1),
                        f.get("excerpt", ""), f.get("sourceField", "")) for f in view["findings"]])
    else:
        out += ["None.", ""]

    out += ["## Identifiers in clear", "",
            ("Every identifier below leaves the machine as shown. Values that could be secret are "
             "masked (first characters and length)."), ""]
    reasons = masked_reasons(view)
    if view["identifiersInClear"]:
        rows = []
        for category, values in view["identifiersInClear"].items():
            for value in values:
                reason = reasons.get((category, value))
                rows.append((category, value, f"masked: {reason}" if reason else ""))
        out += _table(("Category", "Value", "Note"), rows)
    else:
        out += ["None: every identifier is hashed or dropped.", ""]
    if view["textKept"]:
        out += ["Text the policy keeps on purpose (it leaves as shown):", ""]
        out += _table(("Class", "Value"), [(cls, v) for cls, values in view["textKept"].items() for v in values])
    counts = [(cat, view["identifiersHashed"].get(cat, 0), view["identifiersDropped"].get(cat, 0))
              for cat in sorted(set(view["identifiersHashed"]) | set(view["identifiersDropped"]))]
    if counts:
        out += ["### Hashed or dropped", ""]
        out += _table(("Category", "Hashed", "Dropped"), counts)

    out += ["## Every other string that leaves", ""]
    if view["stringsLeaving"] is None:
        out += ["Not listed: there is no map to read them from (a native scrub).", ""]
    else:
        out += [("Besides the identifiers above, these strings leave the machine as shown, by the "
                 "class of their field (text fields never do: they are counted below)."), ""]
        for cls, title, values in leaving_groups(view):
            out += [f"### {md(title)} ({len(values)})", ""]
            out += [f"- `{md(v)}`" for v in values] + [""]

    out += ["## Events", "", "### By kind", ""]
    out += _table(("Kind", "Events"), list(view["eventsByKind"].items()))
    out += ["### By agent", ""]
    out += _table(("Agent", "Events"), list(view["eventsByAgent"].items()))

    out += ["## Dropped and unknown", ""]
    groups = dropped_groups(view)
    if not groups:
        out += ["Nothing was dropped, and the map holds nothing the format does not define.", ""]
    for title, column, items in groups:
        out += [f"### {md(title)}", ""]
        out += _table((column.capitalize(), "Count"), list(items.items()))

    out += ["## Warnings", ""]
    out += [f"- {md(w)}" for w in view["warnings"]] or ["None."]
    out += ["", f"_{md(view['reportFormat'])}_", ""]
    return "\n".join(out)
