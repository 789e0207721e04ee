"""Hermes Agent sessions for the tests, written by this project (modelled on the layouts Hermes
writes, not copied): every text slot holds a word from `c()`; paths hold a user name.

`records(c)` are OpenAI chat messages with every role Hermes writes and its tools' JSON results;
`document(c)` is the session document (`session_<time>_<hex>.json`, messages without times) and
`log(c)` the JSON Lines log (a `session_meta` line, then timestamped messages).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

SESSION_ID = "20260506_192621_5fd1bc"
START = "2026-05-06T19:26:22.550057"


def _call(cid: str, name: str, **args: Any) -> dict[str, Any]:
    return {"id": cid, "call_id": cid, "response_item_id": "fc_" + cid[5:], "type": "function",
            "function": {"name": name, "arguments": orjson.dumps(args).decode()}}


def _result(cid: str, **body: Any) -> dict[str, Any]:
    return {"role": "tool", "content": orjson.dumps(body).decode(), "tool_call_id": cid}


def records(c: Callable[[], str], user: str = "dana") -> list[dict[str, Any]]:
    home = f"/home/{user}/src/shop"
    return [
        {"role": "user", "content": f"{c()} see https://{c()}.example.com/{c()} please"},
        {"role": "assistant", "content": "", "reasoning": c(), "finish_reason": "tool_calls", "tool_calls": [
            _call("call_aaaa1111", "read_file", path=f"{home}/src/{c()}.py", offset=1, limit=40),
            _call("call_bbbb2222", "terminal", command=f"npm test -- {c()}", timeout=120),
            _call("call_cccc3333", "search_files", pattern=c(), target="content", path=home),
        ]},
        _result("call_aaaa1111", content=f"     1|{c()}\n     2|{c()}", total_lines=2),
        _result("call_bbbb2222", output=f"FAIL {c()}", exit_code=1, error=None),
        _result("call_cccc3333", matches=[{"path": f"{home}/{c()}", "line": 3, "content": c()}]),
        {"role": "assistant", "content": c(), "reasoning": None, "finish_reason": "tool_calls", "tool_calls": [
            _call("call_dddd4444", "patch", mode="replace", path=f"{home}/src/app.py", old_string=c(),
                  new_string=c(), replace_all=False),
            _call("call_eeee5555", "execute_code", code=f"print('{c()}')"),
            _call("call_ffff6666", "terminal", command=f"git commit -m '{c()}'"),
        ]},
        _result("call_dddd4444", success=False, error=f"Could not find {c()} in the file"),
        _result("call_eeee5555", status="success", output=c()),
        _result("call_ffff6666", output=f"[main 1a2b3c4] {c()}\n 1 file changed", exit_code=0, error=None),
        {"role": "system", "content": c()},
        {"role": "narrator", "content": c()},  # a role the table does not know
        {"role": "user", "content": c()},
        {"role": "assistant", "content": f"{c()} {c()}", "reasoning": None, "finish_reason": "stop"},
    ]


def document(c: Callable[[], str], user: str = "dana") -> bytes:
    recs = records(c, user)
    doc = {"session_id": SESSION_ID, "model": "gpt-4o", "base_url": f"https://{c()}.example.com/v1",
           "platform": "cli", "session_start": START, "last_updated": "2026-05-06T19:28:08.033775",
           "system_prompt": c(), "tools": [{"type": "function", "function": {"name": "terminal",
                                                                           "description": c()}}],
           "message_count": len(recs), "messages": recs}
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2)


def log(c: Callable[[], str], user: str = "dana") -> bytes:
    recs = records(c, user)
    meta = {"role": "session_meta", "tools": [{"type": "function", "function": {"description": c()}}],
            "model": "deepseek-v4-pro", "platform": "telegram", "timestamp": "2026-05-12T19:16:43.886393"}
    lines = [meta]
    for n, r in enumerate(recs):
        lines.append({**r, "timestamp": f"2026-05-12T19:{17 + n:02d}:00.000000"})
    return b"\n".join(orjson.dumps(x) for x in lines) + b"\n"
