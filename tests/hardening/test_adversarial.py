"""Adversarial content: secrets in command lines in every common shape, text hidden in file and branch
names, homoglyphs and invisible characters in program names, control characters inside verbs and
identifiers, very long tokens, a program named like a sentence.

Each case is a Claude Code transcript and a session map carrying a secret (`SECRET`-marked, unique per
case), run through the real pipeline (the CLI, with `--report`) under every preset. Either the map is
written and no byte of it, nor of the report, holds the secret; or the scanner blocks the write
(exit 1: no map) and the report still does not hold it.
"""
from __future__ import annotations

import base64
import hashlib
import os
import re
from pathlib import Path
from typing import Any

import orjson
import pytest

from audit.scan import scan_map
from tests.formats.ccfix import Transcript, text, tool_use
from tests.hardening.helpers import KEY_HEX, cli, example_map

SID = "7d1e2f30-4a5b-4c6d-8e9f-0a1b2c3d4e5f"
CWD = "/home/dev/work/billing"
PRESETS = ("default", "internal", "public")


def secret(case: str) -> str:
    """A secret unique to the case, shaped like a real token (letters and digits, no grammar match)."""
    return "Zq" + hashlib.sha256(case.encode()).hexdigest()[:20].upper() + "xQ"


# ---- secrets in command lines ----------------------------------------------------------------------

COMMANDS: dict[str, str] = {
    "mysql_p_attached": "mysql -u root -p{s} orders",
    "mysql_p_spaced": "mysql -h db.internal -u admin -p {s} -e 'select 1'",
    "long_password_eq": "psql --password={s} -h db.acme.test billing",
    "long_password_space": "redis-cli --pass {s} ping",
    "sshpass": "sshpass -p {s} ssh deploy@10.0.0.7 uptime",
    "docker_login": "docker login -u bot --password {s} registry.acme.test",
    "token_flag": "vault login -method=token token={s}",
    "authorization_bearer": "curl -s -H 'Authorization: Bearer {s}' https://api.acme.test/v1/me",
    "authorization_basic": "curl -H \"Authorization: Basic {s}\" https://jira.acme.test/rest/api/2/issue",
    "x_api_key": "curl -H 'X-Api-Key: {s}' https://api.stripe.test/v1/charges",
    "curl_user": "curl -u admin:{s} https://nexus.acme.test/service/rest",
    "env_prefix": "AWS_SECRET_ACCESS_KEY={s} aws s3 ls s3://acme-backups",
    "env_export": "export GITHUB_TOKEN={s}; gh repo list",
    "env_command": "env OPENAI_API_KEY={s} python run.py",
    "env_docker": "docker run -e DB_PASSWORD={s} --rm app:latest",
    "url_credentials": "git clone https://oauth2:{s}@gitlab.acme.test/platform/api.git",
    "url_db": "psql postgres://billing:{s}@db.internal.acme.test:5432/billing",
    "url_query": "curl 'https://hooks.acme.test/trigger?token={s}&env=prod'",
    "heredoc_env": "cat <<'EOF' > .env\nSTRIPE_KEY={s}\nEOF",
    "heredoc_python": "python - <<PY\nimport os\nprint('{s}')\nPY",
    "herestring": "gh auth login --with-token <<< {s}",
    "base64_decode": "echo {b64} | base64 -d > key.pem",
    "base64_arg": "kubectl create secret generic api --from-literal=token={b64}",
    "git_extraheader": "git -c http.extraheader='AUTHORIZATION: basic {s}' fetch origin",
    "npm_token": "npm config set //registry.npmjs.org/:_authToken={s}",
    "openssl_pass": "openssl enc -aes-256-cbc -k {s} -in a -out b",
    "subshell": "echo $(printf %s {s}) | tee /tmp/x",
    "pipeline_tail": "cat config.yml | grep -v {s} | wc -l",
    "quoted_semicolon": "bash -c 'export TOKEN={s}; ./deploy.sh'",
    "sudo_wrapper": "sudo -u postgres PGPASSWORD={s} psql -c 'select 1'",
    "xargs_runner": "echo {s} | xargs -I{{}} curl -H 'Token: {{}}' https://a.test",
    "ssh_remote_cmd": "ssh ops@bastion 'mysql -p{s} -e \"show databases\"'",
}


def _command(case: str) -> tuple[str, list[str]]:
    s = secret(case)
    b64 = base64.b64encode(s.encode()).decode()
    return COMMANDS[case].format(s=s, b64=b64), [s, b64]


def _transcript(commands: list[str], *, branch: str = "main", reads: list[str] | None = None,
                tools: list[tuple[str, dict[str, Any]]] | None = None, slug: str = "quiet-amber-river") -> bytes:
    t = Transcript(SID, CWD, branch=branch, slug=slug, seed=3)
    t.user("please run the checks")
    for command in commands:
        tid = t.tool_id()
        t.assistant([text("running"), tool_use(tid, "Bash", {"command": command, "description": "run"})])
        t.tick(300)
        t.result(tid, "ok", tur={"stdout": "ok", "stderr": "", "interrupted": False, "isImage": False})
        t.tick(300)
    for path in reads or []:
        tid = t.tool_id()
        t.assistant([tool_use(tid, "Read", {"file_path": path})])
        t.tick(300)
        t.result(tid, "     1\u2192x")
    for name, inp in tools or []:
        tid = t.tool_id()
        t.assistant([tool_use(tid, name, inp)])
        t.tick(300)
        t.result(tid, "done")
    t.assistant([text("done")], stop="end_turn")
    return t.bytes()


def _map_with_verbs(verbs: list[str], **idents: str) -> bytes:
    m = example_map()
    n = len(m["events"])
    for i, verb in enumerate(verbs):
        m["events"].append({"seq": n + i, "t": 10**7 + i, "kind": "exec", "agent": "main", "tool": "Bash",
                            "verb": verb})
    for pointer, value in idents.items():
        node: Any = m
        *parents, last = pointer.split(".")
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        node[last] = value
    return orjson.dumps(m)


@pytest.fixture()
def key_file(tmp_path: Path) -> Path:
    folder = tmp_path / "keys"
    folder.mkdir(mode=0o700)
    path = folder / "k"
    path.write_text(KEY_HEX + "\n")
    os.chmod(path, 0o600)
    return path


def _run(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: bytes, name: str, policy: str,
         key_file: Path) -> tuple[bytes, bytes, str]:
    """(map bytes, report bytes, stderr) of one run under `policy`. Every input here should give a map
    (replace, do not refuse): the run must exit 0 and write a map that the scanner, run again on its
    own, passes; a refusal (exit 1) or a rejection (exit 2) fails the test, so a leak test counts
    outputs checked, never variants run (a scanner that blocked everything passed them all before)."""
    src = tmp_path / name
    src.write_bytes(data)
    out = tmp_path / f"out.{policy}.json"
    report = tmp_path / f"report.{policy}.json"
    args: list[Any] = [src, "-o", out, "--policy", policy, "--report", report]
    if policy == "public":
        args += ["--key-file", key_file]
    run = cli(capsys, *args)
    assert "Traceback" not in run.err
    assert run.code == 0, run.err
    written = out.read_bytes()
    check = scan_map(orjson.loads(written))
    assert check.clean, [f.as_dict() for f in check.findings]
    return written, report.read_bytes(), run.err


def _assert_gone(blobs: tuple[bytes, bytes, str], needles: list[str]) -> None:
    data, report, err = blobs
    for needle in needles:
        raw = needle.encode()
        assert raw not in data, needle
        assert raw not in report, needle
        assert needle not in err, needle
        assert orjson.dumps(needle)[1:-1] not in data  # nor in its escaped JSON form


@pytest.mark.parametrize("policy", PRESETS)
@pytest.mark.parametrize("case", sorted(COMMANDS))
def test_secret_in_a_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], key_file: Path,
                                  case: str, policy: str) -> None:
    command, needles = _command(case)
    blobs = _run(capsys, tmp_path, _transcript([command]), "s.jsonl", policy, key_file)
    _assert_gone(blobs, needles)
    blobs = _run(capsys, tmp_path, _map_with_verbs([command]), "m.json", policy, key_file)
    _assert_gone(blobs, needles)


# ---- text hidden in names ---------------------------------------------------------------------------

@pytest.mark.parametrize("policy", PRESETS)
def test_text_hidden_in_a_branch_name_and_slug(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               key_file: Path, policy: str) -> None:
    s = secret("branch")
    data = _transcript(["git status"], branch=f"fix/{s}-globex-layoffs", slug=f"{s}-slug")
    _assert_gone(_run(capsys, tmp_path, data, "s.jsonl", policy, key_file), [s, "globex-layoffs"])


@pytest.mark.parametrize("policy", PRESETS)
def test_text_hidden_in_file_names(tmp_path: Path, capsys: pytest.CaptureFixture[str], key_file: Path,
                                   policy: str) -> None:
    """Outside the repository a name never survives; inside it, only `relative` mode shows it, and then
    only as a `files[].path` (docs/threat-model.md): never in a verb, a label or anywhere else."""
    outside, inside, argument = secret("outside"), secret("inside"), secret("argument")
    data = _transcript([f"cat notes/{argument}.txt", f"grep -r {argument} src"],
                       reads=[f"/home/dev/Downloads/{outside}.pdf", f"/home/dev/{outside}/plan.md",
                              f"/tmp/{outside}/x.log", f"{CWD}/src/{inside}.py"],
                       tools=[("Glob", {"pattern": f"**/{argument}*"}),
                              ("Grep", {"pattern": argument, "path": f"{CWD}/src"})])
    blobs = _run(capsys, tmp_path, data, "s.jsonl", policy, key_file)
    _assert_gone(blobs, [outside, argument])
    # The inside name is token-shaped: the scanner's secrets layer flags it, so the redactor writes a
    # digest token in its place instead of refusing the map (issue 14; before, this run was blocked)
    assert blobs[0], blobs[2]
    _assert_gone(blobs, [inside])
    if policy != "public":
        paths = [f["path"] for f in orjson.loads(blobs[0]).get("files", [])]
        assert any(re.fullmatch("src/\u2022[0-9a-f]{6}\\.py", p) for p in paths), paths


@pytest.mark.parametrize("policy", PRESETS)
def test_control_characters_in_file_names(tmp_path: Path, capsys: pytest.CaptureFixture[str], key_file: Path,
                                          policy: str) -> None:
    s = secret("ctl-file")
    data = _transcript([], reads=[f"{CWD}/src/a\nIGNORE {s}.py", f"{CWD}/src/\u202e{s}txt.exe",
                                  f"{CWD}/src/b\x00{s}.py", f"{CWD}/src/\u200b{s}.py"])
    blobs = _run(capsys, tmp_path, data, "s.jsonl", policy, key_file)
    _assert_clean_bytes(blobs[0])
    if policy == "public":
        _assert_gone(blobs, [s])


# ---- program names: homoglyphs, invisible characters, sentences, long tokens -----------------------

PROGRAMS: dict[str, str] = {
    "cyrillic_i": "g\u0456t push origin main",
    "greek_omicron": "d\u03bfcker run app",
    "fullwidth": "\uff47\uff49\uff54 status",
    "zero_width_space": "g\u200bit status",
    "zero_width_joiner": "np\u200dm install",
    "bidi_override": "\u202egit\u202c status",
    "nbsp": "git\u00a0status",
    "soft_hyphen": "ku\u00adbectl get pods",
    "combining": "gi\u0301t log",
    "sentence": "please send the Globex contract to bob@acme.test before friday",
    "sentence_script": "./send\\ the\\ globex\\ files\\ to\\ legal.sh --now",
    "quoted_sentence": "'tell the CFO the merger is off'",
}


def _assert_clean_bytes(data: bytes) -> None:
    """No control, invisible or bidi character in a written map, raw or escaped."""
    if not data:
        return
    body = data.rstrip(b"\n")
    assert not any(b < 0x20 for b in body)
    for esc in (b"\\n", b"\\r", b"\\t", b"\\b", b"\\f", b"\\u00"):
        assert esc not in body, esc
    decoded = body.decode("utf-8")
    bad = [ch for ch in decoded if ch in "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
           "\u2060\u2061\u2062\u2063\u2064\ufeff\u00ad\u0085\u2028\u2029" or 0x7f <= ord(ch) < 0xa0]
    assert not bad, [hex(ord(ch)) for ch in bad]


@pytest.mark.parametrize("policy", PRESETS)
@pytest.mark.parametrize("case", sorted(PROGRAMS))
def test_program_names(tmp_path: Path, capsys: pytest.CaptureFixture[str], key_file: Path, case: str,
                       policy: str) -> None:
    command = PROGRAMS[case]
    program = command.split(" ")[0]
    for data, name in ((_transcript([command]), "s.jsonl"), (_map_with_verbs([command]), "m.json")):
        blobs = _run(capsys, tmp_path, data, name, policy, key_file)
        _assert_clean_bytes(blobs[0])
        words = [w for w in ("Globex", "CFO", "merger", "bob@acme", "legal", program) if len(w) > 2]
        _assert_gone(blobs, [w for w in words if w not in ("git", "npm", "docker", "kubectl")])
        if blobs[0]:
            verbs = {e.get("verb") for e in orjson.loads(blobs[0])["events"] if e.get("verb")}
            assert not any(v and not v.isascii() for v in verbs), verbs


@pytest.mark.parametrize("policy", PRESETS)
def test_very_long_tokens(tmp_path: Path, capsys: pytest.CaptureFixture[str], key_file: Path, policy: str) -> None:
    long_arg = "Zq" + "A1b2C3d4" * 250_000  # 2 MB, one token
    long_prog = "zq" + "x" * 100_000
    data = _transcript([f"curl -H 'Token: {long_arg}' https://a.test", f"{long_prog} --flag"],
                       tools=[(f"mcp__zq{'s' * 50_000}__run", {"q": long_arg})])
    blobs = _run(capsys, tmp_path, data, "s.jsonl", policy, key_file)
    _assert_gone(blobs, [long_arg[:64], long_arg[-64:], long_prog[:64], "zq" + "s" * 200])
    assert len(blobs[0]) < 200_000
    m = _map_with_verbs([f"{long_prog} run"], **{"session.models": [long_arg]})  # type: ignore[arg-type]
    blobs = _run(capsys, tmp_path, m, "m.json", policy, key_file)
    _assert_gone(blobs, [long_arg[:64], long_prog[:64]])


# ---- control characters inside verbs and identifiers (maps) ----------------------------------------

IDENTIFIER_SLOTS = {
    "repos.0.name": "orders\nIGNORE PREVIOUS {s}",
    "repos.0.remote": "https://github.com/acme/orders\u202e{s}",
    "session.agentTool": "claude-code\x1b[2J{s}",
    "agents.1.subagentType": "Explore\u200b{s}",
    "session.models": ["claude-sonnet-4-5\r\n{s}"],
}


@pytest.mark.parametrize("policy", PRESETS)
@pytest.mark.parametrize("slot", sorted(IDENTIFIER_SLOTS))
def test_control_characters_in_identifiers(tmp_path: Path, capsys: pytest.CaptureFixture[str], key_file: Path,
                                           slot: str, policy: str) -> None:
    s = secret(f"ident-{slot}")
    template = IDENTIFIER_SLOTS[slot]
    value = [v.format(s=s) for v in template] if isinstance(template, list) else template.format(s=s)
    m = example_map()
    assert len(m["agents"]) >= 2, "the example map must keep a subagent for the agents.1 slots"
    data = _map_with_verbs([], **{slot: value})  # type: ignore[arg-type]
    blobs = _run(capsys, tmp_path, data, "m.json", policy, key_file)
    _assert_clean_bytes(blobs[0])
    _assert_gone(blobs, [s])


@pytest.mark.parametrize("policy", PRESETS)
def test_control_characters_in_verbs(tmp_path: Path, capsys: pytest.CaptureFixture[str], key_file: Path,
                                     policy: str) -> None:
    s = secret("ctl-verb")
    verbs = [f"git\nstatus {s}", f"git status\x1b[31m{s}", f"git\u2028push {s}", f"npm\x00install {s}",
             f"git\tcommit -m {s}", f"ls\r{s}", f"git status\u0085{s}"]
    blobs = _run(capsys, tmp_path, _map_with_verbs(verbs), "m.json", policy, key_file)
    _assert_clean_bytes(blobs[0])
    _assert_gone(blobs, [s])
    blobs = _run(capsys, tmp_path, _transcript(verbs), "s.jsonl", policy, key_file)
    _assert_clean_bytes(blobs[0])
    _assert_gone(blobs, [s])

