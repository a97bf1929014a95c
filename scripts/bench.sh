#!/usr/bin/env bash
# Prints the engine's speed figures: criterion (odds, whole games) and `orbis simulate` games/s.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p orbis-cli
for level in easy normal; do
  echo "orbis simulate --players 4 --bot $level --games 200 --seed 1 --max-turns 300:"
  ./target/release/orbis simulate --players 4 --bot "$level" --games 200 --seed 1 --max-turns 300 | tail -1
done
for level in easy normal; do
  echo "orbis simulate --ruleset economy --players 4 --bot $level --games 200 --seed 1 --max-turns 50:"
  ./target/release/orbis simulate --ruleset economy --players 4 --bot "$level" --games 200 --seed 1 --max-turns 50 | tail -1
done
cargo bench -p orbis-engine --bench engine -- --noplot 2>&1 | grep -E "^[a-z0-9].*|time:"
