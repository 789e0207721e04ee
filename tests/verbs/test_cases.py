"""The hand-written case table (tests/verbs/cases.py) against the engine."""
from __future__ import annotations

import pytest

from redact.verbs import extract, is_valid_verb
from tests.verbs.cases import ALL, ANY, Case


def test_table_is_large_enough() -> None:
    assert len(ALL) >= 300
    assert len({case.cmd for case in ALL}) == len(ALL), "duplicate commands in the table"


@pytest.mark.parametrize("case", ALL, ids=[repr(case.cmd[:60]) for case in ALL])
def test_case(case: Case) -> None:
    result = extract(case.cmd)
    assert result.verb == case.verb
    if case.verbs is not ANY:
        assert result.verbs == case.verbs
    if case.cat is not ANY:
        assert result.cat == case.cat
    if case.verify is not ANY:
        assert result.verify == case.verify
    if case.vcs is not ANY:
        assert result.vcs == case.vcs
    assert is_valid_verb(result.verb)
    assert all(is_valid_verb(verb) for verb in result.verbs)
