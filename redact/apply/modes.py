"""Which path mode a redaction applies (DESIGN.md section 4): the policy's or the one asked for, never
looser than the input's (modes only get stricter: relative -> dirs_only -> hashed), and hashed only
with a key: without one it falls back to dirs_only, loudly, unless the policy requires hashed."""
from __future__ import annotations

from redact.errors import UsageError
from redact.keys.material import Key
from redact.model import grammar
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def check_mode(policy: EffectivePolicy, mode: str | None) -> None:
    """A `--mode` the policy forbids is a usage error naming the flag: the one channel for the mode
    is this option, never merged into the policy (so its hash is the policy's, whatever the route)."""
    if mode is not None and mode != "hashed" and policy.policy.paths.require_hashed:
        raise UsageError(f"--mode {mode} conflicts with policy {policy.name}, which requires hashed paths "
                         "(drop --mode, or use --mode hashed with --key-file)")


def resolve_mode(policy: EffectivePolicy, key: Key | None, input_mode: str,
                 explicit: str | None, report: RedactionReport) -> str:
    """The path mode to apply: never looser than the input's; hashed needs a key."""
    wanted = explicit or policy.policy.paths.mode
    if grammar.MODE_RANK[wanted] < grammar.MODE_RANK[input_mode]:
        if explicit:
            raise UsageError(f"the input is already in {input_mode} mode; --mode {explicit} would "
                             "loosen it (modes only get stricter: relative -> dirs_only -> hashed)")
        wanted = input_mode
    report.requested_mode = wanted
    if wanted == "hashed" and key is None:
        if policy.policy.paths.require_hashed:
            raise UsageError(f"policy {policy.name} requires hashed paths and no key was given "
                             "(--key-file or $AGENTPLAY_REDACT_KEY_FILE)")
        if input_mode == "hashed":
            return "hashed"
        report.warn("hashed mode needs a key: no key given, so paths fall back to dirs_only "
                    "(unkeyed, guessable for common names)")
        return "dirs_only"
    return wanted


__all__ = ["check_mode", "resolve_mode"]
