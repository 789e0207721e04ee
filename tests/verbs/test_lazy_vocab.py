"""The shipped vocabulary compiles a program when it is first looked up (start-up time, issue 16).
Compiled in full, it must hold exactly what the lazy one answers, and a policy's extension still
fails at once on a bad word."""
from __future__ import annotations

import pytest

from redact.verbs.vocab import Vocabulary, VocabularyError, default_vocabulary
from redact.verbs.vocab_data import load_specs


def test_the_lazy_vocabulary_answers_as_the_eager_one() -> None:
    eager = Vocabulary(*load_specs())  # compiles every program: a bad data file fails here
    lazy = Vocabulary(*load_specs(), lazy=True)
    assert len(lazy.programs._done) == 0  # type: ignore[attr-defined]
    assert lazy.programs["git"].root.verb == eager.programs["git"].root.verb
    assert len(lazy.programs._done) == 1  # type: ignore[attr-defined]
    assert "git" in lazy.programs and "no-such-program-zq" not in lazy.programs
    assert lazy.verbs == eager.verbs and len(lazy) == len(eager)
    for verb in ("git commit", "npm test", "mvn clean install", "<script>", "git commit --amend"):
        assert lazy.is_valid_verb(verb) == eager.is_valid_verb(verb), verb
    assert default_vocabulary().verbs == eager.verbs


def test_an_extension_is_still_checked_when_it_is_made() -> None:
    with pytest.raises(VocabularyError):
        default_vocabulary().extend({"mytool": ["Deploy Now!"]})


def test_the_closed_set_check_compiles_only_the_program_it_is_asked_about() -> None:
    lazy = Vocabulary(*load_specs(), lazy=True)
    assert lazy.is_valid_verb("git commit") and not lazy.is_valid_verb("git no-such-sub-zq")
    assert not lazy.is_valid_verb("no-such-program-zq run")
    assert set(lazy.programs._done) == {"git"}  # type: ignore[attr-defined]


def _in_whole_set(vocab: Vocabulary, verb: str) -> bool:
    """The closed-set check asked of the set of every verb (compiled in full), as it was defined."""
    from redact.verbs.vocab import _decomposes

    verbs, seq = vocab._built()  # type: ignore[attr-defined]
    if verb in verbs:
        return True
    head, _, rest = verb.partition(" ")
    items = seq.get(head)
    return items is not None and bool(rest) and _decomposes(tuple(rest.split(" ")), items,
                                                            vocab.programs[head].seq_max)


def test_the_per_program_check_accepts_exactly_the_whole_set() -> None:
    eager = Vocabulary(*load_specs())
    lazy = Vocabulary(*load_specs(), lazy=True)
    # every verb of the full set, and each with a word added or its last word changed
    for verb in sorted(eager.verbs):
        assert lazy.is_valid_verb(verb), verb
        for near in (verb + " zq-extra", verb.rpartition(" ")[0] + " zq" if " " in verb else verb + "zq"):
            assert lazy.is_valid_verb(near) == _in_whole_set(eager, near), near
    for name, items in eager._built()[1].items():  # type: ignore[attr-defined]
        for item in sorted(items)[:3]:
            chained = " ".join((name, *item, *item))
            assert lazy.is_valid_verb(chained) == _in_whole_set(eager, chained), chained
