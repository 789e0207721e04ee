"""Which names from the input a report, an error or a finding may show.

Field names and record types are mostly schema (`file-history-snapshot`, `turn_duration`), and
showing them is what makes a report useful: "skipped 3 x queue-operation". But the input chooses
them, and a producer can put a token, a path or a customer's name in a key or a `type` value
(`globex-merger-layoffs` has the shape of a record type). One rule, used everywhere a name from the
input is shown: a name is shown only when it is one this tool knows, a record type, subtype, enum
value or field name of one of the formats it reads (the closed list `vocabulary.txt` beside this
module, which `scripts/gen_format_docs.py` writes from the formats' tables with
`redact/formats/vocabulary.py`; a test fails when the file is not current), and also has the plain shape: 1-32 characters of ASCII letters, `_` and
`-`, starting with a letter or `_`. Any other name is replaced by a placeholder chosen by the caller,
so the report counts it without naming it.
"""
from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

from redact.model.grammar import is_id

MAX_SHOWN = 32
_SHOWN = re.compile(rf"[A-Za-z_][A-Za-z_-]{{0,{MAX_SHOWN - 1}}}")


def is_plain_name(name: object) -> bool:
    """Whether `name` has the plain shape of a name (see above). A filter, not a licence to show it:
    a report shows only names that are also known (`is_shown`)."""
    return isinstance(name, str) and _SHOWN.fullmatch(name) is not None


def is_shown(name: object) -> bool:
    """Whether `name` (a key or type name taken from the input) may be shown as it is: a plain name
    on the closed list of names this tool knows."""
    return is_plain_name(name) and name in known_names()


@cache
def known_names() -> frozenset[str]:
    """The closed list of names: every record type, subtype, enum value and field name of every
    format this tool reads, as the tables produce it (data here, so this layer imports none of them)."""
    text = files(__package__).joinpath("vocabulary.txt").read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


def shown(name: object, placeholder: str) -> str:
    """`name` when it may be shown, else `placeholder`."""
    return name if is_shown(name) else placeholder  # type: ignore[return-value]


def agent_label(agent: object) -> str:
    """How a report names an agent lane: its id when it has the id grammar (`main`, `sa-...`, a hex
    id), `<not an id>` otherwise (a map being audited may not be redacted); no id is `main`."""
    if agent is None or agent == "":
        return "main"
    return agent if isinstance(agent, str) and is_id(agent) else "<not an id>"
