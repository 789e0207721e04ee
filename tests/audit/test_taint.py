"""Layer 3, taint against the source: gathering the source's text, finding its pieces in the output,
naming the source field, no noise on sanctioned values, and the raw prefilter's exactness."""
from __future__ import annotations

import gzip
import json
import re
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.grammar import GrammarOptions, check_grammar
from audit.scan import scan_map
from audit.taint import GRAM, iter_source_text, taint_scan
from redact.contract.words import COMMON_LONG, FUNCTION_WORDS
from redact.verbs import is_valid_verb
from tests.audit.scanner_maps import CLEAN_CASES, example_bytes, kept_identifiers, redacted_example

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))


def jsonl(*records: Any) -> bytes:
    return b"\n".join(orjson.dumps(r) for r in records) + b"\n"


def claude_user(text: str, **extra: Any) -> dict[str, Any]:
    return {"type": "user", "uuid": "6f1c2b7e-3f1a-4d7a-9d53-0a1b2c3d4e5f", "sessionId": "s-1",
            "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/Users/alice/src/orders-api",
            "message": {"role": "user", "content": [{"type": "text", "text": text}]}, **extra}


def leaky_map(**session_extra: Any) -> dict[str, Any]:
    doc = redacted_example("default")
    doc.pop("contentHash", None)
    doc["session"].update(session_extra)
    return doc


def taint(doc: dict[str, Any], source: bytes, fmt: str | None = None) -> list[Any]:
    return scan_map(doc, source=source, source_format=fmt).by_layer("taint")


# -- reading the source ---------------------------------------------------------------------------

def test_every_string_is_text_except_structural_tokens() -> None:
    rec = claude_user("hello there", version="2.1.3", model="claude-sonnet-4-5",
                      toolUseResult={"stdout": "ok done", "type": "text"})
    fields = {v: f for f, v in iter_source_text(jsonl(rec))}
    assert fields["hello there"] == "user:message.content[].text"
    assert fields["/Users/alice/src/orders-api"] == "user:cwd"
    assert fields["ok done"] == "user:toolUseResult.stdout"
    assert "2.1.3" not in fields and "claude-sonnet-4-5" not in fields and "s-1" not in fields


def test_structural_keys_holding_prose_are_text() -> None:
    rec = {"type": "user", "status": "the build failed for globex again", "model": "gpt 5 custom"}
    texts = {v for _, v in iter_source_text(jsonl(rec))}
    assert {"the build failed for globex again", "gpt 5 custom"} <= texts


def test_keys_that_are_not_names_are_text_and_blobs_are_not() -> None:
    rec = {"type": "file-history-snapshot", "snapshot": {"/Users/alice/secret-plan.md": {"v": 1}},
           "data": "A" * 600, "signature": "x" * 600}
    found = list(iter_source_text(jsonl(rec)))
    assert ("file-history-snapshot:snapshot.<key>", "/Users/alice/secret-plan.md") in found
    assert all(len(v) < 600 for _, v in found)


def test_unparsed_lines_json_documents_and_gzip() -> None:
    raw = jsonl(claude_user("first")) + b"this line is not json at all\n"
    assert ("line(unparsed)", "this line is not json at all") in list(iter_source_text(raw))
    doc = json.dumps({"items": [{"text": "in a document"}]}, indent=2).encode()
    assert ("items[].text", "in a document") in list(iter_source_text(doc))
    assert ("user:message.content[].text", "first") in list(iter_source_text(gzip.compress(raw)))


def test_codex_records_are_labelled_by_both_type_tags() -> None:
    rec = {"timestamp": "t", "type": "response_item",
           "payload": {"type": "function_call", "arguments": "{\"cmd\": \"ls -la\"}"}}
    assert ("response_item/function_call:payload.arguments", '{"cmd": "ls -la"}') in list(iter_source_text(jsonl(rec)))


# -- finding pieces ----------------------------------------------------------------------------------

def test_a_token_in_a_rejected_string_names_its_source_field() -> None:
    source = jsonl(claude_user("deploy with key zq_payroll_export_2291 tonight"))
    found = taint(leaky_map(hostName="zq_payroll_export_2291"), source)
    assert [(f.rule, f.pointer, f.source) for f in found] == [
        ("taint.source-token", "/session/hostName", "user:message.content[].text")]
    assert "payroll" not in found[0].excerpt  # masked: at most 4 characters


def test_a_token_inside_a_longer_output_string_and_a_part_of_a_compound() -> None:
    secret = "Zq7RvT9xKmWpLs2Q"
    source = jsonl(claude_user(f"remote is https://alice:{secret}@git.acme.io/x.git"))
    found = taint(leaky_map(note=f"prefix-{secret}-suffix"), source)
    assert [f.pointer for f in found] == ["/session/note"]


def test_a_phrase_is_found_whatever_the_case_and_line_breaks() -> None:
    source = jsonl(claude_user("Please look at the\nrefund rounding logic before Friday"))
    found = taint(leaky_map(summary="[The Refund Rounding Logic]"), source)
    assert [(f.rule, f.pointer) for f in found] == [("taint.source-phrase", "/session/summary")]


def test_phrases_in_disclosed_paths_are_findings_tokens_are_not() -> None:
    doc = redacted_example("default")
    doc.pop("contentHash", None)
    doc["files"][0]["path"] = "notes/refund rounding logic.md"
    source = jsonl(claude_user("check the refund rounding logic and src/orders/service.py"))
    found = taint(doc, source)
    assert [(f.rule, f.pointer) for f in found] == [("taint.source-phrase", "/files/0/path")]


def test_a_token_after_an_escaped_newline_is_still_a_token() -> None:
    source = jsonl(claude_user("line one\nzq_payroll_export_2291\ttab"))
    assert b"\\nzq_payroll" in source
    assert [f.pointer for f in taint(leaky_map(x="zq_payroll_export_2291"), source)] == ["/session/x"]


def test_unicode_escapes_and_non_ascii_text() -> None:
    text = "Kündigung für Müller-Lüdenscheidt vorbereiten"
    escaped = json.dumps(claude_user(text)).encode()  # ensure_ascii: \\u escapes
    assert b"\\u00fc" in escaped
    for source in (escaped + b"\n", jsonl(claude_user(text))):
        found = taint(leaky_map(x="Müller-Lüdenscheidt"), source)
        assert [f.pointer for f in found] == ["/session/x"]


# -- no noise ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("policy,mode", CLEAN_CASES)
def test_clean_outputs_have_no_taint_finding_against_their_source(policy: str, mode: str | None) -> None:
    result = scan_map(redacted_example(policy, mode), source=example_bytes(),
                      kept_identifiers=kept_identifiers(policy, mode))
    assert result.clean and result.verdicts["taint"] == "pass"


def test_sanctioned_names_short_tokens_models_verbs_and_labels_make_no_noise() -> None:
    doc = redacted_example("internal")
    doc.pop("contentHash", None)
    names = [f["path"] for f in doc["files"]] + ["orders-api", "acme/orders-api", "claude-sonnet-4-5-20250929"]
    text = " ".join(names) + " src test git commit pytest /tmp (scratch) wiki.acme.internal Explore search_code"
    source = jsonl(claude_user(text), claude_user("I ran git commit and then pytest in src and test"))
    result = scan_map(doc, source=source)
    assert result.clean, [(f.rule, f.pointer) for f in result.findings]


def test_the_source_is_not_read_when_nothing_is_left_open() -> None:
    result = scan_map(redacted_example("default"), source=b"\xff not json, not even utf-8 \x00")
    assert result.verdicts["taint"] == "pass" and result.taint_patterns == 0
    assert result.taint_searched == 0


def test_common_words_never_become_patterns() -> None:
    source = jsonl(claude_user("the function returns the response and the configuration"))
    assert taint(leaky_map(x="function_response"), source) == []


# -- the prefilter is exact: compare with a plain reference implementation ----------------------------

_REF_TOKEN = re.compile(r"[a-z0-9_\u0080-\U0010ffff](?:[a-z0-9_.+@\u0080-\U0010ffff-]*[a-z0-9_\u0080-\U0010ffff])?")
_REF_WORDS = re.compile(r"[^\W\d_]+(?:\s[^\W\d_]+){2,}")


def _ascii_lower(s: str) -> str:
    return "".join(c.lower() if c.isascii() else c for c in s)


def reference_pieces(source: bytes) -> set[str]:
    """Every distinctive piece of the source's text, by brute force."""
    pieces: set[str] = set()
    for _, text in iter_source_text(source):
        low = _ascii_lower(text)
        for tok in _REF_TOKEN.findall(low):
            for piece in [tok, *re.split(r"[.+@-]+", tok)]:
                if len(piece.encode()) >= GRAM and piece not in COMMON_LONG and re.search(r"[^\W\d_]", piece):
                    pieces.add(piece)
        for run in _REF_WORDS.findall(low):
            words = run.split()
            for i in range(len(words) - 2):
                three = words[i:i + 3]
                if any(len(w.encode()) >= 4 and w not in FUNCTION_WORDS for w in three):
                    pieces.add(" ".join(three))
    return pieces


def reference_flagged(outputs: list[str], source: bytes) -> set[str]:
    pieces = reference_pieces(source)
    out = set()
    for value in outputs:
        view = " ".join(_ascii_lower(value).split())
        for piece in pieces:
            if piece in view and (" " not in piece or re.search(
                    rf"(?<![^\W\d_]){re.escape(piece)}(?![^\W\d_])", view)):
                out.add(value)
    return out


VOCAB = ["zqalpha_7781", "orders-api.internal", "Müller-Lüdenscheidt", "ghp_x7Rq2Lm9Vb", "refund",
         "rounding", "logic", "the", "for", "globex", "quarterly", "report", "x", "src", "deploy-prod-v2"]
SEPARATORS = [" ", " ", "\n", "\t", "/", "@", ".", "-", ":", "\"", "\\", "é"]


@st.composite
def texts(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=8))
    seps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(words), max_size=len(words)))
    return "".join(w + s for w, s in zip(words, seps)).strip()


@SETTINGS
@given(st.lists(texts(), min_size=1, max_size=6), st.lists(texts(), min_size=1, max_size=4),
       st.booleans(), st.booleans())
def test_taint_scan_matches_a_brute_force_reference(sources: list[str], outputs: list[str],
                                                    ascii_json: bool, as_document: bool) -> None:
    records = [{"type": "user", "message": {"content": t}} for t in sources]
    if as_document:
        source = json.dumps(records, ensure_ascii=ascii_json, indent=1).encode()
    else:
        source = b"\n".join(json.dumps(r, ensure_ascii=ascii_json).encode() for r in records)
    doc = redacted_example("default")
    doc.pop("contentHash", None)
    for i, value in enumerate(outputs):
        doc["session"][f"extra{chr(97 + i)}"] = value
    strings = check_grammar(doc, GrammarOptions(is_valid_verb)).strings
    found = {f.pointer for f in taint_scan(strings, source).findings}
    expected = {f"/session/extra{chr(97 + i)}" for i, v in enumerate(outputs)
                if v in reference_flagged([v], source)}
    assert found == expected


def test_small_chunks_find_the_same_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    import audit.taint

    records = [claude_user(f"filler line {i} about nothing") for i in range(40)]
    records[17] = claude_user("here zq_payroll_export_2291 sits")
    records[33] = claude_user("and the refund rounding logic too")
    source = jsonl(*records)
    doc = leaky_map(a="zq_payroll_export_2291", b="[the refund rounding logic]")
    expected = [(f.pointer, f.rule) for f in taint(doc, source)]
    assert len(expected) == 2
    monkeypatch.setattr(audit.taint, "CHUNK", 7)
    assert [(f.pointer, f.rule) for f in taint(doc, source)] == expected


@pytest.mark.corpus
def test_real_logs_no_noise_on_clean_output_and_planted_prose_is_found() -> None:
    from tests.conftest import corpus_dir

    files = sorted(p for sub in ("claude-code", "codex") for p in corpus_dir(sub).iterdir())
    clean = redacted_example("internal")
    for path in files:
        data = path.read_bytes()
        assert scan_map(clean, source=data).clean, path.name
        prose = [v for _, v in iter_source_text(data) if len(v.split()) >= 12 and len(v) < 2000]
        if not prose:
            continue
        doc = leaky_map(note=prose[len(prose) // 2])
        found = scan_map(doc, source=data).by_layer("taint")
        assert [f.pointer for f in found] == ["/session/note"], path.name
        assert found[0].source and found[0].source != "line(unparsed)"
