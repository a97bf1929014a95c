#!/usr/bin/env bash
# Browser client tests: installs the tools, builds the pages (scripts/build-web.sh: lite dist/,
# full dist/full/, online dist/online/), serves them on a free port,
# runs the end-to-end tests (node --test tests/e2e/*.test.mjs in two lanes, below; playwright-core +
# Debian Chromium), stops the server and exits non-zero on failure. BUILD=0 reuses dist/ (DIST=dir
# another copy). Arguments, when given, are the test files to run (default: all of tests/e2e/).
# Screenshots go to test-output/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DIST="$(cd "$ROOT" && realpath -m "${DIST:-dist}")"
export DIST
if [ "${BUILD:-1}" != 0 ]; then
  # A test build: wasm-opt's passes once, not to a fixed point (scripts/build-web.sh says why).
  WASM_OPT_CONVERGE="${WASM_OPT_CONVERGE:-0}" "$ROOT/scripts/build-web.sh"
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
# The test files run in two lanes side by side, one file at a time in each: the online-play files
# (p2p*.test.mjs, two or three browsers and often a native player each) in one, every other file
# in the other, so that one lane's waits (pages starting, the computers' pace, WebRTC) overlap the
# other's work while never more than one online game runs at once. The lanes share nothing that
# a test changes: each file starts its own Chromium (its own profile, storage and service worker)
# and its own signalling server or relay on a free port; the static server only reads. E2E_LANES=1
# runs every file in one lane, one at a time, as before. Each lane's output is kept in a file and
# printed whole (the other-files lane as it runs), then one line counts both lanes' results.
if [ $# -gt 0 ]; then files=("$@"); else files=(tests/e2e/*.test.mjs); fi
p2p=()
rest=()
for f in "${files[@]}"; do
  case "$(basename "$f")" in p2p*) p2p+=("$f") ;; *) rest+=("$f") ;; esac
done
echo "test-web: e2e start  [$(date +%T)]"
if [ "${E2E_LANES:-2}" = 1 ] || [ ${#p2p[@]} = 0 ] || [ ${#rest[@]} = 0 ]; then
  set +e
  node --test --test-concurrency=1 "${files[@]}"
  rc=$?
  set -e
else
  LANES="$(mktemp -d)"
  trap 'kill "$SERVER" ${LANE_P2P:-} 2>/dev/null || true; rm -rf "$PAGES" "$LANES"' EXIT
  node --test --test-concurrency=1 --test-reporter=tap "${p2p[@]}" >"$LANES/p2p" 2>&1 &
  LANE_P2P=$!
  set +e
  node --test --test-concurrency=1 --test-reporter=tap "${rest[@]}" 2>&1 | tee "$LANES/rest"
  rc_rest=${PIPESTATUS[0]}
  echo "test-web: the other files are done  [$(date +%T)]; the online-play files' lane:"
  wait "$LANE_P2P"
  rc_p2p=$?
  set -e
  cat "$LANES/p2p"
  echo "test-web: e2e end  [$(date +%T)]"
  # Both lanes' closing counts (TAP: "# pass N", "# fail N", ...), added up on one line.
  cat "$LANES/rest" "$LANES/p2p" | awk '
    /^# pass / { p += $3 } /^# fail / { f += $3 } /^# cancelled / { f += $3 }
    /^# skipped / { s += $3 } /^# todo / { s += $3 }
    END { printf "e2e: %d passed, %d failed, %d skipped\n", p, f, s }'
  rc=$((rc_rest ? rc_rest : rc_p2p))
fi
echo "test-web: screenshots in $ORBIS_SHOTS/"
exit $rc
