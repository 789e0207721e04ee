from __future__ import annotations

import json
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from redact.model.canonical import canonical_json, content_hash, format_number

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.text(max_size=20)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_canonical_json_reads_back_to_the_same_value(value: object) -> None:
    # Numbers compare as doubles: like JSON.stringify, 2.0 is written as 2 and reads back as an int.
    assert _as_doubles(json.loads(canonical_json(value))) == _as_doubles(value)


def _as_doubles(value: object) -> object:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, list):
        return [_as_doubles(v) for v in value]
    assert isinstance(value, dict)
    return {k: _as_doubles(v) for k, v in value.items()}


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_numbers_round_trip_exactly(x: float) -> None:
    assert float(format_number(x)) == x


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=10), max_size=6))
def test_matches_sorted_compact_json_for_ints_and_strings(value: dict[str, object]) -> None:
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert canonical_json(value).decode("utf-8", "surrogatepass") == expected


def test_nan_is_refused() -> None:
    with pytest.raises(ValueError):
        format_number(float("nan"))


def test_hash_ignores_cli_version_and_itself() -> None:
    a = {"schema": "agentplay/v1", "session": {"id": "x", "cliVersion": "1"}, "events": []}
    b = {"schema": "agentplay/v1", "session": {"id": "x", "cliVersion": "2"}, "events": [], "contentHash": "f" * 64}
    assert content_hash(a) == content_hash(b)
    assert content_hash(a) != content_hash({**a, "events": [{"t": 1}]})


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_fast_path_equals_the_reference_encoder(value: object) -> None:
    from redact.model.canonical import _encode

    out: list[str] = []
    _encode(value, out)
    assert canonical_json(value) == "".join(out).encode("utf-8", "surrogatepass")


integral_heavy = st.recursive(
    st.integers(-(2**54), 2**54).map(float) | st.sampled_from([0.0, -0.0, 1.5, 0.1, 2.0**53, 1e-7, 1e21])
    | st.text(max_size=5) | st.integers(-5, 5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(integral_heavy)
def test_integral_floats_take_the_short_path_to_the_same_bytes(value: object) -> None:
    """A map's `costUsd: 0.0` among other numbers: the bytes are the reference encoder's, and the
    value given is left as it was (only copies of its containers are changed)."""
    import copy

    from redact.model.canonical import _encode

    before = copy.deepcopy(value)
    out: list[str] = []
    _encode(value, out)
    assert canonical_json({"v": value, "w": [value]}) == ('{"v":' + "".join(out) + ',"w":[' + "".join(out)
                                                         + "]}").encode("utf-8", "surrogatepass")
    assert repr(value) == repr(before)
