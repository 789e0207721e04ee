"""The Dask example (examples/distributed/) on a two-process local cluster: on a projects tree of
generated Claude Code sessions with subagent transcripts it writes the maps `redact --out-dir`
writes, byte for byte and under the same names (each parent map with its subagent lanes; no
subagent transcript redacted on its own), a bad input is reported while the others are written,
and it imports nothing but the stable API. Marked `distributed`; CI installs dask[distributed] with
the test extra."""
from __future__ import annotations

import ast
import gzip
import importlib.util
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from redact.cli import main

pytestmark = pytest.mark.distributed
distributed = pytest.importorskip("distributed", reason="dask[distributed] is not installed "
                                  "(pip install -e '.[test]' installs it)")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from gen_tree import write_session  # noqa: E402 - importable once sys.path has the folder

EXAMPLE = ROOT / "examples" / "distributed" / "dask_redact.py"
KEY_HEX = "61" * 32


def _example() -> object:
    spec = importlib.util.spec_from_file_location("dask_redact", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["dask_redact"] = module  # the workers unpickle its functions by this name
    spec.loader.exec_module(module)
    return module


_LOOPBACK = ("127.0.0.1", "::1", "localhost")


@pytest.fixture(scope="module")
def loopback_only() -> Iterator[None]:
    """The cluster talks TCP on this machine's loopback only: tests/conftest.py blocks every inet
    connection and DNS lookup; this lets loopback through and still refuses anything else."""
    import _socket
    import socket

    from tests import conftest

    def connect(sock: socket.socket, address: object) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address):
            raise conftest.NetworkBlocked("only loopback connections are allowed in this test")
        conftest._real_connect(sock, address)

    def connect_ex(sock: socket.socket, address: object) -> int:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address):
            raise conftest.NetworkBlocked("only loopback connections are allowed in this test")
        return conftest._real_connect_ex(sock, address)

    def getaddrinfo(host: object, port: object, family: int = 0, type: int = 0, proto: int = 0,
                    flags: int = 0) -> list[tuple[object, ...]]:
        if host not in _LOOPBACK:
            raise conftest.NetworkBlocked("only loopback names resolve in this test")
        return [(socket.AddressFamily(af), socket.SocketKind(kind), pr, name, addr)
                for af, kind, pr, name, addr in _socket.getaddrinfo(host, port, family, type, proto, flags)]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket.socket, "connect", connect)
        patch.setattr(socket.socket, "connect_ex", connect_ex)
        patch.setattr(socket, "getaddrinfo", getaddrinfo)
        yield


def _is_loopback(address: object) -> bool:
    host = address[0] if isinstance(address, tuple) else address
    return host in _LOOPBACK



@pytest.fixture(scope="module")
def client(loopback_only: None) -> Iterator[object]:
    """One two-process local cluster for the module (starting one takes seconds)."""
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None, silence_logs=40)
    client = distributed.Client(cluster)
    try:
        client.run(lambda: sys.path.insert(0, str(ROOT / "examples" / "distributed")))
        assert len(client.scheduler_info()["workers"]) == 2
        yield client
    finally:
        client.close()
        cluster.close()


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    """`~/.claude/projects` in small: two project folders, sessions with 0-3 subagent transcripts in
    `<session>/subagents/` (and one with the older flat `agent-<id>.jsonl` beside it), a broken
    transcript among them."""
    root = tmp_path / "projects"
    a, b = root / "-Users-dev-src-shop", root / "-Users-dev-src-api"
    write_session(a, 80_000, seed=1, subagents=2, cwd="/Users/dev/src/shop")
    write_session(a, 40_000, seed=2, subagents=0, cwd="/Users/dev/src/shop")
    write_session(b, 60_000, seed=3, subagents=3, cwd="/Users/dev/src/api")
    write_session(b, 60_000, seed=4, subagents=1, cwd="/Users/dev/src/api")
    write_session(b, 50_000, seed=5, subagents=2, cwd="/Users/dev/src/api", flat=True)
    (b / "broken.jsonl").write_bytes(b"{not json\n")
    return root


def _maps(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.json.gz"))}


def _cli(args: list[str]) -> int:
    return main([*args, "--jobs", "1"])


def _session_of(path: Path) -> str:
    return str(json.loads(path.read_bytes().split(b"\n", 1)[0])["sessionId"])


def _subagent_lanes(data: bytes) -> int:
    return sum(agent["kind"] == "subagent" for agent in json.loads(gzip.decompress(data))["agents"])


def test_dask_example_writes_the_clis_maps(client: object, tree: Path, tmp_path: Path) -> None:
    example = _example()
    extra = tmp_path / "extra"
    extra.mkdir()
    shutil.copy(ROOT / "examples" / "session-map.json", extra / "map.json")
    inputs = [str(tree), str(extra / "map.json"), str(tmp_path / "none-*.jsonl")]
    done = example.redact_on_dask(client, inputs, tmp_path / "dask", example.Job())  # type: ignore[attr-defined]
    code = _cli([*inputs, "--out-dir", str(tmp_path / "cli")])
    assert code == example.exit_code(done) == 2  # type: ignore[attr-defined]

    status = {Path(d.input).name: d.status for d in done}
    mains = {p.name for p in tree.glob("*/*.jsonl") if not p.name.startswith("agent-")} - {"broken.jsonl"}
    assert status == {"none-*.jsonl": "bad input", "broken.jsonl": "bad input", "map.json": "written",
                      **{name: "written" for name in mains}}
    dask, cli = _maps(tmp_path / "dask"), _maps(tmp_path / "cli")
    assert dask == cli and len(dask) == len(mains) + 1
    # every parent map has one subagent lane per subagent transcript beside it
    lanes = 0
    for d in done:
        if d.status == "written" and d.input.endswith(".jsonl"):
            main_file = Path(d.input)
            expected = len(list((main_file.with_suffix("") / "subagents").glob("agent-*.jsonl")))
            expected += sum(_session_of(p) == main_file.stem for p in main_file.parent.glob("agent-*.jsonl"))
            assert _subagent_lanes(Path(d.output).read_bytes()) == expected
            lanes += expected
    assert lanes == len(list(tree.rglob("agent-*.jsonl"))) == 8


def test_dask_example_with_a_key_and_hashed_paths(client: object, tree: Path, tmp_path: Path) -> None:
    example = _example()
    key_file = tmp_path / "key"
    key_file.write_text(KEY_HEX)
    key_file.chmod(0o600)
    notes = tmp_path / "team-offsite-notes.jsonl"  # a name the harness did not choose: a keyed digest
    shutil.copy(sorted((tree / "-Users-dev-src-api").glob("*-*.jsonl"))[0], notes)
    fingerprint = example.Job(key_file=str(key_file), fingerprint="x")  # type: ignore[attr-defined]
    with pytest.raises(Exception, match="key changed"):
        fingerprint.key()
    import redact

    job = example.Job("public", "hashed", "dataset:r1", key_file=str(key_file),  # type: ignore[attr-defined]
                      fingerprint=redact.load_key_file(key_file).fingerprint())
    inputs = [str(tree / "-Users-dev-src-shop"), str(notes)]
    done = example.redact_on_dask(client, inputs, tmp_path / "dask", job)  # type: ignore[attr-defined]
    assert [d.status for d in done] == ["written"] * 3
    assert _cli([*inputs, "--out-dir", str(tmp_path / "cli"), "--policy", "public", "--mode", "hashed",
                 "--link-scope", "dataset:r1", "--key-file", str(key_file)]) == 0
    assert _maps(tmp_path / "dask") == _maps(tmp_path / "cli")


def test_the_example_uses_only_the_stable_api() -> None:
    """Only `redact` itself (docs/api.md) and its documented errors; no internal module."""
    tree = ast.parse(EXAMPLE.read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    ours = {name for name in imported if name.split(".")[0] in ("redact", "audit")}
    assert ours == {"redact", "redact.errors"}
    used = {node.attr for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "redact"}
    import redact

    assert used and used <= set(redact.__all__), used - set(redact.__all__)
