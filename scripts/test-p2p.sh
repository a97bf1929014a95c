#!/usr/bin/env bash
# Real-network end-to-end tests of the peer-to-peer protocol: native `orbis-join` peers play whole
# classic games over WebRTC on loopback and must agree on the final state hash, meeting through a
# local matchbox_server (one peer is killed and restarted mid-game) and through local Nostr relays
# with no matchbox_server (two and three peers; two relays, one killed mid-lobby); and games over
# days stored on local relays (publish, fetch, refill, rewrap; `orbis-join --days` visits). Installs the
# pinned signalling server and relay if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
server="$(scripts/matchbox-server.sh)"
relay="$(scripts/nostr-relay.sh)"
if cargo nextest --version >/dev/null 2>&1; then
  # The test binaries test.sh's unit step built (`cargo nextest run --workspace`): `cargo test -p
  # orbis-transport` resolves the dependencies' features for that one package, not the
  # workspace, and so compiled the WebRTC stack, the protocol and the engine a second time.
  MATCHBOX_SERVER="$server" NOSTR_RELAY="$relay" cargo nextest run --workspace --locked \
    --no-fail-fast --run-ignored only -E 'binary(arena) | binary(relays) | binary(days_store) | binary(days_join)'
else
  MATCHBOX_SERVER="$server" cargo test --locked -p orbis-transport --test arena -- --ignored --nocapture
  NOSTR_RELAY="$relay" cargo test --locked -p orbis-transport --test relays -- --ignored --nocapture
  NOSTR_RELAY="$relay" cargo test --locked -p orbis-transport --test days_store -- --ignored --nocapture
  NOSTR_RELAY="$relay" cargo test --locked -p orbis-transport --test days_join -- --ignored --nocapture
fi
