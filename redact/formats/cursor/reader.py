"""One Cursor chat (the JSON Lines export of `store.py`) -> facts.

A user bubble is a prompt (its text's length). The agent's bubbles between two prompts are one turn:
Cursor does not record its model calls one by one, so each turn is one llm event (the composer's
model, the bubbles' token counts summed, thinking when a bubble has any, the text's length, the
number of tool calls). A bubble with `toolFormerData` is a tool call (the shared tool table after
Cursor's aliases: `read_file_v2` is a read, `run_terminal_command_v2` a shell command through the
verb engine...) and, once its status is final, its result. Paths are placed under the git repository
Cursor tracks for the composer (`trackedGitRepos`) that holds its workspace folder, else under the
workspace folder (a workspace opened at `repo/src` keeps `src/` in its paths). A composer's
`latestConversationSummary` (the summary Cursor writes when it compacts a chat; built from public
descriptions of the store, no sample) is a compaction event after the bubble it covers up to
(`truncationLastBubbleIdInclusive`, else `lastBubbleId`); its text is never read.
"""
from __future__ import annotations

from typing import Any, BinaryIO

from redact.build.facts import MAIN, Compaction, LlmResponse, SessionFacts, UserTurn
from redact.formats import chatlog
from redact.formats.chatlog import as_object
from redact.formats.common import (
    epoch_ms, is_model_name, label, parse_json_string, positive_int,
)
from redact.formats.cursor.keys import (
    ADDITIONAL_STATUS, AT, BUBBLE_MODEL, BUBBLE_TYPE, CALL_ID, COMPACTED, CREATED, ERROR, GIT_REPOS, ID, INPUT_TOKENS, KIND, LAST_SEND,
    MODEL, OUTPUT_TOKENS, PARAMS, PARENT, RAW_ARGS, RESULT, ROOT, STATUS, TEXT, THINKING, TIME, TOKENS, TOOL,
    TOOL_NAME,
)
from redact.formats.cursor.native_table import AI_TYPES, USER_TYPES
from redact.formats.cursor.table import ALIASES, DONE
from redact.formats.jsonl import iter_objects
from redact.report import RedactionReport

AGENT_TOOL = "cursor"


def _norm(path: str) -> str:
    return path.replace("\\", "/").rstrip("/").casefold()


def repo_of(workspace: str | None, repos: object) -> str | None:
    """The tracked git repository holding the workspace folder (the innermost), or the one repository
    tracked when the workspace is unknown; None otherwise (the workspace is the root)."""
    paths = [p for p in repos if isinstance(p, str) and p and len(p) < 4096] if isinstance(repos, list) else []
    if workspace is None or not workspace:
        return paths[0] if len(paths) == 1 else None
    here = _norm(workspace)
    holding = [p for p in paths if here == _norm(p) or here.startswith(_norm(p) + "/")]
    return max(holding, key=len) if holding else None


class CursorReader(chatlog.StoreReader):
    AGENT_TOOL = AGENT_TOOL

    def __init__(self, report: RedactionReport) -> None:
        super().__init__(report)
        self.model: str | None = None
        self.turn: LlmResponse | None = None
        self.calls: set[str] = set()
        self.n = 0
        self.compacted: str | None = None  # the bubble a compaction summary covers up to

    def time(self, value: object) -> float | None:
        return self.seen(epoch_ms(value) if isinstance(value, str) else chatlog.epoch_number(value))

    def read(self, data: bytes | BinaryIO, where: str, skip_bad_lines: bool) -> None:
        for _, record in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            kind = record.get(KIND)
            if kind in ("composer", "tab") and self.session_id is None:
                self.head(record)
            elif kind == "bubble":
                self.bubble(record)
            else:
                self.skip(label(kind) if isinstance(kind, str) else "<no record kind>")

    def head(self, r: dict[str, Any]) -> None:
        """A composer's or an aichat tab's head record (a tab has only its id, time and title)."""
        def field(key: str) -> Any:
            return r.get(key) if key in r else None

        workspace = field(ROOT)
        repo = repo_of(workspace if isinstance(workspace, str) else None, field(GIT_REPOS))
        self.session_row(r.get(ID), repo or workspace, field(PARENT))
        if repo is not None and isinstance(workspace, str) and workspace:
            self.s.cwd = workspace  # relative paths are the workspace's
        self.model = field(MODEL) if is_model_name(field(MODEL)) else None
        self.time(field(CREATED) or field(LAST_SEND))
        cut = field(COMPACTED)
        self.compacted = cut if isinstance(cut, str) and cut else None

    def bubble(self, r: dict[str, Any]) -> None:
        self.bubble_events(r)
        if self.compacted is not None and r.get(ID) == self.compacted and self.s.facts:
            # Cursor summarised the chat up to this bubble (its text is never read): a compaction
            self.s.facts.append(Compaction(self.s.facts[-1].t, MAIN))
            self.compacted = None

    def bubble_events(self, r: dict[str, Any]) -> None:
        kind = r.get(BUBBLE_TYPE)
        t = self.time(r.get(AT) or r.get(TIME))
        if t is None:
            self.skip("bubble:<no time>")
            return
        text = r.get(TEXT)
        chars = len(text) if isinstance(text, str) else 0
        if kind in USER_TYPES:
            self.turn = None
            if is_model_name(r.get(BUBBLE_MODEL)):
                self.model = r[BUBBLE_MODEL]
            self.s.facts.append(UserTurn(t, MAIN, chars))
            return
        if kind not in AI_TYPES:
            self.skip(label("bubble", str(kind) if isinstance(kind, (str, int)) else None))
            return
        if self.turn is None:
            model = r.get(BUBBLE_MODEL) if is_model_name(r.get(BUBBLE_MODEL)) else self.model
            self.turn = LlmResponse(t, MAIN, model)
            self.s.facts.append(self.turn)
        turn = self.turn
        tokens = as_object(r.get(TOKENS))
        turn.inp += positive_int(tokens.get(INPUT_TOKENS))
        turn.out += positive_int(tokens.get(OUTPUT_TOKENS))
        turn.text_chars += chars
        if isinstance(r.get(THINKING), str) and r[THINKING]:
            turn.thinking = True
        tool = r.get(TOOL)
        if isinstance(tool, dict):
            self.tool(tool, t, turn)

    def tool(self, tool: dict[str, Any], t: float, turn: LlmResponse) -> None:
        name = tool.get(TOOL_NAME)
        if not isinstance(name, str) or not name:
            self.skip("bubble:tool:<no name>")
            return
        call_id = tool.get(CALL_ID)
        if not isinstance(call_id, str) or not call_id or call_id in self.calls:
            self.n += 1
            call_id = f"#{self.n}"
        self.calls.add(call_id)
        args = parse_json_string(tool.get(PARAMS))
        if not isinstance(args, dict) or not args:
            args = parse_json_string(tool.get(RAW_ARGS))
        c = chatlog.call(name, args if isinstance(args, dict) else {}, call_id, t, MAIN, aliases=ALIASES)
        turn.tool_calls += 1
        self.s.facts.append(c)
        status = tool.get(STATUS)
        if not isinstance(status, str) or status not in DONE:
            return
        failed = DONE[status] or tool.get(ADDITIONAL_STATUS) == "error"
        error = tool.get(ERROR)
        res = chatlog.result(c, t, error=failed, output=tool.get(RESULT),
                             error_text=error if isinstance(error, str) else None)
        if status in ("cancelled", "canceled", "rejected"):
            res.err_class = "interrupted" if status != "rejected" else "permission_denied"
        self.s.facts.append(res)

    def finish(self, data: bytes | BinaryIO, stem: str | None) -> SessionFacts:
        for fact in self.s.facts:
            if isinstance(fact, LlmResponse) and fact.stop is None:
                fact.stop = "tool_use" if fact.tool_calls else "end_turn"
        return super().finish(data, stem)


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    reader = CursorReader(report)
    reader.read(data, where, skip_bad_lines)
    return reader.finish(data, file_stem)
