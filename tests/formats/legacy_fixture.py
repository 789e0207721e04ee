"""A small transcript in the older layouts (client 0.2.x records, 2.0.x flat agent file), written here.

- 0.2.x records: one record per complete response (all blocks, `stop_reason` set), `costUSD`,
  `durationMs` (the API time) and `model` on the record, `toolUseResult: null` on prompts;
- a resumed session: the client repeated the first records verbatim (same `uuid`s);
- a Task without `subagent_type`, whose subagent wrote its records into the main file as sidechain
  records without `agentId`;
- a synthetic "API Error" message, and a flat `agent-<id>.jsonl` Warmup transcript beside the session,
  matched by `sessionId`.

Regenerate (only on purpose): `.venv/bin/python -m tests.formats.legacy_fixture`
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import orjson

from tests.formats.ccfix import Transcript, text, tool_use

SESSION = "9d1e2f30-4a5b-4c6d-8e9f-0a1b2c3d4e5f"
FLAT_AGENT = "5c1d2e3"
CWD = "/Users/sam.okafor/dev/weather-cli"
MODEL = "claude-3-7-sonnet-20250219"
DIR = Path(__file__).resolve().parents[1] / "fixtures" / "claude-code" / "legacy"
SECRETS = ("sam.okafor", "OWM_KEY_8d7f6e5d4c3b2a19", "Lagos", "weather-secret-token", "staging.weather.internal")


def _old(t: Transcript, kind: str, message: dict[str, Any], **extra: Any) -> dict[str, Any]:
    rec = t.envelope(kind, message=message, **extra)
    for name in ("gitBranch", "slug"):
        rec.pop(name, None)
    rec["originalCwd"] = CWD
    return t.add(rec)


def _reply(t: Transcript, blocks: list[dict[str, Any]], usage: tuple[int, int, int, int], stop: str,
           duration: int, *, sidechain: bool = False) -> dict[str, Any]:
    inp, cw, cr, out = usage
    message = {"id": f"msg_01{t.rng.getrandbits(80):020x}", "type": "message", "role": "assistant", "model": MODEL,
               "content": blocks, "stop_reason": stop, "stop_sequence": None,
               "usage": {"input_tokens": inp, "cache_creation_input_tokens": cw, "cache_read_input_tokens": cr,
                         "output_tokens": out}}
    rec = _old(t, "assistant", message, costUSD=0.01, durationMs=duration, isApiErrorMessage=False, model=MODEL)
    if sidechain:
        rec["isSidechain"] = True
    return rec


def main_transcript() -> Transcript:
    t = Transcript(SESSION, CWD, version="0.2.98", start="2025-05-02T10:00:00.000Z", seed=21)
    t.raw({"type": "summary", "summary": "Lagos forecast caching with OWM_KEY_8d7f6e5d4c3b2a19", "leafUuid": t.uid()})
    _old(t, "user", {"role": "user", "content": "Cache the forecast for Lagos; the key OWM_KEY_8d7f6e5d4c3b2a19 "
                                                "is in .env"}, toolUseResult=None, isAtMentionRead=None)
    t.tick(4000)
    read = t.tool_id()
    _reply(t, [text("Reading the client."), tool_use(read, "Read", {"file_path": f"{CWD}/weather/client.py"})],
           (4, 2600, 0, 60), "tool_use", 3100)
    t.tick(200)
    _old(t, "user", {"role": "user", "content": [{"tool_use_id": read, "type": "tool_result",
                                                  "content": "     1\timport requests  # weather-secret-token"}]},
         toolUseResult={"type": "text", "file": {"filePath": f"{CWD}/weather/client.py", "content": "import requests",
                                                 "numLines": 1, "startLine": 1, "totalLines": 1}})
    resumed = list(t.records[1:4])  # the client will repeat these on resume
    t.tick(3000)
    task = t.tool_id()
    _reply(t, [tool_use(task, "Task", {"description": "Find cache helpers for Lagos",
                                       "prompt": "Look for any cache helper under weather/ (Lagos)"})],
           (6, 300, 2600, 90), "tool_use", 2500)
    # the subagent's records, written into the main file as sidechain records (no agentId)
    main_parent = t.parent
    t.parent = None
    side = _old(t, "user", {"role": "user", "content": "Look for any cache helper under weather/ (Lagos)"})
    side["isSidechain"] = True
    t.tick(2000)
    grep = t.tool_id()
    _reply(t, [tool_use(grep, "Grep", {"pattern": "lru_cache|cachetools", "path": CWD})], (5, 1000, 0, 40),
           "tool_use", 1800, sidechain=True)
    t.tick(100)
    res = _old(t, "user", {"role": "user", "content": [{"tool_use_id": grep, "type": "tool_result",
                                                        "content": f"Found 1 file\n{CWD}/weather/cache.py"}]},
               toolUseResult={"filenames": [f"{CWD}/weather/cache.py"], "numFiles": 1})
    res["isSidechain"] = True
    t.tick(1500)
    _reply(t, [text("weather/cache.py has a TTL cache.")], (5, 200, 1000, 30), "end_turn", 1400, sidechain=True)
    t.parent = main_parent
    t.tick(300)
    _old(t, "user", {"role": "user", "content": [{"tool_use_id": task, "type": "tool_result",
                                                  "content": [text("weather/cache.py has a TTL cache (Lagos).")]}]},
         toolUseResult={"content": [text("weather/cache.py has a TTL cache.")], "totalDurationMs": 5300,
                        "totalTokens": 2281, "totalToolUseCount": 1, "wasInterrupted": False})
    t.records.extend(resumed)  # resumed: the client repeats earlier records with the same uuids
    t.tick(2500)
    run = t.tool_id()
    _reply(t, [tool_use(run, "Bash", {"command": "OWM_KEY=OWM_KEY_8d7f6e5d4c3b2a19 weatherctl fetch Lagos",
                                      "description": "Try the CLI"})], (6, 500, 2900, 70), "tool_use", 2200)
    t.tick(600)
    _old(t, "user", {"role": "user", "content": [{"tool_use_id": run, "type": "tool_result", "is_error": True,
                                                  "content": "Exit code 127\nweatherctl: command not found"}]},
         toolUseResult="Error: Exit code 127")
    t.tick(1000)
    synthetic = {"id": t.uid(), "type": "message", "role": "assistant", "model": "<synthetic>",
                 "content": [text('API Error: 529 {"type":"error","error":{"type":"overloaded_error",'
                                  '"message":"Overloaded staging.weather.internal"}}')],
                 "stop_reason": "stop_sequence", "usage": {"input_tokens": 0, "output_tokens": 0}}
    _old(t, "assistant", synthetic, isApiErrorMessage=True, costUSD=0, durationMs=0, model="<synthetic>")
    t.tick(30_000)
    _old(t, "user", {"role": "user", "content": "try again"}, toolUseResult=None, isAtMentionRead=None)
    t.tick(5000)
    edit = t.tool_id()
    _reply(t, [text("Adding the cache."), tool_use(edit, "Edit", {
        "file_path": f"{CWD}/weather/client.py", "old_string": "import requests",
        "new_string": "import requests\nfrom weather.cache import ttl_cache  # Lagos"})],
        (6, 800, 3400, 150), "tool_use", 4800)
    t.tick(150)
    _old(t, "user", {"role": "user", "content": [{"tool_use_id": edit, "type": "tool_result",
                                                  "content": f"The file {CWD}/weather/client.py has been updated."}]},
         toolUseResult={"filePath": f"{CWD}/weather/client.py", "oldString": "import requests",
                        "newString": "import requests\nfrom weather.cache import ttl_cache"})
    t.tick(2500)
    _reply(t, [text("Done: the forecast for Lagos is cached for 10 minutes.")], (6, 200, 4200, 40),
           "end_turn", 2300)
    return t


def flat_agent() -> Transcript:
    t = Transcript(SESSION, CWD, version="2.0.65", start="2025-05-02T10:00:01.000Z", seed=22, agent_id=FLAT_AGENT)
    t.user("Warmup")
    t.tick(2500)
    t.assistant([text("Ready to help with weather-cli.")], model="claude-haiku-4-5-20251001",
                usage=(3, 4000, 0, 20), stop="end_turn")
    return t


def write(folder: Path = DIR) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{SESSION}.jsonl").write_bytes(main_transcript().bytes())
    (folder / f"agent-{FLAT_AGENT}.jsonl").write_bytes(flat_agent().bytes())


def load(folder: Path = DIR) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in (folder / f"{SESSION}.jsonl").read_bytes().splitlines() if line]


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else DIR)
