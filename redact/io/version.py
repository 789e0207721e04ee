"""The installed version of this tool, read without importing importlib.metadata.

The version is the name of the distribution's `agentplay_redact-<version>.dist-info` folder (the
name the packaging spec gives it) in the first `sys.path` entry that holds one, as importlib.metadata
finds it; importing importlib.metadata to ask cost a small run more than a tenth of its start-up
(docs/performance.md). When no such folder is found, importlib.metadata answers.
"""
from __future__ import annotations

import os
import sys
from functools import cache

_DIST = "agentplay_redact-"


@cache
def installed_version() -> str | None:
    """The installed version (`0.1.0`), or None when the package is not installed."""
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in sorted(names):
            if name.startswith(_DIST) and name.endswith(".dist-info"):
                return name[len(_DIST):-len(".dist-info")]
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("agentplay-redact")
    except PackageNotFoundError:
        return None
