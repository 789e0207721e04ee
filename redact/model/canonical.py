"""Canonical JSON and the map's contentHash (seed 000, "Content hash").

contentHash = SHA-256 (lowercase hex) of the canonical JSON of the map without `session.cliVersion`
and without `contentHash` itself. This tool stores it as the top-level `contentHash` field, after
`events`. Canonical JSON: keys sorted by code point, separators `,` and `:`, no white space, UTF-8
with no `\\u` escapes except the ones JSON requires (`"`, `\\`, control characters).

Numbers are written the way ECMAScript's JSON.stringify writes them, so a JavaScript producer and
this one agree on a hash: integers and integral floats as integers (`2.0` -> `2`), other floats as
the shortest round-trip decimal, exponent form only below 1e-6 or from 1e21 (`1e-7`, `1e+21`).
NaN and infinities are not JSON and are refused.
"""
from __future__ import annotations

import hashlib
import math
from typing import Any

import orjson


def format_number(x: float) -> str:
    if isinstance(x, bool):
        raise TypeError("bool is not a number here")
    if isinstance(x, int):
        return str(x)
    if not math.isfinite(x):
        raise ValueError("NaN and infinities have no JSON form")
    if x == 0:
        return "0"
    if x.is_integer() and abs(x) < 2**53:
        return str(int(x))
    sign = "-" if x < 0 else ""
    digits, exp = _shortest(abs(x))  # value = 0.digits * 10**exp
    k, n = len(digits), exp
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        body = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        mant = digits[0] + ("." + digits[1:] if k > 1 else "")
        body = f"{mant}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + body


def _shortest(x: float) -> tuple[str, int]:
    """Digits and exponent n with x = 0.DIGITS * 10**n, from Python's shortest repr."""
    mant, _, exp_s = repr(x).partition("e")
    exp = int(exp_s) if exp_s else 0
    whole, _, frac = mant.partition(".")
    digits = (whole + frac).lstrip("0")
    lead_zeros = len(whole + frac) - len((whole + frac).lstrip("0"))
    n = len(whole) + exp - lead_zeros
    return digits.rstrip("0") or "0", n


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _string(s: str) -> str:
    out = []
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _encode(value: Any, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_string(value))
    elif isinstance(value, (int, float)):
        out.append(format_number(value))
    elif isinstance(value, dict):
        out.append("{")
        for i, key in enumerate(sorted(value)):
            if i:
                out.append(",")
            out.append(_string(key))
            out.append(":")
            _encode(value[key], out)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _encode(item, out)
        out.append("]")
    else:
        raise TypeError(f"not a JSON value: {type(value).__name__}")


class _NeedsSlowPath(Exception):
    pass


def _js_floats(value: Any) -> Any:
    """`value` with every float made into what JSON.stringify writes; raises when orjson can't."""
    if isinstance(value, dict):
        return {k: _js_floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_js_floats(v) for v in value]
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 2**53:
            return int(value)
        if orjson.dumps(value).decode() != format_number(value):
            raise _NeedsSlowPath
    return value


_PLAIN = (str, int, bool, type(None))


def _floats(value: Any) -> list[float] | None:
    """Every float under `value`; None when it holds anything but plain JSON types."""
    out: list[float] = []
    stack = [value]
    while stack:
        item = stack.pop()
        for v in item.values() if type(item) is dict else item:
            t = type(v)
            if t is float:
                out.append(v)
            elif t is dict or t is list:
                stack.append(v)
            elif t not in _PLAIN:
                return None
    return out


def canonical_json(value: Any) -> bytes:
    """Canonical bytes; orjson does the work, with a pure-Python path for rare shapes.

    orjson escapes strings exactly as JSON.stringify does and sorts keys by code point; only its
    floats may be written differently (`2.0`, `1e-7`). So its output is taken as is when every float
    is non-integral and written by orjson as Python's shortest `repr` writes it in plain decimal
    (which is then also what JSON.stringify writes: same shortest digits, no exponent); otherwise
    the reference path below rewrites the floats (and refuses NaN and infinities).
    """
    if type(value) is dict or type(value) is list:
        found = _floats(value)
        if found is not None:
            try:
                out = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
            except (TypeError, orjson.JSONEncodeError):
                return _reference(value)
            if not found:
                return out
            integral = [f for f in found if f.is_integer()]
            rest = [f for f in found if not f.is_integer()] if integral else found
            texts = ",".join(map(repr, rest))
            if "e" not in texts and "n" not in texts and orjson.dumps(rest) == f"[{texts}]".encode("ascii"):
                if not integral:
                    return out
                if all(abs(f) < 2**53 for f in integral):  # written as integers, as _js_floats does
                    return orjson.dumps(_integral_as_int(value), option=orjson.OPT_SORT_KEYS)
    return _reference(value)


def _integral_as_int(value: Any) -> Any:
    """`value` with every integral float made an int, copying only the containers on the way to one
    (a map's `costUsd: 0.0` would otherwise send the whole map through `_js_floats`)."""
    nodes: list[tuple[Any, int, Any]] = [(value, -1, None)]  # (container, its parent's index, its key there)
    fixes: dict[int, list[tuple[Any, int]]] = {}
    i = 0
    while i < len(nodes):
        item = nodes[i][0]
        for k, v in (item.items() if type(item) is dict else enumerate(item)):
            t = type(v)
            if t is float:
                if v.is_integer():
                    fixes.setdefault(i, []).append((k, int(v)))
            elif t is dict or t is list:
                nodes.append((v, i, k))
        i += 1
    copies: dict[int, Any] = {}

    def copy_of(j: int) -> Any:
        if j not in copies:
            item, parent, key = nodes[j]
            copies[j] = dict(item) if type(item) is dict else list(item)
            if parent >= 0:
                copy_of(parent)[key] = copies[j]
        return copies[j]

    for j, pairs in fixes.items():
        made = copy_of(j)
        for k, n in pairs:
            made[k] = n
    return copies.get(0, value)


def _reference(value: Any) -> bytes:
    try:
        return orjson.dumps(_js_floats(value), option=orjson.OPT_SORT_KEYS)
    except (_NeedsSlowPath, TypeError, orjson.JSONEncodeError):
        out: list[str] = []
        _encode(value, out)
        return "".join(out).encode("utf-8", "surrogatepass")


def content_hash(session_map: dict[str, Any]) -> str:
    body = {k: v for k, v in session_map.items() if k != "contentHash"}
    session = body.get("session")
    if isinstance(session, dict) and "cliVersion" in session:
        body["session"] = {k: v for k, v in session.items() if k != "cliVersion"}
    return hashlib.sha256(canonical_json(body)).hexdigest()
