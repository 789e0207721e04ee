"""What a blocked run says: the rule classes the scanner found, and a command that would pass.

`redact` refuses to write an output the leak scanner flags (exit 1). The refusal must say what
works: `blocked_message` names the scanner rules (never a value) and, when the caller found one, the
exact command that writes a map for this input (`what_passes`): the `public` policy with a key
(hashed paths and identifiers). When even that is flagged, or the run was `public` with a key
already, the message says so: that is a redactor bug or a taint hit, worth a report.
"""
from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping
from typing import Any

PUBLIC = "public"


def rule_classes(findings: Iterable[Mapping[str, Any]]) -> list[str]:
    """The distinct rule ids of `findings`, sorted (`language.text`, `taint.source-phrase`)."""
    return sorted({str(f.get("rule")) for f in findings if f.get("rule")})


def passing_command(source: str) -> str:
    """The command that redacts `source` under `public` with a key (made once with `keygen`)."""
    quoted = shlex.quote(source)
    return (f"agentplay-redact keygen redact.key && agentplay-redact redact {quoted} "
            f"--policy public --key-file redact.key -o {shlex.quote(_out_name(source))}")


def _out_name(source: str) -> str:
    base = source.replace("\\", "/").rsplit("/", 1)[-1] or "session"
    for suffix in (".gz", ".jsonl", ".json"):
        base = base.removesuffix(suffix)
    return f"{base}.public.json"


def blocked_message(n: int, findings: Iterable[Mapping[str, Any]], *, what: str = "output",
                    command: str | None = None, tried_public: bool = False) -> str:
    rules = ", ".join(rule_classes(findings)) or "unknown"
    head = f"the leak scanner found {n} problem(s) in the {what} (rules: {rules}); nothing was written"
    if command is not None:
        return f"{head}. This passes the scanner: {command}"
    if tried_public:
        return (f"{head}. The public policy with a key is flagged too: a redactor bug or a taint hit; "
                "please report it with --report (it holds no value)")
    return head


__all__ = ["PUBLIC", "blocked_message", "passing_command", "rule_classes"]
