"""One Zed agent thread (the JSON Lines export of `store.py`) -> facts.

A `User` message is a prompt (its text length, images); an `Agent` message is one llm event (text
length, thinking, its tool calls, the thread's model) with the results of its calls in its
`tool_results`. Zed keeps the token usage of the last model request of each user turn: it goes on
the last agent message of that turn; the other agent messages carry no tokens, and the thread's
cumulative total is never spread over them. Zed keeps no time per message, so every event carries
the thread's start (its row's `created_at`, else the worktree snapshot's time); the session lasts
until its row's `updated_at`.

The repository root is the first worktree of the thread's project snapshot; Zed writes a tool's path
as `<worktree name>/<path>`, which is placed under that worktree. A thread of another version than
the table's is counted and its messages are not read.
"""
from __future__ import annotations

import posixpath
from typing import Any, BinaryIO

from redact.build.facts import MAIN, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats import chatlog
from redact.formats.chatlog import as_object
from redact.formats.common import epoch_ms, is_model_name, label, positive_int
from redact.formats.zed.keys import (
    AGENT, AGENT_CONTENT, AGENT_KINDS, CACHE_READ, CACHE_WRITE, CALL_ID, CALL_INPUT, CALL_NAME, CREATED, FOLDERS,
    IMAGE, IN, KIND, MENTION, MESSAGE, MODEL, MODEL_NAME, OUT, PARENT, REDACTED, REMOTE, RESULT_CALL, RESULT_CONTENT,
    RESULT_ERROR, RESULT_TEXT, RESULTS, SNAPSHOT, SNAPSHOT_AT, TEXT, THINKING, THREAD_ID, TOOL_USE, UPDATED, USAGE,
    USER, USER_CONTENT, USER_KINDS, USER_TEXT, VERSION, WORKTREE_PATH, WORKTREES, GIT,
)
from redact.formats.zed.native_table import ALIASES, VERSIONS
from redact.report import RedactionReport

AGENT_TOOL = "zed"


def model_id(value: object) -> str | None:
    """Zed's model name as a model id: as written when it is one, else its display name in lower case
    with `-` for spaces (`Gemini 2.5 Flash` -> `gemini-2.5-flash`); None when neither is a model name."""
    if is_model_name(value):
        return value if isinstance(value, str) else None
    if isinstance(value, str):
        spelled = "-".join(value.lower().split())
        return spelled if is_model_name(spelled) else None
    return None


def _kinds(items: object, kinds: tuple[str, ...]) -> list[tuple[str, Any]]:
    """(kind, value) of each content item: an object whose one key names its kind."""
    out: list[tuple[str, Any]] = []
    for item in items if isinstance(items, list) else []:
        found = [(k, as_object(item).get(k)) for k in kinds if as_object(item).get(k) is not None]
        out.append(found[0] if len(found) == 1 else ("", None))
    return out


class ZedReader(chatlog.StoreReader, chatlog.CallPairs):
    AGENT_TOOL, KIND_KEY, RECORDS = AGENT_TOOL, KIND, ("message",)

    def __init__(self, report: RedactionReport) -> None:
        super().__init__(report)
        self.calls: dict[str, ToolCall] = {}
        self.done: set[str] = set()
        self.t0: float | None = None
        self.model: str | None = None
        self.read_messages = True
        self.worktrees: dict[str, str] = {}  # worktree folder name -> its parent folder
        self.usage: dict[str, Any] = {}  # the open turn's token usage
        self.turn_llm: LlmResponse | None = None

    def session(self, r: dict[str, Any]) -> None:
        snapshot = as_object(r.get(SNAPSHOT))
        trees = [as_object(w) for w in snapshot.get(WORKTREES) or [] if isinstance(w, dict)] \
            if isinstance(snapshot.get(WORKTREES), list) else []
        paths: list[str] = [w[WORKTREE_PATH] for w in trees if isinstance(w.get(WORKTREE_PATH), str) and w[WORKTREE_PATH]]
        folders = r.get(FOLDERS)
        opened = [f for f in folders.splitlines() if f.strip()] if isinstance(folders, str) else []
        self.session_row(r.get(THREAD_ID), paths[0] if paths else (opened[0] if opened else None), r.get(PARENT))
        for path in paths or opened:
            self.worktrees.setdefault(posixpath.basename(path.rstrip("/")), posixpath.dirname(path.rstrip("/")))
        for tree in trees:
            remote = as_object(tree.get(GIT)).get(REMOTE)
            if isinstance(remote, str) and remote and self.s.remote is None:
                self.s.remote = remote
        self.t0 = epoch_ms(r.get(CREATED)) or epoch_ms(snapshot.get(SNAPSHOT_AT)) or epoch_ms(r.get(UPDATED))
        self.seen(self.t0)
        updated = epoch_ms(r.get(UPDATED))
        if updated is not None and self.t0 is not None and updated > self.t0:
            self.s.ends(updated)  # the thread was last written then: it lasted at least until then
        self.model = model_id(as_object(r.get(MODEL)).get(MODEL_NAME))
        version = r.get(VERSION)
        if version not in VERSIONS:
            self.read_messages = False
            self.skip("thread:<older version>")

    def message(self, r: dict[str, Any]) -> None:
        m = r.get(MESSAGE)
        t = self.t0
        if not self.read_messages or t is None:
            self.skip("message:<thread not read>" if not self.read_messages else "message:<no time>")
            return
        if m == "Resume":
            self.skip("message:Resume")
            return
        user, agent = as_object(m).get(USER), as_object(m).get(AGENT)
        if isinstance(user, dict):
            self.user(user, as_object(r.get(USAGE)), t)
        elif isinstance(agent, dict):
            self.agent(agent, t)
        else:
            self.skip("message:<unknown kind>")

    def close_turn(self) -> None:
        """The open turn's token usage onto its last agent message."""
        if self.turn_llm is not None and self.usage:
            u, llm = self.usage, self.turn_llm
            llm.inp, llm.out = positive_int(u.get(IN)), positive_int(u.get(OUT))
            llm.cw, llm.cr = positive_int(u.get(CACHE_WRITE)), positive_int(u.get(CACHE_READ))
        self.usage, self.turn_llm = {}, None

    def user(self, user: dict[str, Any], usage: dict[str, Any], t: float) -> None:
        self.close_turn()
        self.usage = usage
        turn = UserTurn(t, MAIN, 0)
        for kind, value in _kinds(user.get(USER_CONTENT), USER_KINDS):
            if kind == USER_TEXT and isinstance(value, str):
                turn.chars += len(value)
            elif kind == IMAGE:
                turn.images += 1
            elif kind != MENTION:
                self.skip(label("content", kind or None))
        self.s.facts.append(turn)

    def agent(self, agent: dict[str, Any], t: float) -> None:
        llm = LlmResponse(t, MAIN, self.model)
        self.s.facts.append(llm)
        self.turn_llm = llm
        for kind, value in _kinds(agent.get(AGENT_CONTENT), AGENT_KINDS):
            if kind == TEXT and isinstance(value, str):
                llm.text_chars += len(value)
            elif kind in (THINKING, REDACTED):
                llm.thinking = True
            elif kind == TOOL_USE and isinstance(value, dict):
                self.call(value, t, llm)
            else:
                self.skip(label("content", kind or None))
        results = agent.get(RESULTS)
        for result in results if isinstance(results, list) else []:
            self.result(as_object(result), t)

    def place(self, args: dict[str, Any]) -> dict[str, Any]:
        """A tool input whose path Zed wrote as `<worktree name>/<path>`, with that path absolute."""
        out = dict(args)
        for key in chatlog.PATH_ALIASES:
            value = out.get(key)
            if isinstance(value, str) and value and not value.startswith("/"):
                head = value.split("/", 1)[0]
                if head in self.worktrees:
                    out[key] = posixpath.join(self.worktrees[head], value)
        return out

    def call(self, data: dict[str, Any], t: float, llm: LlmResponse) -> None:
        call_id, name = data.get(CALL_ID), data.get(CALL_NAME)
        if not isinstance(call_id, str) or not call_id or not isinstance(name, str) or not name \
                or call_id in self.calls:
            self.skip("<duplicate>" if isinstance(call_id, str) and call_id in self.calls
                      else "content:ToolUse:<no id or name>")
            return
        args = data.get(CALL_INPUT)
        c = chatlog.call(name, self.place(args) if isinstance(args, dict) else {}, call_id, t, MAIN,
                         aliases=ALIASES)
        self.calls[call_id] = c
        llm.tool_calls += 1
        self.s.facts.append(c)

    def result(self, data: dict[str, Any], t: float) -> None:
        c = self.answered(data.get(RESULT_CALL), unmatched="tool_result:<no call>")
        if c is None:
            return
        error = data.get(RESULT_ERROR) is True
        content = data.get(RESULT_CONTENT)
        text = content if isinstance(content, str) else as_object(content).get(RESULT_TEXT)
        self.s.facts.append(chatlog.result(c, max(t, c.t), error=error, output=text,
                                           error_text=text if error else None))



def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    reader = ZedReader(report)
    reader.read(data, where, skip_bad_lines)
    reader.close_turn()
    return reader.finish(data, file_stem)
