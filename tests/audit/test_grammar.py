"""Layer 1, the grammar proof: each rule, the string kinds it hands on, and properties of the grammar."""
from __future__ import annotations

import copy
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.findings import RULES, safe_key
from audit.grammar import PATH, PROVEN, REJECTED, GrammarOptions, check_grammar, declared_mode
from audit.scan import scan_map
from redact.model.canonical import content_hash
from redact.verbs import default_vocabulary, is_valid_verb
from tests.audit.scanner_maps import hexstr, path_in, redacted_example, timestamp

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))


def base() -> dict[str, Any]:
    return {
        "schema": "agentplay/v1",
        "session": {"id": "local:codex:" + str(uuid.UUID(int=7)), "startedAt": "2026-01-02T03:04:05.000Z",
                    "pathMode": "relative"},
        "totals": {"calls": 1},
        "files": [{"id": 0, "path": "src/app.py"}],
        "events": [{"seq": 0, "t": 0, "kind": "exec", "agent": "main", "tool": "Bash", "verb": "git status"}],
    }


def grammar_rules(doc: dict[str, Any], **kw: Any) -> set[tuple[str, str]]:
    opts = GrammarOptions(is_valid_verb, kw.get("kept"), frozenset(kw.get("keep", ())))
    return {(f.rule, f.pointer) for f in check_grammar(doc, opts).findings}


def with_change(path: list[Any], value: Any) -> dict[str, Any]:
    doc = base()
    node: Any = doc
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return doc


def test_base_map_is_clean() -> None:
    assert grammar_rules(base()) == set()


@pytest.mark.parametrize("path,value,rule,pointer", [
    (["session", "hostName"], "laptop", "grammar.unknown-field", "/session/hostName"),
    (["events", 0, "kind"], "chat", "grammar.unknown-event-kind", "/events/0"),
    (["totals", "calls"], "12", "grammar.type", "/totals/calls"),
    (["totals", "calls"], True, "grammar.type", "/totals/calls"),
    (["session", "truncated"], "yes", "grammar.type", "/session/truncated"),
    (["session", "pathMode"], "absolute", "grammar.enum", "/session/pathMode"),
    (["session", "startedAt"], "yesterday", "grammar.timestamp", "/session/startedAt"),
    (["session", "startedAt"], "2026-02-30T00:00:00Z", "grammar.timestamp", "/session/startedAt"),
    (["session", "id"], "my laptop session", "grammar.id", "/session/id"),
    (["session", "cliVersion"], "v2 beta", "grammar.version", "/session/cliVersion"),
    (["files", 0, "path"], "/Users/alice/app.py", "grammar.path", "/files/0/path"),
    (["files", 0, "path"], "Users/alice/app.py", "grammar.path-home", "/files/0/path"),
    (["files", 0, "path"], "src/run.sh --token x", "grammar.command-in-path", "/files/0/path"),
    (["files", 0, "path"], "src/alice@acme.com/x", "grammar.email", "/files/0/path"),
    (["events", 0, "verb"], "git commit -m wip", "grammar.verb", "/events/0/verb"),
    (["events", 0, "tool"], "Bash tool", "grammar.identifier", "/events/0/tool"),
    (["events", 0, "tool"], "https://u:p@git.acme.io/x", "grammar.url-credentials", "/events/0/tool"),
    (["events", 0, "tool"], "https://git.acme.io/x#frag", "grammar.url-query", "/events/0/tool"),
    (["events", 0, "tool"], "https://git.acme.io/x?token=1", "grammar.identifier", "/events/0/tool"),
    (["events", 0, "tool"], "bob@acme.com", "grammar.email", "/events/0/tool"),
    (["events", 0, "tool"], "file:///home/bob/x", "grammar.path-home", "/events/0/tool"),
    (["events", 0, "targets"], [{"label": "my notes"}], "grammar.label", "/events/0/targets/0/label"),
    (["events", 0, "vcs"], {"provider": "git", "action": "commit -m x"}, "grammar.action", "/events/0/vcs/action"),
    (["totals", "errorsBySource"], {"acme": 1}, "grammar.unknown-key", "/totals/errorsBySource/acme"),
    (["files"], {"id": 0}, "grammar.not-list", "/files"),
    (["session"], ["x"], "grammar.not-object", "/session"),
    (["events"], {"0": {}}, "grammar.not-list", "/events"),
    (["contentHash"], "0" * 64, "grammar.content-hash", "/contentHash"),
    (["contentHash"], "abc", "grammar.content-hash", "/contentHash"),
])
def test_each_rule_names_its_place(path: list[Any], value: Any, rule: str, pointer: str) -> None:
    assert rule in RULES
    assert (rule, pointer) in grammar_rules(with_change(path, value))


def test_text_fields_are_findings_unless_the_policy_keeps_them() -> None:
    doc = base()
    doc["tasks"] = [{"n": 1, "name": "Fix the refund bug"}]
    doc["events"].append({"seq": 1, "t": 1, "kind": "artifact", "title": "Q3 report"})
    assert {("grammar.text", "/tasks/0/name"), ("grammar.text", "/events/1/title")} <= grammar_rules(doc)
    assert grammar_rules(doc, keep=("task_names",)) == {("grammar.text", "/events/1/title")}
    assert grammar_rules(doc, keep=("task_names", "artifact_titles")) == set()
    result = scan_map(doc, keep_task_names=True, keep_artifact_titles=True)
    assert result.kept_text == 2 and result.clean  # kept text is not run through the language layer


def test_kept_text_still_never_holds_an_email() -> None:
    doc = base()
    doc["tasks"] = [{"n": 1, "name": "mail bob@acme.com"}]
    assert ("grammar.email", "/tasks/0/name") in grammar_rules(doc, keep=("task_names",))


def test_content_hash_must_match_the_map() -> None:
    doc = base()
    doc["contentHash"] = content_hash(doc)
    assert grammar_rules(doc) == set()
    doc["totals"]["calls"] = 2
    assert ("grammar.content-hash", "/contentHash") in grammar_rules(doc)


def test_identifiers_in_clear_are_collected_and_hash_tokens_are_proven() -> None:
    doc = base()
    doc["events"].append({"seq": 1, "t": 1, "kind": "mcp", "server": "h:0123456789ab", "tool": "search_code"})
    result = check_grammar(doc, GrammarOptions(is_valid_verb))
    assert result.identifiers == {"tool": {"Bash"}, "mcp_tool": {"search_code"}}
    assert "h:0123456789ab" not in result.strings  # proven: never handed to the other layers


def test_undeclared_identifier_is_a_finding_when_the_report_is_given() -> None:
    doc = base()
    assert grammar_rules(doc, kept={"tool": {"Bash"}}) == set()
    assert grammar_rules(doc, kept={"tool": set()}) == {("grammar.identifier-undeclared", "/events/0/tool")}


def test_path_grammar_follows_the_declared_mode() -> None:
    hashed = with_change(["session", "pathMode"], "hashed")
    assert ("grammar.path", "/files/0/path") in grammar_rules(hashed)
    hashed["files"][0]["path"] = "0123456789/abcdefabcd"
    assert grammar_rules(hashed) == set()
    dirs = with_change(["session", "pathMode"], "dirs_only")
    dirs["files"][0]["path"] = "src/\u2022a1b2c3"
    assert grammar_rules(dirs) == set()
    assert declared_mode({"session": {}}) == "relative"
    assert declared_mode({"session": {"pathMode": "weird"}}) == "hashed"  # unknown: the strictest


def test_bucket_labels_are_accepted_as_paths_in_every_mode() -> None:
    for mode in ("relative", "dirs_only", "hashed"):
        doc = with_change(["session", "pathMode"], mode)
        doc["files"][0]["path"] = "/tmp (scratch)"
        assert grammar_rules(doc) == set()


def test_one_finding_per_value_and_field_with_a_count() -> None:
    doc = base()
    doc["events"] = [{"seq": i, "t": i, "kind": "exec", "verb": "deploy-acme --prod"} for i in range(50)]
    doc["session"]["id"] = "deploy-acme --prod"
    findings = check_grammar(doc, GrammarOptions(is_valid_verb)).findings
    verb = [f for f in findings if f.rule == "grammar.verb"]
    assert len(verb) == 1 and verb[0].pointer == "/events/0/verb" and verb[0].places == 50
    assert any(f.rule == "grammar.id" and f.pointer == "/session/id" for f in findings)


def test_unsafe_unknown_keys_are_masked_in_pointers() -> None:
    doc = base()
    doc["session"]["ghp_abcdefghijklmnopqrstuvwxyz0123456789"] = 1
    doc["session"]["the customer asked"] = 2
    pointers = {f.pointer for f in check_grammar(doc, GrammarOptions(is_valid_verb)).findings}
    assert all("abcdefghij" not in p and "customer" not in p for p in pointers)
    assert safe_key("hostName") == "hostName" and safe_key("a/b") .startswith("<key:")


def test_strings_under_unknown_fields_are_handed_on_as_rejected() -> None:
    doc = base()
    doc["session"]["extra"] = {"nested": ["deep text value here"], "k": 3}
    result = check_grammar(doc, GrammarOptions(is_valid_verb))
    places = result.strings["deep text value here"]
    assert [p.kind for p in places.values()] == [REJECTED]
    assert next(iter(places.values())).pointer == "/session/extra/nested/0"


def test_deterministic() -> None:
    doc = redacted_example("default")
    doc["session"]["note"] = "a b c"
    a = scan_map(doc)
    b = scan_map(copy.deepcopy(doc))
    assert a == b


# -- properties -----------------------------------------------------------------------------------

@SETTINGS
@given(st.sampled_from(("relative", "dirs_only", "hashed")), st.data())
def test_paths_drawn_from_a_mode_pass_in_that_mode(mode: str, data: st.DataObject) -> None:
    doc = with_change(["session", "pathMode"], mode)
    doc["files"][0]["path"] = data.draw(path_in(mode))
    result = check_grammar(doc, GrammarOptions(is_valid_verb))
    assert not result.findings
    kinds = {p.kind for places in result.strings.values() for p in places.values()}
    assert kinds <= {PATH, "ident:tool"}  # hashed paths are proven, others disclosed as paths


@SETTINGS
@given(st.one_of(timestamp(), st.uuids().map(str), hexstr(40), hexstr(7)))
def test_timestamps_and_ids_are_proven(value: str) -> None:
    doc = base()
    if value.endswith("Z"):
        doc["session"]["startedAt"] = value
    else:
        doc["events"][0] = {"seq": 0, "t": 0, "kind": "error", "srcUuid": value}
    result = check_grammar(doc, GrammarOptions(is_valid_verb))
    assert not result.findings and value not in result.strings


@SETTINGS
@given(st.sampled_from(sorted(default_vocabulary().verbs)))
def test_every_vocabulary_verb_is_proven(verb: str) -> None:
    doc = with_change(["events", 0, "verb"], verb)
    assert grammar_rules(doc) == set()


@SETTINGS
@given(st.text(min_size=1, max_size=40))
def test_any_string_in_a_closed_field_is_proven_or_rejected_never_disclosed(value: str) -> None:
    doc = with_change(["events", 0, "verb"], value)
    doc["session"]["outcome"] = value
    result = check_grammar(doc, GrammarOptions(is_valid_verb))
    for places in result.strings.values():
        assert {p.kind for p in places.values()} <= {REJECTED, "ident:tool", PATH}
    if value not in ("pr_created", "interrupted", "blocked", "verified", "unresolved_errors",
                     "incomplete", "completed"):
        assert ("grammar.enum", "/session/outcome") in {(f.rule, f.pointer) for f in result.findings}


@SETTINGS
@given(st.text(min_size=1, max_size=30).filter(lambda s: any(c.isspace() for c in s)))
def test_identifiers_never_hold_white_space(value: str) -> None:
    doc = with_change(["events", 0, "tool"], value)
    rules = {r for r, _ in grammar_rules(doc)}
    assert "grammar.identifier" in rules


def test_proven_constant_is_shared() -> None:
    assert PROVEN == "proven"


@pytest.mark.parametrize("path,flagged", [
    ("Users/alice/src/app.py", True), ("home/bob/.ssh/id_rsa", True), ("src/home/page.tsx", False),
    ("home/.config/nvim/init.lua", False), ("docs/Users guide.md", False),
    # issue 13: at every segment position, not only the start (a working directory of `/Volumes`)
    ("Macintosh HD/Users/u/Documents/taxes.pdf", True), ("c/Documents and Settings/u/x.txt", True),
    ("homes/u/notes.txt", True), ("app/users/[id]/page.tsx", False), ("src/home/page.tsx", False),
])
def test_home_folders_in_relative_paths(path: str, flagged: bool) -> None:
    assert (("grammar.path-home", "/files/0/path") in grammar_rules(with_change(["files", 0, "path"], path))) is flagged


@pytest.mark.parametrize("value", [2**53, -(2**53), 2**60 + 1])
def test_integers_a_javascript_reader_changes_are_findings(value: int) -> None:
    """redact refuses integers beyond 2^53 - 1 (a JavaScript viewer shows, and hashes, another
    number), but scan and audit passed them, so a map from another producer could be proven clean and
    signed with one. Every number slot: a field, a counter object, a list item."""
    doc = redacted_example("default")
    doc["totals"]["tokens"] = value
    doc["totals"]["errorsBySource"] = {"tool": value}
    rules = [(f.rule, f.pointer) for f in scan_map(doc).findings]
    assert ("grammar.number-range", "/totals/tokens") in rules
    assert ("grammar.number-range", "/totals/errorsBySource/tool") in rules
    doc["totals"]["tokens"] = 2**53 - 1
    doc["totals"]["errorsBySource"] = {"tool": 1}
    assert not [r for r in scan_map(doc).findings if r.rule == "grammar.number-range"]
