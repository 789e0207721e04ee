"""Kiro / Amazon Q Developer CLI ConversationState scrubbed in its own format (`--to native`): one
pretty-printed JSON document; paths are placed under the first turn's working directory, as the
reader places them."""
from __future__ import annotations

from typing import Any

import orjson

from redact.formats.chatlog import as_object, root_of
from redact.formats.common import json_doc
from redact.formats.kiro_legacy.keys import CWD, ENV, ENV_STATE, HISTORY, USER
from redact.formats.kiro_legacy.native_table import CONVERSATION, TABLE
from redact.keys.material import Key
from redact.native.scrub import DROP, Scrubber
from redact.policy.load import EffectivePolicy
from redact.report import RedactionReport


def cwd_of(doc: dict[str, Any]) -> str | None:
    history = doc.get(HISTORY)
    for turn in history if isinstance(history, list) else []:
        cwd = as_object(as_object(as_object(as_object(turn).get(USER)).get(ENV)).get(ENV_STATE)).get(CWD)
        if isinstance(cwd, str) and cwd:
            return cwd
    return None


def scrub(data: bytes, *, name: str, policy: EffectivePolicy, key: Key | None, mode: str,
          report: RedactionReport, skip_bad_lines: bool = False) -> bytes:
    doc = json_doc(data, name)
    conversation = doc if isinstance(doc, dict) else {}
    cwd = cwd_of(conversation)
    scrubber = Scrubber(TABLE, policy=policy, key=key, mode=mode, report=report, roots=root_of(cwd))
    scrubber.cwd = cwd
    out = scrubber.value(CONVERSATION, conversation, "conversation")
    return orjson.dumps(out if out is not DROP else {}, option=orjson.OPT_INDENT_2) + b"\n"
