#!/usr/bin/env bash
# Size and speed of the browser client's two pages (tests/e2e/bench.mjs, headless Chromium on
# localhost): gzipped bytes of the lite page's first load until the map is interactive, bytes the
# service worker then fetches in the background for offline use (the full page), bytes to open the
# full page, and times from navigation to an interactive map; then the relay rendezvous (time from
# opening a room link to connected, relay events per minute). BUILD=0 reuses dist/ (DIST=dir another
# copy).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
if [ "${BUILD:-1}" != 0 ]; then
  "$ROOT/scripts/build-web.sh" >/dev/null 2>&1
fi
ORBIS_DIST="${DIST:-$ROOT/dist}" node tests/e2e/bench.mjs
# What each page's wasm is made of, by crate (twiggy on cargo's output, which still has its names
# section; sizes are before wasm-opt, so they add up to more than the published files).
TWIGGY="$ROOT/.tools/twiggy/bin/twiggy"
[ -x "$TWIGGY" ] || cargo install twiggy --locked --version 0.8.0 --root "$ROOT/.tools/twiggy" >/dev/null 2>&1
T="${CARGO_TARGET_DIR:-$ROOT/target}/wasm32-unknown-unknown/release-web"
. "$ROOT/scripts/web-toolchain.sh" # as the pages are built
cargo build -q --locked --profile release-web --target wasm32-unknown-unknown -p orbis-web --no-default-features
cp "$T/orbis-web.wasm" "$T/orbis-web-lite.wasm"
cargo build -q --locked --profile release-web --target wasm32-unknown-unknown -p orbis-web --no-default-features --features full
cp "$T/orbis-web.wasm" "$T/orbis-web-full.wasm"
cargo build -q --locked --profile release-web --target wasm32-unknown-unknown -p orbis-web --no-default-features --features online
echo "lite page:"
python3 tools/wasm-by-crate.py "$T/orbis-web-lite.wasm" "$TWIGGY"
echo "full page:"
python3 tools/wasm-by-crate.py "$T/orbis-web-full.wasm" "$TWIGGY"
echo "online page:"
python3 tools/wasm-by-crate.py "$T/orbis-web.wasm" "$TWIGGY"
# Online play's rendezvous through a local Nostr relay (tests/e2e/bench-relays.mjs): the pages are
# served under a sub-path and opened from a host name other than localhost, as published.
NOSTR_RELAY="$("$ROOT/scripts/nostr-relay.sh")"
export NOSTR_RELAY
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
PAGES="$(mktemp -d)"
ln -s "$ROOT/dist" "$PAGES/orbis"
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$PAGES" >/dev/null 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; rm -rf "$PAGES"' EXIT
ORBIS_URL="http://127.0.0.1:$PORT/orbis/" node tests/e2e/bench-relays.mjs
