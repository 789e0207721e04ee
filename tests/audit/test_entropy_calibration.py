"""Calibration vectors for the entropy detector's limits (redact/contract/secrets/entropy.py): each
threshold is pinned at and around its value with seeded random tokens, so moving one (a minimum
length of 24 instead of 20, a margin of 0.1 instead of 0.5, a chunk limit of 2.0) fails here.

The rates were measured on the unchanged code with these seeds; the bounds leave room below them."""
from __future__ import annotations

import random
import string

import pytest

from redact.contract.secrets.entropy import entropy_findings, is_opaque
from redact.contract.secrets.values import looks_random, near_random_entropy

MIXED = string.ascii_letters + string.digits
LOWER = string.ascii_lowercase + string.digits


def _tokens(n: int, length: int, alphabet: str, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        token = "".join(rng.choice(alphabet) for _ in range(length))
        if any(c.isdigit() for c in token) and any(c.isalpha() for c in token):
            out.append(token)
    return out


def _flagged(tokens: list[str]) -> int:
    return sum(1 for t in tokens if entropy_findings(t))


@pytest.mark.parametrize("length", [20, 21, 22, 23])
def test_random_tokens_from_the_minimum_length_up_are_flagged(length: int) -> None:
    tokens = _tokens(50, length, MIXED, seed=length)
    assert _flagged(tokens) >= 44, _flagged(tokens)  # 47-50 of 50 on the calibrated code


@pytest.mark.parametrize("length", [16, 18, 19])
def test_random_tokens_below_the_minimum_length_are_not(length: int) -> None:
    assert _flagged(_tokens(50, length, MIXED, seed=length)) == 0
    assert not any(is_opaque(t) for t in _tokens(50, length, MIXED, seed=100 + length))


def test_the_minimum_length_is_twenty_exactly() -> None:
    """One token cut at 19 and 20 characters: quiet, then flagged (the same characters)."""
    for token in _tokens(20, 40, MIXED, seed=7):
        if entropy_findings(token[:20]):
            assert not entropy_findings(token[:19])
            return
    raise AssertionError("no 20-character prefix was flagged")


def test_lowercase_tokens_are_judged_by_their_own_alphabet() -> None:
    tokens = _tokens(50, 24, LOWER, seed=3)
    assert _flagged(tokens) >= 40, _flagged(tokens)


def test_the_entropy_margin() -> None:
    """A random part passes at margin 0.5; a repeated pattern of the same alphabet falls far below,
    and a part with a few repeats sits between: quiet at 0.1, flagged at 0.5."""
    tokens = _tokens(50, 24, MIXED, seed=11)
    assert sum(near_random_entropy(t, 0.5) for t in tokens) >= 45
    assert sum(near_random_entropy(t, 0.0) for t in tokens) < sum(near_random_entropy(t, 0.5) for t in tokens)
    assert not near_random_entropy("abcd1234abcd1234abcd1234", 0.5)


def test_the_chunk_limits_of_looks_random() -> None:
    """Mixed case: mean chunk length up to 3.0; one case: up to 4.5 (model names and words exceed it)."""
    assert looks_random("n7r27svaq5hi1alylhvcsc")
    assert not looks_random("claude3sonnet20241022latest")
    assert looks_random("aB3dE5gH7jK9mN1pQ3sT")  # mixed case, chunks of 2
    # one case: digits count as chunks too; mean 4.6 is over the limit, 4.2 under it
    assert not looks_random("abcdefg1hijklmn2opqrstu")
    assert looks_random("abcdefg1hijklm2nopqrs")
    # mixed case: mean 3.0 is at the limit, 3.17 over it
    assert looks_random("Abcde1Fghij2Klmno3")
    assert not looks_random("Abcdef1Ghijk2Lmnop3")
