"""Loading the secrets layer's rule files (TOML data beside this module), once per process."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources
from typing import Any

_FRAGMENT = re.compile(r"\$\{(\w+)\}")


@cache
def load(name: str) -> dict[str, Any]:
    """The parsed rules file `name` (e.g. "providers.toml") shipped in this package."""
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return tomllib.loads(text)


def expand(regex: str, fragments: dict[str, str]) -> str:
    """`regex` with each `${name}` replaced by fragments[name]; an unknown name is an error."""
    return _FRAGMENT.sub(lambda m: fragments[m.group(1)], regex)
