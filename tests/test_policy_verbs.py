"""A policy's `[verbs] extra_programs` reaches both the verb engine and the scanner."""
from __future__ import annotations

import json
from pathlib import Path

from redact.api import redact_bytes
from redact.policy import load_policy


def _transcript(command: str) -> bytes:
    base = {"sessionId": "0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90", "cwd": "/home/ann/proj", "version": "2.1.3",
            "userType": "external", "isSidechain": False}
    records = [
        {**base, "type": "user", "uuid": "00000000-0000-4000-8000-000000000001", "parentUuid": None,
         "timestamp": "2026-11-20T09:00:00.000Z", "message": {"role": "user", "content": "deploy it please"}},
        {**base, "type": "assistant", "uuid": "00000000-0000-4000-8000-000000000002",
         "parentUuid": "00000000-0000-4000-8000-000000000001", "timestamp": "2026-11-20T09:00:02.000Z",
         "requestId": "req_1", "message": {"id": "msg_1", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
                                           "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                                        "input": {"command": command}}],
                                           "usage": {"input_tokens": 3, "output_tokens": 5}}},
        {**base, "type": "user", "uuid": "00000000-0000-4000-8000-000000000003",
         "parentUuid": "00000000-0000-4000-8000-000000000002", "timestamp": "2026-11-20T09:00:04.000Z",
         "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                                  "content": "done", "is_error": False}]}},
    ]
    return "\n".join(json.dumps(r) for r in records).encode() + b"\n"


def test_extra_program_becomes_its_verb_and_scans_clean(tmp_path: Path) -> None:
    policy = tmp_path / "team.toml"
    policy.write_text('name = "team"\nextends = "default"\n[verbs]\nextra_programs = { shipit = ["deploy", "status"] }\n')
    data = _transcript("shipit deploy --env prod-secret-cluster")
    with_extra = redact_bytes(data, name="s.jsonl", policy=load_policy(str(policy)))
    verbs = [e.get("verb") for e in with_extra.session_map["events"] if e["kind"] in ("exec", "verify")]
    assert verbs == ["shipit deploy"]
    assert with_extra.report.scanner["grammar"] == "pass"
    plain = redact_bytes(data, name="s.jsonl", policy="default")
    assert [e.get("verb") for e in plain.session_map["events"] if e["kind"] in ("exec", "verify")] == ["<script>"]
    assert "prod-secret-cluster" not in with_extra.data.decode()
