#!/usr/bin/env bash
# What a face-down online game costs end to end, and `orbis verify` on its transcript: whole
# classic games among simulated peers (3 and 6 players, missions on), each printing its log
# length, transcript size and bytes on the wire, then the time `orbis verify` takes. Prints figures.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
cargo build -q --release --locked -p orbis-cli -p orbis-protocol --examples --bins
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release"
for players in 3 6; do
  for seed in 1 2 3; do
    f="$TMP/$players-$seed.orbis-transcript"
    "$BIN/examples/transcript" "$players" "$seed" "$f"
    "$BIN/orbis" verify "$f" | grep -E "replayed|checked in"
  done
done
