"""Parameter values coerced without pydantic when typer's own coercion of them needs no pydantic.

typer 0.29 coerces every parameter value through a pydantic TypeAdapter that it builds for each
parameter when a command runs, a given value or not: for the main job's twenty-odd options that is
pydantic's import and schema machinery, about a third of a second of start-up (docs/performance.md).
`install` makes typer build each parameter's coercion lazily: a missing value (None) needs none, a
`str`, a `Path`, a choice (Enum) or a list of them is coerced by typer's own functions
(`coerce_cli_path`, `coerce_cli_choice`, the ones its adapters call), and anything else (a number,
a flag given as text, a value those functions refuse) goes through typer's TypeAdapter exactly as
before, so every error message is typer's. When typer's internals are not the ones this was written
against, nothing is changed.
"""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

_MISS = object()


def install() -> None:
    try:
        from typer import _param_types as pt
        from typer import core
        from typer._coercion import RuntimeParam
    except ImportError:  # another typer: its own coercion, unchanged
        return
    original: Any = getattr(core, "build_runtime_param", None)
    if original is None or getattr(original, "_lazy", False) or not all(
            hasattr(pt, name) for name in ("coerce_cli_path", "coerce_cli_choice", "routes_to_path")):
        return

    def leaf(annotation: Any, info: Any, value: Any, param: Any, ctx: Any) -> Any:
        if getattr(info, "parser", None) is not None:
            return _MISS
        if annotation is str:
            return value if isinstance(value, str) else _MISS
        if isinstance(annotation, type) and issubclass(annotation, Enum):
            if not isinstance(value, (str, Enum)):
                return _MISS
            return pt.coerce_cli_choice(value, choices=list(annotation), case_sensitive=info.case_sensitive,
                                        ctx=ctx)
        if isinstance(annotation, type) and issubclass(annotation, Path) and pt.routes_to_path(annotation, info):
            path_type = info.path_type or annotation
            if not isinstance(path_type, type) or not issubclass(path_type, Path):
                return _MISS
            if isinstance(value, str) and value and "\0" not in value:
                value = path_type(value)  # what pydantic's lax Path validation makes of a string
            if not isinstance(value, path_type):
                return _MISS
            return pt.coerce_cli_path(value, info, path_type=path_type, param=param, ctx=ctx)
        return _MISS

    class LazyParam(RuntimeParam):
        """typer's coercion of one parameter, built the first time a value needs it."""

        _descriptor: Any
        _real: Any

        def __init__(self, descriptor: Any) -> None:
            object.__setattr__(self, "parameter_info", descriptor.parameter_info)
            object.__setattr__(self, "annotation", descriptor.annotation)
            object.__setattr__(self, "_descriptor", descriptor)
            object.__setattr__(self, "_real", None)

        def _typer(self) -> Any:
            if self._real is None:
                object.__setattr__(self, "_real", original(self._descriptor))
            return self._real

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if self._descriptor.file_annotation is None:
                try:
                    fast = self._fast(value, param, ctx)
                except Exception:  # noqa: BLE001 - typer's own coercion says what is wrong
                    fast = _MISS
                if fast is not _MISS:
                    return fast
            return self._typer()._coerce_value(value, param=param, ctx=ctx)

        def _fast(self, value: Any, param: Any, ctx: Any) -> Any:
            annotation: Any = self.annotation
            info = self.parameter_info
            if get_origin(annotation) is list:
                (item,) = get_args(annotation)
                if get_origin(item) is not None or not isinstance(value, (list, tuple)):
                    return _MISS
                out = [leaf(item, info, v, param, ctx) for v in value]
                return _MISS if any(v is _MISS for v in out) else out
            if get_origin(annotation) is not None:
                return _MISS
            return leaf(annotation, info, value, param, ctx)

    def lazy(descriptor: Any) -> Any:
        return LazyParam(descriptor)

    lazy._lazy = True  # type: ignore[attr-defined]
    lazy._original = original  # type: ignore[attr-defined]
    setattr(core, "build_runtime_param", lazy)  # noqa: B010 - not an exported name of typer.core
