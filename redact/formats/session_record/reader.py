"""Agent session-record streams (seed 002) -> facts.

The table is in `table.py`. What the reader derives, and how:

- **Prompts**: a `message` of role user written by a human (`author: human`, or no author with
  `origin: prompt`); a harness-injected message is not a prompt.
- **Model calls**: one `llm` event per `inference` record (never synthesized from message
  boundaries); assistant messages and tool calls that carry its `inferenceId` give it `textChars`,
  `thinking` and `toolCalls`. Usage comes from the inference records, or, when none carries usage,
  from the session's `usage_summary` (put on the last inference, or one event of its own when there
  is none): never both.
- **Tool calls** pair with `tool_result` by `callId`. A call without a result is dangling: its outcome
  is unknown and the map says so (`err`, `no_result`), never success.
- **Edits**: `file_change` records caused by a call give that call its targets (paths relative to a
  workspace root); a human's change is not the agent's and is skipped.
- **Commits** come from `vcs` records only when they carry evidence, and are attached to the call
  that caused them; with the `coding` profile claimed, tool output is not read for commits.

The per-record-type handlers (messages, inferences, tool calls and results, file changes, vcs,
state, usage, compaction) are `records.py`'s `RecordReader`, this reader's base; this module keeps
the session header (id, role, roots), the dispatch by record type and the end of the stream.
"""
from __future__ import annotations

from functools import cache
from typing import Any, BinaryIO

from redact.build.facts import MAIN, LlmResponse, SessionFacts, ToolResult
from redact.formats.common import epoch_ms, session_id, label, native_id
from redact.formats.jsonl import LineStats, iter_objects
from redact.formats.session_record.keys import (
    AGENT, AGENT_NAME, LINEAGE, LINEAGE_ROOT, PARENT, PARENT_SESSION, PROFILES, ROOT_ID, ROOT_PATH, ROOT_REMOTE,
    ROOT_VCS, ROOTS, SESSION_ID, STARTED_AT, TS, TYPE, WORKSPACE,
)
from redact.formats.session_record.native_table import RECORD_TYPES
from redact.formats.session_record.records import RecordReader
from redact.report import RedactionReport
from redact.formats.roots import choose_roots, evidence_in, repo_name

FORMAT = "session-record"
#: The policy allowlist of agent tools kept in clear (not a key of the stream).
_AGENT_TOOL = "agent_tool"


@cache
def _agent_tools() -> frozenset[str]:
    from redact.policy.load import shipped_allowlists

    found = shipped_allowlists().get(_AGENT_TOOL)
    return frozenset(found.values) if found is not None else frozenset()


class SessionRecordReader(RecordReader):
    """One stream's header, dispatch by record type and end; the records themselves: `RecordReader`."""

    def __init__(self, report: RedactionReport) -> None:
        super().__init__(report)
        self.stats = LineStats()
        self.native: str | None = None
        self.root_git: dict[str, bool] = {}  # each root path: whether its header names a vcs
        self.first_remote: str | None = None
        self.header = False

    def read(self, data: bytes | BinaryIO, where: str, *, skip_bad_lines: bool = False) -> None:
        for _, record in iter_objects(data, where, skip_bad_lines=skip_bad_lines, stats=self.stats):
            self.record(record)

    def record(self, r: dict[str, Any]) -> None:
        kind = r.get(TYPE)
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            self.skip(label(kind) if isinstance(kind, str) else "<no type>")
            return
        t = self.clock.at(epoch_ms(r.get(TS)))
        if t is None and kind != "session":
            self.skip(label(str(kind)) + ":<no time>")
            return
        handler(self, r, t)

    # -- header ------------------------------------------------------------------------------------
    def session(self, r: dict[str, Any], t: float | None) -> None:
        if self.header:
            self.skip("session:repeat")
            return
        self.header = True
        sid = r.get(SESSION_ID)
        if isinstance(sid, str) and sid:
            self.native = sid
        agent = r.get(AGENT)
        name = agent.get(AGENT_NAME) if isinstance(agent, dict) else None
        if isinstance(name, str) and name in _agent_tools():
            self.s.agent_tool = name
        start = epoch_ms(r.get(STARTED_AT))
        if start is not None:
            self.s.first_seen = start if self.s.first_seen is None else min(start, self.s.first_seen)
            if self.clock.last is None:
                self.clock.last = start
        lineage = r.get(LINEAGE)
        if isinstance(lineage, dict):
            parent = lineage.get(PARENT)
            if lineage.get(LINEAGE_ROOT) is True:
                self.s.role = "root"
            elif parent is not None:
                self.s.role = "subagent"
                pid = parent.get(PARENT_SESSION) if isinstance(parent, dict) else parent
                if isinstance(pid, str) and pid:
                    self.s.parent_native_id = native_id(pid)
            else:
                self.s.role = "unknown"
        else:
            self.s.role = "unknown"  # an absent lineage means unknown, not root (seed 002)
        profiles = r.get(PROFILES)
        self.coding = isinstance(profiles, list) and "coding" in profiles
        workspace = r.get(WORKSPACE)
        roots = workspace.get(ROOTS) if isinstance(workspace, dict) else None
        first_remote: str | None = None
        for i, root in enumerate(roots if isinstance(roots, list) else []):
            if not isinstance(root, dict) or not isinstance(root.get(ROOT_PATH), str) or not root[ROOT_PATH]:
                continue
            rid = root.get(ROOT_ID)
            self.roots[rid if isinstance(rid, str) else f"#{i}"] = root[ROOT_PATH]
            vcs = root.get(ROOT_VCS)
            self.root_git[root[ROOT_PATH]] = isinstance(vcs, dict) and bool(vcs)
            remote = vcs.get(ROOT_REMOTE) if isinstance(vcs, dict) else None
            if first_remote is None and isinstance(remote, str) and remote:
                first_remote = remote
        self.first_remote = first_remote

    def settle_roots(self) -> None:
        """The header's roots that are repositories on evidence (`redact.formats.roots`): a root's `vcs`,
        or what the session's facts show."""
        git_roots = evidence_in(self.s)
        kept: list[str] = []
        for path, git in self.root_git.items():
            for root in choose_roots((path,), git=git, git_roots=git_roots):
                if root not in kept:
                    kept.append(root)
        self.s.roots = tuple(kept)
        if kept:
            self.s.cwd = kept[0]
            self.s.repo_name = repo_name(self.s.roots)
            self.s.remote = self.first_remote

    # -- end ---------------------------------------------------------------------------------------
    def finish(self, where: str, stem: str | None, data: bytes | BinaryIO) -> SessionFacts:
        s = self.s
        for call_id, paths, ops in self.pending_changes:
            call = self.calls.get(call_id)
            if call is None or call.kind != "edit":
                self.skip("file_change:<not an edit call>")
                continue
            if call_id not in self.changed:  # the record states the effect: it replaces the input's path
                self.changed.add(call_id)
                call.paths, call.path_ops = (), ()
            call.paths += paths
            call.path_ops += ops
        for call_id, commit in self.pending_commits:
            res = self.results.get(call_id)
            if res is None or res.is_error:
                self.skip("vcs:commit-without-result")
                continue
            res.outputs.append(commit)
        for inf in self.early:
            self.skip("message:<inference not recorded>")
        llm = [f for f in s.facts if isinstance(f, LlmResponse)]
        if self.summary is not None:
            if self.metered:
                self.skip("usage_summary:<per-call usage used>")
            elif llm:
                llm[-1].inp, llm[-1].cr, llm[-1].cw, llm[-1].out = self.summary[1]
            else:  # one event for the whole session, at its first event (the summary's own time
                # is when it was reported, and an event there would make a stall of the wait)
                first = min((f.t for f in s.facts if not isinstance(f, ToolResult)), default=self.summary[0])
                fact = LlmResponse(first, MAIN, None)
                fact.inp, fact.cr, fact.cw, fact.out = self.summary[1]
                s.facts.append(fact)
        for fact in llm:
            if fact.stop is None:
                fact.stop = "tool_use" if fact.tool_calls else "end_turn"
        s.native_id = session_id(self.native, data, stem)
        self.settle_roots()
        if not self.header:
            self.report.warn("the stream has no session header; its roots and id are unknown")
        self.stats.warn_skipped(self.report)
        return s


#: The handler of each record type the table maps (`RECORD_TYPES`, read off the tree): the method of
#: that name (a mapped type without one fails the import).
_HANDLERS: dict[str, Any] = {kind: getattr(SessionRecordReader, kind)
                             for kind, how in RECORD_TYPES.items() if how == "mapped"}


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    reader = SessionRecordReader(report)
    reader.read(data, where, skip_bad_lines=skip_bad_lines)
    return reader.finish(where, file_stem, data)
