"""Codex's reader handles exactly the response item types its table marks as mapped (the record and
event handlers are checked at import; the item dispatch is an if-chain, so this test holds it)."""
from __future__ import annotations

import pytest

from redact.formats.codex.keys import ITEM_TYPE
from redact.formats.codex.native_table import RESPONSE_ITEM_TYPES
from redact.formats.codex.reader import CodexReader
from redact.report import RedactionReport


@pytest.mark.parametrize("kind", sorted(RESPONSE_ITEM_TYPES))
def test_item_dispatch_follows_the_table(kind: str) -> None:
    report = RedactionReport(source="t")
    reader = CodexReader(report)
    reader.item({ITEM_TYPE: kind}, 1.0)
    skipped = {name for name in report.skipped_records if name.startswith("response_item:")}
    if RESPONSE_ITEM_TYPES[kind] == "mapped":
        assert not skipped, kind
    else:
        assert skipped == {f"response_item:{kind}"}, kind
