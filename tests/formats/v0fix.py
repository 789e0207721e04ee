"""OpenHands V0 conversations for the tests, written by this project (modelled on the V0 event
stream OpenHands writes, not copied): every text slot holds a word from `c()`.

`events(c)` is the conversation as records; `trajectory(c)` the trajectory export (a JSON list);
`file_store(folder, c)` the file store (`<folder>/<id>/metadata.json`, `events/<n>.json`,
`event_cache/0-25.json`).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

CONVERSATION = "6eae30b97dcb4e00acf9559f83de739e"
MODEL = "deepseek/deepseek-v3.1-terminus"
#: what the conversation holds, counted by hand from the records below
COUNTS = {"user": 2, "images": 1, "llm": 8, "calls": 8, "shell": 2, "edits": 2, "reads": 1, "mcp": 1,
          "tool_errors": 1, "llm_errors": 0, "error_events": 1, "compactions": 1}


def events(c: Callable[[], str], home: str = "/workspace") -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    repo = f"{home}/shop"

    def at(n: int) -> str:
        return f"2025-10-06T12:{35 + n // 60:02d}:{n % 60:02d}.{n * 1111 % 1000000:06d}"

    def ev(source: str, **fields: Any) -> int:
        n = len(out)
        out.append({"id": n, "timestamp": at(n), "source": source, "message": c(), **fields})
        return n

    def meta(rid: str, prompt: int, completion: int, cached: int | None = None) -> dict[str, Any]:
        usage: dict[str, Any] = {"prompt_tokens": prompt, "completion_tokens": completion,
                                 "total_tokens": prompt + completion, "completion_tokens_details": None,
                                 "prompt_tokens_details": {"cached_tokens": cached} if cached is not None else None}
        return {"function_name": "execute_bash", "tool_call_id": f"toolu_{rid}", "total_calls_in_response": 1,
                "model_response": {"id": rid, "created": 1759754131, "model": MODEL, "object": "chat.completion",
                                   "choices": [{"message": {"content": c(), "tool_calls": [
                                       {"function": {"arguments": c(), "name": "execute_bash"}}]}}],
                                   "usage": usage, "provider": c()}}

    metrics = {"accumulated_cost": 0.0, "max_budget_per_task": None, "costs": [], "response_latencies": [],
               "token_usages": [], "accumulated_token_usage": {"model": "default", "prompt_tokens": 1,
                                                               "completion_tokens": 1, "response_id": ""}}

    def act(kind: str, tcm: dict[str, Any], **args: Any) -> int:
        return ev("agent", action=kind, tool_call_metadata=tcm, llm_metrics=metrics,
                  args={"thought": c(), "security_risk": 0, **args})

    def obs(kind: str, cause: int | None, **extras: Any) -> int:
        fields: dict[str, Any] = {"observation": kind, "content": c(), "extras": extras}
        if cause is not None:
            fields["cause"] = cause
        return ev("agent", **fields)

    ev("environment", observation="agent_state_changed", content="", extras={"agent_state": "loading", "reason": ""})
    ev("agent", action="system", args={"content": c(), "tools": [{"name": c()}], "openhands_version": "0.59",
                                       "agent_class": "CodeActAgent"})
    ev("user", action="message", args={"content": c(), "file_urls": None, "image_urls": [f"https://{c()}.example/x.png"],
                                       "wait_for_response": False, "security_risk": -1})
    ev("environment", action="change_agent_state", args={"agent_state": "running", "thought": ""})
    ev("user", action="recall", args={"recall_type": "workspace_context", "query": c(), "thought": ""})
    ev("environment", observation="recall", content="", cause=4,
       extras={"recall_type": "workspace_context", "repo_name": f"{c()}/shop", "repo_directory": "shop",
               "working_dir": home, "repo_instructions": c(), "runtime_hosts": {c(): 1}})
    run = act("run", meta("r1", 100, 10, 40), command=f"cd {repo} && git status", is_input=False, blocking=False,
              hidden=False, confirmation_state="confirmed", cwd=None)
    obs("run", run, command="git status", hidden=False, metadata={
        "exit_code": 0, "pid": -1, "username": c(), "hostname": c(), "working_dir": repo, "suffix": c()})
    read = act("read", meta("r2", 200, 20), path=f"{repo}/README.md", start=0, end=-1, impl_source="oh_aci")
    test = act("run", meta("r2", 200, 20), command=f"pytest -q {c()}", is_input=False)
    obs("read", read, path=f"{repo}/README.md", impl_source="oh_aci")
    out[-1]["tool_call_metadata"] = meta("r2", 200, 20)
    failed = obs("run", test, command="pytest -q", metadata={"exit_code": 1, "working_dir": repo})
    out[failed]["success"] = False
    obs("error", None, error_id="")
    create = act("edit", meta("r3", 300, 30), path=f"{repo}/new.py", command="create", file_text=c(),
                 old_str=None, new_str=None, insert_line=None, content="", start=1, end=-1, impl_source="oh_aci")
    obs("edit", create, path=f"{repo}/new.py", prev_exist=False, old_content=None, new_content=c(), diff=c(),
        _diff_cache=None, impl_source="oh_aci")
    edit = act("edit", meta("r4", 400, 40), path=f"{repo}/README.md", command="str_replace", old_str=c(),
               new_str=c(), file_text=None, insert_line=None, content="", start=1, end=-1, impl_source="oh_aci")
    obs("edit", edit, path=f"{repo}/README.md", prev_exist=True, old_content=c(), new_content=c(), diff=c())
    mcp = act("call_tool_mcp", meta("r5", 500, 50), name="create_pr", arguments={"title": c(), "body": c()})
    obs("mcp", mcp, name="create_pr", arguments={"title": c()})
    ev("agent", action="message", args={"content": c(), "file_urls": None, "image_urls": None,
                                        "wait_for_response": True, "security_risk": -1})
    ev("user", action="message", args={"content": c(), "file_urls": [], "image_urls": [],
                                       "wait_for_response": False, "security_risk": -1})
    ev("agent", action="condensation", args={"forgotten_event_ids": [6, 7], "summary": c(), "summary_offset": 1})
    think = act("think", meta("r6", 600, 60))
    obs("think", think)
    act("finish", meta("r7", 700, 70), final_thought=c(), outputs={c(): c()}, task_completed="true")
    ev("agent", action="frobnicate", args={"secret": c()})
    ev("environment", observation="agent_state_changed", content="", extras={"agent_state": "finished", "reason": ""})
    return out


def trajectory(c: Callable[[], str], home: str = "/workspace") -> bytes:
    return orjson.dumps(events(c, home), option=orjson.OPT_INDENT_2)


def file_store(folder: Path, c: Callable[[], str], home: str = "/workspace") -> Path:
    """The conversation's folder under `folder` (`~/.openhands/sessions`)."""
    conv = folder / CONVERSATION
    (conv / "events").mkdir(parents=True)
    (conv / "event_cache").mkdir()
    recs = events(c, home)
    for e in recs:
        (conv / "events" / f"{e['id']}.json").write_bytes(orjson.dumps(e))
    (conv / "event_cache" / "0-25.json").write_bytes(orjson.dumps(recs[:25]))
    (conv / "metadata.json").write_bytes(orjson.dumps({
        "conversation_id": CONVERSATION, "selected_repository": f"{c()}/shop", "user_id": None,
        "selected_branch": c(), "git_provider": "github", "title": c(), "last_updated_at": "2025-10-06T12:40:04.511482Z",
        "trigger": "suggested_task", "pr_number": [], "created_at": "2025-10-06T12:35:00.776893Z", "llm_model": None,
        "accumulated_cost": 0.0, "prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}))
    return conv
