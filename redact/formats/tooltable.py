"""Tool calls of the formats whose tools are the harness's own (session-record streams, teaagent,
Agent Replay), under `--to native`: which input fields stay, by the shared tool table
(`redact/formats/toolnames.py`). Paths stay as paths, commands become verbs, URLs their host, agent
types and skills are identifiers; every other input field is content and is dropped."""
from __future__ import annotations

from redact.formats import toolnames
from redact.tables.spec import NUMBER, PATH, URL_HOST, VERB, Spec, ident

#: event kind (toolnames.KINDS) -> the input fields that stay
INPUTS_BY_KIND: dict[str, dict[str, Spec]] = {
    "read": {k: PATH for k in toolnames.PATH_KEYS},
    "edit": {k: PATH for k in toolnames.PATH_KEYS},
    "exec": {**{k: VERB for k in toolnames.COMMAND_KEYS}, "timeout": NUMBER, "timeout_ms": NUMBER},
    "web": {k: URL_HOST for k in toolnames.URL_KEYS},
    "subagent": {k: ident("subagent_type") for k in toolnames.SUBAGENT_KEYS},
    "skill": {k: ident("skill") for k in toolnames.SKILL_KEYS},
}


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def spellings() -> dict[str, str]:
    """Tool names of the shared table as harnesses spell them (`bash`, `Bash`, `read_file`,
    `ReadFile`, and Claude Code's names, which session records and traces reuse: `MultiEdit`) ->
    the event kind of each."""
    out: dict[str, str] = {}
    for norm, (kind, _) in toolnames.KINDS.items():
        for spelled in (norm, norm.capitalize(), _camel(norm)):
            out.setdefault(spelled, kind)
    for spelled in toolnames.HARNESS_SPELLINGS:
        out.setdefault(spelled, toolnames.KINDS[toolnames.normalise(spelled)][0])
    return dict(sorted(out.items()))


def inputs_of(kind: str) -> dict[str, Spec]:
    return dict(INPUTS_BY_KIND.get(kind, {}))
