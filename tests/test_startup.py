"""Start-up: what a fresh process of the main job and of `--help` loads, and the disk cache of shipped
tables (redact/io/cache.py) that lets the main job skip building them. Time itself is measured in
bench/bench_startup.py, never here; these tests pin what is imported and what the cache may hold."""
from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from redact.io import cache as disk
from tests.formats.ccfix import Transcript, tool_use

ROOT = Path(__file__).resolve().parents[1]
KEY = "3c" * 32
CANARY_COMMAND = "deployctl --password=Qx9CanaryPw7Qx9 push"
CANARY_TEXT = "ZebraCanaryPhraseNobodyElseWrites"
# A fresh interpreter runs the command line's entry point, then reports what it imported.
PROBE = """
import json, sys
from redact.cli import main
code = main(sys.argv[1:])
sys.stdout.write("\\n" + json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def _session(tmp_path: Path) -> Path:
    t = Transcript("5f3c2a10-7b4e-4d21-9c8a-2e6f1b0d4a77", "/home/dev/shop", seed=5)
    t.user(f"please run it, {CANARY_TEXT}")
    t.assistant([tool_use("t1", "Bash", {"command": CANARY_COMMAND})])
    t.assistant([tool_use("t2", "Bash", {"command": "git status"})])
    path = tmp_path / "session.jsonl"
    path.write_bytes(t.bytes())
    return path


def _run(args: list[str], cache_home: Path, *, disabled: bool = False) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k not in (disk.ENV_DISABLE, "XDG_CACHE_HOME")}
    env["XDG_CACHE_HOME"] = str(cache_home)
    env["PYTHONPATH"] = str(ROOT)
    if disabled:
        env[disk.ENV_DISABLE] = "1"
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env,
                          timeout=300, cwd=ROOT)
    result: dict[str, Any] = json.loads(done.stdout.rsplit("\n", 1)[-1])
    result["stderr"] = done.stderr
    return result


def _main_job(tmp_path: Path, name: str) -> tuple[list[str], Path]:
    key = tmp_path / "key"
    if not key.exists():
        key.write_text(KEY)
        key.chmod(0o600)
    out = tmp_path / f"{name}.json"
    return ["--mode", "hashed", "--key-file", str(key), str(_session(tmp_path)), "-o", str(out)], out


def test_the_main_job_with_a_warm_cache_imports_no_requests_nor_the_models(tmp_path: Path) -> None:
    cache_home = tmp_path / "cache"
    args, cold_out = _main_job(tmp_path, "cold")
    cold = _run(args, cache_home)
    assert cold["code"] == 0, cold["stderr"]
    args, warm_out = _main_job(tmp_path, "warm")
    warm = _run(args, cache_home)
    assert warm["code"] == 0, warm["stderr"]
    loaded = set(warm["modules"])
    assert "requests" not in loaded
    assert not {m for m in loaded if m == "detect_secrets" or m.startswith("detect_secrets.")}
    assert "redact.model.agentplay" not in loaded  # the field table came from the cache
    assert "pydantic" not in loaded and "redact.policy.model" not in loaded  # the preset came from the cache
    assert "concurrent.futures.process" not in loaded  # one input: no process pool
    assert "cryptography.hazmat.primitives.serialization" not in loaded  # a map needs only HKDF
    assert "typer._adapters" not in loaded  # no option value needed typer's pydantic coercion
    args, off_out = _main_job(tmp_path, "off")
    off = _run(args, cache_home, disabled=True)
    assert off["code"] == 0, off["stderr"]
    assert "redact.model.agentplay" in off["modules"]  # without the cache the table is built
    assert cold_out.read_bytes() == warm_out.read_bytes() == off_out.read_bytes()
    assert CANARY_TEXT.encode() not in warm_out.read_bytes()


def test_help_loads_neither_the_engine_nor_the_scanner(tmp_path: Path) -> None:
    run = _run(["--help"], tmp_path / "cache")
    assert run["code"] == 0
    loaded = set(run["modules"])
    for engine in ("redact.api", "redact.apply.walk", "redact.build.builder", "audit.scan",
                   "redact.contract.secrets", "detect_secrets", "requests", "pydantic",
                   "redact.model.agentplay", "cryptography"):
        assert engine not in loaded, engine
    assert not (tmp_path / "cache").exists()  # help reads no table at all


def test_the_cache_holds_only_shipped_tables(tmp_path: Path) -> None:
    """A run over a session full of canaries leaves only the fixed table entries in the cache, and
    none of their bytes is the session's."""
    cache_home = tmp_path / "cache"
    args, out = _main_job(tmp_path, "map")
    assert _run(args, cache_home)["code"] == 0
    assert out.is_file()
    entries = sorted(p for p in cache_home.rglob("*") if p.is_file())
    names = {p.name.rsplit("-", 1)[0] for p in entries}
    assert {"field-table", "verb-specs", "policies"} <= names <= {"field-table", "detect-secrets-regexes", "verb-specs",
                                                            "policies"}
    for entry in entries:
        data = entry.read_bytes()
        for canary in (CANARY_TEXT, "Qx9CanaryPw7Qx9", "deployctl", "/home/dev/shop", KEY):
            assert canary.encode() not in data, (entry.name, canary)
        assert entry.stat().st_mode & 0o077 == 0  # the user's own


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv(disk.ENV_DISABLE, raising=False)
    return tmp_path / "xdg"


def _table(name: str = "t") -> tuple[list[int], Any]:
    built: list[int] = []

    def build() -> dict[str, Any]:
        built.append(1)
        return {"rows": [[1, "a"], [2, "b"]]}

    def decode(data: dict[str, Any]) -> list[tuple[int, str]]:
        rows = [(int(n), str(s)) for n, s in data["rows"]]
        if not rows:
            raise ValueError("empty")
        return rows

    return built, lambda src: disk.cached(name, [src], build, decode)


def test_an_entry_is_read_back_and_rebuilt_when_it_does_not_check(cache_home: Path, tmp_path: Path) -> None:
    src = tmp_path / "source.py"
    src.write_text("A = 1\n")
    built, get = _table()
    expected = [(1, "a"), (2, "b")]
    assert get(src) == expected and len(built) == 1
    assert get(src) == expected and len(built) == 1  # read from the cache
    (entry,) = cache_home.rglob("t-*.json")
    for corrupt in (entry.read_bytes()[:-3], b"0" * 64 + b"\n{}", b"\xff\xfe", b""):
        entry.write_bytes(corrupt)
        assert get(src) == expected  # never trusted: built again and rewritten
    assert len(built) == 5
    head, _, payload = entry.read_bytes().partition(b"\n")
    forged = b'{"rows": []}'  # a well-formed entry the decoder rejects
    import hashlib

    entry.write_bytes(hashlib.sha256(forged).hexdigest().encode() + b"\n" + forged)
    assert get(src) == expected and len(built) == 6
    src.write_text("A = 2\n")  # other source: another entry, the old one removed
    assert get(src) == expected and len(built) == 7
    assert len(list(cache_home.rglob("t-*.json"))) == 1


def test_the_cache_can_be_disabled_and_is_never_required(cache_home: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "source.py"
    src.write_text("A = 1\n")
    built, get = _table()
    monkeypatch.setenv(disk.ENV_DISABLE, "1")
    assert get(src) == [(1, "a"), (2, "b")] and get(src) == [(1, "a"), (2, "b")]
    assert len(built) == 2 and not cache_home.exists()
    monkeypatch.delenv(disk.ENV_DISABLE)
    cache_home.write_text("a file where the folder would be")  # cannot be written: a miss, no error
    assert get(src) == [(1, "a"), (2, "b")]


def test_cached_tables_equal_the_tables_built_from_source(cache_home: Path) -> None:
    """Each shipped table read back from the cache is the table its builder computes."""
    from redact.contract.secrets import plugins
    from redact.model import agentplay as ap
    from redact.model import table
    from redact.verbs import vocab_data

    built_map = table.node_for(ap.SessionMap)
    built_events = {kind: table.node_for(m) for kind, m in ap.EVENT_MODELS.items()}
    for _ in range(2):  # a miss (built, written), then a hit (read)
        table._tables.cache_clear()
        assert table.map_node() == built_map
        assert table.event_nodes() == built_events
        assert vocab_data.load_specs() == vocab_data.read_specs()
        plugins._denylists.cache_clear()
        assert [[(r.pattern, r.flags) for r in plugins._denylist.__wrapped__(i)]
                for i in range(len(plugins._DS_PLUGINS))] == \
            [[(r.pattern, r.flags) for r in p.denylist] for p, *_ in plugins._PLUGINS]
    assert {p.name.rsplit("-", 1)[0] for p in cache_home.rglob("*.json")} == {
        "field-table", "verb-specs", "detect-secrets-regexes"}
    table._tables.cache_clear()
    plugins._denylists.cache_clear()


def _strings_in(obj: object, depth: int = 0, seen: set[int] | None = None) -> list[str]:
    seen = set() if seen is None else seen
    if id(obj) in seen or depth > 6:
        return []
    seen.add(id(obj))
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, bytes):
        return [obj.decode("latin-1")]
    if isinstance(obj, (type, type(sys))) or callable(obj) and depth > 0:
        return []
    return [s for ref in gc.get_referents(obj) for s in _strings_in(ref, depth + 1, seen)]


def test_caches_that_outlive_a_run_hold_no_input_but_keep_the_shipped_tables(tmp_path: Path) -> None:
    """After a run, a per-process cache may keep what ships with the tool (the verb vocabulary, for
    the next session of a batch worker) and nothing of the input: every function cache of the
    redactor and the scanner is searched for the session's canaries."""
    import functools

    from redact import api
    from redact.keys.material import parse_key_text
    from redact.verbs import vocab

    key = parse_key_text(KEY.encode(), source="t")
    result = api.redact_bytes(_session(tmp_path).read_bytes(), name="s.jsonl", key=key)
    assert result.data and CANARY_TEXT.encode() not in result.data
    assert vocab.default_vocabulary.cache_info().currsize == 1  # kept for the next session
    caches = [(name, attr, getattr(module, attr)) for name, module in list(sys.modules.items())
              if name.startswith(("redact.", "audit.")) and module is not None
              for attr in dir(module)
              if isinstance(getattr(module, attr, None), functools._lru_cache_wrapper)]
    assert len(caches) > 10
    for name, attr, wrapper in caches:
        for text in _strings_in(wrapper):
            for canary in ("Qx9CanaryPw7Qx9", CANARY_TEXT, "deployctl --password"):
                assert canary not in text, (name, attr)


@pytest.mark.parametrize("value", ["hashed", "HASHED", "flat", "", "map.json", "-", "/no/such/dir/x.json",
                                   ".", ["a.jsonl", "b.jsonl"], ["a.jsonl", ""], "2", "yes", None])
def test_lazy_coercion_gives_what_typer_gives(value: object) -> None:
    """Every parameter of the main job, given the same value, is coerced to the same result (or
    refused with the same message) by the lazy coercion as by typer's own."""
    import typer.core
    import typer.main

    from redact.cli import _register, coerce
    from redact.cli.common import app

    coerce.install()
    lazy = typer.core.build_runtime_param
    assert getattr(lazy, "_lazy", False)
    _register("redact")
    command = typer.main.get_command(app).commands["redact"]  # type: ignore[attr-defined]
    ctx = command.make_context("redact", ["x.jsonl"], resilient_parsing=True)
    checked = 0
    for param in command.params:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is None:
            continue
        outcomes = []
        for build in (lazy, lazy._original):  # type: ignore[attr-defined]
            try:
                outcomes.append(("ok", build(descriptor).coerce(value, param=param, ctx=ctx)))
            except Exception as exc:  # noqa: BLE001 - the refusal itself is compared
                outcomes.append(("error", type(exc).__name__, str(exc)))
        assert outcomes[0] == outcomes[1], param.name
        checked += 1
    assert checked > 15


def test_a_policys_own_allowlist_never_joins_the_shipped_lists(tmp_path: Path) -> None:
    """The shipped allowlists are parsed once per process; a policy that adds to them adds to its
    own copy, so the next run's policy has the shipped lists only."""
    from redact.policy.load import load_policy

    policy = tmp_path / "extra.toml"
    policy.write_text('name = "extra"\nextends = "default"\n[allowlists.model]\nvalues = ["zork-model-9"]\n')
    shipped = load_policy("default").allowlists["model"].values
    assert "zork-model-9" in load_policy(str(policy)).allowlists["model"].values
    assert load_policy("default").allowlists["model"].values == shipped
    assert "zork-model-9" not in shipped


def test_the_version_read_off_the_dist_info_folder_is_importlib_metadatas() -> None:
    """redact/version.py reads the version without importlib.metadata: the same answer, which keys
    the disk cache and is the map's producer version."""
    from importlib.metadata import version

    from redact.build.builder import producer_version
    from redact.io.version import installed_version

    installed_version.cache_clear()
    assert installed_version() == version("agentplay-redact")
    assert producer_version() == version("agentplay-redact")
    assert disk._version() == version("agentplay-redact")


def test_the_main_job_and_verb_import_no_importlib_metadata(tmp_path: Path) -> None:
    args, _ = _main_job(tmp_path, "map")
    assert _run(args, tmp_path / "cache")["code"] == 0  # fills the cache (building it asks pydantic, which asks)
    for run in (_run(args, tmp_path / "cache"), _run(["verb", "ls"], tmp_path / "cache")):
        assert run["code"] == 0, run["stderr"]
        assert "importlib.metadata" not in run["modules"]
