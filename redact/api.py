"""The library API. The CLI is a thin adapter over these functions; tests call them directly.

    result = redact_bytes(data, policy="public", key=load_key_file(path))
    result.data      # the redacted map, serialized (uncompressed JSON, one trailing newline)
    result.report    # RedactionReport: what was dropped, hashed, kept; the contentHash

Pure: bytes and settings in, bytes and a report out, no global state, nothing written.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from redact.apply import redact_map
from redact.canonical import content_hash
from redact.detect import MAP, detect
from redact.errors import BadInput
from redact.io.read import display_name, parse_json, read_input
from redact.io.write import check_output_path, encode_output, write_atomic
from redact.keys import Key
from redact.model.agentplay import SessionMap
from redact.policy.load import EffectivePolicy, load_policy
from redact.report import RedactionReport


@dataclass
class Result:
    data: bytes
    session_map: dict[str, Any]
    report: RedactionReport


def _policy(policy: str | EffectivePolicy, mode: str | None) -> EffectivePolicy:
    if isinstance(policy, EffectivePolicy):
        return policy
    return load_policy(policy, mode=mode)


def serialize(session_map: dict[str, Any]) -> bytes:
    return orjson.dumps(session_map) + b"\n"


def finish_map(session_map: dict[str, Any], report: RedactionReport) -> dict[str, Any]:
    """Validate against the model (a bug, not bad input, if it fails) and add the contentHash."""
    SessionMap.model_validate(session_map)
    session_map["contentHash"] = content_hash(session_map)
    report.content_hash = session_map["contentHash"]
    return session_map


def redact_bytes(data: bytes, *, name: str = "<bytes>", policy: str | EffectivePolicy = "default",
                 key: Key | None = None, mode: str | None = None,
                 input_format: str | None = None) -> Result:
    """Redact one input held in memory (already gunzipped) under `policy`."""
    eff = _policy(policy, None)
    fmt = input_format or detect(data, name)
    report = RedactionReport(source=name, input_format=fmt)
    if fmt != MAP:
        raise BadInput(f"format {fmt} is not supported yet", where=name)
    raw = parse_json(data, name)
    out = redact_map(raw, eff, key, report, explicit_mode=mode)
    out = finish_map(out, report)
    return Result(serialize(out), out, report)


def redact_file(path: str | Path, out: str | Path | None = None, **kwargs: Any) -> Result:
    """Redact the file at `path` (`-` for stdin); write to `out` atomically when given."""
    name = display_name(path)
    if out is not None:
        check_output_path(out, [path])
    result = redact_bytes(read_input(path), name=name, **kwargs)
    if out is not None:
        write_atomic(out, encode_output(result.data, str(out)))
    return result
