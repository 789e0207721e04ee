"""Issue 13, item 2: e-mail addresses hidden by an encoding survived in file names under `default`
(`invoices-name%40example.com.csv`, full-width `＠` `．`, `mailto%3A...%40...`, `name(at)host`). The
redactor and the scanner now both decode (percent-encoding, HTML references, NFKC) and read spelled-out
forms before matching, with one pure detector (redact/contract/emails.py) and no shared transform: the
redactor replaces the segment or hashes the identifier; the scanner flags what a producer left.
"""
from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.scan import scan_map
from redact.api import redact_bytes
from redact.contract.emails import has_email
from tests.formats.ccfix import Transcript, text, tool_use
from tests.hardening.helpers import example_map
from tests.native.helpers import KEY


def _full_width(s: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in s)


#: Each form: (local, domain, tld) -> the address as a file name or identifier might hide it.
FORMS: dict[str, Callable[[str, str, str], str]] = {
    "plain": lambda u, d, t: f"{u}@{d}.{t}",
    "percent-at": lambda u, d, t: f"{u}%40{d}.{t}",
    "percent-all": lambda u, d, t: quote(f"{u}@{d}.{t}", safe=""),
    "percent-twice": lambda u, d, t: f"{u}%2540{d}.{t}",
    "mailto-percent": lambda u, d, t: f"mailto%3A{u}%40{d}.{t}",
    "full-width-at-dot": lambda u, d, t: f"{u}＠{d}．{t}",
    "full-width-all": lambda u, d, t: _full_width(f"{u}@{d}.{t}"),
    "small-at": lambda u, d, t: f"{u}\ufe6b{d}.{t}",
    "html-ref": lambda u, d, t: f"{u}&#64;{d}.{t}",
    "paren-at-dot": lambda u, d, t: f"{u}(at){d}(dot){t}",
    "bracket-at-dot": lambda u, d, t: f"{u}[at]{d}[dot]{t}",
    "paren-at-plain-dot": lambda u, d, t: f"{u}(at){d}.{t}",
    "words": lambda u, d, t: f"{u} at {d} dot {t}",
}
_HAND = ("zqalice", "globexmail", "com")


@pytest.mark.parametrize("form", sorted(FORMS))
def test_the_detector_sees_every_form(form: str) -> None:
    assert has_email(FORMS[form](*_HAND))
    assert has_email(f"invoices-{FORMS[form](*_HAND)}.csv")
    assert has_email(f"icon@2x.png {FORMS[form](*_HAND)}")  # an image suffix before does not hide it
    assert has_email("name@2x.png.globexmail.com")  # nor does a domain that starts like one


@pytest.mark.parametrize("plain", ["README.md", "data at rest.md", "look at example.com", "100%.txt",
                                   "a%2Fb", "format(at)", "src/app.py", "café.md", "what dot com",
                                   "icon@2x.png", "assets/logo@3x.webp", "node_modules/@types/node/index.d.ts"])
def test_the_detector_leaves_ordinary_names(plain: str) -> None:
    assert not has_email(plain)


def _gone(body: str, local: str, encoded: str) -> bool:
    folded = unicodedata.normalize("NFKC", body).lower()
    return local not in folded and encoded not in body and encoded.lower() not in folded


def _map_with(encoded: str) -> dict[str, Any]:
    m = example_map()
    m["files"][0]["path"] = f"data/invoices-{encoded}.csv"
    m["repos"][0]["name"] = encoded
    for ev in m["events"]:
        if ev.get("kind") == "mcp":
            ev["server"] = encoded
        if "subagentType" in ev:
            ev["subagentType"] = encoded
    return m


def _transcript(encoded: str) -> bytes:
    cwd = "/Users/dana/src/orders-api"
    t = Transcript("1a2b3c4d-0000-4000-8000-000000000001", cwd, seed=1)
    t.user("go")
    tid = t.tool_id()
    t.assistant([tool_use(tid, "Read", {"file_path": f"{cwd}/data/invoices-{encoded}.csv"})])
    t.result(tid, "c")
    tid = t.tool_id()
    t.assistant([tool_use(tid, f"mcp__{encoded}__search", {"q": "x"})])
    t.result(tid, "r")
    t.assistant([text("done")])
    return t.bytes()


_LOCAL = st.from_regex(r"zq[a-z]{4,8}", fullmatch=True)
_DOMAIN = st.from_regex(r"[a-z]{4,10}", fullmatch=True)
_TLD = st.sampled_from(["com", "org", "io", "net", "co"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(form=st.sampled_from(sorted(FORMS)), local=_LOCAL, domain=_DOMAIN, tld=_TLD,
       policy=st.sampled_from(["default", "internal", "public"]))
def test_no_encoded_email_survives_in_a_map(form: str, local: str, domain: str, tld: str, policy: str) -> None:
    encoded = FORMS[form](local, domain, tld)
    result = redact_bytes(orjson.dumps(_map_with(encoded)), name="m.json", policy=policy, key=KEY)
    body = result.data.decode() + json.dumps(result.report.as_dict(), ensure_ascii=False)
    assert _gone(body, local, encoded)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(form=st.sampled_from(sorted(FORMS)), local=_LOCAL, domain=_DOMAIN, tld=_TLD,
       policy=st.sampled_from(["default", "internal", "public"]))
def test_no_encoded_email_survives_from_a_raw_log(form: str, local: str, domain: str, tld: str,
                                                 policy: str) -> None:
    encoded = FORMS[form](local, domain, tld)
    result = redact_bytes(_transcript(encoded), name="s.jsonl", policy=policy, key=KEY)
    body = result.data.decode() + json.dumps(result.report.as_dict(), ensure_ascii=False)
    assert _gone(body, local, encoded)
    assert result.session_map["files"]  # the file is still there, under a digest token


@pytest.mark.parametrize("form", sorted(FORMS))
def test_the_native_output_keeps_no_encoded_email(form: str) -> None:
    from tests.native.helpers import native

    encoded = FORMS[form](*_HAND)
    out, report = native(_transcript(encoded), "claude-code", policy="default")
    assert _gone(out.decode() + json.dumps(report.as_dict(), ensure_ascii=False), _HAND[0], encoded)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_the_scanner_flags_each_form_in_a_hand_made_map(form: str) -> None:
    """A map another producer made, with the address left in a file name and an identifier."""
    encoded = FORMS[form](*_HAND)
    m = example_map()
    m["files"][0]["path"] = f"data/invoices-{encoded}.csv"
    m["repos"][0]["name"] = f"{encoded}"
    result = scan_map(m)
    flagged = {f.pointer for f in result.findings if f.rule == "grammar.email"}
    assert "/files/0/path" in flagged and "/repos/0/name" in flagged


# -- issue 23, item 3: internationalized domains, and every label dot IDNA reads -----------------
IDN_HAND = ["x@ex\u00e4mple.com", "\u043f\u043e\u0447\u0442\u0430@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444",
            "\u7528\u6237@\u4f8b\u5b50.\u5e7f\u544a", "bob@example\u3002com", "bob@example\uff61com",
            "\u7528\u6237@\u4f8b\u5b50\u3002\u5e7f\u544a", "zq@xn--80ak6aa92e.com"]
_IDNA_DOTS = [".", "\u3002", "\uff0e", "\uff61"]
# letters of several scripts: Latin with diacritics, Cyrillic, Greek, CJK, Arabic, Devanagari
_SCRIPT_LETTERS = st.sampled_from([
    "\u00e0\u00e1\u00e4\u00e5\u00e7\u00e9\u00f1\u00f6\u00fc\u00df", "\u0430\u0431\u0432\u0433\u0434\u0435\u0436\u0437\u0438\u043a",
    "\u03b1\u03b2\u03b3\u03b4\u03b5\u03b6\u03b7\u03b8", "\u4f8b\u5b50\u7528\u6237\u5e7f\u544a\u6d4b\u8bd5", "\u0645\u062b\u0627\u0644\u0628\u0631\u064a\u062f",
    "\u0909\u0926\u093e\u0939\u0930\u0923", "abcdefghijklmnop"])


@st.composite
def idn_addresses(draw: st.DrawFn) -> tuple[str, str]:
    """(address, its local part) with a local part, labels and a top-level label in drawn scripts,
    joined by any IDNA label dot."""
    def word(lo: int, hi: int) -> str:
        return draw(st.text(alphabet=draw(_SCRIPT_LETTERS), min_size=lo, max_size=hi))

    local = "zq" + word(3, 8)
    labels = [word(2, 10) for _ in range(draw(st.integers(1, 3)))]
    tld = word(2, 6)
    dot = draw(st.sampled_from(_IDNA_DOTS))
    return f"{local}@{dot.join(labels)}{dot}{tld}", local


@pytest.mark.parametrize("address", IDN_HAND)
def test_the_detector_sees_an_internationalized_address(address: str) -> None:
    assert has_email(address)
    assert has_email(f"notes/{address}.md")


@settings(max_examples=150, deadline=None)
@given(idn_addresses())
def test_the_detector_sees_any_unicode_domain(drawn: tuple[str, str]) -> None:
    address, _ = drawn
    assert has_email(address) and has_email(f"invoices-{address}.csv")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=idn_addresses(), policy=st.sampled_from(["default", "internal", "public"]))
def test_no_internationalized_address_survives_from_a_raw_log(drawn: tuple[str, str], policy: str) -> None:
    address, local = drawn
    result = redact_bytes(_transcript(address), name="s.jsonl", policy=policy, key=KEY)
    body = result.data.decode() + json.dumps(result.report.as_dict(), ensure_ascii=False)
    assert local not in unicodedata.normalize("NFKC", body)
    assert result.session_map["files"]  # the file is still there, under a digest token


@pytest.mark.parametrize("address", IDN_HAND)
def test_the_scanner_flags_an_internationalized_address_in_a_hand_made_map(address: str) -> None:
    m = example_map()
    m["files"][0]["path"] = f"data/invoices-{address}.csv"
    result = scan_map(m)
    assert "/files/0/path" in {f.pointer for f in result.findings if f.rule == "grammar.email"}


@pytest.mark.parametrize("plain", ["caf\u00e9.md", "\u0444\u0430\u0439\u043b.txt", "\u4f8b\u5b50\u3002\u5e7f\u544a.md",
                                   "@\u043f\u0430\u043a\u0435\u0442/x", "docs/\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444"])
def test_ordinary_unicode_names_are_no_address(plain: str) -> None:
    assert not has_email(plain)
