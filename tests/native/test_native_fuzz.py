"""Robustness: any JSON value in any field of any record of every format gives a scrubbed output or a
RedactError (bad input, or a leak the scan refused), never a crash; and a canary placed in a text
field never reaches the output."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from redact.errors import RedactError
from tests.formats import kirofix
from tests.native.arfix import trace
from tests.native.clinefix import ui_messages
from tests.native.codexfix import rollout
from tests.native.copilotfix import events
from tests.native.geminifix import recording
from tests.native.helpers import native
from tests.native.kimifix import wire as kimi_wire
from tests.native.pifix import session as pi_session
from tests.native.qwenfix import chats as qwen_chats
from tests.native.srfix import stream
from tests.native.teafix import log
from tests.native.test_claude_code_native import session
from tests.native.vscodefix import chat


def _counter() -> Callable[[], str]:
    n = iter(range(10_000))
    return lambda: f"w{next(n)}"


def _records(fmt: str) -> list[Any]:
    if fmt == "claude-code":
        data = session().bytes()
    elif fmt == "codex":
        data = rollout(_counter())
    elif fmt == "session-record":
        data = stream(_counter())
    elif fmt == "teaagent":
        data = log(_counter())
    elif fmt == "gemini-cli":
        data = recording(_counter())
    elif fmt == "copilot-cli":
        data = events(_counter())
    elif fmt == "pi":
        data = pi_session(_counter())
    elif fmt == "qwen-code":
        data = qwen_chats(_counter())
    elif fmt == "kimi":
        data = kimi_wire(_counter())
    elif fmt == "copilot-vscode":
        return [orjson.loads(chat(_counter()))]
    elif fmt == "cline":
        return list(orjson.loads(ui_messages(_counter())))
    elif fmt == "kiro":
        data = kirofix.store_pair(_counter())[1]
    elif fmt == "kiro-export":
        return [orjson.loads(kirofix.export(_counter()))]
    elif fmt == "kiro-legacy":
        return [orjson.loads(kirofix.legacy(_counter()))]
    elif fmt == "kiro-ide":
        return [kirofix.ide_session(_counter())]
    elif fmt == "kiro-ide-log":
        data = kirofix.store_log(_counter())
    else:
        doc = orjson.loads(trace(_counter()))
        return [doc["run"], *doc["steps"]]
    return [orjson.loads(line) for line in data.split(b"\n") if line.strip()]


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _places(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _places(v, (*path, i))
    return out


def _put(record: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    holder = record
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = new
    return record


CANARY = "Zq9Fuzz0Canary"
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**53, 2**53) | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", CANARY, f"/Users/{CANARY}/x", f"rm -rf {CANARY}", "toolu_01" + "A" * 20, "text",
                       "tool_use", "Bash", "2026-01-01T00:00:00Z", "[REDACTED]", "mcp__a__b"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["type", "text", "content", "name", "input", "command", "payload", "message", CANARY]),
        inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fmt=st.sampled_from(["claude-code", "codex", "session-record", "teaagent", "agent-replay", "gemini-cli",
                            "copilot-cli", "copilot-vscode", "cline", "kiro", "kiro-export", "kiro-legacy", "kiro-ide",
                            "kiro-ide-log", "pi", "qwen-code", "kimi"]),
       pick=st.integers(0, 10_000), where=st.integers(0, 10_000),
       # the canary itself, or a string or object that holds it, half the time: the canary check
       # below is the point of the test, so it must run often (it ran on 5-13% of examples before)
       value=st.one_of(st.sampled_from([CANARY, f"see {CANARY} now", f"/Users/{CANARY}/x", {"text": CANARY},
                                        [CANARY], {"command": f"cat {CANARY}"}]), json_values),
       policy=st.sampled_from(["default", "public", "public"]))
def test_any_value_anywhere(fmt: str, pick: int, where: int, value: Any, policy: str) -> None:
    from tests.native.helpers import KEY

    records = _records(fmt)
    i = pick % len(records)
    places = _places(records[i])
    records[i] = _put(records[i], places[where % len(places)], value)
    if fmt == "agent-replay":
        data = orjson.dumps({"run": records[0], "steps": records[1:]}) if isinstance(records[0], dict) else \
            orjson.dumps(records[0])
    elif fmt in ("copilot-vscode", "kiro-export", "kiro-legacy", "kiro-ide"):
        data = orjson.dumps(records[0])
    elif fmt == "cline":
        data = orjson.dumps(records)
    else:
        data = b"".join(orjson.dumps(r) + b"\n" for r in records)
    try:
        out, _ = native(data, fmt.removesuffix("-export"), policy=policy, key=KEY if policy == "public" else None)
    except RedactError:
        event("refused")
        return
    if policy == "public" and CANARY in orjson.dumps(value).decode():
        event("canary checked in a written output")
        # every identifier hashed unless public, every path hashed: no canary
        assert CANARY not in out.decode("utf-8")
