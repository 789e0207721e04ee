"""Rule fixes of the secrets layer that hold on reasons (issue 29): each shape below is no
credential, and the credential next to it still is. These run through `find_secrets`, what the
leak scanner asks, so they also pin that the scanner still flags the real ones."""
from __future__ import annotations

import pytest

from redact.contract.secrets import find_secrets, secret_spans

VALUE = "Zq8vR2kLm9Tx4Wc"  # a random-looking value, made up here


def rules(text: str) -> list[str]:
    return [hit.rule for hit in find_secrets([text])]


@pytest.mark.parametrize("quiet, loud", [
    # a flag's value is not the next flag
    ("ansible all --ask-become-pass --module-name ping", f"ansible all --become-pass {VALUE} -m ping"),
    ("age --passphrase --output out.age in.txt", f"tool --passphrase {VALUE} in.txt"),
    # a flag that names something about the secret takes no secret
    ("docker login --username AWS --password-stdin registry.example.com",
     f"docker login --username AWS --password {VALUE}"),
    # a call counts as an assignment only with a quoted argument
    ("def validate_password(password: str) -> str:", f'set_password("{VALUE}")'),
    ("pool.token_a_amount.checked_add(amount_in_with_fee)", f"client.token('{VALUE}')"),
    # the verb `pass` before Markdown code is no keyword
    ("use `flash_attn(...)` and pass `dtype=torch.float16` to it", f"pass = '{VALUE}'"),
    # a key that says public names no secret
    ("Version=2.1.41.0, Culture=neutral, PublicKeyToken=2f4a9c7e1b3d5f60", f"PrivateKeyToken={VALUE}9a"),
    # an UPPER_SNAKE name is a constant, not a value
    ("ssh.connect(VM_IP, username=VM_USER, password=VM_PASSWORD, timeout=15)",
     f"ssh.connect(VM_IP, username=VM_USER, password={VALUE}, timeout=15)"),
    # words joined where a value goes (help pages, examples), and a sample value in letters as digits
    ("systemd-cryptenroll --recovery-key luks2_block_device", f"systemd-cryptenroll --recovery-key {VALUE}"),
    ("argocd login --username alice --password s3cret", f"argocd login --username alice --password {VALUE}"),
    ("img2pdf --user2 alice2 --password2 s3cret2", f"img2pdf --user2 alice2 --password2 {VALUE}"),
    ("Story key: `2-3-multi-file-media-upload`", f"Story key: `{VALUE}`"),
    # a name closing a call is code
    ("client.addHeader(Bearer(token = inferenceKey)).url(url)", f"client.addHeader(Bearer(token = {VALUE}))"),
    # an address, and a URL naming where a key lives
    ("ldapdomaindump --password 192.168.1.10", f"ldapdomaindump --password {VALUE}"),
    ("cosign sign --key k8s://namespace/key ubuntu:22.04", f"cosign sign --key {VALUE}x ubuntu:22.04"),
])
def test_quiet_shape_and_its_loud_twin(quiet: str, loud: str) -> None:
    # the map's scanner may still call a long opaque run in it opaque (a map holds none); no rule
    # calls it a credential, and at rest (the sweep) nothing does
    assert [r for r in rules(quiet) if not r.startswith("high-entropy")] == [], quiet
    assert secret_spans(quiet, at_rest=True) == [], quiet
    assert rules(loud), loud
    assert secret_spans(loud, at_rest=True), loud


def test_the_letter_of_an_escape_is_not_part_of_the_token_after_it() -> None:
    # `\n` then a 16-hex digest: the digest alone is exempt; glued to the `n` it looked random
    text = "build\\na445302c6d3dcb51-unicode_fold1_key.o\\na445302c6d3dcb51-unicode.o"
    assert rules(text) == []
    token = "n7R2kq9ZvB4xWm1TcL8pYs3Hd6Fg"
    assert rules(f"out\\n{token}") == ["high-entropy-base64"]
