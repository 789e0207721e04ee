"""What a kept path may not show, replaced segment by segment (DESIGN.md section 3: replace, do not
refuse).

After the path mode is applied, a segment still shown as written (every segment under `relative`,
the directories under `dirs_only`) that holds an e-mail address in any spelling
(`redact/contract/emails.py`: `name%40example.com`, full-width `＠`, `name(at)host(dot)com`, ...) becomes
`•` + the first 6 hex of SHA-256 of the segment, the form `dirs_only` gives a file name. The scanner
checks the output with the same detector, independently.
"""
from __future__ import annotations

from redact.contract.emails import has_email
from redact.keys import sha256_hex


def without_emails(path: str) -> str:
    """`path` (a mode's output: segments joined by `/`, or a bucket label) with every segment that
    holds an e-mail address replaced by its digest token."""
    if not has_email(path):
        return path
    return "/".join("\u2022" + sha256_hex(seg.encode("utf-8", "surrogatepass"))[:6] if has_email(seg) else seg
                    for seg in path.split("/"))
