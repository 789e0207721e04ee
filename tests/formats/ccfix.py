"""Build Claude Code transcripts for tests, shaped like the real ones (client 2.1.x).

Records carry the envelope real clients write (parentUuid chain, sessionId, cwd, gitBranch, slug,
version, uuid, timestamp), and one API response is split over one record per content block that
share `message.id` and `requestId`, the way the client writes them. Ids are deterministic.
"""
from __future__ import annotations

import random
import uuid as uuidlib
from datetime import datetime, timezone
from typing import Any

import orjson


def iso(ms: float) -> str:
    dt = datetime.fromtimestamp(ms / 1000, tz=timezone.utc)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


class Transcript:
    def __init__(self, session_id: str, cwd: str, *, start: str = "2026-03-02T09:00:00.000Z",
                 branch: str = "main", version: str = "2.1.39", seed: int = 7,
                 agent_id: str | None = None, slug: str = "quiet-amber-river") -> None:
        self.session_id = session_id
        self.cwd = cwd
        self.branch = branch
        self.version = version
        self.agent_id = agent_id
        self.slug = slug
        self.t = datetime.fromisoformat(start).timestamp() * 1000
        self.rng = random.Random(seed)
        self.parent: str | None = None
        self.records: list[dict[str, Any]] = []
        self._msg = 0

    # -- ids and time ------------------------------------------------------------------------------
    def uid(self) -> str:
        return str(uuidlib.UUID(int=self.rng.getrandbits(128), version=4))

    def tool_id(self) -> str:
        return "toolu_01" + "".join(self.rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz123456789")
                                    for _ in range(22))

    def tick(self, ms: float) -> "Transcript":
        self.t += ms
        return self

    def envelope(self, kind: str, **extra: Any) -> dict[str, Any]:
        rec: dict[str, Any] = {"parentUuid": self.parent, "isSidechain": self.agent_id is not None,
                               "userType": "external", "cwd": self.cwd, "sessionId": self.session_id,
                               "version": self.version, "gitBranch": self.branch}
        if self.agent_id is not None:
            rec["agentId"] = self.agent_id
        rec["slug"] = self.slug
        rec["type"] = kind
        rec.update(extra)
        rec["uuid"] = self.uid()
        rec["timestamp"] = iso(self.t)
        self.parent = rec["uuid"]
        return rec

    def add(self, rec: dict[str, Any]) -> dict[str, Any]:
        self.records.append(rec)
        return rec

    # -- records -----------------------------------------------------------------------------------
    def raw(self, rec: dict[str, Any]) -> dict[str, Any]:
        return self.add(rec)

    def user(self, content: str | list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        return self.add(self.envelope("user", message={"role": "user", "content": content}, **extra))

    def assistant(self, blocks: list[dict[str, Any]], *, model: str = "claude-sonnet-4-5-20250929",
                  usage: tuple[int, int, int, int] = (3, 1200, 15000, 120), stop: str | None = None,
                  step_ms: float = 400) -> str:
        """One API response: one record per block (shared message id), like the client writes."""
        self._msg += 1
        msg_id = f"msg_01{self.rng.getrandbits(80):020x}"
        req_id = f"req_011{self.rng.getrandbits(80):020x}"
        inp, cw, cr, out = usage
        for i, block in enumerate(blocks):
            last = i == len(blocks) - 1
            message = {"model": model, "id": msg_id, "type": "message", "role": "assistant",
                       "content": [block], "stop_reason": stop if last else None, "stop_sequence": None,
                       "usage": {"input_tokens": inp, "cache_creation_input_tokens": cw,
                                 "cache_read_input_tokens": cr, "output_tokens": out if last else 8,
                                 "service_tier": "standard"}}
            self.add(self.envelope("assistant", message=message, requestId=req_id))
            if not last:
                self.tick(step_ms)
        return msg_id

    def result(self, tool_use_id: str, content: str | list[dict[str, Any]], *, is_error: bool = False,
               tur: Any = None) -> dict[str, Any]:
        block: dict[str, Any] = {"tool_use_id": tool_use_id, "type": "tool_result", "content": content}
        if is_error:
            block["is_error"] = True
        extra: dict[str, Any] = {}
        if tur is not None:
            extra["toolUseResult"] = tur
        return self.user([block], **extra)

    def system(self, subtype: str, **fields: Any) -> dict[str, Any]:
        return self.add(self.envelope("system", subtype=subtype, **fields))

    def bytes(self) -> bytes:
        return b"".join(orjson.dumps(r) + b"\n" for r in self.records)


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def thinking(value: str) -> dict[str, Any]:
    return {"type": "thinking", "thinking": value, "signature": "EqQBCkYIBRgCKkA" + "x" * 40}


def tool_use(tid: str, name: str, inp: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": tid, "name": name, "input": inp}
