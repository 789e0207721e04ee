"""The batch manifest: `index.json` in the output folder, and the same summary for `--json`.

    doc = manifest(outcomes, planned, key=key, interrupted=False)           # leaves with the maps
    doc = manifest(outcomes, planned, key=key, interrupted=False, local=True)  # --json, stdout

One entry per input, in the batch's order: its agent, its session (the id the map writes, hashed
when the policy hashes ids), the map written (a file name in the folder),
its status (`written`, `skipped`, `bad input`, `leak`, `internal error`, or `not run` when Ctrl-C
stopped the batch first), why, and its event and finding counts. `leaving` lists every file name
the folder gets from this run (the maps and `index.json`): the names leave with the maps.

The manifest sits beside the maps and leaves with them, so it names no input: an input is an
opaque token (`in-` and 12 hex of a digest of its path, keyed when there is a key), and a failure
says its class and the scanner's rule names, never the diagnostic (which names the file and place).
The local form (`local=True`, printed on stdout by `--json`) adds each input's path and diagnostic.
"""
from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from redact.batch.inputs import BAD, BUG, LEAK, SKIPPED, WRITTEN, Outcome, Task
from redact.keys.material import Key

SCHEMA = "agentplay-redact/batch-index/v1"
INDEX = "index.json"
NOT_RUN = "not run"


def input_token(path: str, key: Key | None) -> str:
    """An input's name in the manifest: a digest of its path (keyed when there is a key)."""
    if key is not None:
        return "in-" + key.ident_digest("input-name", path)
    return "in-" + hashlib.sha256(path.encode("utf-8", "surrogateescape")).hexdigest()[:12]


def _why(o: Outcome) -> str:
    if o.status == WRITTEN:
        return ""
    if o.status == SKIPPED:
        text = o.message[len(o.input):].lstrip(": ") if o.message.startswith(o.input) else o.message
        if text.startswith("skipped (") and text.endswith(")"):
            return text[len("skipped ("):-1]
        return "skipped"
    if o.status == LEAK:
        return f"blocked: the leak scanner found {len(o.findings)} finding(s); nothing written"
    if o.status == BAD:
        return "bad input; nothing written"
    if o.status == BUG:
        return "internal error; nothing written"
    return o.status


def entry(o: Outcome, key: Key | None, *, local: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"input": input_token(o.input, key), "agent": o.agent or None,
                           "output": Path(o.output).name if o.output and o.status in (WRITTEN, SKIPPED) else None,
                           "status": o.status, "why": _why(o) or None}
    if o.status == WRITTEN:
        out["session"] = o.session or None  # as the map writes it: what the policy lets leave
        out["events"] = o.events
        out["contentHash"] = o.content_hash or None
    if o.findings:
        out["findings"] = len(o.findings)
        out["rules"] = dict(sorted(Counter(rule for rule, _, _ in o.findings).items()))
    if local:
        out["path"] = o.input
        out["message"] = o.message or None
    return out


def manifest(outcomes: Sequence[Outcome], tasks: Sequence[Task], *, key: Key | None, interrupted: bool,
             local: bool = False) -> dict[str, Any]:
    """The manifest of a batch: `outcomes` (the known ones, in order), and an entry `not run` for
    each task of `tasks` that has none (Ctrl-C)."""
    done = {o.input for o in outcomes}
    every = list(outcomes) + [Outcome(t.input, t.output, NOT_RUN, 0, t.size, agent=t.agent,
                                      message=f"{t.input}: not run (interrupted)")
                              for t in tasks if t.input not in done]
    entries = [entry(o, key, local=local) for o in every]
    for e, o in zip(entries, every, strict=True):
        if o.status == NOT_RUN:
            e["why"] = "the batch was interrupted before this input ran; nothing written"
    counts = Counter(o.status for o in every)
    written = sum(1 for o in every if o.status == WRITTEN)
    there = sorted(Path(o.output).name for o in every if o.output and o.status in (WRITTEN, SKIPPED))
    return {
        "schema": SCHEMA,
        "complete": not interrupted,
        "interrupted": interrupted,
        "sessions": sum(1 for o in every if o.status not in (SKIPPED,) or o.output),
        "counts": dict(sorted(counts.items())),
        "written": written,
        "leaving": [*there, INDEX],
        "entries": entries,
    }


__all__ = ["INDEX", "NOT_RUN", "SCHEMA", "entry", "input_token", "manifest"]
