#!/usr/bin/env bash
# Builds the browser client's three pages into dist/ (release profile release-web, tools from PATH):
# - dist/index.html: the lite first load, the classic game (crates/web without features);
# - dist/full/index.html: with the orders ruleset (feature `full`), which the lite page opens
#   when the player asks for it;
# - dist/online/index.html: everything, with online play (feature `online`), which the other
#   pages open for "Play online" and room links;
# then writes the service worker's file lists (web/precache.sh). The pages are compiled with the
# pinned nightly and flags of scripts/web-toolchain.sh (a smaller standard library).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
"$ROOT/scripts/install-web-tools.sh" >/dev/null
export PATH="$ROOT/.tools/binaryen/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
. "$ROOT/scripts/web-toolchain.sh"
# One page build at a time per target directory: trunk's wasm-bindgen and wasm-opt steps write
# fixed paths under it (target/wasm-opt/release/orbis-web_bg.wasm), so two builds side by side
# would hand each other their pages.
mkdir -p "${CARGO_TARGET_DIR:-$ROOT/target}"
exec 9>"${CARGO_TARGET_DIR:-$ROOT/target}/.build-web.lock"
flock 9
# DIST=dir builds elsewhere than dist/ (a developer's second copy); ONLY=lite|full|online rebuilds
# one page into an existing DIST (a quicker loop while working on one page; the service worker's
# lists are then left as they were).
DIST="${DIST:-dist}"
case "${ONLY:-}" in
  lite) trunk build --release --cargo-profile release-web index.html --dist "$DIST/.lite" &&
        find "$DIST/.lite" -maxdepth 1 -type f -exec cp {} "$DIST/" \; && rm -rf "$DIST/.lite" &&
        sh web/precache.sh "$DIST"; exit ;;
  full) trunk build --release --cargo-profile release-web full.html --dist "$DIST/full"; exit ;;
  online) trunk build --release --cargo-profile release-web online.html --dist "$DIST/online"; exit ;;
  "") ;;
  *) echo "build-web: ONLY must be lite, full or online" >&2; exit 1 ;;
esac
# The lite page first: trunk empties its dist directory, which holds full/.
echo "build-web: index.html  [$(date +%T), ${SECONDS} s]"
trunk build --release --cargo-profile release-web index.html --dist "$DIST"
echo "build-web: full.html  [$(date +%T), ${SECONDS} s]"
trunk build --release --cargo-profile release-web full.html --dist "$DIST/full"
echo "build-web: online.html  [$(date +%T), ${SECONDS} s]"
trunk build --release --cargo-profile release-web online.html --dist "$DIST/online"
echo "build-web: precache  [$(date +%T), ${SECONDS} s]"
sh web/precache.sh "$DIST"
