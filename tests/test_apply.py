from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings

from redact.api import redact_bytes
from redact.errors import BadInput, UsageError
from redact.keys.material import Key
from redact.model.agentplay import SessionMap
from redact.model.grammar import BUCKET_LABELS, path_in_mode
from redact.policy import load_policy
from tests.maps import CANARY, example_map, maps

KEY = Key(bytes(range(32)), source="test")
OTHER_KEY = Key(bytes(range(1, 33)), source="other")


def run(m: dict[str, Any], policy: str = "default", key: Key | None = KEY, mode: str | None = None) -> Any:
    return redact_bytes(json.dumps(m).encode(), name="map.json", policy=policy, key=key, mode=mode)


def test_example_redacts_under_every_preset() -> None:
    for policy in ("internal", "default", "public"):
        result = run(example_map(), policy)
        SessionMap.model_validate(result.session_map)
        assert [e["seq"] for e in result.session_map["events"]] == list(range(len(result.session_map["events"])))


def test_credentials_and_query_strings_never_survive() -> None:
    out = run(example_map(), "internal").data.decode()
    assert "ghp_" not in out and "alice" not in out and "notification_referrer" not in out and "issuecomment" not in out


def test_unknown_fields_are_dropped_and_counted() -> None:
    result = run(example_map(), "internal")
    assert "hostName" not in result.data.decode() and "description" not in result.data.decode()
    assert result.report.dropped_fields["/session/<unknown field>"] == 1  # hostName: not a known name
    assert result.report.dropped_fields["/agents/*/description"] == 1


def test_task_names_are_dropped_unless_kept_on_purpose() -> None:
    assert "Globex" not in run(example_map(), "internal").data.decode()


def test_roundtrip_under_internal_changes_only_unknown_fields() -> None:
    clean = example_map()
    del clean["session"]["hostName"]
    del clean["agents"][1]["description"]
    clean["repos"][0]["remote"] = "acme/orders-api"
    clean["prs"][0]["url"] = "https://github.com/acme/orders-api/pull/142"
    for task in clean["tasks"]:
        del task["name"]
    for e in clean["events"]:
        if e["kind"] == "web":
            del e["tool"]  # the format gives web events a host, not a tool
    out = run(clean, "internal").session_map
    out.pop("contentHash")
    assert out == clean


def test_events_sorted_by_t_and_seq_refs_remapped() -> None:
    m = example_map()
    m["events"][0], m["events"][1] = m["events"][1], m["events"][0]  # out of order in the input
    out = run(m, "internal").session_map
    ts = [e["t"] for e in out["events"]]
    assert ts == sorted(ts)
    retry = next(e for e in out["events"] if e.get("retryOf") is not None)
    assert out["events"][retry["retryOf"]]["kind"] == "verify"


def test_unknown_event_kind_dropped_and_counted() -> None:
    m = example_map()
    m["events"].append({"seq": 99, "t": 1, "kind": "telepathy", "agent": "main", "thought": "secret plan"})
    result = run(m, "internal")
    assert result.report.dropped_events["unknown kind"] == 1
    assert "telepathy" not in result.data.decode() and "secret plan" not in result.data.decode()


@pytest.mark.parametrize(("pointer", "value"), [("t", "soon"), ("seq", None), ("err", "yes"), ("kind", 3)])
def test_wrong_types_are_bad_input_with_a_pointer(pointer: str, value: Any) -> None:
    m = example_map()
    m["events"][3][pointer] = value
    if pointer == "kind":
        assert run(m, "internal").report.dropped_events["unknown kind"] == 1
        return
    with pytest.raises(BadInput) as info:
        run(m, "internal")
    assert f"#/events/3/{pointer}" in info.value.diagnostic()
    assert "soon" not in info.value.diagnostic()


def test_malformed_tasks_block_is_dropped_not_fatal() -> None:
    m = example_map()
    m["tasks"] = [{"n": "one"}]
    result = run(m, "internal")
    assert "tasks" not in result.session_map and result.report.dropped_fields["/tasks (malformed)"] == 1


def test_hashed_without_key_falls_back_loudly() -> None:
    result = run(example_map(), "default", key=None, mode="hashed")
    assert result.report.path_mode == "dirs_only" and result.report.warnings
    assert all(path_in_mode(f["path"], "dirs_only") for f in result.session_map["files"])


def test_public_without_key_is_an_error() -> None:
    with pytest.raises(UsageError, match="requires hashed"):
        run(example_map(), "public", key=None)


def test_modes_only_get_stricter() -> None:
    hashed = run(example_map(), "default", mode="hashed").session_map
    with pytest.raises(UsageError, match="loosen"):
        run(hashed, "default", mode="relative")
    again = run(hashed, "default").session_map  # a policy's looser default keeps the input's mode
    assert again["session"]["pathMode"] == "hashed"
    assert [f["path"] for f in again["files"]] == [f["path"] for f in hashed["files"]]
    dirs = run(example_map(), "default", mode="dirs_only").session_map
    up = run(dirs, "default", mode="hashed").session_map
    assert all(path_in_mode(f["path"], "hashed") for f in up["files"])


def test_content_hash_ignores_cli_version_and_is_recomputed() -> None:
    a = example_map()
    b = example_map()
    b["session"]["cliVersion"] = "0.0.1"
    b["contentHash"] = "0" * 64
    ra, rb = run(a, "default"), run(b, "default")
    assert ra.report.content_hash == rb.report.content_hash != "0" * 64


@settings(max_examples=60, deadline=None)
@given(maps())
def test_no_canary_survives_under_public(m: dict[str, Any]) -> None:
    out = run(m, "public").data.decode()
    assert CANARY not in out and CANARY.lower() not in out


@settings(max_examples=60, deadline=None)
@given(maps())
def test_no_canary_in_paths_or_text_under_default(m: dict[str, Any]) -> None:
    result = run(m, "default", mode="hashed")
    out = result.session_map
    assert all(CANARY not in f["path"] for f in out.get("files", []))
    assert all("name" not in t for t in out.get("tasks", []))
    assert "please fix" not in result.data.decode()


@settings(max_examples=40, deadline=None)
@given(maps())
def test_output_is_deterministic(m: dict[str, Any]) -> None:
    assert run(m, "public").data == run(json.loads(json.dumps(m)), "public").data


@settings(max_examples=40, deadline=None)
@given(maps())
def test_two_keys_give_unlinkable_outputs(m: dict[str, Any]) -> None:
    a = run(m, "public", key=KEY).session_map
    b = run(m, "public", key=OTHER_KEY).session_map
    tokens_a = {f["path"] for f in a.get("files", []) if f["path"] not in BUCKET_LABELS} | {r.get("name") for r in a.get("repos", []) if r.get("name")}
    tokens_b = {f["path"] for f in b.get("files", []) if f["path"] not in BUCKET_LABELS} | {r.get("name") for r in b.get("repos", []) if r.get("name")}
    assert not (tokens_a & tokens_b)


def test_policy_object_is_accepted() -> None:
    assert run(example_map(), load_policy("internal")).report.policy_name == "internal"  # type: ignore[arg-type]
