"""Signed receipts: an Ed25519 signature saying "this map was redacted and scanned, with this verdict".

    write_receipt(result, "signing.pem", "map.json.gz.receipt.json")    # after api.redact_file(...)
    receipt = sign_map_file("map.json.gz", load_signing_key(path))     # a map made earlier
    check = verify_files("map.json.gz", "map.json.gz.receipt.json", "signing.pub")
    check.ok, check.reason

A receipt is a small JSON object (docs/receipts.md):

    {"format": "agentplay-redact/receipt/v1",
     "map": {"contentHash": <the map's contentHash>, "sha256": <SHA-256 of the map's JSON bytes, gunzipped>},
     "policy": {"name": ..., "hash": ..., "keeps": [setting names] | null},  "pathMode": ...,
     "keyFingerprint": ... | null,
     "linkScope": "global" | "session" | "dataset:NAME" | null,   (how far the map's tokens link)
     "sourceDigest": "hmac-sha256:..."   (optional: the map's keyed digest of its raw log)
     "scanner": {"grammar": "pass", "secrets": "pass", "taint": "pass" | "skipped", "language": "pass"},
     "tool": {"name": "agentplay-redact", "version": ...},
     "signer": {"alg": "Ed25519", "keyId": <SHA-256 of the raw public key, 16 hex>},
     "signature": <hex of the Ed25519 signature over the canonical JSON of every other field>}

No timestamp: the same map, verdicts and key give a byte-identical receipt (Ed25519 is deterministic).
The signing itself happens in redact/keys/material.py; this module builds, checks and reads receipts.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from redact.model.canonical import canonical_json, content_hash
from redact.errors import BadInput, LeakFound, UsageError
from redact.io.read import display_name, parse_json, read_input
from redact.io.write import check_output_path, write_atomic
from redact.keys.material import (
    SIGNATURE_ALG,
    Key,
    SigningKey,
    VerifyKey,
    load_signing_key,
    load_verify_key,
    parse_verify_key,
)
from redact.model import grammar
from redact.model.grammar import SOURCE_DIGEST_RE
from redact.share.source_tie import map_digest, tied_source

FORMAT = "agentplay-redact/receipt/v1"
TOOL = "agentplay-redact"
PASS, SKIPPED = "pass", "skipped"
# What a report's `scanner` may hold (audit/scan.py): anything else in a report file is refused, so
# an error line can name the failed layers without echoing the file's text.
_LAYERS = frozenset({"grammar", "secrets", "taint", "language"})
_VERDICTS = frozenset({PASS, SKIPPED, "fail"})
_FIELDS = frozenset({"format", "map", "policy", "pathMode", "keyFingerprint", "scanner", "tool", "signer",
                     "signature"})
# Added with link scopes (issue 13); a receipt made before has no such field and still verifies.
# sourceDigest (issue 27): the map's keyed digest of the raw log it was made from, when it has one.
# sourceSha256: the unkeyed digest receipts held before; never written now, still verified.
_OPTIONAL_FIELDS = frozenset({"linkScope", "sourceDigest", "sourceSha256"})
_KEEP_RE = re.compile(r"(?:text|identifiers|verbs)\.[a-z_]{1,40}")


def tool_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(TOOL)
    except PackageNotFoundError:  # pragma: no cover - running from a tree that is not installed
        return "unknown"


def _check_verdicts(scanner: dict[str, str], where: str) -> dict[str, str]:
    if not scanner:
        raise UsageError("no scanner verdicts: a receipt is only given for a scanned map", where=where)
    bad = sorted(layer for layer, verdict in scanner.items() if verdict not in (PASS, SKIPPED))
    if bad:
        raise LeakFound(f"the scanner did not pass ({', '.join(bad)}); no receipt is given for this map",
                        where=where)
    return {str(layer): str(verdict) for layer, verdict in sorted(scanner.items())}


def make_receipt(map_bytes: bytes, *, content_hash: str, policy_name: str | None, policy_hash: str | None,
                 path_mode: str, key_fingerprint: str | None, scanner: dict[str, str],
                 signing_key: SigningKey, where: str = "<map>", link_scope: str | None = None,
                 source_digest: str | None = None, policy_keeps: list[str] | None = None) -> dict[str, Any]:
    """A signed receipt for the map whose serialized (gunzipped) bytes are `map_bytes`.

    Refuses (LeakFound) when a scanner layer did not pass or was not skipped.
    """
    if not grammar.CONTENT_HASH_RE.fullmatch(content_hash or ""):
        raise UsageError("the map has no valid contentHash", where=where)
    body: dict[str, Any] = {
        "format": FORMAT,
        "map": {"contentHash": content_hash, "sha256": hashlib.sha256(map_bytes).hexdigest()},
        "policy": {"name": policy_name or None, "hash": policy_hash or None},
        "pathMode": path_mode,
        "keyFingerprint": key_fingerprint or None,
        "linkScope": link_scope if grammar.is_link_scope(link_scope) else None,
        "scanner": _check_verdicts(scanner, where),
        "tool": {"name": TOOL, "version": tool_version()},
        "signer": {"alg": SIGNATURE_ALG, "keyId": signing_key.verify_key().key_id},
    }
    if policy_hash and _keeps(policy_keeps) is not None:  # what the named policy lets leave in clear
        body["policy"]["keeps"] = _keeps(policy_keeps)
    if source_digest is not None and SOURCE_DIGEST_RE.fullmatch(source_digest):
        body["sourceDigest"] = source_digest
    body["signature"] = signing_key.sign(canonical_json(body)).hex()
    return body


def _keeps(keeps: Any) -> list[str] | None:
    """What the policy keeps (`EffectivePolicy.keeps()`: setting names), when each is of its form."""
    if not isinstance(keeps, list) or not all(isinstance(k, str) and _KEEP_RE.fullmatch(k) for k in keeps):
        return None
    return sorted(keeps)


def receipt_bytes(receipt: dict[str, Any]) -> bytes:
    """How a receipt file is written: sorted keys, two-space indentation, a final newline."""
    return (json.dumps(receipt, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def write_receipt(result: Any, signing_key_path: str | Path | SigningKey, out_path: str | Path, *,
                  allow_unsafe_permissions: bool = False) -> dict[str, Any]:
    """Sign a receipt for an `api.Result` (what `redact_file`/`redact_bytes` return) into `out_path`.

    `signing_key_path` is the private key's file, or a `SigningKey` already loaded (load it before
    redacting, so a bad key fails before anything is written). Its verdicts are the ones the
    redaction's own scan recorded (with the taint layer, since the source was at hand). Returns the
    receipt. LeakFound if a layer failed; nothing is written then.
    """
    key = signing_key_path if isinstance(signing_key_path, SigningKey) else load_signing_key(
        Path(signing_key_path), allow_unsafe_permissions=allow_unsafe_permissions)
    report = result.report
    receipt = make_receipt(result.data, content_hash=report.content_hash, policy_name=report.policy_name,
                           policy_hash=report.policy_hash, path_mode=report.path_mode,
                           key_fingerprint=report.key_fingerprint, scanner=dict(report.scanner),
                           signing_key=key, where=report.source, link_scope=report.link_scope,
                           source_digest=report.source_digest, policy_keeps=report.policy_keeps)
    write_atomic(out_path, receipt_bytes(receipt))
    return receipt


def _report_facts(report_path: str | Path, map_hash: str) -> dict[str, Any]:
    where = display_name(report_path)
    report = parse_json(read_input(report_path), where)
    if not isinstance(report, dict) or not isinstance(report.get("scanner"), dict):
        raise BadInput("not a JSON audit report (make one with `redact --report R.json` or "
                       "`audit -f json`)", where=where)
    if report.get("contentHash") != map_hash:
        raise UsageError("this report is about another map (its contentHash differs)", where=where)
    raw_policy = report.get("policy")
    policy: dict[str, Any] = raw_policy if isinstance(raw_policy, dict) else {}
    name, digest, fingerprint = policy.get("name"), policy.get("hash"), report.get("keyFingerprint")
    scanner = report["scanner"]
    if not (_str_or_none(name, r"[A-Za-z0-9._-]{1,64}") and _str_or_none(digest, r"[0-9a-f]{64}")
            and _str_or_none(fingerprint, r"[0-9a-f]{16}")
            and (report.get("linkScope") is None or grammar.is_link_scope(report.get("linkScope")))
            and all(k in _LAYERS and v in _VERDICTS for k, v in scanner.items())):
        raise BadInput("the report's policy, key fingerprint, link scope or verdicts are not of their form",
                       where=where)
    source_sha = report.get("sourceSha256")
    return {"policy_name": name, "policy_hash": digest, "key_fingerprint": fingerprint, "scanner": scanner,
            "link_scope": report.get("linkScope"), "policy_keeps": _keeps(policy.get("keeps")),
            "source_sha256": source_sha if isinstance(source_sha, str) and _SHA256.fullmatch(source_sha) else None}


def _str_or_none(value: Any, pattern: str) -> bool:
    return value is None or (isinstance(value, str) and re.fullmatch(pattern, value) is not None)


def sign_map_file(map_path: str | Path, signing_key: SigningKey, *, report_json: str | Path | None = None,
                  source: str | Path | None = None, key: Key | None = None,
                  untied_source: bool = False) -> dict[str, Any]:
    """A receipt for a map file made earlier. The map is scanned again here (refused on findings);
    `report_json` (its JSON audit report) adds the policy, the key fingerprint and the verdicts of the
    redaction's own scan; `source` (the raw log) adds the taint layer to this scan, only when it is the
    map's own: its keyed `sourceDigest` under `key` (redact/share/source_tie.py). A map without one
    takes a source only with `untied_source`, and then its receipt records no taint pass."""
    from audit.scan import check_map_shape, scan_map

    where = display_name(map_path)
    data = read_input(map_path)
    doc = parse_json(data, where)
    check_map_shape(doc, where)
    computed = content_hash(doc)
    if doc.get("contentHash") != computed:
        raise BadInput("the map's contentHash is missing or does not match its content", where=where)
    facts: dict[str, Any] = {"policy_name": None, "policy_hash": None, "key_fingerprint": None,
                             "scanner": {}, "link_scope": None, "source_sha256": None, "policy_keeps": None}
    if report_json is not None:
        facts = _report_facts(report_json, computed)
    raw = None
    if source is not None:
        if map_digest(doc) is None and facts["source_sha256"] is not None:  # a map made before digests
            raw = check_source(source, facts["source_sha256"], display_name(report_json or ""))
        else:
            raw = tied_source(doc, source, key, where=where, untied=untied_source)
    fresh = scan_map(doc, source=raw)
    if not fresh.clean:
        raise LeakFound(f"the scanner found {len(fresh.findings)} problem(s) in this map; no receipt "
                        "is given (run `agentplay-redact scan` to see them)", where=where)
    verdicts = dict(fresh.verdicts)
    if raw is not None and map_digest(doc) is None and facts["source_sha256"] is None:
        verdicts["taint"] = SKIPPED  # a log nothing ties to the map proves nothing about it
    for layer, verdict in facts["scanner"].items():
        if verdict != PASS and verdict != SKIPPED:
            verdicts[str(layer)] = str(verdict)  # refused by make_receipt
        elif verdicts.get(layer) == SKIPPED and verdict == PASS:
            verdicts[str(layer)] = PASS  # it ran at redaction time, with the source at hand
    declared = doc["session"].get("pathMode") if isinstance(doc.get("session"), dict) else None
    mode = declared if isinstance(declared, str) and declared in grammar.PATH_MODES else "relative"
    return make_receipt(data, content_hash=computed, policy_name=facts["policy_name"],
                        policy_hash=facts["policy_hash"], path_mode=mode,
                        key_fingerprint=facts["key_fingerprint"], scanner=verdicts,
                        signing_key=signing_key, where=where, link_scope=facts["link_scope"],
                        source_digest=map_digest(doc), policy_keeps=facts["policy_keeps"])


def write_map_receipt(map_path: str | Path, signing_key: SigningKey, out_path: str | Path, **kwargs: Any
                      ) -> dict[str, Any]:
    check_output_path(out_path, [map_path] + [kwargs[k] for k in ("report_json", "source") if kwargs.get(k)])
    receipt = sign_map_file(map_path, signing_key, **kwargs)
    write_atomic(out_path, receipt_bytes(receipt))
    return receipt


# ---- verification ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Verification:
    ok: bool
    reason: str  # why it failed, or a one-line summary of what a valid receipt says
    receipt: dict[str, Any] | None = None


_SHA256 = re.compile(r"[0-9a-f]{64}")


def check_source(source: str | Path, expected: str | None, where: str) -> bytes:
    """The bytes of `--source`, refused (UsageError, exit 2) when the map's report names another log:
    its SHA-256 differs from the report's `sourceSha256`."""
    from redact.report import source_digest

    data = read_input(source)
    if expected is not None and source_digest(data) != expected:
        raise UsageError("this is not the raw log the map was made from (its SHA-256 differs from the "
                         f"sourceSha256 in {where}); give the map's own source", where=display_name(source))
    return data


def _bad(reason: str, receipt: dict[str, Any] | None = None) -> Verification:
    return Verification(False, reason, receipt)


def _shape_ok(receipt: dict[str, Any]) -> bool:
    m, p, t, s = (receipt.get(k) for k in ("map", "policy", "tool", "signer"))
    scope = receipt.get("linkScope")
    source_sha = receipt.get("sourceSha256")
    digest = receipt.get("sourceDigest")
    keeps = p.get("keeps") if isinstance(p, dict) else None
    return ((digest is None or (isinstance(digest, str) and bool(SOURCE_DIGEST_RE.fullmatch(digest))))
            and (keeps is None or (isinstance(keeps, list) and all(isinstance(k, str) for k in keeps)))
            and (source_sha is None or (isinstance(source_sha, str) and bool(_SHA256.fullmatch(source_sha))))
            and _FIELDS <= set(receipt) <= _FIELDS | _OPTIONAL_FIELDS and isinstance(m, dict)
            and (scope is None or grammar.is_link_scope(scope)) and set(m) == {"contentHash", "sha256"}
            and all(isinstance(v, str) for v in m.values())
            and isinstance(p, dict) and set(p) in ({"name", "hash"}, {"name", "hash", "keeps"})
            and isinstance(t, dict)
            and isinstance(s, dict) and set(s) == {"alg", "keyId"} and isinstance(receipt["signature"], str)
            and isinstance(receipt["pathMode"], str) and isinstance(receipt["scanner"], dict)
            and all(isinstance(v, str) for v in receipt["scanner"].values()))


def verify_receipt(map_bytes: bytes, receipt: Any, verify_key: VerifyKey) -> Verification:
    """Check `receipt` (parsed JSON) against the map's gunzipped bytes and a trusted public key.

    Valid only when the signature over every field is good, it was made by `verify_key`, the map's
    bytes are the signed ones, its contentHash is the signed one and matches its content, and no
    scanner layer recorded anything but pass or skipped. BadInput when `receipt` is not a receipt.
    """
    if not isinstance(receipt, dict) or receipt.get("format") != FORMAT:
        raise BadInput(f"not a receipt (`format` is not {FORMAT})")
    if not _shape_ok(receipt):
        return _bad("the receipt is malformed (fields missing, extra or of the wrong type)")
    signer = receipt["signer"]
    if signer["alg"] != SIGNATURE_ALG:
        return _bad("the receipt is not signed with Ed25519")
    if signer["keyId"] != verify_key.key_id:
        return _bad(f"signed by another key (key id {_hex(signer['keyId'])}; the given public key is "
                    f"{verify_key.key_id})")
    try:
        signature = bytes.fromhex(receipt["signature"])
    except ValueError:
        return _bad("the signature is not hex")
    body = {k: v for k, v in receipt.items() if k != "signature"}
    try:
        message = canonical_json(body)
    except (TypeError, ValueError):
        return _bad("the receipt holds a value canonical JSON refuses")
    if not verify_key.verify(message, signature):
        return _bad("bad signature: the receipt was changed or not signed by this key")
    # From here on the receipt's content is what the key holder signed.
    if hashlib.sha256(map_bytes).hexdigest() != receipt["map"]["sha256"]:
        return _bad("the map is not the one signed (its bytes differ)", receipt)
    try:
        doc = json.loads(map_bytes)
        computed = content_hash(doc)
    except (ValueError, TypeError, AttributeError):  # pragma: no cover - the bytes were signed
        return _bad("the map cannot be read", receipt)
    if not (computed == doc.get("contentHash") == receipt["map"]["contentHash"]):
        return _bad("the map's contentHash does not match its content", receipt)
    verdicts = receipt["scanner"]
    bad = sorted(layer for layer, v in verdicts.items() if v not in (PASS, SKIPPED))
    if bad or not verdicts:
        return _bad("the receipt does not record a passing scan" + (f" ({', '.join(bad)})" if bad else ""),
                    receipt)
    return Verification(True, summary(receipt), receipt)


def _hex(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 64 and all(c in "0123456789abcdef" for c in text) else "(unreadable)"


def summary(receipt: dict[str, Any]) -> str:
    policy = receipt["policy"]
    verdicts = ", ".join(f"{layer} {v}" for layer, v in receipt["scanner"].items())
    scope = receipt.get("linkScope")
    return (f"contentHash {receipt['map']['contentHash'][:16]}, {receipt['pathMode']} paths, "
            + (f"tokens link {scope}, " if scope else "") +
            f"policy {policy['name'] or 'not recorded'}"
            + (f" keeping {', '.join(policy['keeps'])}" if policy.get("keeps") else "")
            + (", tied to its source by its sourceDigest" if receipt.get("sourceDigest") else "")
            + f", scanner: {verdicts}; signed by key {receipt['signer']['keyId']}")


def verify_key_of(pubkey: str | Path) -> VerifyKey:
    """The public key `pubkey` names: the 64 hex characters of its raw bytes (unless a file of that
    name exists), or a file holding its PEM or that hex."""
    text = str(pubkey)
    if re.fullmatch(r"[0-9a-fA-F]{64}", text) and not Path(text).exists():
        return parse_verify_key(text.encode("ascii"), source="--pubkey")
    return load_verify_key(Path(pubkey))


def verify_files(map_path: str | Path, receipt_path: str | Path, pubkey_path: str | Path) -> Verification:
    """`verify_receipt` on files; BadInput / KeyError_ (exit 2) when one cannot be read. `pubkey_path`
    may also be the public key's 64 hex characters."""
    key = verify_key_of(pubkey_path)
    map_bytes = read_input(map_path)
    where = display_name(receipt_path)
    try:
        receipt = json.loads(read_input(receipt_path, limit=1 << 20))
    except (ValueError, UnicodeDecodeError):
        raise BadInput("not a receipt (not JSON)", where=where) from None
    try:
        return verify_receipt(map_bytes, receipt, key)
    except BadInput as exc:
        raise BadInput(exc.what, where=where) from None
