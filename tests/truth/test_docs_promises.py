"""Issue 27 item 8: the docs promise only what the code does. `plan_batch` expands `~` (never the
literal `~` as one session); auxiliary files given alone are never opened, and the user is told; a
`publish = false` under a publish policy is refused, not ignored; the key's folder has one name."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from redact import plan_batch
from redact.errors import PolicyError
from tests.hardening.helpers import EXAMPLE_CC, EXAMPLE_SESSION, assert_refused

ROOT = Path(__file__).resolve().parents[2]
SOURCE = EXAMPLE_CC / f"{EXAMPLE_SESSION}.jsonl"


def test_plan_batch_expands_the_home_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    (home / "logs").mkdir(parents=True)
    (home / "logs" / SOURCE.name).write_bytes(SOURCE.read_bytes())
    monkeypatch.setenv("HOME", str(home))
    planned, unusable = plan_batch(["~/logs"], tmp_path / "out")
    assert [Path(i) for i, _ in planned] == [home / "logs" / SOURCE.name] and unusable == []
    planned, unusable = plan_batch(["~/no-such-agent"], tmp_path / "out")
    assert planned == []
    assert [Path(i) for i, _ in unusable] == [home / "no-such-agent"]
    assert "no such file or folder" in unusable[0][1]


def test_a_missing_input_is_unusable_not_planned(tmp_path: Path) -> None:
    planned, unusable = plan_batch([str(tmp_path / "gone.jsonl"), str(SOURCE)], tmp_path / "out")
    assert [i for i, _ in planned] == [str(SOURCE)]
    assert unusable and unusable[0][0] == str(tmp_path / "gone.jsonl")


@pytest.mark.parametrize("name", ["0a1b2c3d-1111-2222-3333-444455556666.settings.json",
                                  "0a1b2c3d-1111-2222-3333-444455556666.lock", "inuse.4242.lock",
                                  "sessions.json", "auth.json"])
def test_an_auxiliary_file_given_alone_is_never_opened(tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / name
    path.write_text('{"model": "m", "title": "a private title"}\n')
    opened: list[str] = []
    real_open = Path.open

    def spy(self: Path, *args: object, **kwargs: object) -> object:
        if self.name == name:
            opened.append(str(self))
        return real_open(self, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(Path, "open", spy)
    line = assert_refused(capsys, tmp_path, "redact", path, "-o", tmp_path / "m.json", names=name,
                          says="never read as a session")
    assert "not a session" in line and opened == []  # not even to detect its format or its companions


def test_publish_false_under_a_publish_policy_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from redact.policy.load import load_policy

    policy = tmp_path / "loose.toml"
    policy.write_text('name = "loose"\nextends = "public"\npublish = false\n')
    with pytest.raises(PolicyError) as exc:
        load_policy(str(policy))
    assert "publish = false" in str(exc.value.what)
    assert_refused(capsys, tmp_path, "policy", "check", policy, names="loose.toml", says="cannot loosen")
    ok = tmp_path / "team.toml"
    ok.write_text('name = "team"\nextends = "default"\npublish = false\n')
    assert load_policy(str(ok)).policy.publish is False


def test_the_key_folder_has_one_name_in_the_docs() -> None:
    texts = {p: p.read_text(encoding="utf-8") for p in [ROOT / "README.md", ROOT / "SECURITY.md",
                                                        *sorted((ROOT / "docs").glob("*.md"))]}
    named = {m.group(1) for text in texts.values()
             for m in re.finditer(r"(?:~|\$XDG_CONFIG_HOME|\.config)/(agentplay[\w.-]*)/(?:key|receipt)", text)}
    assert named == {"agentplay"}, named
