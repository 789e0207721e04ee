"""OpenHands V0 events under `--to native`: a trajectory (a list of events), one event file of the
file store, or a conversation's `metadata.json`.

An event is an action (`action`: run, read, edit, message, ...) or an observation (`observation`:
the result of the action its `cause` names). Text (messages, thoughts, file contents, outputs, the
system prompt) becomes its shape; a command its verb; a path the path mode; a model response keeps
its id, model and token counts only; the tools' descriptions, hostnames and anything unknown are
dropped and counted.

The action kinds the reader maps (`ACTIONS`: the shared tool table's name of each) and the editor's
commands (`EDITOR`) are the lists the tree is built from.
"""
from __future__ import annotations

from redact.tables.spec import (
    BOOL, CWD, DROP, ID, NUMBER, PATH, SHAPE, TIMESTAMP, URL_HOST, VERB, ByType, Many, Obj, Ref, Spec, Switch,
    Table, enum, handling, ident, obj, used,
)

FORMAT = "openhands-v0"
#: action kinds that are tool calls -> the shared tool table's name (`edit` by its command, `EDITOR`)
ACTIONS: dict[str, str] = {
    "run": "bash", "run_ipython": "ipython", "read": "read_file", "write": "write_file", "edit": "edit_file",
    "browse": "web_fetch", "browse_interactive": "browser", "call_tool_mcp": "mcp", "think": "think",
    "finish": "finish", "delegate": "task",
}
#: an `edit` action's command -> (the shared tool table's name, file op)
EDITOR: dict[str, tuple[str, str | None]] = {
    "view": ("read_file", None), "create": ("write_file", "create"), "str_replace": ("edit_file", "modify"),
    "insert": ("edit_file", "modify"), "undo_edit": ("edit_file", "modify"),
}
_SOURCE = used("user / agent / environment", enum("agent", "user", "environment"))
_USAGE = obj(prompt_tokens=used("in (the prompt, cache reads included)", NUMBER),
             completion_tokens=used("out", NUMBER), total_tokens=NUMBER,
             prompt_tokens_details=ByType(obj=obj(cached_tokens=used("cr", NUMBER))),
             completion_tokens_details=DROP)
_MODEL_RESPONSE = obj(id=used("one llm event per response", ID), model=used("llm model", ident("model")),
                      created=NUMBER, usage=ByType(obj=_USAGE), object=DROP, system_fingerprint=DROP,
                      choices=DROP, provider=DROP, service_tier=DROP)
_CALL_META = obj(function_name=ident("tool"), tool_call_id=ID, total_calls_in_response=NUMBER,
                 model_response=used("id, model and usage: the llm event of the calls", ByType(obj=_MODEL_RESPONSE)))
_USAGE_TOTAL = obj(model=ident("model"), prompt_tokens=NUMBER, completion_tokens=NUMBER, cache_read_tokens=NUMBER,
                   cache_write_tokens=NUMBER, context_window=NUMBER, per_turn_token=NUMBER, response_id=ID)
_METRICS = obj(accumulated_cost=NUMBER, max_budget_per_task=NUMBER, accumulated_token_usage=_USAGE_TOTAL,
               costs=DROP, response_latencies=DROP, token_usages=DROP)
_COMMON: dict[str, Spec] = {
    "id": used("an action's id names its call; an observation's cause pairs it", NUMBER),
    "timestamp": used("event times (written without a zone: read as UTC)", TIMESTAMP),
    "source": _SOURCE, "message": SHAPE, "tool_call_metadata": _CALL_META, "llm_metrics": _METRICS,
    "security_risk": NUMBER, "hidden": BOOL, "timeout": NUMBER}
_THOUGHT = {"thought": used("length of the thought (textChars)", SHAPE), "security_risk": NUMBER,
            "confirmation_state": enum("confirmed", "rejected", "awaiting_confirmation"),
            "impl_source": enum("default", "oh_aci", "llm_based_edit")}


def _action(kind: str, use: str, **args: Spec) -> Obj:
    return used(use, Obj({**_COMMON, "action": used("dispatch", enum(kind)),
                          "args": Obj({**_THOUGHT, **args})}))


ACTION_CASES: dict[str, Spec] = {
    "run": _action("run", "a shell call", command=used("verb (verb engine)", VERB), is_input=BOOL, blocking=BOOL,
                   is_static=BOOL, cwd=CWD, hidden=BOOL),
    "run_ipython": _action("run_ipython", "an IPython call (a tool)", code=SHAPE, include_extra=BOOL,
                           kernel_init_code=DROP),
    "read": _action("read", "a file read", path=used("targets", PATH), start=NUMBER, end=NUMBER,
                    view_range=DROP),
    "write": _action("write", "a file write", path=used("targets", PATH), content=SHAPE, start=NUMBER, end=NUMBER),
    "edit": _action("edit", "an edit, or a read (view) by its command", path=used("targets", PATH),
                    command=used("read, or an edit (create / modify)", enum(*EDITOR)), file_text=SHAPE,
                    old_str=SHAPE, new_str=SHAPE, insert_line=NUMBER, content=SHAPE, start=NUMBER, end=NUMBER,
                    view_range=DROP),
    "browse": _action("browse", "a web fetch (host)", url=used("host", URL_HOST), return_axtree=BOOL),
    "browse_interactive": _action("browse_interactive", "a browser call (a tool)", browser_actions=SHAPE,
                                  browsergym_send_msg_to_user=SHAPE, return_axtree=BOOL),
    "call_tool_mcp": _action("call_tool_mcp", "an MCP call (tool name)", name=used("mcp tool", ident("tool")),
                             arguments=DROP),
    "think": _action("think", "a think call (a tool)"),
    "finish": _action("finish", "the finish call (a tool)", final_thought=SHAPE, outputs=DROP,
                      task_completed=enum("true", "false", "partial")),
    "delegate": _action("delegate", "a subagent launch", agent=used("subagent type", ident("subagent_type")),
                        inputs=DROP),
    "message": _action("message", "source user: a prompt (length, images); agent: a reply (length)",
                       content=used("length only", SHAPE), image_urls=used("images counted", Many(DROP)),
                       file_urls=DROP, wait_for_response=BOOL),
    "condensation": _action("condensation", "a compaction (auto)", forgotten_event_ids=Many(NUMBER),
                            forgotten_events_start_id=NUMBER, forgotten_events_end_id=NUMBER, summary=SHAPE,
                            summary_offset=NUMBER),
    "system": Obj({**_COMMON, "action": enum("system"),
                   "args": obj(content=SHAPE, tools=DROP, openhands_version=SHAPE, agent_class=SHAPE)}),
    "change_agent_state": Obj({**_COMMON, "action": enum("change_agent_state"),
                               "args": obj(agent_state=SHAPE, thought=SHAPE)}),
    "recall": Obj({**_COMMON, "action": enum("recall"), "args": obj(recall_type=SHAPE, query=SHAPE, thought=SHAPE)}),
}


def _observation(kind: str, use: str, **extras: Spec) -> Obj:
    fields: dict[str, Spec] = {**_COMMON, "observation": used("dispatch", enum(kind)),
                               "cause": used("the action it answers", NUMBER),
                               "content": used("byte count", SHAPE), "success": used("err when false", BOOL),
                               "extras": Obj(extras)}
    return used(use, Obj(fields)) if use else Obj(fields)


_RUN_META = obj(exit_code=used("exitCode", NUMBER), pid=NUMBER,
                working_dir=used("the first one is the repository root", CWD), username=DROP, hostname=DROP,
                py_interpreter_path=DROP, prefix=DROP, suffix=SHAPE)
OBSERVATION_CASES: dict[str, Spec] = {
    "run": _observation("run", "a shell result (exit code)", command=VERB, command_id=NUMBER, exit_code=NUMBER,
                        hidden=BOOL, metadata=used("exit code, working directory", _RUN_META), interpreter_details=DROP),
    "run_ipython": _observation("run_ipython", "its result", code=SHAPE, image_urls=DROP),
    "read": _observation("read", "its result", path=PATH, impl_source=SHAPE),
    "write": _observation("write", "its result", path=PATH, content=SHAPE),
    "edit": _observation("edit", "its result (created, when it was a create)", path=PATH, impl_source=SHAPE,
                         prev_exist=used("created, when the call was a create", BOOL), old_content=SHAPE,
                         new_content=SHAPE, diff=SHAPE, _diff_cache=DROP),
    "browse": _observation("browse", "its result", url=URL_HOST, trigger_by_action=SHAPE, screenshot=DROP,
                           set_of_marks=DROP, error=BOOL, goal_image_urls=DROP, open_pages_urls=DROP,
                           active_page_index=NUMBER, dom_object=DROP, axtree_object=DROP, extra_element_properties=DROP,
                           last_browser_action=SHAPE, last_browser_action_error=SHAPE, focused_element_bid=SHAPE,
                           screenshot_path=DROP),
    "mcp": _observation("mcp", "its result", name=ident("tool"), arguments=DROP),
    "think": _observation("think", "its result"),
    "delegate": _observation("delegate", "its result", outputs=DROP),
    "error": _observation("error", "with a cause: its call failed; without: an error event", error_id=SHAPE),
    "user_rejected": _observation("user_rejected", "the user refused the call"),
    "agent_state_changed": _observation("agent_state_changed", "", agent_state=SHAPE, reason=SHAPE),
    "recall": _observation("recall", "", recall_type=SHAPE, repo_name=DROP,
                           repo_directory=used("the repository OpenHands cloned: working_dir/repo_directory is "
                                               "the repository root (never written)", DROP),
                           repo_branch=DROP, repo_instructions=SHAPE, runtime_hosts=DROP,
                           additional_agent_instructions=SHAPE, date=SHAPE, custom_secrets_descriptions=DROP,
                           conversation_instructions=SHAPE,
                           working_dir=used("where the repository was cloned (never written)", DROP),
                           microagent_knowledge=DROP),
    "null": _observation("null", ""),
}
#: A conversation's `metadata.json` beside its events (read by none of the readers: its title is
#: text, its repository an identifier the events show too)
METADATA = obj(conversation_id=ID, selected_repository=DROP, user_id=DROP, selected_branch=DROP, git_provider=DROP,
               title=SHAPE, last_updated_at=TIMESTAMP, trigger=SHAPE, pr_number=Many(NUMBER), created_at=TIMESTAMP,
               llm_model=ident("model"), accumulated_cost=NUMBER, prompt_tokens=NUMBER, completion_tokens=NUMBER,
               total_tokens=NUMBER)
OBSERVATION = Switch("observation", OBSERVATION_CASES, default=Ref("METADATA"))
#: An event: an action by its kind; anything else by its observation kind (or the metadata document)
EVENT = used("dispatch: `action`, else `observation`", Switch("action", ACTION_CASES, default=Ref("OBSERVATION")))
ACTION_KINDS: dict[str, str] = handling(EVENT)
OBSERVATION_KINDS: dict[str, str] = handling(OBSERVATION)

TABLE = Table(FORMAT, ByType(obj=EVENT, items=Many(EVENT)), {"OBSERVATION": OBSERVATION, "METADATA": METADATA},
              jsonl=False)
