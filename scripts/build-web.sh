#!/usr/bin/env bash
# Builds the browser client's two pages into dist/ (release profile release-web, tools from PATH):
# - dist/index.html: the lite first load, the classic game (crates/web without features);
# - dist/full/index.html: everything, with the orders ruleset and online play (feature `full`),
#   which the lite page opens when the player asks for them;
# then writes the service worker's file lists for both (web/precache.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
"$ROOT/scripts/install-web-tools.sh" >/dev/null
export PATH="$ROOT/.tools/binaryen/node_modules/.bin:$HOME/.cargo/bin:$PATH"
cargo fetch --locked >/dev/null
# The lite page first: trunk empties its dist directory, which holds full/.
trunk build --release --cargo-profile release-web index.html --dist dist
trunk build --release --cargo-profile release-web full.html --dist dist/full
sh web/precache.sh dist
