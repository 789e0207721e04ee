"""Cursor: globalStorage composers and bubbles, and the older workspaceStorage aichat tabs, read
read-only from state.vscdb; encryption keys and auth keys never read."""
from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from redact.api import redact_file
from redact.cli import main
from redact.formats.stores import export
from tests.formats import storefix
from tests.formats.canary import KEY
from tests.formats.test_opencode import CALLS, _state


def test_a_composer_becomes_a_map(tmp_path: Path) -> None:
    db = tmp_path / "state.vscdb"
    storefix.cursor_global_db(db)
    before = _state(db)
    result = redact_file(db, policy="default")
    assert _state(db) == before
    m = result.session_map
    kinds = Counter(e["kind"] for e in m["events"])
    want = storefix.CURSOR_COUNTS
    assert m["session"]["agentTool"] == "cursor" and m["session"]["models"] == ["composer-2.5"]
    assert kinds["user"] == want["user"] and kinds["llm"] == want["llm"]
    assert sum(kinds[k] for k in CALLS) == want["calls"]
    assert kinds["exec"] + kinds["verify"] == want["shell"] and kinds["edit"] == want["edits"]
    llm = [e for e in m["events"] if e["kind"] == "llm"]
    assert sum(e.get("in", 0) for e in llm) == want["in"] and sum(e.get("out", 0) for e in llm) == want["out"]
    shell = next(e for e in m["events"] if e["kind"] in ("exec", "verify"))
    assert shell.get("err") and "pytest" in shell.get("verb", "")
    assert sorted(f["path"] for f in m["files"]) == ["pom.xml"]


def test_the_workspace_aichat_tabs(tmp_path: Path) -> None:
    db = tmp_path / "state.vscdb"
    storefix.cursor_workspace_db(db)
    result = redact_file(db, policy="default")  # the one tab with bubbles
    kinds = Counter(e["kind"] for e in result.session_map["events"])
    assert kinds["user"] == 1 and kinds["llm"] == 1
    assert result.session_map["session"]["agentTool"] == "cursor"


def test_keys_and_auth_are_never_read(tmp_path: Path) -> None:
    db = tmp_path / "state.vscdb"
    storefix.cursor_global_db(db)
    _, data = export(db, None, where="x")
    for secret in (storefix.ENC_KEY, storefix.SECRET, storefix.CRED_EMAIL, "file content", "agentkv"):
        assert secret.encode() not in data, secret
    for policy, key in (("default", None), ("internal", None), ("public", KEY)):
        result = redact_file(db, policy=policy, key=key)
        out = result.data.decode() + str(result.report.as_dict())
        assert storefix.ENC_KEY not in out and storefix.SECRET not in out


def test_discovery_in_global_and_workspace_storage(tmp_path: Path) -> None:
    user = tmp_path / "User"
    (user / "globalStorage").mkdir(parents=True)
    storefix.cursor_global_db(user / "globalStorage" / "state.vscdb")
    ws = user / "workspaceStorage"
    (ws / "b07bca22").mkdir(parents=True)
    storefix.cursor_workspace_db(ws / "b07bca22" / "state.vscdb")
    (ws / "c0ffee00").mkdir()
    plain = sqlite3.connect(ws / "c0ffee00" / "state.vscdb")  # VS Code's own: no Cursor chats
    plain.execute("CREATE TABLE ItemTable (key TEXT, value BLOB)")
    plain.commit()
    plain.close()
    out = tmp_path / "out"
    assert main([str(user / "globalStorage"), str(ws), "--out-dir", str(out)]) == 0
    assert sorted(p.name for p in out.glob("*.json.gz")) == [storefix.CURSOR_CID + ".json.gz",
                                                     "dc0c019d-8edf-46e6-a8ad-7cc1b8493960.json.gz"]


@pytest.mark.parametrize("policy", ["default", "internal", "public"])
def test_no_text_reaches_the_map(tmp_path: Path, policy: str) -> None:
    seen: list[str] = []

    def text(slot: str) -> str:
        value = f"zqcanary{len(seen)}qz and more"
        seen.append(value.split()[0])
        return value

    for name, build in (("g.vscdb", storefix.cursor_global_db), ("w.vscdb", storefix.cursor_workspace_db)):
        db = tmp_path / name
        build(db, text)
        result = redact_file(db, policy=policy, key=KEY if policy == "public" else None)
        out = result.data.decode() + str(result.report.as_dict())
        assert not [c for c in seen if c in out]


def test_a_subagent_composer_names_its_parent(tmp_path: Path) -> None:
    import json

    db = tmp_path / "state.vscdb"
    storefix.cursor_global_db(db)
    con = sqlite3.connect(db)
    child = "11111111-2222-4333-8444-555555555555"
    parent = json.loads(con.execute("SELECT value FROM cursorDiskKV WHERE key = ?",
                                    (f"composerData:{storefix.CURSOR_CID}",)).fetchone()[0])
    con.execute("INSERT INTO cursorDiskKV VALUES (?, ?)", (f"composerData:{child}", json.dumps(
        {**parent, "composerId": child, "createdAt": parent["createdAt"] + 1})))
    parent["subagentComposerIds"] = [child]
    con.execute("UPDATE cursorDiskKV SET value = ? WHERE key = ?", (json.dumps(parent), f"composerData:{storefix.CURSOR_CID}"))
    con.commit()
    con.close()
    sub = redact_file(f"{db}#{child}").session_map["session"]
    assert sub["role"] == "subagent" and sub["parentSessionId"].endswith(storefix.CURSOR_CID)
    assert redact_file(f"{db}#{storefix.CURSOR_CID}").session_map["session"]["role"] == "root"


@pytest.mark.parametrize("tracked", [True, False])
def test_the_tracked_git_repository_holding_the_workspace_is_the_root(tmp_path: Path, tracked: bool) -> None:
    """Issue 25: a workspace opened at `<repo>/src` was the root, so `src/` fell off the paths and the
    repository's own files became buckets. `trackedGitRepos` names the repository: it is the root."""
    db = tmp_path / "state.vscdb"
    storefix.cursor_global_db(db, workspace=storefix.ROOT + "/src",
                              git_repos=[storefix.ROOT + "-other", storefix.ROOT] if tracked else None)
    m = redact_file(db, policy="default").session_map
    paths = sorted(f["path"] for f in m["files"])
    labels = [t["label"] for e in m["events"] for t in e.get("targets", ()) if "label" in t]
    if tracked:
        assert paths == ["pom.xml"] and not labels
    else:  # the workspace folder is the root: pom.xml, one level up, lies outside it
        assert "pom.xml" not in paths and labels


@pytest.mark.parametrize("older", [False, True])
def test_a_compaction_summary_is_a_compaction_at_its_cut(tmp_path: Path, older: bool) -> None:
    """`composerData.latestConversationSummary` (built from public descriptions of the store: no
    real sample) becomes one compaction event right after the bubble it covers up to; its text
    never reaches the map or its report."""
    import json

    db = tmp_path / "state.vscdb"
    storefix.cursor_global_db(db)
    con = sqlite3.connect(db)
    key = f"composerData:{storefix.CURSOR_CID}"
    doc = json.loads(con.execute("SELECT value FROM cursorDiskKV WHERE key = ?", (key,)).fetchone()[0])
    bids = [h["bubbleId"] for h in doc["fullConversationHeadersOnly"]]
    cut = bids[2]
    words = "summarised zqsecretqz conversation"
    doc["latestConversationSummary"] = {"summary": words, "lastBubbleId": cut} if older else {
        "summary": {"summary": words, "truncationLastBubbleIdInclusive": cut,
                    "clientShouldStartSendingFromInclusiveBubbleId": bids[3],
                    "previousConversationSummaryBubbleId": bids[0], "includesToolResults": True},
        "lastBubbleId": bids[-1]}
    con.execute("UPDATE cursorDiskKV SET value = ? WHERE key = ?", (json.dumps(doc), key))
    con.commit()
    con.close()
    plain = redact_file(db, policy="internal")
    m = plain.session_map
    kinds = [e["kind"] for e in m["events"] if e["kind"] != "delay"]
    assert kinds.count("compaction") == 1 and m["totals"]["compactions"] == 1
    # after the events of the first three bubbles (a prompt, a reply, a read), before the fourth's
    without = tmp_path / "without.vscdb"
    storefix.cursor_global_db(without)
    base = [e["kind"] for e in redact_file(without, policy="internal").session_map["events"] if e["kind"] != "delay"]
    at = kinds.index("compaction")
    assert kinds[:at] + kinds[at + 1:] == base and kinds[:at] == ["user", "llm", "read"]
    assert "zqsecretqz" not in json.dumps(m) and "zqsecretqz" not in repr(vars(plain.report))
