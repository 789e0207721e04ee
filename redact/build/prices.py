"""Advisory cost from the shipped price table (`prices.json`, package data).

`cost(model, in, cw, cr, out)` is USD at list prices, rounded to 6 decimals, or None for a model the
table does not know. It is an estimate for dashboards, never a bill.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources


@dataclass(frozen=True, slots=True)
class Price:
    prefix: str
    inp: float
    out: float
    cw: float
    cr: float


@cache
def table() -> tuple[Price, ...]:
    raw = json.loads((resources.files("redact.build") / "prices.json").read_text(encoding="utf-8"))
    return tuple(Price(m["prefix"], m["in"], m["out"], m["cw"], m["cr"]) for m in raw["models"])


@cache
def price_for(model: str) -> Price | None:
    name = model.lower()
    for price in table():
        if name.startswith(price.prefix):
            return price
    return None


def cost(model: str | None, inp: int, cw: int, cr: int, out: int) -> float | None:
    if not model:
        return None
    price = price_for(model)
    if price is None:
        return None
    usd = (inp * price.inp + cw * price.cw + cr * price.cr + out * price.out) / 1_000_000
    return round(usd, 6)
