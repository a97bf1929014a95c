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
# WASM_OPT_CONVERGE=0 (the test run's build, scripts/test.sh): wasm-opt runs its -Oz passes once
# rather than again and again until the module stops shrinking (`--converge`, in index.html and
# tools/split-page.py), through a wasm-opt on PATH that drops that flag. The same passes, so the
# same behaviour; measured on the online page's 4.6 MB wasm: 54 s of CPU instead of 133 s, for
# 0.2 % more gzipped bytes (1,127,415 against 1,125,196). The published pages and
# scripts/bench-web.sh's sizes are built without it (converged).
if [ "${WASM_OPT_CONVERGE:-1}" = 0 ]; then
  real_opt="$(command -v wasm-opt)"
  shim="${CARGO_TARGET_DIR:-$ROOT/target}/wasm-opt-once"
  mkdir -p "$shim"
  printf '#!/bin/sh\n# build-web.sh, WASM_OPT_CONVERGE=0: %s without --converge.\nfor a; do shift; [ "$a" = --converge ] || set -- "$@" "$a"; done\nexec "%s" "$@"\n' \
    "$real_opt" "$real_opt" >"$shim/wasm-opt"
  chmod +x "$shim/wasm-opt"
  export PATH="$shim:$PATH"
fi
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
# A build of all three pages leaves a stamp in DIST: the hash of everything the pages are made
# from (the workspace's sources and lock files, web/, tools/, the page and build scripts, the
# tools' versions, WASM_OPT_CONVERGE). The next build with the same stamp has nothing to do and
# stops here (a warm test run: test.sh's background job, test-web.sh): trunk would compile
# nothing, yet run wasm-bindgen, the split's profile in Chromium, wasm-opt and terser on every
# page again, minutes of CPU beside the unit tests. FORCE=1 builds anyway; ONLY= removes it.
stamp() {
  {
    find crates web tools scripts/build-web.sh scripts/web-toolchain.sh scripts/install-web-tools.sh \
      index.html full.html online.html Trunk.toml Cargo.toml Cargo.lock package-lock.json -type f -not -path '*/node_modules/*' -print0 | sort -z | xargs -0 sha256sum
    echo "WASM_OPT_CONVERGE=${WASM_OPT_CONVERGE:-1}"
    rustc --version
    trunk --version
    wasm-bindgen --version
    wasm-opt --version
    chromium --version 2>/dev/null || true
  } | sha256sum | cut -c1-64
}
if [ -z "${ONLY:-}" ] && [ "${FORCE:-0}" != 1 ] && [ -f "$DIST/.build-stamp" ] &&
   [ -f "$DIST/index.html" ] && [ -f "$DIST/full/index.html" ] && [ -f "$DIST/online/index.html" ] &&
   [ "$(cat "$DIST/.build-stamp")" = "$(stamp)" ]; then
  echo "build-web: $DIST was built from these same sources and tools (its .build-stamp): nothing to do (FORCE=1 builds anyway)"
  exit 0
fi
rm -f "$DIST/.build-stamp"
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
stamp >"$DIST/.build-stamp"
