#!/usr/bin/env bash
# What dealing hidden cards costs (crates/deal): time per shuffle (prove, verify) and per draw,
# natively and compiled to wasm32 as the browser runs it, with bytes on the wire. Prints figures.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
cargo run -q --release --locked -p orbis-deal --example bench
cargo build -q --release --locked -p orbis-wasm-check --target wasm32-unknown-unknown
node tests/bench-deal.mjs "${CARGO_TARGET_DIR:-$ROOT/target}/wasm32-unknown-unknown/release/orbis_wasm_check.wasm"
