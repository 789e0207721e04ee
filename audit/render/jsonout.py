"""The JSON audit report: the view, with sorted keys, two-space indentation and a final newline."""
from __future__ import annotations

import json
from typing import Any

from audit.render.view import build_view


def render_json(report: dict[str, Any], session_map: dict[str, Any] | None = None) -> str:
    view = build_view(report, session_map)
    return json.dumps(view, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
