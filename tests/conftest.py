"""Shared test set-up.

The suite must never touch the network: detect-secrets plugins can verify a secret by sending it to
its provider, and a privacy tool that phones home has failed. Every attempt to open an internet
socket raises here, so any test that triggers one fails loudly.
"""
from __future__ import annotations

import socket
from pathlib import Path

import pytest

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


def corpus_dir(sub: str) -> Path:
    """The shared corpus folder `sub`, or skip the calling test when it is absent."""
    path = CORPUS / sub
    if not path.is_dir():
        pytest.skip(f"../shared/corpus/{sub} is not present")
    return path
