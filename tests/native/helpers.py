"""Shared set-up for the native tests: run the library function the way the CLI will."""
from __future__ import annotations

from typing import Any

import orjson

from redact.keys.material import Key
from redact.api_native import scrub_native
from redact.policy.load import load_policy
from redact.report import RedactionReport

KEY = Key(bytes(range(1, 33)), source="test")


def native(data: bytes, fmt: str, *, policy: str = "default", key: Key | None = None,
           mode: str | None = None, **options: Any) -> tuple[bytes, RedactionReport]:
    report = RedactionReport(source="input")
    out = scrub_native(data, fmt, name="input", policy=load_policy(policy, mode=mode), key=key,
                       mode=mode, report=report, **options)
    return out, report


def lines(out: bytes) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in out.split(b"\n") if line.strip()]


def report_text(report: RedactionReport) -> str:
    return orjson.dumps(report.as_dict()).decode()
