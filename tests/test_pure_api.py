"""`redact_bytes` is a pure function, the one a distributed engine calls: bytes and settings in, bytes
and a report out. Nothing global carries over between calls (the verb caches are keyed by command and
vocabulary, HMAC caches live on the Key): the output after other inputs, keys and policies ran in
the same process is the output of a fresh process."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from redact.api import redact_bytes
from redact.keys.material import parse_key_text

ROOT = Path(__file__).resolve().parents[1]
TRANSCRIPT = ROOT / "examples" / "claude-code" / "5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77.jsonl"
MAP = ROOT / "examples" / "session-map.json"
FRESH = """
import sys
from pathlib import Path
from redact.api import redact_bytes
from redact.keys.material import parse_key_text
key = parse_key_text(b"{hex}", source="t")
out = redact_bytes(Path(sys.argv[1]).read_bytes(), name="x", policy="public", key=key).data
sys.stdout.buffer.write(out)
"""


def test_outputs_do_not_depend_on_earlier_calls(tmp_path: Path) -> None:
    k1, k2 = "1a" * 32, "2b" * 32
    fresh = subprocess.run([sys.executable, "-c", FRESH.format(hex=k1), str(TRANSCRIPT)], capture_output=True,
                           check=True, timeout=120).stdout
    policy = tmp_path / "extra.toml"
    policy.write_text('name = "extra"\nextends = "public"\n[verbs.extra_programs]\nzork = ["run"]\n')
    other = parse_key_text(k2.encode(), source="t")
    for data in (TRANSCRIPT.read_bytes(), MAP.read_bytes()):  # other inputs, another key and policy first
        redact_bytes(data, name="y", policy=str(policy), key=other)
        redact_bytes(data, name="y", policy="internal")
    key = parse_key_text(k1.encode(), source="t")
    first = redact_bytes(TRANSCRIPT.read_bytes(), name="x", policy="public", key=key)
    again = redact_bytes(TRANSCRIPT.read_bytes(), name="x", policy="public", key=key)
    assert first.data == again.data == fresh
    assert first.report.as_dict() == again.report.as_dict()


def test_no_cache_keeps_the_inputs_strings_after_its_run() -> None:
    """A raw command line can carry a password: the caches keyed by input strings (the verb
    analysis, the secrets layer, the path guard, the report's safety check) are empty once a run
    ends, whether it wrote a map or was refused."""
    import sys

    from redact import api
    from tests.formats.ccfix import Transcript, tool_use

    t = Transcript("5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77", "/home/dev/shop", seed=3)
    t.user("deploy it")
    t.assistant([tool_use("t1", "Bash", {"command": "mysql -u root --password=Zq7hunter2Zq7 shop < x.sql"})])
    api.redact_bytes(t.bytes(), name="s.jsonl")
    loaded = [(m, n) for m, n in api.RUN_CACHES if m in sys.modules]
    assert ("redact.verbs.engine", "_cached") in loaded  # the run went through the verb cache
    for module, name in loaded:
        assert getattr(sys.modules[module], name).cache_info().currsize == 0, (module, name)
