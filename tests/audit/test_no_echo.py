"""No echo: findings and every output format (text, JSON, SARIF, the self-test's lines) show at
most 4 characters of an offending value. Canaries are planted in many places of a map (values and
keys) and of its source; no 5-character window of any canary may appear in any output byte."""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import orjson
import pytest

from audit.findings import RULES
from audit.sarif import DOCS_URL
from audit.scan import scan_map
from redact.cli import main
from tests.audit.scanner_maps import SECRETS, put, redacted_example, scalar_places

CANARIES = (
    *SECRETS,
    "Vorpal snickersnack jabberwock frumious bandersnatch galumphing",
    "zorblaxq.quintavex@vexmailcorp.com",
    "/Users/zorblaxq/vexplans/frumious.txt",
    'frobctl zap -m "jabberwock outgrabe mimsy"',
    "Kvøldzqüx Þrymbølgjaß",
    "zq_vexillary_payroll_9921",
)
KEY_CANARY = "jubjub tumtum vorpal"


def _windows(value: str) -> set[str]:
    return {value[i:i + 5] for i in range(len(value) - 4)}


def _without_vocabulary(blob: str) -> str:
    """The output less its fixed words: rule ids (`secrets.github-token` shares `githu` with a
    canary), detector names and rule messages, which never come from a value."""
    blob = re.sub(r"secrets\.[a-z0-9-]+|detail='[a-z0-9-]+'", " ", blob)
    blob = re.sub(r'"name": "[A-Za-z]+"', " ", blob)  # SARIF rule names, made from the rule ids
    # SARIF fingerprints: SHA-256 of file name, rule and pointer, never of a value. The file name is a
    # fresh tmp dir each run, so 116 random digests once held "75487", a window of a Slack canary.
    blob = re.sub(r'"agentplayFinding/v1": "[0-9a-f]{64}"', " ", blob)
    for rule in RULES.values():
        blob = blob.replace(rule.message, " ")
    blob = re.sub(re.escape(DOCS_URL) + r"(#[a-z-]+)?", " ", blob)  # SARIF helpUri/informationUri
    return blob


def _assert_no_echo(blob: str) -> None:
    blob = _without_vocabulary(blob)
    escaped = json.dumps(blob)  # also catch a canary written with JSON escapes
    for canary in (*CANARIES, KEY_CANARY):
        for window in _windows(canary):
            assert window not in blob and window not in escaped, f"{window!r} of a canary was echoed"


def _assert_fingerprints_name_no_value(sarif: dict) -> None:
    """Each fingerprint is SHA-256 of file, rule and pointer, all shown beside it: so stripping the
    digests before the window check hides nothing a reader could not already see."""
    results = sarif["runs"][0]["results"]
    assert results
    for r in results:
        loc = r["locations"][0]
        seed = f"{loc['physicalLocation']['artifactLocation']['uri']}\0{r['ruleId']}\0"
        seed += loc["logicalLocations"][0]["fullyQualifiedName"]
        digest = r["partialFingerprints"]["agentplayFinding/v1"]
        assert digest in {hashlib.sha256(seed.encode()).hexdigest(),
                          hashlib.sha256(seed.removesuffix("/").encode()).hexdigest()}


@pytest.fixture()
def planted(tmp_path: Path) -> tuple[Path, Path]:
    doc = redacted_example("default")
    places = scalar_places(doc)
    for i, ptr in enumerate(places[:: max(1, len(places) // 40)]):
        put(doc, ptr, CANARIES[i % len(CANARIES)])
    doc["session"][KEY_CANARY] = CANARIES[0]
    # a key with digits (a token?) is masked too; a short letters-only key is a field name, shown
    doc["events"][0][KEY_CANARY.replace(" ", "7")] = CANARIES[-1]
    path = tmp_path / "map.json"
    path.write_bytes(orjson.dumps(doc))
    src = tmp_path / "src.jsonl"
    src.write_bytes(b"\n".join(orjson.dumps({"type": "user", "message": {"content": c}}) for c in CANARIES))
    return path, src


def test_every_output_format_masks_every_canary(capsys: pytest.CaptureFixture[str],
                                                planted: tuple[Path, Path]) -> None:
    path, src = planted
    blobs = []
    for fmt in ("text", "json", "sarif"):
        code = main(["scan", "--self-test", "--format", fmt, str(path), "--source", str(src), "--untied-source"])
        out, err = capsys.readouterr()
        assert code == 1 and out
        if fmt == "sarif":
            _assert_fingerprints_name_no_value(json.loads(out))
        blobs.append((out + err).replace(str(path.parent), " "))  # the tmp dir's name varies per run
    result = scan_map(json.loads(path.read_text()), source=src.read_bytes())
    assert {"grammar", "secrets", "taint", "language"} == {f.layer for f in result.findings}
    blobs.append(json.dumps(result.as_dict()))
    blobs.append(repr(result.findings))
    for blob in blobs:
        _assert_no_echo(blob)


def test_excerpts_keep_at_most_four_characters() -> None:
    doc = redacted_example("default")
    doc["session"]["note"] = CANARIES[6]
    for f in scan_map(doc).findings:
        shown = f.excerpt.split("\u2026", 1)[0]
        assert len(shown) <= 4
