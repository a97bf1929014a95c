#!/usr/bin/env bash
# Builds the browser client's two pages (scripts/build-web.sh: the lite first load in dist/, the
# full page with the orders ruleset and online play in dist/full/) and serves them on
# http://127.0.0.1:8080/ (PORT=… to change), with a local matchbox_server for online play on
# ws://127.0.0.1:3536 (SIGNAL_PORT=… to change), stopped when the script exits. BUILD=0 skips the build (serve dist/ as it is).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PORT="${PORT:-8080}"
if [ "${BUILD:-1}" != 0 ]; then
  "$ROOT/scripts/build-web.sh"
fi
# Signalling server for online play (the page defaults to ws://127.0.0.1:3536 on localhost).
SIGNAL_PORT="${SIGNAL_PORT:-3536}"
MATCHBOX="$("$ROOT/scripts/matchbox-server.sh")"
"$MATCHBOX" "127.0.0.1:$SIGNAL_PORT" >/dev/null 2>&1 &
SIGNAL_PID=$!
trap 'kill "$SIGNAL_PID" 2>/dev/null || true' EXIT
echo "Orbis is served at http://127.0.0.1:$PORT/"
echo "Online play: signalling server at ws://127.0.0.1:$SIGNAL_PORT (rooms: http://127.0.0.1:$PORT/#room=NAME, which opens full/)"
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$ROOT/dist"
