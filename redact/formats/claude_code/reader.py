"""Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`) -> facts.

One session is its main transcript plus its subagent transcripts (`<session>/subagents/agent-*.jsonl`,
or the older flat `agent-*.jsonl` beside it); `files.py` finds them. The format's one table is
`native_table.py` (these names are re-exported here):

- `RECORD_TYPES`: which record types are mapped (read for facts) and which are skipped (counted by
  type in the report, never read). Unknown types are skipped and counted too.
- the class of every field, and what this reader keeps of it: the native table (`native_table.py`),
  with `TOOL_KINDS`/`PATH_INPUTS`, the tool table. The reader reads only fields that table
  classifies: each key it reads is named by its place in that table (`keys.py`, which fails the
  import on a place the table does not classify; tests/formats/test_tables.py also runs it over the
  fixtures with every read logged) and reduces each on the spot: text to its length, a command to a
  verb (in the builder), a path to a repo-relative path or a bucket label (in the builder), a tool
  input or output to the facts in `tools.py`.

Quirks handled: one API response is written as several records (one per content block) that share
`message.id`; resumed sessions (client 0.2.x) repeat earlier records with the same `uuid`; a
"side question" transcript repeats the main conversation; subagent messages may arrive only inside
`progress` records (`agent_progress`) when the subagent has no transcript of its own.

What each mapped record type adds to the session is `records.py` (`RecordReader`, this reader's
base); this module keeps the session's bookkeeping: files, lanes, duplicates, the dispatch by record
type, `progress` records and the end of the session.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, BinaryIO

from redact.build.facts import MAIN, Lane, LlmResponse, SessionFacts
from redact.formats import ids
from redact.formats.claude_code import tools
from redact.formats.claude_code.keys import (
    AGENT_ID, CWD, DATA, DATA_TYPE, GIT_BRANCH, IS_SIDECHAIN, ORIGINAL_CWD, PARENT_TOOL_USE_ID, PARENT_UUID,
    PROGRESS_AGENT, PROGRESS_MESSAGE, SESSION_ID, TIMESTAMP, TYPE, UUID,
)
from redact.formats.claude_code.native_table import HOOK_ATTACHMENTS, HOOK_EVENTS, RECORD_TYPES, SYSTEM_SUBTYPES
from redact.formats.claude_code.records import AGENT_TOOL, RecordReader
from redact.formats.common import epoch_ms
from redact.formats.common import label
from redact.formats.jsonl import LineStats, iter_objects
from redact.report import RedactionReport

FORMAT = "claude-code"


class ClaudeCodeReader(RecordReader):
    """Reads the files of one session in order (main transcript first) into `SessionFacts`."""

    def __init__(self, report: RedactionReport, *, agent_files: Iterable[str] = ()) -> None:
        super().__init__(report, agent_files=agent_files)
        self.seen: set[str] = set()
        self.side_lane: dict[str, str] = {}  # record uuid -> lane, for sidechains without agentId
        self.session_ids: Counter[str] = Counter()
        self.cwd: str | None = None
        self.cwds: dict[str, None] = {}  # every working directory the records show, in order
        self.original_cwd: str | None = None
        self.git_branch = False  # a record names a git branch: the working directory is in git
        self.standalone: str | None = None  # the agent id when the main file is a subagent's own
        self.first_message = True
        self.stats = LineStats()

    # -- files -------------------------------------------------------------------------------------
    def read(self, data: bytes | BinaryIO, where: str, *, agent_id: str | None = None,
             skip_bad_lines: bool = False) -> None:
        """Read one file. `agent_id` is set for a subagent transcript (all its records are that lane)."""
        lane = self.lane_for_agent(agent_id) if agent_id else None
        for _, record in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            self.record(record, lane, in_main_file=lane is None)

    # -- lanes -------------------------------------------------------------------------------------
    def lane_for_agent(self, agent_id: str) -> str:
        if self.standalone is not None and agent_id == self.standalone:
            return MAIN
        lid = ids.lane_id(agent_id)
        if lid not in self.s.lanes:  # a helper transcript is a subagent lane that says what it is
            self.s.lanes[lid] = Lane(lid, "subagent", subagent_type=tools.helper_type(agent_id))
        return lid

    def lane_of(self, r: dict[str, Any], forced: str | None, in_main_file: bool) -> str:
        if forced is not None:
            return forced
        if r.get(IS_SIDECHAIN) is not True:
            return MAIN
        agent = r.get(AGENT_ID)
        if in_main_file and self.first_message and r.get(TYPE) in ("user", "assistant"):
            self.standalone = agent if isinstance(agent, str) and agent else "?"
            helper = isinstance(agent, str) and agent and tools.helper_type(agent) is not None
            self.s.role = "helper" if helper else "subagent"  # seed: session.role allows helper
            return MAIN
        if isinstance(agent, str) and agent:
            return self.lane_for_agent(agent)
        if self.standalone == "?":
            return MAIN
        uuid, parent = r.get(UUID), r.get(PARENT_UUID)
        lane = self.side_lane.get(parent) if isinstance(parent, str) else None
        if lane is None:
            lane = ids.lane_id(uuid if isinstance(uuid, str) else str(len(self.side_lane)))
            self.s.lanes.setdefault(lane, Lane(lane, "subagent"))
        if isinstance(uuid, str):
            self.side_lane[uuid] = lane
        return lane

    # -- records -----------------------------------------------------------------------------------
    def record(self, r: dict[str, Any], forced: str | None, *, in_main_file: bool) -> None:
        kind = r.get(TYPE)
        if self.s.first_seen is None:
            self.s.first_seen = epoch_ms(r.get(TIMESTAMP))
        if kind == "progress":  # the most frequent record, and almost always skipped
            self.progress(r)
            return
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            self.skip(label(kind) if isinstance(kind, str) else "<no type>")
            return
        uuid = r.get(UUID)
        if uuid.__class__ is str:
            if uuid in self.seen:
                self.skip("<duplicate>")
                return
            self.seen.add(uuid)
        lane = self.lane_of(r, forced, in_main_file)
        if kind in ("user", "assistant"):
            self.first_message = False
            sid = r.get(SESSION_ID)
            if isinstance(sid, str) and in_main_file:
                self.session_ids[sid] += 1
            cwd = r.get(CWD)
            if isinstance(cwd, str) and cwd and cwd not in self.cwds:
                self.cwds[cwd] = None
            if lane == MAIN and in_main_file:
                if self.cwd is None and isinstance(r.get(CWD), str):
                    self.cwd = r[CWD]
                if self.original_cwd is None and isinstance(r.get(ORIGINAL_CWD), str):
                    self.original_cwd = r[ORIGINAL_CWD]
                if not self.git_branch:
                    branch = r.get(GIT_BRANCH)
                    self.git_branch = isinstance(branch, str) and branch.strip() != ""
        t = epoch_ms(r.get(TIMESTAMP))
        if t is None:
            t = self.last_t.get(lane)
            if t is None:
                self.skip(label(kind if isinstance(kind, str) else "<no type>") + ":<no time>")
                return
        handler(self, r, lane, t)

    def progress(self, r: dict[str, Any]) -> None:
        data = r.get(DATA)
        kind = data.get(DATA_TYPE) if isinstance(data, dict) else None
        if kind != "agent_progress" or not isinstance(data, dict):
            self.skip(label("progress", kind))
            return
        agent, inner = data.get(PROGRESS_AGENT), data.get(PROGRESS_MESSAGE)
        if not isinstance(agent, str) or not agent or agent in self.agent_files or \
                not isinstance(inner, dict):
            self.skip(label("progress", kind))
            return
        uuid = r.get(UUID)
        if isinstance(uuid, str):
            if uuid in self.seen:
                self.skip("<duplicate>")
                return
            self.seen.add(uuid)
        lane = self.lane_for_agent(agent)
        parent = r.get(PARENT_TOOL_USE_ID)
        if isinstance(parent, str) and lane != MAIN:
            self.child_calls.setdefault(lane, parent)
        if TIMESTAMP not in inner:
            inner = {**inner, TIMESTAMP: r.get(TIMESTAMP)}
        self.record(inner, lane, in_main_file=False)

    # -- end ---------------------------------------------------------------------------------------
    def finish(self) -> SessionFacts:
        """Settle what only the whole session shows (withdrawn commands, stops, launches); the
        session's identity and roots are `claude_code_files.settle_session`'s."""
        s = self.s
        for pending in self.pending_cmd.values():
            pending.withdrawn = True
        for _ in self.early:
            self.skip("<tool_result without call>")
        self.early.clear()
        for fact in s.facts:
            if isinstance(fact, LlmResponse) and fact.stop is None:
                fact.stop = "tool_use" if fact.tool_calls else "end_turn"  # not recorded: inferred
        for lane_id, call_id in self.child_calls.items():
            lane = s.lanes.get(lane_id)
            if lane is not None and lane.launch_call is None:
                lane.launch_call = call_id
        for lane_id, digest in self.lane_prompts.items():
            lane = s.lanes.get(lane_id)
            call = self.prompt_calls.get(digest)
            if lane is not None and lane.launch_call is None and call is not None and \
                    call not in {ln.launch_call for ln in s.lanes.values()}:
                lane.launch_call = call
        self.stats.warn_skipped(self.report)
        return s


#: Each record type the table maps is read by the reader's method of its name (the table is the one
#: list: a type it marks mapped without a method fails the import).
_HANDLERS: dict[str, Any] = {kind: getattr(ClaudeCodeReader, kind.replace("-", "_"))
                             for kind, how in RECORD_TYPES.items() if how == "mapped"}


__all__ = [
    "AGENT_TOOL", "FORMAT", "HOOK_ATTACHMENTS", "HOOK_EVENTS", "RECORD_TYPES", "SYSTEM_SUBTYPES",
    "ClaudeCodeReader", "label",
]
