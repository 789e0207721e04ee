"""Digest every output a performance change must keep byte-identical.

Redacts every file of ../shared/corpus/claude-code and ../shared/corpus/codex, and the generated
20,000-event map (bench/gen_map.py), under `default` and `public` with a fixed key, and prints one
line per (input, policy): the SHA-256 of the map bytes, or the error's class when it refuses.
Run it before and after a change and diff the two lists:

    PYTHONPATH=$PWD python bench/same_outputs.py > /tmp/before.txt
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
from redact.keys import Key  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
POLICIES = ("default", "public")


def _digest(run: object) -> str:
    try:
        result = run()  # type: ignore[operator]
    except Exception as exc:  # noqa: BLE001 - a refusal is an outcome to compare too
        return f"error {type(exc).__name__}"
    return hashlib.sha256(result.data).hexdigest()


def main() -> None:
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
