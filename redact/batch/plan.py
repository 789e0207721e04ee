"""`redact.plan_batch` (the stable API): batch mode's plan (`redact/batch/inputs.py`: which sessions a list of
files, folders and patterns names, and the map each goes to) as plain `(input, output)` pairs.

A module of its own because it only lists: the package's `__init__` (which scans maps it is given)
must not import what runs redactions, and `redact/api.py` cannot import `batch`, which imports it.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from redact.batch.inputs import plan_all
from redact.keys.material import Key
from redact.policy.load import EffectivePolicy, load_policy


def plan_batch(inputs: Sequence[str | Path], out_dir: str | Path, *, policy: str | EffectivePolicy = "default",
               key: Key | None = None, link_scope: str | None = None, skip_existing: bool = False,
               ) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(input, output) pairs as `redact --out-dir` plans them (the same names, the same guard: no
    output is any input of the batch or a file read with one), and (input, why) of what is not
    redacted. A policy that hashes ids names no output after its input. A leading `~` (`~/.claude/projects`)
    is the user's home folder, as in a shell; an input that does not exist is in the second list."""
    eff = policy.with_link_scope(link_scope) if isinstance(policy, EffectivePolicy) else \
        load_policy(policy, link_scope=link_scope)
    planned = plan_all([os.path.expanduser(str(i)) for i in inputs], out_dir, key, eff.policy.tokens.link_scope,
                       hash_names=eff.policy.ids.action == "hash", skip_existing=skip_existing)
    return [(t.input, t.output) for t in planned.tasks], [(u.input, u.message) for u in planned.unusable]
