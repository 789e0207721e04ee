"""Codex model requests: one `llm` event per model response, and the token counts that meter them.

A response opens at its first item after an input (`open_response`, called by the item handlers)
and takes the usage of one `token_count` event: the one after its items (current clients) or the
one before them (clients 0.3x, held in `pending` until the next response opens). The rules are in
`reader.py`'s docstring; the handlers take the reader as their first argument (`state.py`).
"""
from __future__ import annotations

from typing import Any

from redact.build.facts import MAIN, LlmResponse
from redact.formats.codex.events import delta, meter, usage_key
from redact.formats.codex.keys import (
    CACHED_TOKENS, INFO, INPUT_TOKENS, LAST_USAGE, OUTPUT_TOKENS, TOTAL_TOKENS, TOTAL_USAGE,
)
from redact.formats.codex.state import CodexReader
from redact.formats.common import as_int, positive_int


def open_response(r: CodexReader, t: float) -> LlmResponse:
    resp = r.response
    if resp is None:
        start = r.input_t if r.input_t is not None and r.input_t <= t else t
        resp = LlmResponse(start, MAIN, r.model, latency=(t - start) if r.timed else None)
        r.response = resp
        r.add(resp)
        if r.pending:  # its usage was reported before its items (clients 0.3x)
            usage, at = r.pending.pop(0)
            r.pending_models.pop(0)
            meter(resp, usage)
            # the request ended when its usage was written; its items may be written much
            # later (after the user approved a command), which is not the model's time
            resp.latency = max(at - start, 0.0) if at is not None and r.timed else None
            r.latency_fixed = True
        else:
            r.unmetered = resp
            r.latency_fixed = False
    elif r.timed and resp.latency is not None and not r.latency_fixed:
        resp.latency = max(resp.latency, t - resp.t)
    return resp


def token_count(r: CodexReader, p: dict[str, Any], t: float) -> None:
    """Usage of one model request. Current clients write it after the response's items (it
    closes the open response); clients 0.3x write it before them (it waits for the next
    response). A total equal to the previous one is the same usage reported again."""
    info = p.get(INFO)
    if not isinstance(info, dict):
        return  # a rate-limit update only
    total = info.get(TOTAL_USAGE)
    last = info.get(LAST_USAGE)
    key = usage_key(total)
    if key is not None and key == r.last_total:
        return
    previous = r.last_total
    r.last_total = key if key is not None else r.last_total
    usage = last if isinstance(last, dict) else delta(total, previous)
    if not isinstance(usage, dict):
        return
    tokens = (positive_int(usage.get(INPUT_TOKENS)), positive_int(usage.get(CACHED_TOKENS)),
              positive_int(usage.get(OUTPUT_TOKENS)))
    if not tokens[0] and not tokens[2]:
        return  # Codex's fill-to-context-window marker carries no tokens
    context = as_int(usage.get(TOTAL_TOKENS))
    r.last_context = context if context is not None else tokens[0] + tokens[2]
    resp = r.response
    if resp is not None and resp is r.unmetered:
        meter(resp, tokens)
        if r.timed and resp.latency is not None:
            resp.latency = max(resp.latency, t - resp.t)
        r.unmetered = None
        r.gave_input(t)
    else:
        r.pending.append((tokens, t if r.timed else None))
        r.pending_models.append(r.model)
