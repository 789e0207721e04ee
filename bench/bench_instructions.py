"""Instructions of one `redact_file` (or of `orjson.loads` of the same lines), counted by callgrind.

On a loaded machine CPU seconds move by 10-20% between runs; instruction counts do not. The
process imports, runs `redact_file` once (caches of shipped tables warm, as in a batch worker),
then runs the measured work once inside a ctypes callback, so that callgrind counts only that
(`--toggle-collect` on libffi's call):

    PYTHONPATH=$PWD valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no \\
        --toggle-collect='ffi_call*' .venv/bin/python bench/bench_instructions.py redact FILE
    ... bench/bench_instructions.py orjson FILE      # the baseline: orjson.loads of each line

The ratio of the two `Collected` figures is the transcript path against bare orjson.
"""
from __future__ import annotations

import ctypes
import sys
from pathlib import Path

import orjson

from redact.api import redact_file
from redact.keys.material import Key

KEY = Key(bytes(range(32)), source="bench")


def main() -> None:
    mode, path = sys.argv[1], sys.argv[2]
    if mode not in ("redact", "orjson"):
        raise SystemExit("usage: bench_instructions.py redact|orjson FILE")
    redact_file(path, policy="default", key=KEY)
    lines = [line for line in Path(path).read_bytes().splitlines() if line.strip()]

    def work() -> None:
        if mode == "orjson":
            for line in lines:
                orjson.loads(line)
        else:
            redact_file(path, policy="default", key=KEY)

    ctypes.CFUNCTYPE(None)(work)()


if __name__ == "__main__":
    main()
