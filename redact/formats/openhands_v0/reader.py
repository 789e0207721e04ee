"""An OpenHands V0 conversation (a JSON list of events, or one event or `metadata.json` of the file
store, which `tree.py` assembles into the list) -> facts.

A user `message` action is a prompt; an agent `message` without a model response of its own is a
reply (an llm event). The other agent actions are tool calls (the shared tool table: `run` a shell
command, `read` a read, `edit` an edit or a read by its command, `call_tool_mcp` an MCP call...);
those naming one model response (`tool_call_metadata.model_response.id`) came from one request,
which is one llm event with the response's model and usage (its prompt tokens include the cached
ones, which become `cr`). An observation is the result of the action its `cause` names; an `error`
observation without a cause is an error event (a call the harness refused to run). The repository
root is where OpenHands cloned the conversation's repository (a `recall` observation's working_dir
and repo_directory: evidence it is one), else the first shell result's working directory (a root
only on evidence). A `condensation` action is a compaction.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, BinaryIO

from redact.build.facts import MAIN, Compaction, ErrorFact, LlmResponse, SessionFacts, ToolCall, UserTurn
from redact.formats import chatlog
from redact.formats.chatlog import as_object
from redact.formats.common import LogClock, as_int, epoch_ms, is_model_name, json_doc, label, positive_int, \
    session_id, text_chars
from redact.formats.openhands_v0.keys import (
    ACTION, ACTION_CASES, AGENT, ARGS, AT, CACHED_TOKENS, CALL_META, CAUSE, COMMAND, COMPLETION_TOKENS, CONTENT,
    CLONED_IN, CONVERSATION_ID, CREATED, EDIT_COMMAND, EXIT_CODE, EXTRAS, ID, IMAGES, MCP_NAME, OBS_CONTENT, OBSERVATION,
    OBSERVATION_CASES, PATH, PREV_EXIST, PROMPT_DETAILS, PROMPT_TOKENS, REPO_DIRECTORY, RESPONSE, RESPONSE_ID, RESPONSE_MODEL,
    RUN_METADATA, SOURCE, SUCCESS, THOUGHT, URL, USAGE, WORKING_DIR,
)
from redact.formats.openhands_v0.native_table import ACTIONS, EDITOR
from redact.formats.openhands_v0.table import _metadata
from redact.formats.wording import error_class
from redact.report import RedactionReport
from redact.formats.roots import settle

AGENT_TOOL = "openhands"
#: The MCP tools OpenHands' own MCP server provides (the pull and merge requests it opens).
OWN_MCP_TOOLS = frozenset({"create_pr", "create_mr", "create_bitbucket_pr", "create_azure_devops_pr"})


def cloned_repo(events: list[Any]) -> str | None:
    """Where OpenHands cloned the conversation's repository: a recall's working_dir/repo_directory."""
    for e in events:
        if isinstance(e, dict) and ACTION not in e and e.get(OBSERVATION) == "recall":
            extras = as_object(e.get(EXTRAS))
            base, name = extras.get(CLONED_IN), extras.get(REPO_DIRECTORY)
            if isinstance(base, str) and base.startswith("/") and isinstance(name, str) and name and \
                    "/" not in name and name not in (".", "..") and len(base) + len(name) < 4096:
                return base.rstrip("/") + "/" + name
    return None


def root_of(events: list[Any]) -> str | None:
    """The repository root: where the repository was cloned, else the first shell result's working
    directory."""
    cloned = cloned_repo(events)
    if cloned is not None:
        return cloned
    for e in events:
        if isinstance(e, dict) and ACTION not in e and e.get(OBSERVATION) == "run":
            wd = as_object(as_object(e.get(EXTRAS)).get(RUN_METADATA)).get(WORKING_DIR)
            if isinstance(wd, str) and wd.startswith("/"):
                return wd
    return None


class V0Reader:
    def __init__(self, report: RedactionReport) -> None:
        self.report = report
        self.s = SessionFacts(agent_tool=AGENT_TOOL, native_id="")
        self.responses: dict[str, LlmResponse] = {}
        self.calls: dict[str, ToolCall] = {}  # by the action's id
        self.done: set[str] = set()
        self.clock = LogClock(self.s)

    def skip(self, name: str) -> None:
        self.report.skipped_records[name] += 1

    def read(self, events: list[Any]) -> None:
        root = root_of(events)
        self.s.cwd = root
        for e in events:
            if not isinstance(e, dict):
                self.skip("<not an event>")
                continue
            if ACTION in e:
                kind, cases, what = e.get(ACTION), ACTION_CASES, "action"
            else:
                kind, cases, what = e.get(OBSERVATION), OBSERVATION_CASES, "observation"
            if not isinstance(kind, str) or cases.get(kind) != "mapped":
                self.skip(label(what, kind if isinstance(kind, str) else None))
                continue
            t = self.clock.at(epoch_ms(e.get(AT)))
            if t is None:
                self.skip(label(what, kind) + ":<no time>")
                continue
            if what == "action":
                self.action(e, kind, t)
            else:
                self.observation(e, kind, t)

    # -- actions -------------------------------------------------------------------------------------
    def action(self, e: dict[str, Any], kind: str, t: float) -> None:
        args = as_object(e.get(ARGS))
        if kind == "message":
            if e.get(SOURCE) == "user":
                images = args.get(IMAGES)
                self.s.facts.append(UserTurn(t, MAIN, text_chars(args.get(CONTENT)),
                                             images=len(images) if isinstance(images, list) else 0))
            else:
                llm = self.response(e, t, "end_turn")
                llm.text_chars += text_chars(args.get(CONTENT))
            return
        if kind == "condensation":
            self.s.facts.append(Compaction(t, MAIN, "auto"))
            return
        call_id = str(e.get(ID)) if isinstance(e.get(ID), int) else None
        if call_id is None or call_id in self.calls:
            self.skip(label("action", kind) + (":<duplicate>" if call_id else ":<no id>"))
            return
        llm = self.response(e, t, "tool_use")
        llm.text_chars += text_chars(args.get(THOUGHT))
        llm.tool_calls += 1
        c = self.call(kind, args, call_id, t)
        self.calls[call_id] = c
        self.s.facts.append(c)
        if kind == "finish":  # no observation answers it: it ends the conversation (untimed, no duration)
            self.done.add(call_id)
            res = chatlog.result(c, t, error=False)
            res.timed = False
            self.s.facts.append(res)

    def call(self, kind: str, args: dict[str, Any], call_id: str, t: float) -> ToolCall:
        if kind == "call_tool_mcp":
            # the event names the tool only: the server is OpenHands' own for the tools it serves
            # itself (create_pr...), otherwise not recorded
            name = args.get(MCP_NAME)
            tool = name if isinstance(name, str) and name else "unknown"
            return ToolCall(t, MAIN, call_id, kind, "mcp", server="openhands" if tool in OWN_MCP_TOOLS else "unknown",
                            tool=tool)
        inp: dict[str, Any] = {}
        canonical, op = ACTIONS[kind], None
        if kind == "run":
            inp["command"] = args.get(COMMAND)
        elif kind in ("read", "write", "edit"):
            inp["path"] = args.get(PATH)
            if kind == "edit":
                canonical, op = EDITOR.get(str(args.get(EDIT_COMMAND)), ("edit_file", "modify"))
        elif kind == "browse":
            inp["url"] = args.get(URL)
        elif kind == "delegate":
            inp["agent_type"] = args.get(AGENT)
        c = chatlog.call(kind, inp, call_id, t, MAIN, aliases={kind: canonical})
        if c.kind == "edit" and op is not None:
            c.op = op
        return c

    def response(self, e: dict[str, Any], t: float, stop: str) -> LlmResponse:
        """The llm event of the model response `e` names (one per response id), else one of its own."""
        resp = as_object(as_object(e.get(CALL_META)).get(RESPONSE))
        rid = resp.get(RESPONSE_ID)
        if isinstance(rid, str) and rid in self.responses:
            return self.responses[rid]
        model = resp.get(RESPONSE_MODEL)
        usage = as_object(resp.get(USAGE))
        prompt = positive_int(usage.get(PROMPT_TOKENS))
        cached = min(positive_int(as_object(usage.get(PROMPT_DETAILS)).get(CACHED_TOKENS)), prompt)
        llm = LlmResponse(t, MAIN, model if is_model_name(model) else None, inp=prompt - cached, cr=cached,
                          out=positive_int(usage.get(COMPLETION_TOKENS)), stop=stop)
        if isinstance(rid, str) and rid:
            self.responses[rid] = llm
        self.s.facts.append(llm)
        return llm

    # -- observations --------------------------------------------------------------------------------
    def observation(self, e: dict[str, Any], kind: str, t: float) -> None:
        cause = e.get(CAUSE)
        c = self.calls.get(str(cause)) if isinstance(cause, int) else None
        if c is None:
            if kind == "error":  # refused before it ran: the harness's own error
                self.s.facts.append(ErrorFact(t, MAIN, "orchestration", "bad_request"))
            else:
                self.skip(label("observation", kind) + ":<no call>")
            return
        if c.call_id in self.done:
            self.skip(label("observation", kind) + ":<duplicate>")
            return
        self.done.add(c.call_id)
        extras = as_object(e.get(EXTRAS))
        content = e.get(OBS_CONTENT)
        code = as_int(as_object(extras.get(RUN_METADATA)).get(EXIT_CODE)) if kind == "run" else None
        failed = kind in ("error", "user_rejected") or e.get(SUCCESS) is False
        res = chatlog.result(c, max(t, c.t), error=failed, output=content,
                             exit_code=code if code is not None and code >= 0 else None,
                             error_text=content if failed else None,
                             created=(extras.get(PREV_EXIST) is False) if c.op == "create" else None)
        if kind == "user_rejected":
            c.waits_on_user = True
            res.is_error, res.err_class = True, "permission_denied"
        elif kind == "error" and isinstance(content, str):
            res.err_class = error_class(content, c.name)
        self.s.facts.append(res)


def read_session(data: bytes | BinaryIO, where: str, *, report: RedactionReport,
                 companions: list[Any] | None = None, skip_bad_lines: bool = False,
                 file_stem: str | None = None) -> SessionFacts:
    raw = data if isinstance(data, bytes) else data.read()
    doc = json_doc(raw, where) if raw.strip() else []
    native: object = None
    if isinstance(doc, dict) and _metadata(doc):
        native = doc.get(CONVERSATION_ID)
        start = epoch_ms(doc.get(CREATED))
        doc = []
        reader = V0Reader(report)
        if start is not None:
            reader.s.saw(start)
    else:
        reader = V0Reader(report)
    events = doc if isinstance(doc, list) else [doc] if isinstance(doc, dict) else []
    reader.read(events)
    # a repository only on evidence (redact/formats/roots.py): the git commands the calls ran
    settle(reader.s, (reader.s.cwd,), git=cloned_repo(events) is not None)
    if native is None:
        folder = Path(where).parent
        folder = folder.parent if folder.name in ("events", "event_cache") else folder
        name = folder.name
        native = name if len(name) == 32 and all(ch in "0123456789abcdef" for ch in name) else None
    reader.s.native_id = session_id(native, raw, file_stem)
    return reader.s
