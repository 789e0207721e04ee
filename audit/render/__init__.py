"""Audit report renderers (DESIGN.md section 9): JSON, Markdown and a self-contained HTML page.

    render(report, session_map, "html")      # -> str
    write_report(report, session_map, path)  # the format from the extension: .json, .md, .html

`report` is `RedactionReport.as_dict()` or `audit.report_of_map.report_of_map(...)`; `session_map`
(optional) draws the session picture in the HTML page. Every format draws the same safe view
(`view.build_view`), so the no-echo rule holds in all of them. The terminal renderer needs rich and
lives in `audit/render/terminal.py`, which only the CLI imports.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from audit.render.html import render_html
from audit.render.jsonout import render_json
from audit.render.markdown import render_markdown
from redact.errors import UsageError
from redact.io.write import write_atomic

__all__ = ["EXTENSIONS", "FORMATS", "format_for_path", "render", "write_report"]

FORMATS = ("json", "md", "html")
EXTENSIONS = {".json": "json", ".md": "md", ".markdown": "md", ".html": "html", ".htm": "html"}
_ALIASES = {"markdown": "md", "htm": "html"}


def format_for_path(path: str | Path) -> str:
    """The report format named by `path`'s extension; UsageError for any other extension."""
    fmt = EXTENSIONS.get(Path(path).suffix.lower())
    if fmt is None:
        raise UsageError("the report file must end in .json, .md or .html", where=str(path))
    return fmt


def _as_dict(report: Any) -> dict[str, Any]:
    """A report dict, from a dict or from a `RedactionReport` (its `as_dict()`)."""
    if isinstance(report, dict):
        return report
    if hasattr(report, "as_dict"):
        return dict(report.as_dict())
    raise TypeError("report must be a dict or have as_dict()")


def render(report: dict[str, Any] | Any, session_map: dict[str, Any] | None, fmt: str) -> str:
    """The report (a dict, or a RedactionReport) in `fmt` (json, md or html) as text."""
    report = _as_dict(report)
    fmt = _ALIASES.get(fmt, fmt)
    if fmt == "json":
        return render_json(report, session_map)
    if fmt == "md":
        return render_markdown(report, session_map)
    if fmt == "html":
        return render_html(report, session_map)
    raise UsageError(f"unknown report format {fmt!r} (json, md or html; terminal is the CLI's)")


def write_report(report: dict[str, Any] | Any, session_map: dict[str, Any] | None, path: str | Path) -> str:
    """Write the report to `path` atomically, in the format its extension names; returns the format."""
    fmt = format_for_path(path)
    write_atomic(path, render(report, session_map, fmt).encode("utf-8"))
    return fmt
