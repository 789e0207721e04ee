"""Right type, wrong value, in every string field of a map (generated from the field table).

test_wrong_types.py puts a value of the wrong JSON type in each field; here each field that takes a
string gets a string no field class allows (words, a path, an e-mail, a token). Every outcome is a
map without it, or one refusal line; never an internal error (a required enum inside an optional
object once was: exit 3).
"""
from __future__ import annotations

from typing import Any

import orjson
import pytest

from redact.api import redact_bytes
from redact.errors import RedactError, UsageError
from redact.keys.material import Key
from redact.model.table import Leaf, Nested, Node, event_nodes, map_node
from tests.hardening.helpers import example_map
from tests.hardening.test_wrong_types import _COMMON_EVENT_FIELDS, _place

CANARY = "Zq7Canary secret words ../../etc/zqfile zq@zq.example ghp_Zq7Kx9Lm2Np4Rs6Tv8Wy0Ab3Cd5Ef1Gh2Ij4"


def _string_fields() -> list[tuple[str, str]]:
    cases: list[tuple[str, str]] = []

    def takes_str(spec: Leaf | Nested) -> bool:
        return isinstance(spec, Leaf) and str in spec.py and not spec.mapping

    def walk(node: Node, ptr: str) -> None:
        for name, spec in node.fields.items():
            if takes_str(spec):
                cases.append((ptr, name))
            if isinstance(spec, Nested):
                walk(spec.node, f"{ptr}/{name}/0" if spec.many else f"{ptr}/{name}")

    walk(map_node(), "")
    for kind, node in sorted(event_nodes().items()):
        for name, spec in node.fields.items():
            if name == "kind" or (name in _COMMON_EVENT_FIELDS and kind not in ("exec", "llm")):
                continue
            if takes_str(spec):
                cases.append((f"@{kind}", name))
            if isinstance(spec, Nested):
                for inner, inner_spec in spec.node.fields.items():
                    if takes_str(inner_spec):
                        cases.append((f"@{kind}/{name}" + ("/0" if spec.many else ""), inner))
    return cases


CASES = [c for c in _string_fields() if c != ("", "schema")]  # a wrong `schema` is not a map (test_wrong_types)


@pytest.mark.parametrize("policy", ["default", "public"])
@pytest.mark.parametrize("case", CASES, ids=[f"{c or '/'}:{f}" for c, f in CASES])
def test_wrong_string_value(case: tuple[str, str], policy: str) -> None:
    container, field = case
    m: dict[str, Any] = example_map()
    _place(m, container, field, CANARY)
    # `public` requires a key: without one every run stopped at that usage error before the input was
    # read, and half of these cases redacted nothing
    key = Key(bytes(range(32)), source="<test key>") if policy == "public" else None
    try:
        result = redact_bytes(orjson.dumps(m), name="m.json", policy=policy, key=key)
    except UsageError:
        raise
    except RedactError as exc:
        diag = exc.diagnostic()
        assert "\n" not in diag and "Zq7" not in diag and "zq" not in diag.lower().replace("m.json", "")
        return
    out = orjson.dumps(result.session_map).decode()
    for piece in ("Zq7", "zqfile", "zq@zq", "Canary", "ghp_"):
        assert piece not in out, (piece, field)
