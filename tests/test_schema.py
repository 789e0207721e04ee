from __future__ import annotations

import json

import jsonschema

from redact.api import redact_bytes
from redact.keys.material import Key
from redact.model.schema import generate, shipped
from tests.maps import example_map


def test_shipped_schema_is_current() -> None:
    # Regenerate with: python -m redact.model.schema > redact/model/agentplay-v1.schema.json
    assert shipped() == json.loads(json.dumps(generate()))


def test_schema_is_valid_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(shipped())
    assert shipped()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_every_property_declares_its_field_class() -> None:
    schema = shipped()
    missing = []
    for name, definition in schema["$defs"].items():
        for prop, spec in definition.get("properties", {}).items():
            if "x-field-class" not in spec and not any(k in spec for k in ("$ref", "items", "anyOf")):
                missing.append(f"{name}.{prop}")
    assert not missing


def test_redacted_outputs_validate_against_the_shipped_schema() -> None:
    validator = jsonschema.Draft202012Validator(shipped())
    for policy in ("internal", "default", "public"):
        out = redact_bytes(json.dumps(example_map()).encode(), policy=policy, key=Key(bytes(32), source="t")).session_map
        errors = list(validator.iter_errors(out))
        assert not errors, errors[0].message
