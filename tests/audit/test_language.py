"""Layer 4, natural language: sentences are text, names are not. Tuned on clean outputs (no string
qualifies) against planted sentences in several languages and shapes."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.grammar import GrammarOptions, check_grammar
from redact.contract.language import looks_like_text
from redact.verbs import default_vocabulary, is_valid_verb
from tests.audit.scanner_maps import CLEAN_CASES, redacted_example, valid_maps

TEXT = [
    "Fix the refund rounding bug reported by Globex",
    "Commit and open a PR",
    "why does the checkout fail?",
    "please fix it",
    'git commit -m "fix for acme"',
    'git commit -m "refund rounding globex"',
    "Refund Rounding Globex Orders",
    "I think we should revert the migration before Friday.",
    "Bitte prüfe die Rechnung für den Kunden",
    "Corrige le calcul des remboursements pour le client",
    "这个逻辑应该在哪个阶段生效？",
    "只读目录挂载到工作目录下具体是怎样的方式",
    "Find where refunds for Globex are computed",
    "send the report to legal, then close it",
]
NAMES = [
    "orders-api", "acme/orders-api", "claude-sonnet-4-5-20250929", "src/orders/service.py",
    "tests/test_refunds_for_customer_globex.py", "/tmp (scratch)", "~ (home)", "~/.claude/plans",
    "git commit", "gh pr view", "PostToolUse:Bash", "general-purpose",
    "search_code", "mcp__github__create_issue", "sequential-thinking", "docs.python.org",
    "h:0123456789ab", "local:claude-code:0b6f7a52-8d2e-4c41-9a0e-3c5d7f1e2a90", "src/\u2022a1b2c3",
    "docs/Meeting notes 2024.md", "会议记录.md", "New York City", "hello world.", "<script>", "pr_create",
    "https://github.com/acme/orders-api/pull/142", "2026-11-20T09:14:03.120Z", "1.0.0-beta.2",
]


@pytest.mark.parametrize("value", TEXT)
def test_sentences_are_text(value: str) -> None:
    assert looks_like_text(value)


@pytest.mark.parametrize("value", NAMES)
def test_names_are_not_text(value: str) -> None:
    assert not looks_like_text(value)


def test_verbs_in_verb_fields_never_reach_the_language_layer() -> None:
    # Some verbs have a sentence's shape (`docker compose up`); in a verb field the grammar proves
    # them, so this layer never sees them. The same words in another field are a finding.
    verbs = sorted(default_vocabulary().verbs)
    doc = redacted_example("default")
    doc.pop("contentHash")
    doc["events"] = [{"seq": i, "t": i, "kind": "exec", "verb": v} for i, v in enumerate(verbs)]
    result = check_grammar(doc, GrammarOptions(is_valid_verb))
    assert not result.findings and not set(verbs) & set(result.strings)


@pytest.mark.parametrize("policy,mode", CLEAN_CASES)
def test_no_string_of_a_clean_output_reads_as_text(policy: str, mode: str | None) -> None:
    strings = check_grammar(redacted_example(policy, mode), GrammarOptions(is_valid_verb)).strings
    assert not [s for s in strings if looks_like_text(s)]


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(valid_maps())
def test_no_string_of_a_generated_map_reads_as_text(doc: dict) -> None:  # type: ignore[type-arg]
    strings = check_grammar(doc, GrammarOptions(is_valid_verb)).strings
    assert not [s for s in strings if looks_like_text(s)]


GLUE = ["the", "for", "to", "of", "and", "with", "please"]
NOUNS = ["refund", "customer", "invoice", "report", "migration", "checkout", "deploy", "Globex"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(NOUNS), min_size=2, max_size=6), st.sampled_from(GLUE), st.integers(0, 5))
def test_word_runs_with_a_glue_word_are_text(nouns: list[str], glue: str, at: int) -> None:
    words = nouns[:]
    words.insert(min(at, len(words)), glue)
    assert looks_like_text(" ".join(words))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(NOUNS + GLUE), min_size=1, max_size=8),
       st.sampled_from(["-", "_", "/", ".", ""]))
def test_words_joined_without_white_space_are_names(words: list[str], sep: str) -> None:
    assert not looks_like_text(sep.join(words))
