#!/usr/bin/env bash
# Real-network end-to-end tests of the peer-to-peer protocol: native `orbis-join` peers play whole
# classic games over WebRTC on loopback and must agree on the final state hash, meeting through a
# local matchbox_server (one peer is killed and restarted mid-game) and through local Nostr relays
# with no matchbox_server (two and three peers; two relays, one killed mid-lobby). Installs the
# pinned signalling server and relay if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
server="$(scripts/matchbox-server.sh)"
MATCHBOX_SERVER="$server" cargo test --locked -p orbis-transport --test arena -- --ignored --nocapture
NOSTR_RELAY="$(scripts/nostr-relay.sh)" cargo test --locked -p orbis-transport --test relays -- --ignored --nocapture
