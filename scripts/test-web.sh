#!/usr/bin/env bash
# Browser client tests: installs the tools, builds the pages (scripts/build-web.sh: lite dist/,
# full dist/full/, online dist/online/), serves them on a free port,
# runs the end-to-end tests (node --test tests/e2e/, playwright-core + Debian Chromium), stops the
# server and exits non-zero on failure. BUILD=0 reuses dist/ (DIST=dir another copy). Arguments,
# when given, are the test files to run (default: all of tests/e2e/). Screenshots go to test-output/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DIST="$(cd "$ROOT" && realpath -m "${DIST:-dist}")"
export DIST
if [ "${BUILD:-1}" != 0 ]; then
  "$ROOT/scripts/build-web.sh"
fi
# Online play (tests/e2e/p2p*.test.mjs): the native bot peer, the WebRTC signalling server, and
# a Nostr relay (pages that meet through relays, as the published page does). P2P=0 skips them.
if [ "${P2P:-1}" != 0 ]; then
  # The native bot peer and the CLI as `cargo test --workspace` builds them (the dev profile
  # optimises the engine, the protocol and the crypto they run): a no-op after test.sh's unit
  # step, where a release build of the two took 324 s of CI's time for the same tests.
  cargo test -q --workspace --locked --no-run
  export ORBIS_JOIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/orbis-join"
  export ORBIS_CLI="${CARGO_TARGET_DIR:-$ROOT/target}/debug/orbis"
  # Cargo builds a package's binaries for its integration tests (crates/cli/tests,
  # crates/transport/tests): were those to go, say so here rather than skip the P2P tests.
  for bin in "$ORBIS_JOIN" "$ORBIS_CLI"; do
    [ -x "$bin" ] || { echo "test-web: $bin was not built by cargo test --workspace --no-run" >&2; exit 1; }
  done
  MATCHBOX_SERVER="$("$ROOT/scripts/matchbox-server.sh")"
  export MATCHBOX_SERVER
  NOSTR_RELAY="$("$ROOT/scripts/nostr-relay.sh")"
  export NOSTR_RELAY
fi
[ -f "$DIST/index.html" ] && [ -f "$DIST/full/index.html" ] && [ -f "$DIST/online/index.html" ] || { echo "test-web: $DIST is missing; build first" >&2; exit 1; }
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
# Serve the bundle under a sub-path, as GitHub Pages serves a project site (/<repo>/).
PAGES="$(mktemp -d)"
ln -s "$DIST" "$PAGES/orbis"
python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$PAGES" >/dev/null 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; rm -rf "$PAGES"' EXIT
for _ in $(seq 50); do
  python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$PORT/orbis/', timeout=1)" 2>/dev/null && break
  sleep 0.1
done
export ORBIS_SHOTS="${ORBIS_SHOTS:-test-output}"
rm -rf "$ORBIS_SHOTS" && mkdir -p "$ORBIS_SHOTS"
export ORBIS_URL="http://127.0.0.1:$PORT/orbis/"
set +e
echo "test-web: e2e start  [$(date +%T)]"
if [ $# -gt 0 ]; then node --test --test-concurrency=1 "$@"; else node --test --test-concurrency=1 tests/e2e/; fi
rc=$?
set -e
echo "test-web: screenshots in $ORBIS_SHOTS/"
exit $rc
