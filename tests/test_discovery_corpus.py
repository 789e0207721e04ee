"""Issue 24's done-when, on real sessions: a home built from ../shared/corpus in each agent's real
layout (tests/home_builder.py), `agentplay-redact HOME --out-dir` writes a map for every session
that the session files given one by one produce, for every agent, and the per-agent lines and the
manifest agree with the maps on disk. Skipped cleanly without the corpus."""
from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from redact.cli import main
from tests.conftest import CORPUS, corpus_case, corpus_params
from tests.home_builder import NEW_AGENTS, build_home

_LINE = re.compile(r"agentplay-redact: (?P<agent>[a-z-]+) +(?:(?P<stores>\d+) store\(s\), )?(?P<n>\d+) session\(s\) in ")


def _corpus() -> list[object]:
    if not (CORPUS / "README.md").is_file():
        pytest.skip("no corpus")
    return [CORPUS]


def _session_ids(out: Path) -> Counter[str]:
    return Counter(str(json.loads(gzip.decompress(p.read_bytes()))["session"]["id"]) for p in out.glob("*.json.gz"))


@pytest.mark.parametrize("corpus", corpus_params(_corpus))
def test_a_home_built_from_the_corpus_gives_every_sessions_map(corpus: object, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    corpus_case(corpus)
    assert isinstance(corpus, Path)
    home = tmp_path / "home"
    units = build_home(corpus, home)
    agents = {u.agent for u in units}
    assert len(agents) >= 13  # every agent the corpus README places
    out = tmp_path / "maps"
    code = main([str(home), "--out-dir", str(out), "--jobs", "2"])
    err = capsys.readouterr().err
    assert code == 0, [ln for ln in err.splitlines() if "error" in ln]  # every session written
    # the files given one by one (by name: each is its own task, as a single run), companions aside
    one_by_one = tmp_path / "one-by-one"
    assert main([*(str(u.main) for u in units), "--out-dir", str(one_by_one), "--jobs", "2"]) == code
    capsys.readouterr()
    assert _session_ids(out) == _session_ids(one_by_one)
    index = json.loads((out / "index.json").read_text())
    entries = [e for e in index["entries"] if e["agent"]]
    on_disk = sorted(p.name for p in out.glob("*.json.gz"))
    assert sorted(e["output"] for e in entries if e["status"] == "written") == on_disk
    lines = {m["agent"]: int(m["n"]) for m in map(_LINE.match, err.splitlines()) if m}
    assert lines == Counter(e["agent"] for e in entries)  # the lines count what the manifest lists
    assert set(lines) == agents  # every agent found, where it keeps its sessions
    for agent in agents:  # and per agent, every session file placed gave its maps
        placed = [u for u in units if u.agent == agent]
        assert lines[agent] >= len(placed), agent
    # the agents of 2026, each in its own layout: every session the corpus holds found and mapped,
    # counted from the placed files themselves (a store's rows), no more and no fewer
    assert set(NEW_AGENTS) <= agents
    for agent in NEW_AGENTS:
        held = sum(u.sessions for u in units if u.agent == agent)
        written = [e for e in entries if e["agent"] == agent and e["status"] == "written"]
        assert lines[agent] == held == len(written), (agent, lines[agent], held, len(written))
