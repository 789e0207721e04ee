"""Issue 15 item 8: a shell call that only reads files is a `read` or `search` event with targets,
for Codex shell calls and Claude Code's Bash alike (the builder shares the work); the files table
counts those reads and hits. Search patterns and sed scripts never reach the map."""
from __future__ import annotations

from typing import Any

from redact.api import redact_bytes
from tests.formats.ccfix import Transcript, text, tool_use
from tests.formats.codexfix import Rollout

CWD = "/home/kim/proj"
PATTERN = "zebra payroll freeze"


def _codex(commands: list[Any], tool: str = "exec_command", workdir: str | None = CWD) -> dict[str, Any]:
    r = Rollout("019d6d67-1952-7e83-93ef-94497e3c15b6")
    r.meta(CWD)
    r.turn(CWD)
    r.tick(10).user("look around")
    for cmd in commands:
        args: dict[str, Any] = {"cmd" if tool == "exec_command" else "command": cmd}
        if workdir is not None:
            args["workdir"] = workdir
        cid = r.tick(100).function_call(tool, args)
        r.tick(50).output(cid, "Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 0\n"
                               "Output:\nx\n")
    return redact_bytes(r.bytes(), name="r.jsonl", policy="internal").session_map


def _targets(m: dict[str, Any], ev: dict[str, Any]) -> list[tuple[str, str]]:
    paths = {f["id"]: f["path"] for f in m["files"]}
    return [(paths[t["file"]] if "file" in t else "@" + t["label"], t["touch"])
            for t in ev.get("targets", [])]


def test_codex_sed_and_cat_are_reads_with_repo_relative_targets() -> None:
    m = _codex(["sed -n '1,80p' src/app.py", "cat /home/kim/proj/README.md | head -5",
                "nl -ba src/app.py | sed -n '10,20p'"])
    reads = [e for e in m["events"] if e["kind"] == "read"]
    assert [(e["tool"], e["verb"], e["cat"]) for e in reads] == \
        [("exec_command", "sed", "file"), ("exec_command", "cat", "file"), ("exec_command", "nl", "file")]
    assert [_targets(m, e) for e in reads] == [[("src/app.py", "read")], [("README.md", "read")],
                                               [("src/app.py", "read")]]
    app = next(f for f in m["files"] if f["path"] == "src/app.py")
    assert app["reads"] == 2
    assert not [e for e in m["events"] if e["kind"] == "exec"]


def test_codex_workdir_is_the_base_of_relative_operands() -> None:
    m = _codex([["bash", "-lc", "cat main.go"]], tool="shell", workdir=CWD + "/svc")
    ev = next(e for e in m["events"] if e["kind"] == "read")
    assert _targets(m, ev) == [("svc/main.go", "read")]


def test_codex_searches_keep_file_hits_and_never_the_pattern() -> None:
    m = _codex([f"rg -n '{PATTERN}' src/pay.py lib", f"grep -rn -e '{PATTERN}' docs/notes.md", "ls -la src"])
    searches = [e for e in m["events"] if e["kind"] == "search"]
    assert [e["verb"] for e in searches] == ["rg", "grep", "ls"]
    assert [_targets(m, e) for e in searches] == [[("src/pay.py", "hit")], [("docs/notes.md", "hit")], []]
    assert {f["path"]: f.get("hits") for f in m["files"]} == {"src/pay.py": 1, "docs/notes.md": 1}
    assert PATTERN not in str(m) and "zebra" not in str(m)


def test_operands_outside_the_repository_go_to_their_bucket() -> None:
    m = _codex(["cat /etc/hosts ~/.zshrc /tmp/build.log"])
    ev = next(e for e in m["events"] if e["kind"] == "read")
    assert _targets(m, ev) == [("@outside-repo", "read"), ("@~ (home)", "read"), ("@/tmp (scratch)", "read")]


def test_writing_lines_stay_exec() -> None:
    m = _codex(["cat src/a.py > src/b.py", "sed -i 's/a/b/' src/a.py"])
    assert [e["kind"] for e in m["events"] if e.get("tool") == "exec_command"] == ["exec", "exec"]
    assert m["files"] == []


def test_claude_code_bash_reads_too() -> None:
    t = Transcript("5b1e7c2a-0d3f-4e9a-8b6c-1f2e3d4c5b6a", CWD)
    t.user("show me")
    tid = t.tool_id()
    t.tick(500).assistant([text("reading"), tool_use(tid, "Bash", {"command": "sed -n '1,40p' src/app.py",
                                                                   "description": "show the file"})],
                          stop="tool_use")
    t.tick(300).result(tid, "line one", tur={"stdout": "line one", "stderr": "", "interrupted": False})
    tid2 = t.tool_id()
    t.tick(500).assistant([tool_use(tid2, "Bash", {"command": f"rg -l '{PATTERN}' src/pay.py"})],
                          stop="tool_use")
    t.tick(300).result(tid2, "src/pay.py", tur={"stdout": "src/pay.py", "stderr": "", "interrupted": False})
    m = redact_bytes(t.bytes(), name="s.jsonl", policy="internal").session_map
    ev = [e for e in m["events"] if e.get("tool") == "Bash"]
    assert [(e["kind"], e["verb"], _targets(m, e)) for e in ev] == \
        [("read", "sed", [("src/app.py", "read")]), ("search", "rg", [("src/pay.py", "hit")])]
    assert PATTERN not in str(m)
