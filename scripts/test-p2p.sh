#!/usr/bin/env bash
# Real-network end-to-end test of the peer-to-peer protocol: a local matchbox_server and native
# `orbis-join` peers play whole classic games over WebRTC on loopback (one is killed and restarted
# mid-game), and must agree on the final state hash. Installs the pinned signalling server if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
server="${MATCHBOX_SERVER:-}"
if [[ -z "$server" ]]; then
  if command -v matchbox_server >/dev/null; then
    server="$(command -v matchbox_server)"
  else
    cargo install matchbox_server --locked --version 0.15.0
    server="$HOME/.cargo/bin/matchbox_server"
  fi
fi
MATCHBOX_SERVER="$server" cargo test --locked -p orbis-transport --test arena -- --ignored --nocapture
