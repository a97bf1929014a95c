#!/usr/bin/env bash
# Fetches every crate the browser pages' offline build needs, then proves that build resolves
# offline. Trunk runs cargo with `--offline` (Trunk.toml `offline = true`) and the pages are built
# with `-Zbuild-std` (scripts/web-toolchain.sh), so two sets of crates must already be in cargo's
# registry cache: the workspace's (Cargo.lock) and the standard library's own (the pinned nightly's
# `library/Cargo.lock`, e.g. rustc-demangle, dlmalloc, wasip1). A plain `cargo fetch` brings only
# the first; a warm cache hid the second until a fresh machine failed 28 minutes in (issue 27).
# Installs the pinned nightly with its rust-src when missing. Takes seconds when nothing is missing:
# scripts/test.sh runs it first, so a missing crate fails the run in its first minute.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
WEB_TOOLCHAIN="$(sed -n 's/^WEB_TOOLCHAIN=//p' "$ROOT/scripts/web-toolchain.sh")"
if ! rustup run "$WEB_TOOLCHAIN" rustc --version >/dev/null 2>&1 \
   || ! rustup component list --installed --toolchain "$WEB_TOOLCHAIN" 2>/dev/null | grep -q '^rust-src'; then
  echo "fetch-web-deps: rustup toolchain install $WEB_TOOLCHAIN (with rust-src)" >&2
  rustup toolchain install "$WEB_TOOLCHAIN" --profile minimal --component rust-src >&2
fi

cargo fetch --locked -q
. "$ROOT/scripts/web-toolchain.sh"
LIBRARY="$(rustc --print sysroot)/lib/rustlib/src/rust/library/Cargo.toml"
cargo fetch --locked -q --manifest-path "$LIBRARY"

# The guard: resolve each page's build exactly as Trunk will (offline, build-std, wasm32, the
# pages' profile) and list its units without compiling anything (about a second each).
for features in "--no-default-features" "--no-default-features --features full" ""; do
  # shellcheck disable=SC2086 # the feature flags are separate words
  if ! cargo build -Zunstable-options --unit-graph --offline --locked --target wasm32-unknown-unknown \
      --profile release-web -p orbis-web $features >/dev/null 2>"${TMPDIR:-/tmp}/orbis-fetch-web.err"; then
    cat "${TMPDIR:-/tmp}/orbis-fetch-web.err" >&2
    echo "fetch-web-deps: the pages' offline build (orbis-web $features) cannot resolve its crates; see above" >&2
    exit 1
  fi
done
