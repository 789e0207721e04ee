#!/usr/bin/env bash
# The fresh-CLI figure of issue 17 target 3: a generated 20,000-event map re-redacted and scanned by a
# new `python -m redact` process, against `python -m redact formats` (start-up) in the same run,
# interleaved, N runs each; prints the medians of wall and CPU (user + system) seconds.
# Bytecode is cached (outside the tree) as an installed package's would be: PYTHONDONTWRITEBYTECODE
# would make every run compile every module it imports, which no installed copy does.
#   PYTHON=/work/main/.venv/bin/python bash bench/bench_cli_map.sh 7
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
N=${1:-7}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export PYTHONPATH=$PWD PYTHONPYCACHEPREFIX=$TMP/pyc
unset PYTHONDONTWRITEBYTECODE
"$PY" -c "import sys, orjson; sys.path.insert(0, 'bench'); from gen_map import generate_map; open('$TMP/map.json', 'wb').write(orjson.dumps(generate_map()))"
"$PY" -m redact "$TMP/map.json" -o "$TMP/warm.json" 2>/dev/null  # writes the bytecode cache
for _ in $(seq "$N"); do
    /usr/bin/time -f "formats %e %U %S" -a -o "$TMP/times" "$PY" -m redact formats >/dev/null
    rm -f "$TMP/out.json"
    /usr/bin/time -f "map %e %U %S" -a -o "$TMP/times" "$PY" -m redact "$TMP/map.json" -o "$TMP/out.json" 2>/dev/null
done
"$PY" - "$TMP/times" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.split() and line.split()[0] in ("formats", "map")]
med = {k: (statistics.median(float(r[1]) for r in rows if r[0] == k),
           statistics.median(float(r[2]) + float(r[3]) for r in rows if r[0] == k)) for k in ("formats", "map")}
for k, (wall, cpu) in med.items():
    print(f"{k}: wall {wall:.2f} s, CPU {cpu:.2f} s")
print(f"beyond start-up: wall {med['map'][0] - med['formats'][0]:.2f} s, CPU {med['map'][1] - med['formats'][1]:.2f} s")
PY
