"""A home folder holding Pi, Qwen Code and Kimi CLI sessions: batch mode given the home finds each
agent's sessions where it keeps them (the folders its registry entry's `homes` name), reads each
with its own format, and skips the files beside them that are not sessions."""
from __future__ import annotations

from pathlib import Path

from redact.batch import run as batch
from redact.formats.registry import raw_format
from redact.policy.load import load_policy
from tests.formats import test_kimi, test_pi, test_qwen_code


def test_batch_given_the_home_finds_every_agent(tmp_path: Path) -> None:
    test_pi._home(tmp_path)
    test_qwen_code._home(tmp_path)
    test_kimi._home(tmp_path)
    tasks, other = batch.plan([str(tmp_path)], tmp_path / "out")
    found = sorted(Path(t.input).relative_to(tmp_path).parts[0] for t in tasks)
    assert found == [".kimi", ".pi", ".pi", ".qwen", ".qwen"]
    for name, fmt in (("pi", ".pi"), ("qwen-code", ".qwen"), ("kimi", ".kimi")):
        declared = raw_format(name)
        assert declared is not None
        homes = {h.split("/")[1] for h in declared.homes}
        assert homes == {fmt}  # where the sessions were found is where the format says they are
    assert all("zqsecretqz" not in o.message for o in other)
    outcomes = batch.run(tasks, batch.Settings(policy=load_policy("default")))
    assert {o.status for o in outcomes} == {batch.WRITTEN}
