"""The terminal audit report, drawn with rich. CLI ONLY: only `redact/cli/audit_cmd.py` imports this
module (STYLE.md: only the CLI imports typer and rich); the library renderers do not.

Every value goes into a `rich.text.Text` (never into markup), so nothing in the data is read as rich
markup or emoji codes; values come from the same safe view as every other format.
"""
from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from audit.render.view import build_view, dropped_groups, facts, leaving_groups, masked_reasons

_STATUS_STYLE = {"clean": "bold green", "findings": "bold red", "not scanned": "bold yellow",
                 "incomplete": "bold yellow"}


def _t(value: Any, style: str = "") -> Text:
    return Text(str(value), style=style)


def _counts(title: str, head: str, items: dict[str, int]) -> Group:
    table = Table(show_edge=False, pad_edge=False)
    table.add_column(head, overflow="fold")
    table.add_column("Count", justify="right")
    for key, n in items.items():
        table.add_row(_t(key), _t(n))
    return Group(_t(title, "bold"), table)


def render_terminal(report: dict[str, Any], session_map: dict[str, Any] | None,
                    console: Console) -> None:
    view = build_view(report, session_map)
    verdict = view["verdict"]
    style = _STATUS_STYLE.get(verdict["status"], "bold")
    head = Text.assemble(("Verdict: ", "bold"), (verdict["status"], style), ". ", verdict["summary"],
                         *(("\n", view["whatPasses"]) if view.get("whatPasses") else ()))
    console.print(Panel(head, title=Text(f"Pre-upload audit: {view['source']}"), title_align="left"))

    summary = Table(show_header=False, show_edge=False, pad_edge=False)
    summary.add_column(style="bold")
    summary.add_column(overflow="fold")
    for label, value in facts(view):
        summary.add_row(_t(label), _t(value))
    console.print(summary)
    console.print()

    scanner = Table(title="Scanner", title_justify="left", show_edge=False, pad_edge=False)
    scanner.add_column("Layer")
    scanner.add_column("Verdict")
    for layer, value in view["scanner"].items():
        scanner.add_row(_t(layer), _t(value, "green" if value in ("clean", "pass", "ok") else "red"))
    console.print(scanner if view["scanner"] else Text("Scanner: no verdicts recorded.", "yellow"))
    if view["findings"]:
        findings = Table(title=f"Findings ({len(view['findings'])})", title_justify="left")
        for col in ("Layer", "Rule", "What", "Pointer", "Places", "Excerpt (masked)", "From source field"):
            findings.add_column(col, overflow="fold")
        for f in view["findings"]:
            findings.add_row(_t(f["layer"]), _t(f["rule"]), _t(f.get("message", "")), _t(f["pointer"]),
                             _t(f.get("places", 1)), _t(f.get("excerpt", ""), "yellow"),
                             _t(f.get("sourceField", "")))
        console.print(findings)
    console.print()

    idents = Table(title="Identifiers in clear (leave the machine as shown)", title_justify="left",
                   show_edge=False, pad_edge=False)
    idents.add_column("Category")
    idents.add_column("Value")
    reasons = masked_reasons(view)
    for category, values in view["identifiersInClear"].items():
        for value in values:
            reason = reasons.get((category, value))
            cell = Text.assemble((value, "yellow"), f"  masked: {reason}") if reason else _t(value)
            idents.add_row(_t(category), cell)
    console.print(idents if view["identifiersInClear"] else Text("Identifiers in clear: none."))
    cats = sorted(set(view["identifiersHashed"]) | set(view["identifiersDropped"]))
    if cats:
        hashed = Table(title="Identifiers hashed or dropped", title_justify="left", show_edge=False,
                       pad_edge=False)
        for col in ("Category", "Hashed", "Dropped"):
            hashed.add_column(col, justify="left" if col == "Category" else "right")
        for c in cats:
            hashed.add_row(_t(c), _t(view["identifiersHashed"].get(c, 0)),
                           _t(view["identifiersDropped"].get(c, 0)))
        console.print(hashed)
    console.print()

    if view["stringsLeaving"] is None:
        console.print(Text("Other strings that leave: not listed (no map to read them from)."))
    elif view["stringsLeaving"]:
        leaving = Table(title="Every other string that leaves the machine as shown", title_justify="left",
                        show_edge=False, pad_edge=False)
        leaving.add_column("Class")
        leaving.add_column("Value", overflow="fold")
        for _cls, title, values in leaving_groups(view):
            for i, value in enumerate(values):
                leaving.add_row(_t(f"{title} ({len(values)})" if i == 0 else ""), _t(value))
        console.print(leaving)
    console.print()

    grid = Table.grid(padding=(0, 4))
    grid.add_row(_counts("Events by kind", "Kind", view["eventsByKind"]),
                 _counts("Events by agent", "Agent", view["eventsByAgent"]))
    console.print(grid)
    console.print()

    groups = dropped_groups(view)
    if groups:
        for title, column, items in groups:
            console.print(_counts(title, column.capitalize(), items))
    else:
        console.print(Text("Nothing dropped; nothing the format does not define."))
    for warning in view["warnings"]:
        console.print(Text.assemble(("warning: ", "yellow"), warning))
