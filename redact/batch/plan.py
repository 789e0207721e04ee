"""`redact.plan_batch` (the stable API): batch mode's plan (`redact/batch/inputs.py`: which sessions a list of
files, folders and patterns names, and the map each goes to) as plain `(input, output)` pairs.

A module of its own because it only lists: the package's `__init__` (which scans maps it is given)
must not import what runs redactions, and `redact/api.py` cannot import `batch`, which imports it.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from redact.batch.inputs import plan
from redact.keys.material import Key
from redact.policy.load import EffectivePolicy, load_policy


def plan_batch(inputs: Sequence[str | Path], out_dir: str | Path, *, policy: str | EffectivePolicy = "default",
               key: Key | None = None, link_scope: str | None = None,
               ) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    eff = policy.with_link_scope(link_scope) if isinstance(policy, EffectivePolicy) else \
        load_policy(policy, link_scope=link_scope)
    tasks, unusable = plan([str(i) for i in inputs], out_dir, key, eff.policy.tokens.link_scope)
    return [(t.input, t.output) for t in tasks], [(u.input, u.message) for u in unusable]
