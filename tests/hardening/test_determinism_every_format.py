"""Determinism for every format the tool reads (DESIGN.md section 14): each format's generated
sessions (tests/formats/table_inputs.py, SQLite stores as the export their reader reads), redacted to a
map under `default` and `public` and scrubbed natively where the format offers it, give the same bytes
in two interpreters started with different hash seeds (tests/hardening/test_determinism.py covers the CLI, gzip and the reports on the shipped examples.)"""
from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.hardening.helpers import ROOT

# One interpreter digests every output: format -> input -> (map or native, policy) -> sha256.
_DRIVER = """
import hashlib, json, sys
from redact.api import redact_bytes
from redact.api_native import scrub_native
from redact.errors import UsageError
from redact.formats.registry import raw_format
from redact.keys.material import Key
from redact.policy.load import load_policy
from redact.report import RedactionReport
from tests.formats.table_inputs import GENERATED

key = Key(bytes(range(9, 41)), source="t")
out = {}
for fmt, build in sorted(GENERATED.items()):
    for path, data in build():
        for policy in ("default", "public"):
            k = key if policy == "public" else None
            done = redact_bytes(data, name=path.name, policy=policy, key=k, input_format=fmt)
            out[f"{fmt}/{path.name}/map/{policy}"] = hashlib.sha256(done.data).hexdigest()
            if getattr(raw_format(fmt), "native", True):
                try:
                    native = scrub_native(data, fmt, name=path.name, policy=load_policy(policy), key=k,
                                          mode=None, report=RedactionReport(source=path.name))
                except UsageError:  # a layout this format does not scrub natively
                    continue
                out[f"{fmt}/{path.name}/native/{policy}"] = hashlib.sha256(native).hexdigest()
print(json.dumps(out, sort_keys=True))
"""


def _digests(seed: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    proc = subprocess.run([sys.executable, "-c", _DRIVER], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    found: dict[str, str] = json.loads(proc.stdout.strip().splitlines()[-1])
    return found


def test_every_format_gives_the_same_bytes_across_hash_seeds() -> None:
    first, second = _digests("0"), _digests("4242")
    formats = {name.split("/")[0] for name in first}
    assert len(formats) >= 16 and any("/native/" in name for name in first), sorted(formats)
    differ = sorted(name for name in first if first[name] != second.get(name))
    assert not differ and first.keys() == second.keys(), differ[:10]
