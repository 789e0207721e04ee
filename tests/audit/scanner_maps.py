"""Clean maps for the scanner's tests, a hypothesis generator of valid maps, and leak injectors.

Clean maps come from two places: the example map redacted under the shipped policies (real
redactor outputs), and `valid_maps()`, a generator of maps that hold only values their field
classes allow (what a careful other producer writes). The scanner must find nothing in either.
The injectors put one leak of a given kind at one place and return the place's JSON pointer.
"""
from __future__ import annotations

import copy
import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from redact.api import redact_bytes
from redact.model.canonical import content_hash
from redact.keys.material import Key
from redact.policy.load import load_policy

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "session-map.json"
KEY = Key(bytes(range(32)), source="tests")

CLEAN_CASES: tuple[tuple[str, str | None], ...] = (
    ("default", None), ("internal", None), ("public", None), ("default", "dirs_only"), ("default", "hashed"),
)


def example_bytes() -> bytes:
    return EXAMPLE.read_bytes()


@cache
def _redacted(policy: str, mode: str | None) -> tuple[str, dict[str, Any], dict[str, set[str]]]:
    eff = load_policy(policy, mode=mode)
    res = redact_bytes(example_bytes(), policy=eff, key=KEY, mode=mode)
    kept = {cat: set(vals) for cat, vals in res.report.idents.kept.items()}
    return json.dumps(res.session_map), res.session_map, kept


def redacted_example(policy: str = "default", mode: str | None = None) -> dict[str, Any]:
    """A fresh copy of the example map redacted under `policy` (and `mode`)."""
    return json.loads(_redacted(policy, mode)[0])


def kept_identifiers(policy: str = "default", mode: str | None = None) -> dict[str, set[str]]:
    return copy.deepcopy(_redacted(policy, mode)[2])


# -- a generator of valid maps ------------------------------------------------------------------

WORDS = ("src", "lib", "core", "api", "orders", "billing", "utils", "models", "views", "tests",
         "service", "handlers", "config", "docs", "web", "client", "server", "store", "jobs")
EXTS = (".py", ".ts", ".go", ".rs", ".md", ".json", ".tsx", ".toml")
TOOLS = ("Read", "Edit", "Write", "Bash", "Grep", "Glob", "TodoWrite", "WebFetch", "Task")
MODELS = ("claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001", "gpt-5", "o3")
HOSTS = ("docs.python.org", "github.com", "pypi.org", "search")
VERBS = ("git status", "git log", "git commit", "git diff", "pytest", "npm test", "npm run", "ls",
         "cargo build", "go test", "gh pr view", "rg", "make", "<script>", "<unparsed>")
BUCKETS = ("/tmp (scratch)", "~ (home)", "outside-repo", "~/Documents", "~/.claude/plans")

_hex = st.text("0123456789abcdef", min_size=1, max_size=1)


def hexstr(n: int) -> st.SearchStrategy[str]:
    return st.text("0123456789abcdef", min_size=n, max_size=n)


def _name() -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(WORDS), min_size=1, max_size=2).map("_".join)


def rel_path() -> st.SearchStrategy[str]:
    return st.tuples(st.lists(st.sampled_from(WORDS), min_size=0, max_size=3), _name(),
                     st.sampled_from(EXTS)).map(lambda t: "/".join([*t[0], t[1] + t[2]]))


def path_in(mode: str) -> st.SearchStrategy[str]:
    if mode == "hashed":
        return st.lists(hexstr(10), min_size=1, max_size=4).map("/".join)
    if mode == "dirs_only":
        return st.tuples(st.lists(st.sampled_from(WORDS), min_size=0, max_size=3), hexstr(6)).map(
            lambda t: "/".join([*t[0], "\u2022" + t[1]]))
    return rel_path()


def hash_token() -> st.SearchStrategy[str]:
    return hexstr(12).map(lambda h: "h:" + h)


def timestamp() -> st.SearchStrategy[str]:
    return st.datetimes(min_value=__import__("datetime").datetime(2020, 1, 1),
                        max_value=__import__("datetime").datetime(2030, 1, 1)).map(
        lambda d: d.strftime("%Y-%m-%dT%H:%M:%S.") + f"{d.microsecond // 1000:03d}Z")


def ident(values: tuple[str, ...]) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(values), hash_token())


@st.composite
def _event(draw: st.DrawFn, seq: int, t: int, n_files: int, mode: str) -> dict[str, Any]:
    kind = draw(st.sampled_from(("read", "edit", "search", "exec", "verify", "mcp", "llm", "user", "web",
                                 "tool", "subagent", "error", "delay", "compaction", "commit",
                                 "pr_merge", "ticket", "skill", "skill_write", "model_switch")))
    ev: dict[str, Any] = {"seq": seq, "t": t, "kind": kind, "agent": draw(st.sampled_from(("main", "sa-0a1b2c3d4e5f")))}
    if kind in ("read", "edit", "search", "exec", "verify"):
        ev["cat"] = "file" if kind in ("read", "edit", "search") else "shell"
        ev["tool"] = draw(ident(TOOLS))
        targets = []
        if n_files and draw(st.booleans()):
            targets.append({"file": draw(st.integers(0, n_files - 1)), "touch": draw(st.sampled_from(("hit", "read", "edit")))})
        if draw(st.booleans()):
            targets.append({"scope": "outside", "label": draw(st.sampled_from(BUCKETS)), "touch": "read"})
        if targets:
            ev["targets"] = targets
        if kind in ("exec", "verify"):
            ev["verb"] = draw(st.sampled_from(VERBS))
            if draw(st.booleans()):
                ev["vcs"] = {"provider": "git", "action": draw(st.sampled_from(("commit", "push", "pr_create"))),
                             "repo": draw(ident(("acme/orders",)))}
        ev["outBytes"] = draw(st.integers(0, 10**6))
        ev["dur"] = draw(st.floats(0, 1e5, allow_nan=False))
    elif kind == "mcp":
        ev.update(cat="mcp", server=draw(ident(("github", "playwright"))), tool=draw(ident(("search_code", "get_issue"))))
    elif kind == "llm":
        ev.update({"model": draw(ident(MODELS)), "in": draw(st.integers(0, 9999)), "out": 5,
                   "stop": draw(st.sampled_from(("end_turn", "tool_use"))), "thinking": draw(st.booleans())})
    elif kind == "user":
        ev.update(chars=draw(st.integers(0, 5000)), images=0, urls=draw(st.integers(0, 3)))
    elif kind == "web":
        ev.update(cat="web", host=draw(ident(HOSTS)))
    elif kind == "tool":
        ev.update(cat="tool", tool=draw(ident(TOOLS)))
    elif kind == "subagent":
        ev.update(cat="subagent", subagentType=draw(ident(("Explore", "general-purpose"))), child="sa-0a1b2c3d4e5f")
    elif kind == "error":
        ev.update(source="hook", errClass="hook_error", hook=draw(ident(("PostToolUse:Bash", "Stop"))),
                  hookEvent="PostToolUse", srcUuid=str(draw(st.uuids())))
    elif kind == "delay":
        ev.update(cause=draw(st.sampled_from(("tool", "llm", "stall"))), ms=draw(st.integers(0, 10**6)))
    elif kind == "compaction":
        ev.update(trigger="auto", preTokens=100, postTokens=10, ms=5)
    elif kind == "commit":
        ev.update(repo=draw(ident(("acme/orders",))), sha=draw(hexstr(40)), files=1, ins=2, **{"del": 0})
    elif kind == "pr_merge":
        ev.update(repo=draw(ident(("acme/orders",))), number=draw(st.integers(1, 999)))
    elif kind == "ticket":
        ev.update(tracker=draw(ident(("jira", "linear"))), action="create", id=draw(ident(("ABC-12", "ENG-7"))))
    elif kind == "skill":
        ev.update(cat="skill", skill=draw(ident(("pdf", "review"))))
    elif kind == "skill_write":
        ev.update(name=draw(ident(("pdf", "review"))), action="update")
    elif kind == "model_switch":
        ev.update({"from": draw(ident(MODELS)), "to": draw(ident(MODELS))})
    return ev


@st.composite
def valid_maps(draw: st.DrawFn) -> dict[str, Any]:
    """A map holding only values its field classes allow (any path mode, with or without hashes)."""
    mode = draw(st.sampled_from(("relative", "dirs_only", "hashed")))
    n_files = draw(st.integers(0, 5))
    files = [{"id": i, "repo": "r0", "path": draw(st.one_of(path_in(mode), st.sampled_from(BUCKETS))),
              "reads": draw(st.integers(0, 9)), "op": draw(st.sampled_from(("create", "modify")))}
             for i in range(n_files)]
    n = draw(st.integers(1, 12))
    events = [draw(_event(i, i * 100, n_files, mode)) for i in range(n)]
    doc: dict[str, Any] = {
        "schema": "agentplay/v1",
        "session": {"id": "local:claude-code:" + str(draw(st.uuids())), "agentTool": "claude-code",
                    "cliVersion": draw(st.sampled_from(("2.1.3", "0.128.0", "1.0.0-beta.2"))),
                    "startedAt": draw(timestamp()), "durationMs": n * 100,
                    "models": draw(st.lists(ident(MODELS), min_size=1, max_size=2, unique=True)),
                    "pathMode": mode, "truncated": False, "outcome": "completed", "role": "root"},
        "totals": {"calls": n, "requests": 1, "tokens": draw(st.integers(0, 10**7)), "costUsd": 0.25,
                   "errorsBySource": {"tool": 1}, "errorsByClass": {"exit_code": 1}},
        "repos": [{"id": "r0", "name": draw(ident(("orders", "billing-api"))), "remote": draw(ident(("acme/orders",)))}],
        "files": files,
        "agents": [{"id": "main", "kind": "main"},
                   {"id": "sa-0a1b2c3d4e5f", "parent": "main", "kind": "subagent",
                    "subagentType": draw(ident(("Explore",))), "model": draw(ident(MODELS))}],
        "tasks": [{"n": 1, "id": "t1", "source": "turns", "startSeq": 0, "endSeq": n - 1}],
        "prs": [{"provider": "github", "repo": "acme/orders", "number": 7, "seq": 0, "state": "open"}],
        "events": events,
    }
    if draw(st.booleans()):
        doc["contentHash"] = content_hash(doc)
    return doc


# -- leaks to inject ----------------------------------------------------------------------------

def _b62(seed: str, n: int) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    digest = hashlib.sha256(seed.encode()).digest() * 4
    return "".join(alphabet[b % 62] for b in digest[:n])


SECRETS = (
    "ghp_" + _b62("s1", 36),
    "github_pat_11" + _b62("s2", 20) + "_" + _b62("s3", 59),
    "AKIA" + _b62("s4", 16).upper().replace("0", "Q"),
    "sk-proj-" + _b62("s5", 48),
    "glpat-" + _b62("s6", 20),
    "xoxb-8676894355-4224754877466-" + _b62("s7", 24),
)
SENTENCES = (
    "Please fix the refund rounding bug reported by Globex",
    "why does the checkout fail for our biggest customer?",
    "I think we should revert the migration before Friday.",
    "summarise the contract terms for Initech and send them to legal",
    "the test fails because the invoice total is off by one cent",
)
EMAILS = ("alice.smith@acme-corp.com", "bob+billing@globex.io", "ops@initech.co.uk")
HOME_PATHS = ("Users/alice/src/orders/service.py", "/home/bob/work/api/main.go",
              "/Users/carol/Documents/contract.pdf", "home/dave/.ssh/id_rsa")
COMMANDS = ('git commit -m "fix for acme"', 'psql -c "select * from customers where name = 1"',
            "npm run deploy -- --env prod --customer globex", 'curl -H "X-Api: 1" https://api.acme.io/v1',
            "pytest tests/test_globex.py -k refund")

LEAKS: dict[str, tuple[str, ...]] = {
    "secret": SECRETS, "text": SENTENCES, "email": EMAILS, "home": HOME_PATHS, "command": COMMANDS,
}


def scalar_places(doc: Any, ptr: str = "") -> list[str]:
    """JSON pointers of every scalar in `doc` (except `/schema`, which decides whether it is a map)."""
    out: list[str] = []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.extend(scalar_places(v, f"{ptr}/{k}"))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out.extend(scalar_places(v, f"{ptr}/{i}"))
    elif ptr != "/schema":
        out.append(ptr)
    return out


def object_places(doc: Any, ptr: str = "") -> list[str]:
    out: list[str] = []
    if isinstance(doc, dict):
        out.append(ptr)
        for k, v in doc.items():
            out.extend(object_places(v, f"{ptr}/{k}"))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out.extend(object_places(v, f"{ptr}/{i}"))
    return out


def _resolve(doc: Any, ptr: str) -> tuple[Any, str | int]:
    parts = ptr.split("/")[1:]
    node = doc
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    last = parts[-1]
    return node, int(last) if isinstance(node, list) else last


def put(doc: dict[str, Any], ptr: str, value: Any) -> None:
    node, key = _resolve(doc, ptr)
    node[key] = value


def flagged(findings: Any, ptr: str) -> bool:
    """A finding at `ptr` or at one of its ancestors (an unknown event kind flags the event)."""
    return any(f.pointer == ptr or ptr.startswith(f.pointer + "/") for f in findings)
