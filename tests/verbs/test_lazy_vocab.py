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
