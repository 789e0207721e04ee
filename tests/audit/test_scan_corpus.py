"""The scanner on real logs (../shared/corpus, skipped when absent): every Claude Code transcript
redacted under each preset passes the scan against its own source with no finding, and the
self-test (with the source) catches every plant in the outputs of every fourth file."""
from __future__ import annotations

import pytest

from audit.scan import scan_map
from audit.selftest import self_test
from redact.api import redact_file
from tests.audit.scanner_maps import KEY
from tests.conftest import corpus_dir

pytestmark = pytest.mark.corpus


@pytest.mark.parametrize("policy", ["default", "internal", "public"])
def test_redacted_transcripts_scan_clean_and_pass_the_self_test(policy: str) -> None:
    files = sorted(corpus_dir("claude-code").glob("*.jsonl"))
    assert files
    for n, path in enumerate(files):
        result = redact_file(path, policy=policy, key=KEY)  # scans before returning; raises on a leak
        assert set(result.report.scanner.values()) == {"pass"}, path.name
        source = path.read_bytes()
        again = scan_map(result.session_map, source=source, kept_identifiers=result.report.idents.kept)
        assert again.clean, (path.name, [(f.rule, f.pointer) for f in again.findings])
        if n % 4 == 0:  # the self-test on a quarter of the files keeps this test quick
            outcome = self_test(result.session_map, source=source)
            assert outcome.ok, (path.name, outcome.summary())
