#!/usr/bin/env bash
# Render the HTML audit report of a map and screenshot it in headless chromium, offline.
#
#   scripts/screenshot_report.sh [MAP|PAGE.html] [OUT.png] [WIDTH,HEIGHT]
#
# MAP defaults to examples/session-map.json, OUT.png to ./audit-report.png (the HTML page is written
# next to it, as OUT.html, by `agentplay-redact audit MAP -o OUT.html`). Given a PAGE.html instead of
# a map, it screenshots that page as it is. Chromium runs with a fresh profile, no sandbox (containers), no GPU and
# no background networking; every host name resolves to nothing, and the page's own CSP forbids
# loads, so the render cannot reach the network. Needs Debian's chromium (apt-get install chromium);
# set CHROMIUM to use another binary and PYTHON for another interpreter.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
map=${1:-$root/examples/session-map.json}
png=${2:-audit-report.png}
size=${3:-1100,1600}
chromium=${CHROMIUM:-/usr/bin/chromium}
py=${PYTHON:-$root/.venv/bin/python}

if [ ! -x "$chromium" ]; then
    echo "screenshot_report: $chromium not found (apt-get install chromium)" >&2
    exit 2
fi
png=$(realpath -m "$png")
[ "$map" = "-" ] || map=$(realpath -m "$map")
html="${png%.png}.html"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

case "$map" in
    *.html) html=$map ;;
    *) (cd "$root" && "$py" -c 'import sys; from redact.cli import main; sys.exit(main(sys.argv[1:]))' \
           audit "$map" -o "$html") ;;
esac
url=$("$py" -c 'import pathlib, sys; print(pathlib.Path(sys.argv[1]).resolve().as_uri())' "$html")
rm -f "$png"
"$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --disable-extensions --disable-default-apps \
    --no-first-run --no-default-browser-check --hide-scrollbars \
    --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$profile" \
    --window-size="$size" --screenshot="$png" "$url" >/dev/null 2>&1
if [ ! -s "$png" ] || [ "$(stat -c %s "$png")" -lt 8000 ]; then
    echo "screenshot_report: no screenshot, or a blank one: $png" >&2
    exit 1
fi
echo "$png"
