"""Which names from the input a report, an error or a finding may show.

Field names and record types are mostly schema (`hostName`, `file-history-snapshot`), and showing
them is what makes a report useful: "dropped 3 x /events/*/debugInfo". But the input chooses them,
and a producer can put a token, a path or a customer's name in a key. One rule, used everywhere a
name from the input is shown: a name is shown in full only when it is 1-32 characters of ASCII
letters, `_` and `-`, starting with a letter or `_`. No digits (most tokens have them: `sk_live_4eC3`,
a hex digest), no white space (no sentences), no `.`, `/` or `@` (no hosts, paths or e-mail). Any
other name is replaced by a placeholder chosen by the caller.
"""
from __future__ import annotations

import re

from redact.model.grammar import is_id

MAX_SHOWN = 32
_SHOWN = re.compile(rf"[A-Za-z_][A-Za-z_-]{{0,{MAX_SHOWN - 1}}}")


def is_shown(name: object) -> bool:
    """Whether `name` (a key or type name taken from the input) may be shown as it is."""
    return isinstance(name, str) and _SHOWN.fullmatch(name) is not None


def shown(name: object, placeholder: str) -> str:
    """`name` when it may be shown, else `placeholder`."""
    return name if is_shown(name) else placeholder  # type: ignore[return-value]


def agent_label(agent: object) -> str:
    """How a report names an agent lane: its id when it has the id grammar (`main`, `sa-...`, a hex
    id), `<not an id>` otherwise (a map being audited may not be redacted); no id is `main`."""
    if agent is None or agent == "":
        return "main"
    return agent if isinstance(agent, str) and is_id(agent) else "<not an id>"
