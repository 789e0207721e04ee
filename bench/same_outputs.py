"""Digest every output a performance change must keep byte-identical.

Redacts every file of ../shared/corpus/claude-code and ../shared/corpus/codex, and the generated
20,000-event map (bench/gen_map.py), under `default` and `public` with a fixed key, and prints one
line per (input, policy): the SHA-256 of the map bytes, or the error's class when it refuses.
Run it before and after a change and diff the two lists:

    PYTHONPATH=$PWD python bench/same_outputs.py > /tmp/before.txt

`--all-formats` digests instead every file of every corpus folder (each format: the map under
`default` and `public`, and `--to native` under `default` where the format offers it) and the
sessions tests/formats/table_inputs.py generates for each format, the map and its report both (a
reader change must keep the counts of what it skipped, too):

    PYTHONPATH=$PWD python bench/same_outputs.py --all-formats > /tmp/before.txt
"""
from __future__ import annotations

import hashlib
import sys
import tempfile
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_map import generate_map  # noqa: E402

from redact.api import redact_bytes, redact_file  # noqa: E402
from redact.keys.material import Key  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
POLICIES = ("default", "public")


def _digest(run: object) -> str:
    try:
        result = run()  # type: ignore[operator]
    except Exception as exc:  # noqa: BLE001 - a refusal is an outcome to compare too
        return f"error {type(exc).__name__}"
    return hashlib.sha256(result.data).hexdigest()


def _digest_all(run: object) -> str:
    try:
        result = run()  # type: ignore[operator]
    except Exception as exc:  # noqa: BLE001 - a refusal is an outcome to compare too
        return f"error {type(exc).__name__}"
    kept = {k: v for k, v in result.report.as_dict().items() if k not in ("scanner", "source")}
    report = orjson.dumps(kept, option=orjson.OPT_SORT_KEYS)  # the scanner's timings vary
    return hashlib.sha256(result.data + b"\0" + report).hexdigest()


def all_formats() -> None:
    from redact.api_native import scrub_file
    from tests.formats.table_inputs import GENERATED

    key = Key(bytes(range(32)), source="bench")
    for path in sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "README.md"):
        where = path.relative_to(CORPUS)
        for policy in POLICIES:
            print(f"{where} {policy} {_digest_all(lambda: redact_file(path, policy=policy, key=key))}")
        print(f"{where} native {_digest_all(lambda: scrub_file(path, policy='default', key=key))}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, build in sorted(GENERATED.items()):
            for i, (given, data) in enumerate(build()):
                path = Path(tmp) / name / f"{i}-{given.name}"
                path.parent.mkdir(exist_ok=True)
                path.write_bytes(data)
                for policy in POLICIES:
                    print(f"generated/{name}/{path.name} {policy} "
                          f"{_digest_all(lambda: redact_file(path, policy=policy, key=key, companions=[]))}")
                print(f"generated/{name}/{path.name} native "
                      f"{_digest_all(lambda: scrub_file(path, policy='default', key=key))}")


def main() -> None:
    if "--all-formats" in sys.argv[1:]:
        all_formats()
        return
    key = Key(bytes(range(32)), source="bench")
    for agent in ("claude-code", "codex"):
        folder = CORPUS / agent
        if not folder.is_dir():
            print(f"missing {folder}", file=sys.stderr)
            continue
        for path in sorted(folder.iterdir()):
            if path.name == "README.md":
                continue
            for policy in POLICIES:
                print(f"{agent}/{path.name} {policy} "
                      f"{_digest(lambda: redact_file(path, policy=policy, key=key))}")
    data = orjson.dumps(generate_map())
    for policy in POLICIES:
        print(f"gen_map-20000 {policy} "
              f"{_digest(lambda: redact_bytes(data, policy=policy, key=key, input_format='agentplay'))}")
    # the same map from a file, as the CLI reads it: one line, and pretty-printed (format detection
    # parses both whole)
    with tempfile.TemporaryDirectory() as tmp:
        for label, text in (("line", data), ("indented", orjson.dumps(generate_map(), option=orjson.OPT_INDENT_2))):
            path = Path(tmp) / f"map-{label}.json"
            path.write_bytes(text)
            for policy in POLICIES:
                print(f"gen_map-20000-file-{label} {policy} "
                      f"{_digest(lambda: redact_file(path, policy=policy, key=key))}")


if __name__ == "__main__":
    main()
