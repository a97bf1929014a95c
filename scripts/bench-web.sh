#!/usr/bin/env bash
# Size and speed of the browser client: gzipped bytes of everything the first load transfers, and
# the time from navigation to an interactive map in headless Chromium on localhost.
# BUILD=0 reuses dist/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
if [ "${BUILD:-1}" != 0 ]; then
  "$ROOT/scripts/install-web-tools.sh" >/dev/null
  export PATH="$ROOT/.tools/binaryen/node_modules/.bin:$HOME/.cargo/bin:$PATH"
  cargo fetch --locked >/dev/null
  trunk build --release --cargo-profile release-web >/dev/null 2>&1
fi
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$ROOT/dist" >/dev/null 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 50); do python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$PORT/', timeout=1)" 2>/dev/null && break; sleep 0.1; done
ORBIS_URL="http://127.0.0.1:$PORT/" ORBIS_DIST="$ROOT/dist" node tests/e2e/bench.mjs
