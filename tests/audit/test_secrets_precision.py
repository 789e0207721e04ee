"""Rule fixes of the secrets layer that hold on reasons (issue 29): each shape below is no
credential, and the credential next to it still is. These run through `find_secrets`, what the
leak scanner asks, so they also pin that the scanner still flags the real ones."""
from __future__ import annotations

import base64
import json

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


# Found on the real corpus by the sweep (issue 28) and judged by their context: each quiet shape
# below is what an example or a test writes, and its loud twin, the same place holding a
# credential, is still found by the map's scanner and at rest.
@pytest.mark.parametrize("quiet, loud", [
    # a test's sample password: the word `password` with the fixture's words and a policy's tail
    ('password: "Password123!",', f'password: "{VALUE}!",'),
    ('"password": "securepassword123",', f'"password": "secure{VALUE}",'),
    ('TEST_PASSWORD = "testpassword123"  # used only in the test suite', f'TEST_PASSWORD = "test{VALUE}"'),
    # an instruction written where the value goes
    ("SECRET_KEY=CHANGE_THIS_TO_A_SECURE_32_CHAR_SECRET_KEY", f"SECRET_KEY={VALUE}Yb7Qe2"),
    # a PEM block whose body is a placeholder, in an example `.env`
    ('FIREBASE_PRIVATE_KEY="-----BEGIN PRIVATE KEY-----\\nyour-private-key\\n-----END PRIVATE KEY-----\\n"',
     'FIREBASE_PRIVATE_KEY="-----BEGIN PRIVATE KEY-----\\nMC4CAQAwBQYDK2VwBCIEI' + VALUE * 3
     + '\\n-----END PRIVATE KEY-----\\n"'),
    ("-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
     "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA" + VALUE + "...\n-----END RSA PRIVATE KEY-----"),
    # the Sentry protocol's key in a DSN's report URL is the DSN's public half
    ("https://app.glitchtip.com/api/20760/security/?glitchtip_key=9f2c4e6a8b1d3f5e7a9c0b2d4f6e8a1c",
     "https://app.example.com/api/20760/security/?api_key=9f2c4e6a8b1d3f5e7a9c0b2d4f6e8a1c"),
])
def test_quiet_example_and_its_loud_twin(quiet: str, loud: str) -> None:
    # as above, the map's scanner may still call a long random run opaque (the report URL's)
    assert [r for r in rules(quiet) if not r.startswith("high-entropy")] == [], quiet
    assert secret_spans(quiet, at_rest=True) == [], quiet
    assert rules(loud), loud
    assert secret_spans(loud, at_rest=True), loud


def _jwt(payload: dict[str, object]) -> str:
    def part(obj: dict[str, object]) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")

    return part({"alg": "HS256", "typ": "JWT"}) + "." + part(payload) + ".Xk3vQ9pL2mN8rT5wY7zA1bC4dE6fG0hJ2kL4mN6p"


def test_a_published_key_is_quiet_at_rest_and_still_kept_out_of_a_map() -> None:
    # Supabase's anon key ships to every browser; its service_role key is a secret. At rest the
    # anon key is no finding; a map, which holds no opaque token at all, still may not keep it.
    claims = {"iss": "supabase", "ref": "pgbefqzlrvjnsymigfmv", "iat": 1700000000, "exp": 2000000000}
    anon = "VITE_SUPABASE_ANON_KEY=" + _jwt({**claims, "role": "anon"})
    service = "SUPABASE_SERVICE_ROLE_KEY=" + _jwt({**claims, "role": "service_role"})
    assert secret_spans(anon, at_rest=True) == []
    assert rules(anon) == ["jwt"]
    assert [rule for _, _, rule in secret_spans(service, at_rest=True)] == ["jwt"]
    # a Web Push public key named as such is no finding at rest; the private one next to it is
    public = "VAPID_PUBLIC_KEY: BKx7Qm2pL9vR4tY8wZ3aC6dF1gH5jK0nM7qS2uV9xB4eG8iL3oP6rT1wY5zA8cD2fH6jK0mN4q"
    private = "VAPID_PRIVATE_KEY: hQ3vZ8kT1mR6wY2pL9xB4nC7dF0gJ5sV8aE3uK6iO1yW"
    assert secret_spans(public, at_rest=True) == []
    assert secret_spans(private, at_rest=True)
    assert rules(public)  # the map's scanner keeps its defence: no long random token in a map


@pytest.mark.parametrize("quiet, loud", [
    # a random run inside a longer word that holds a character no token alphabet holds is a
    # fragment of that word (trufflehog's near misses insert one), not a token
    ("viewneo = 'c?Z32f1UDFCqsSP6uUlFyPLrXnGhgunvxc3jRsTO1mygukFtXxmk3sV0Q4PiGW8Ts'",
     "viewneo = 'cZ32f1UDFCqsSP6uUlFyPLrXnGhgunvxc3jRsTO1mygukFtXxmk3sV0Q4PiGW8Ts'"),
    ("paperform = 'NvBbE5vYVPhidc.tiZ7E6DvP~z4bAQj29KEZOCv_XEl1pIn'",
     "paperform = 'NvBbE5vYVPhidc.tiZ7E6DvP.z4bAQj29KEZOCv_XEl1pIn'"),
    # a URL's query or fragment parameter starts a value of its own
    ("https://example.com/cb#x.Zq8vR2kLm9Tx4WcYb7Qe2Np5k", "https://example.com/cb#x=1.Zq8vR2kLm9Tx4WcYb7Qe2Np5k"),
    # a word ends at the punctuation that separates values: the token before `,$` is whole
    ("see c?Zq8vR2kLm9Tx4WcYb7Qe2Np5k,", "see Zq8vR2kLm9Tx4WcYb7Qe2Np5k,$"),
])
def test_a_run_in_a_word_with_a_foreign_character_is_no_token(quiet: str, loud: str) -> None:
    assert rules(quiet) == [], quiet
    assert rules(loud), loud


def test_a_token_before_the_next_url_parameter_is_found() -> None:
    # an OAuth redirect's fragment: the bare value ran on into `&token_type=bearer` and, judged
    # whole, read as no token; the token alone is one (a value that passes whole stays whole)
    token = "Zq8vR2kLm9Tx4WcYb7Qe2Np5"
    url = f"https://app.example.com/cb#access_token={token}&token_type=bearer&expires_in=3600"
    for spans in (secret_spans(url), secret_spans(url, at_rest=True)):
        assert [url[start:end] for start, end, _ in spans] == [token]
    assert [rule for _, _, rule in secret_spans(f"password={token}&x=1")] == ["password-assignment"]
    assert secret_spans("https://example.com/search?api_key_name=primary&page=2") == []


def test_a_shell_default_is_the_value_and_the_line_after_it_is_not() -> None:
    # a compose file's `${MONGO_PASSWORD:-...}`: the default is the password (the same value as
    # `MONGO_PASSWORD=...` elsewhere, so it gets the same fingerprint), not `...}@mongodb:27017`
    value = "kT4wq_dev_2024x"
    text = f"      - MONGODB_URL=mongodb://app:${{MONGO_PASSWORD:-{value}}}@mongodb:27017/app"
    for spans in (secret_spans(text), secret_spans(text, at_rest=True)):
        assert [text[start:end] for start, end, _ in spans] == [value]
    assert secret_spans("DB_PASSWORD=${DB_PASSWORD:-$(cat /run/secrets/db)}") == []
