"""The flag rules of a run live in the library (redact/options.py): the API refuses a bad combination
with the same UsageError the CLI prints (exit 2), and neither reads or writes anything first."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from redact import api, api_native
from redact.cli import main
from redact.errors import UsageError
from redact.share.explain import explain_file
from redact.keys.material import Key
from redact.options import FOLDER, MANY, RunOptions
from redact.keys.recorder import TokenLog

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "examples" / "claude-code" / "5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77.jsonl"
MAP = ROOT / "examples" / "session-map.json"
KEY = Key(bytes(range(1, 33)), source="test")


def _refused(call: Callable[[], Any]) -> str:
    with pytest.raises(UsageError) as caught:
        call()
    return caught.value.what


def _cli(args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.delenv("AGENTPLAY_REDACT_KEY", raising=False)
    capsys.readouterr()
    assert main(args) == 2
    return capsys.readouterr().err


# (rule, the library's refusal, the same run on the command line: {tmp} is a fresh folder)
CASES: list[tuple[str, Callable[[Path], Any], list[str]]] = [
    ("bad mode, map", lambda t: api.redact_file(LOG, t / "o.json", mode="everything"),
     [str(LOG), "--mode", "everything", "-o", "{tmp}/o.json"]),
    ("bad mode, native", lambda t: api_native.scrub_file(LOG, t / "o.jsonl", mode="everything"),
     [str(LOG), "--to", "native", "--mode", "everything", "-o", "{tmp}/o.jsonl"]),
    ("bad format", lambda t: api.redact_file(LOG, t / "o.json", input_format="word-doc"),
     [str(LOG), "--format", "word-doc", "-o", "{tmp}/o.json"]),
    ("bad format, bytes", lambda t: api.redact_bytes(LOG.read_bytes(), input_format="word-doc"),
     [str(LOG), "--format", "word-doc", "-o", "{tmp}/o.json"]),
    ("bad mode, explain", lambda t: explain_file(LOG, mode="everything"), ["explain", str(LOG), "--mode", "everything"]),
    ("bad format, explain", lambda t: explain_file(LOG, input_format="word-doc"),
     ["explain", str(LOG), "--format", "word-doc"]),
    ("bad target", lambda t: RunOptions(to="pdf"), [str(LOG), "--to", "pdf", "-o", "{tmp}/o.json"]),
    ("vault without a key", lambda t: api.redact_file(LOG, t / "o.json", recorder=TokenLog()),
     [str(LOG), "--vault", "{tmp}/v", "-o", "{tmp}/o.json"]),
    ("--level on a map", lambda t: RunOptions(level="L1"), [str(LOG), "--level", "L1", "-o", "{tmp}/o.json"]),
    ("receipt without its signing key", lambda t: RunOptions(receipt=t / "r"),
     [str(LOG), "--receipt", "{tmp}/r", "-o", "{tmp}/o.json"]),
    ("native with a receipt", lambda t: RunOptions(to="native", receipt=t / "r", signing_key=t / "s"),
     [str(LOG), "--to", "native", "--receipt", "{tmp}/r", "--signing-key", "{tmp}/s", "-o", "{tmp}/o"]),
    ("one input with --out-dir", lambda t: RunOptions(out_dir=t), [str(LOG), "--out-dir", "{tmp}"]),
    ("native with --out-dir", lambda t: RunOptions(to="native", out_dir=t),
     [str(LOG), "--to", "native", "--out-dir", "{tmp}"]),
    ("several inputs without --out-dir", lambda t: RunOptions(inputs=MANY), [str(LOG), str(MAP)]),
    ("a folder without --out-dir", lambda t: RunOptions(inputs=FOLDER), [str(LOG.parent)]),
    ("several inputs with -o", lambda t: RunOptions(inputs=MANY, out_dir=t, output=str(t / "o")),
     [str(LOG), str(MAP), "--out-dir", "{tmp}", "-o", "{tmp}/o"]),
    ("several inputs with --report", lambda t: RunOptions(inputs=MANY, out_dir=t, report=t / "r.md"),
     [str(LOG), str(MAP), "--out-dir", "{tmp}", "--report", "{tmp}/r.md"]),
    ("several inputs to native", lambda t: RunOptions(inputs=MANY, out_dir=t, to="native"),
     [str(LOG), str(MAP), "--out-dir", "{tmp}", "--to", "native"]),
    ("several inputs with a vault", lambda t: RunOptions(inputs=MANY, out_dir=t, vault=t / "v", keyed=True),
     [str(LOG), str(MAP), "--out-dir", "{tmp}", "--vault", "{tmp}/v"]),
]


@pytest.mark.parametrize(("rule", "library", "argv"), CASES, ids=[c[0] for c in CASES])
def test_the_api_and_the_cli_refuse_alike(rule: str, library: Callable[[Path], Any], argv: list[str],
                                          tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    lib_dir, cli_dir = tmp_path / "lib", tmp_path / "cli"
    lib_dir.mkdir()
    cli_dir.mkdir()
    message = _refused(lambda: library(lib_dir))
    printed = _cli([a.replace("{tmp}", str(cli_dir)) for a in argv], capsys, monkeypatch)
    flag = message.split()[0]
    if f"Invalid value for '{flag}'" in printed:
        # a value outside a flag's choices: the CLI's parser refuses it first (the help lists the
        # choices, issue 16), naming the same flag; the library refuses it with its own message
        assert "is not one of" in printed
    else:
        assert f"error: {message}" in printed
    assert list(lib_dir.iterdir()) == [] and list(cli_dir.iterdir()) == []  # nothing written by either


def test_each_rule_has_its_own_message() -> None:
    """The cases above are distinct rules, not one catch-all refusal."""
    messages = set()
    for _, library, _ in CASES:
        try:
            library(Path("/nonexistent-dir"))
        except UsageError as exc:
            messages.add(exc.what)
    assert len(messages) >= 12


def test_good_combinations_are_accepted(tmp_path: Path) -> None:
    RunOptions()
    RunOptions(to="native", mode="hashed", level="L1", chain_key=tmp_path / "k")
    RunOptions(receipt=tmp_path / "r", signing_key=tmp_path / "s", vault=tmp_path / "v", keyed=True)
    RunOptions(inputs=MANY, out_dir=tmp_path, output="-")
    result = api.redact_file(LOG, tmp_path / "o.json", recorder=TokenLog(), key=KEY, mode="hashed")
    assert result.report.content_hash and (tmp_path / "o.json").exists()


def test_options_are_frozen() -> None:
    from dataclasses import FrozenInstanceError

    options = RunOptions()
    with pytest.raises(FrozenInstanceError):
        options.to = "native"  # type: ignore[misc]


def test_scrub_file_writes_a_scanned_native_log(tmp_path: Path) -> None:
    out = tmp_path / "o.jsonl"
    result = api_native.scrub_file(LOG, out)
    assert result.input_format == "claude-code" and out.read_bytes() == result.data
    assert result.report.scanner and all(v != "fail" for v in result.report.scanner.values())


def test_scrub_file_refuses_a_map(tmp_path: Path) -> None:
    assert "a map is redacted as a map" in _refused(lambda: api_native.scrub_file(MAP, tmp_path / "o"))
    assert list(tmp_path.iterdir()) == []
