"""Session-record streams (seed 002) under `--to native`: same records, the header's contentLevel
lowered and lossy list extended, workspace roots redacted, calls reduced by kind; the output reads
again with the project's reader and builds a valid map."""
from __future__ import annotations

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from redact.api import redact_bytes
from redact.formats.session_record.reader import read_session
from redact.formats.session_record.native import lowered
from redact.formats.session_record.native_table import LOSSY_ADDED
from redact.report import RedactionReport
from tests.native.helpers import KEY, lines, native, report_text
from tests.native.srfix import stream


class Canaries:
    def __init__(self, base: str = "srs") -> None:
        self.base = base
        self.all: list[str] = []

    def __call__(self) -> str:
        value = f"zq{self.base}{len(self.all)}qz"
        self.all.append(value)
        return value


def _clean(out: bytes, report: RedactionReport, c: Canaries, user: str) -> None:
    body = out.decode()
    assert not [x for x in c.all if x in body] and user not in body
    assert all(x.isascii() and x.replace("_", "").isalnum() for x in c.all if x in report_text(report))


def test_header_declares_what_was_removed() -> None:
    c = Canaries()
    out, report = native(stream(c), "session-record")
    _clean(out, report, c, "noor")
    header = lines(out)[0]
    assert header["contentLevel"] == "metadata"
    assert header["producer"]["lossy"] == ["thinking.signature", *LOSSY_ADDED]
    assert header["workspace"]["roots"] == [{"id": "r1", "path": ".", "vcs": {
        "type": "git", "remote": "acme/billing", "head": "5d1c0e2a8b7f6d5c4b3a29180f7e6d5c4b3a2918", "dirty": True}}]
    assert "extensions" not in header and "instance" not in header["producer"]
    assert lowered("none") == "none" and lowered("full") == "metadata" and lowered(None) == "metadata"


def test_records_and_calls() -> None:
    c = Canaries()
    data = stream(c)
    out, report = native(data, "session-record")
    got = lines(out)
    prompt = lines(data)[1]["content"][0]["text"]
    assert [r["seq"] for r in got] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16]
    assert report.skipped_records and sum(report.skipped_records.values()) == 1
    by_seq = {r["seq"]: r for r in got}
    assert by_seq[1]["content"] == [{"type": "text", "text": {"chars": len(prompt)}}]
    assert by_seq[4]["input"] == {"command": "npm test"} and "title" not in by_seq[4]
    assert by_seq[5]["exec"] == {"command": "npm test", "cwd": {"root": "r1", "path": "."},
                                 "exitCode": 1}
    assert by_seq[5]["capture"] == {"content": {"state": "truncated", "originalBytes": 4000, "blob": {"size": 4000}}}
    assert by_seq[6]["input"] == {"file_path": "src/invoice.ts"} and by_seq[6]["name"] == "Edit"
    assert by_seq[8]["changes"] == [{"op": "modify", "root": "r1", "path": "src/invoice.ts"}]
    assert by_seq[9]["input"] == {} and by_seq[9]["kind"] == "other"
    assert by_seq[10]["input"] == {"url": "https://docs.stripe.com"}
    assert "branch" not in by_seq[11] and "message" not in by_seq[11]
    assert by_seq[14] == {"type": "participants", "seq": 14, "id": "r14"}


def test_reads_again_and_builds_a_valid_map() -> None:
    out, _ = native(stream(Canaries()), "session-record")
    facts = read_session(out, "native", report=RedactionReport(source="native"))
    calls = [f for f in facts.facts if type(f).__name__ == "ToolCall"]
    assert [(c.kind, c.paths) for c in calls][1] == ("edit", ("./src/invoice.ts",))
    result = redact_bytes(out, name="native.jsonl", input_format="session-record")
    kinds = [e["kind"] for e in result.session_map["events"]]
    assert "edit" in kinds and ("exec" in kinds or "verify" in kinds)


@pytest.mark.parametrize("mode", ["dirs_only", "hashed"])
def test_paths_by_mode(mode: str) -> None:
    out, _ = native(stream(Canaries()), "session-record", mode=mode, key=KEY)
    path = {r["seq"]: r for r in lines(out)}[6]["input"]["file_path"]
    if mode == "dirs_only":
        assert path.startswith("src/\u2022")
    else:
        assert [len(s) for s in path.split("/")] == [10, 10]


_ALPHA = "abcdefghijklmnopqrstuvwxyz0123456789"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# a user name ends in "xq" so that it is distinctive: a drawn "cache" is also inside the key name
# "uncached", and a plain word could be found in the output without having leaked
@given(base=st.text(alphabet=_ALPHA, min_size=4, max_size=8),
       user=st.text(alphabet="abcdefgh", min_size=3, max_size=6).map(lambda s: s + "xq"),
       keep=st.lists(st.booleans(), min_size=17, max_size=17),
       policy=st.sampled_from(["default", "internal", "public"]))
def test_no_canary_survives(base: str, user: str, keep: list[bool], policy: str) -> None:
    c = Canaries(base)
    rows = stream(c, user=user).split(b"\n")
    data = b"\n".join([rows[0]] + [r for r, k in zip(rows[1:], keep) if k])
    key = KEY if policy == "public" else None
    out, report = native(data, "session-record", policy=policy, key=key)
    _clean(out, report, c, user)
    again = redact_bytes(out, name="native.jsonl", input_format="session-record", policy=policy, key=key)
    assert not [x for x in c.all if x in again.data.decode()]
    assert orjson.loads(out.split(b"\n")[0])["contentLevel"] == "metadata"
