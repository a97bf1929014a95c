#!/usr/bin/env bash
# Builds the browser client's three pages (scripts/build-web.sh: the lite first load in dist/, the
# full page with the orders ruleset in dist/full/, online play in dist/online/) and serves them on
# http://127.0.0.1:8080/ (PORT=… to change), with a local matchbox_server for online play on
# ws://127.0.0.1:3536 (SIGNAL_PORT=… to change), stopped when the script exits. BUILD=0 skips the build (serve dist/ as it is).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PORT="${PORT:-8080}"
if [ "${BUILD:-1}" != 0 ]; then
  "$ROOT/scripts/build-web.sh"
fi
# Online play on this machine: the page meets peers through public Nostr relays by default, which a
# machine without internet cannot reach, so a local relay (and a matchbox_server for LAN play) runs too.
SIGNAL_PORT="${SIGNAL_PORT:-3536}"
RELAY_PORT="${RELAY_PORT:-7447}"
MATCHBOX="$("$ROOT/scripts/matchbox-server.sh")"
"$MATCHBOX" "127.0.0.1:$SIGNAL_PORT" >/dev/null 2>&1 &
SIGNAL_PID=$!
RELAY="$("$ROOT/scripts/nostr-relay.sh")"
RELAY_DIR="$(mktemp -d)"
printf 'DEBUG: false\nstorage:\n  sqlalchemy.url: sqlite+aiosqlite:///%s/events.sqlite3\n  validators:\n    - nostr_relay.validators.is_not_too_large\n    - nostr_relay.validators.is_signed\n    - nostr_relay.validators.is_recent\ngunicorn:\n  bind: 127.0.0.1:%s\n  workers: 1\n  loglevel: warning\nauthentication:\n  enabled: false\n' \
  "$RELAY_DIR" "$RELAY_PORT" > "$RELAY_DIR/relay.yaml"
"$RELAY" -c "$RELAY_DIR/relay.yaml" serve >/dev/null 2>&1 &
RELAY_PID=$!
trap 'kill "$SIGNAL_PID" "$RELAY_PID" 2>/dev/null || true; rm -rf "$RELAY_DIR"' EXIT
echo "Orbis is served at http://127.0.0.1:$PORT/"
echo "Online play through the local relay: http://127.0.0.1:$PORT/?relays=ws://127.0.0.1:$RELAY_PORT"
echo "  (or through the local signalling server: http://127.0.0.1:$PORT/?signal=ws://127.0.0.1:$SIGNAL_PORT)"
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$ROOT/dist"
