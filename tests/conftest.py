"""Shared test set-up.

The suite must never touch the network: detect-secrets plugins can verify a secret by sending it to
its provider, and a privacy tool that phones home has failed. Every attempt to open an internet
socket raises here, so any test that triggers one fails loudly.
"""
from __future__ import annotations

import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# The default key (`$XDG_CONFIG_HOME/agentplay/key`) is looked up when no key is given: a developer's
# real key must never be picked up by a test that expects none, so the suite gets a config folder of
# its own (tests of the default key point it elsewhere themselves).
os.environ["XDG_CONFIG_HOME"] = str(Path(__import__("tempfile").mkdtemp(prefix="agentplay-test-config-")))
# The disk cache of shipped tables (redact/io/cache.py) goes to a folder of the suite's own as well:
# a run of the suite leaves nothing in the developer's ~/.cache, and never reads what an older
# checkout left there (the processes the tests start inherit both variables).
os.environ["XDG_CACHE_HOME"] = str(Path(__import__("tempfile").mkdtemp(prefix="agentplay-test-cache-")))

# Hypothesis: no per-example deadline and no "too slow" check (the machines are shared and noisy;
# hang guards are explicit where they matter). With CI set (.ci/run sets it) the examples are
# derandomized: the same every run, so CI is a regression gate and never fails on a new random
# draw. Exploration is for local runs, which draw new examples each time, and for the long run
# (docs/fuzzing.md).
_SUITE = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("suite", **_SUITE)
settings.register_profile("suite-ci", derandomize=True, database=None, print_blob=True, **_SUITE)
settings.load_profile("suite-ci" if os.environ.get("CI") else "suite")

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpus"


class NetworkBlocked(RuntimeError):
    """Raised when code under test tries to reach the network."""


_INET = {socket.AF_INET, socket.AF_INET6}
_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex


def _guard(sock: socket.socket) -> None:
    if sock.family in _INET:
        raise NetworkBlocked("network access attempted during tests")


def _connect(self: socket.socket, address: object) -> None:
    _guard(self)
    _real_connect(self, address)


def _connect_ex(self: socket.socket, address: object) -> int:
    _guard(self)
    return _real_connect_ex(self, address)


def _no_getaddrinfo(*args: object, **kwargs: object) -> list[object]:
    raise NetworkBlocked("DNS lookup attempted during tests")


def pytest_configure(config: pytest.Config) -> None:
    socket.socket.connect = _connect  # type: ignore[method-assign]
    socket.socket.connect_ex = _connect_ex  # type: ignore[method-assign]
    socket.getaddrinfo = _no_getaddrinfo  # type: ignore[assignment]


#: The one parameter of a corpus test when ../shared/corpus is absent: it skips (an empty
#: parametrisation would run nothing and say so only as a warning).
CORPUS_ABSENT = "<corpus absent>"


def corpus_params(names: Callable[[], list[Any]]) -> list[Any]:
    """The parameters of a corpus test: `names()` (which calls corpus_dir), or CORPUS_ABSENT."""
    try:
        return names()
    except pytest.skip.Exception:
        return [CORPUS_ABSENT]


def corpus_case(param: object, sub: str = "") -> None:
    """Skip the test when its parameter is CORPUS_ABSENT."""
    if param == CORPUS_ABSENT:
        pytest.skip(f"../shared/corpus{'/' + sub if sub else ''} is not present")


def corpus_dir(sub: str) -> Path:
    """The shared corpus folder `sub`, or skip the calling test when it is absent."""
    path = CORPUS / sub
    if not path.is_dir():
        pytest.skip(f"../shared/corpus/{sub} is not present")
    return path
