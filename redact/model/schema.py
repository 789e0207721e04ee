"""The JSON Schema (2020-12) of agentplay/v1, generated from the models.

The shipped file `agentplay-v1.schema.json` is regenerated with
`python -m redact.model.schema > redact/model/agentplay-v1.schema.json`; a test fails when it is stale.
Each property carries `x-field-class`, the class the redactor and the scanner apply to it.
"""
from __future__ import annotations

import json
import sys
from importlib import resources
from typing import Any

from redact.model.agentplay import SessionMap

SCHEMA_URI = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_FILE = "agentplay-v1.schema.json"


def generate() -> dict[str, Any]:
    schema = SessionMap.model_json_schema(by_alias=True, mode="validation")
    schema = {"$schema": SCHEMA_URI, "$id": "agentplay/v1", **schema}
    schema["title"] = "agentplay/v1 session map"
    return schema


def render() -> str:
    return json.dumps(generate(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def shipped() -> dict[str, Any]:
    text = (resources.files("redact.model") / SCHEMA_FILE).read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


if __name__ == "__main__":  # pragma: no cover
    sys.stdout.write(render())
