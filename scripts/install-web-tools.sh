#!/usr/bin/env bash
# Installs what the browser build and its tests need, skipping anything already at the right
# version: Chromium (Debian), the wasm32 target, the pages' pinned nightly with its standard
# library's source and every crate of the offline build (scripts/fetch-web-deps.sh), Trunk, wasm-bindgen-cli (pinned to Cargo.lock),
# wasm-opt (npm binaryen, into .tools/), wasm-split (the distribution's binaryen package, 108 on
# Debian 12, unpacked into .tools/),
# and playwright-core, terser and axe-core (npm ci at the root).
# ORBIS_BUILD_ONLY=1 skips installing Chromium (the GitHub Pages workflow runs no tests; the online
# page's split still opens the page once, in the runner's Google Chrome: tools/split-profile.mjs).
# Source it (`. scripts/install-web-tools.sh`) or run it; it prints the PATH line to use.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132
WBG_VERSION="$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' "$ROOT/Cargo.lock")"
if [ -z "$WBG_VERSION" ]; then
  echo "install-web-tools: wasm-bindgen not found in Cargo.lock" >&2
  exit 1
fi
# `cargo install` puts Trunk and wasm-bindgen in CARGO_HOME/bin (~/.cargo/bin unless set).
export PATH="$ROOT/.tools/binaryen/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"

if [ "${ORBIS_BUILD_ONLY:-0}" != 1 ] && { ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1 \
   || ! fc-list 2>/dev/null | grep -qi liberation; }; then
  echo "install-web-tools: installing chromium, chromium-driver, fonts-liberation (apt)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq chromium chromium-driver fonts-liberation >/dev/null
fi

# The build's post-build hook runs a Python script (tools/minify-imports.py).
if ! command -v python3 >/dev/null 2>&1; then
  echo "install-web-tools: installing python3 (apt)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq python3 >/dev/null
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi

# The pages' pinned nightly (with rust-src) and every crate their offline build needs, the
# standard library's own included. The toolchain's name is read, not sourced: sourcing would also
# export RUSTUP_TOOLCHAIN, and the `cargo install`s below would build with the nightly.
WEB_TOOLCHAIN="$(sed -n 's/^WEB_TOOLCHAIN=//p' "$ROOT/scripts/web-toolchain.sh")"
"$ROOT/scripts/fetch-web-deps.sh"

if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "$TRUNK_VERSION" ]; then
  echo "install-web-tools: cargo install trunk $TRUNK_VERSION (takes a few minutes)"
  # Built without optimisation: Trunk's own release profile (fat LTO, one codegen unit) made it
  # most of a cold machine's tool install, yet Trunk only runs cargo, wasm-bindgen and wasm-opt,
  # which do the work. Measured on 2 cores: 239 s to compile at opt-level 0, 576 s at opt-level
  # 3 without LTO (more with); building the full page took the same time with either Trunk
  # (55-64 s), and the same files (but for the order of two inline scripts, which Trunk varies
  # from run to run with either).
  CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo install trunk --locked --version "$TRUNK_VERSION"
fi

if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WBG_VERSION" ]; then
  echo "install-web-tools: cargo install wasm-bindgen-cli $WBG_VERSION"
  # Not --locked: the CLI's own lock file pins a yanked crate.
  cargo install wasm-bindgen-cli --version "$WBG_VERSION"
fi

if [ "$(wasm-opt --version 2>/dev/null | awk '{print $3}')" != "$BINARYEN_VERSION" ]; then
  echo "install-web-tools: npm binaryen@$BINARYEN_VERSION into .tools/"
  mkdir -p "$ROOT/.tools/binaryen"
  npm install --silent --no-audit --no-fund --prefix "$ROOT/.tools/binaryen" "binaryen@$BINARYEN_VERSION"
fi

# wasm-split, which splits the online and full pages in two (tools/split-page.py): the distribution's
# binaryen package (version 108 or later, checked; the files it helps make are named after their
# content, so a browser never mixes two builds'), unpacked into .tools/ rather than installed
# (npm's binaryen has no wasm-split, and the package's own wasm-opt is older than the one above).
SPLIT="$ROOT/.tools/binaryen-split/usr/bin/wasm-split"
if ! "$SPLIT" --version >/dev/null 2>&1; then
  echo "install-web-tools: binaryen (apt, for wasm-split) into .tools/"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  deb="$(mktemp -d)"
  if ! (cd "$deb" && apt-get download -qq binaryen 2>/dev/null); then
    $SUDO apt-get update -qq
    (cd "$deb" && apt-get download -qq binaryen)
  fi
  rm -rf "$ROOT/.tools/binaryen-split"
  dpkg -x "$deb"/binaryen_*.deb "$ROOT/.tools/binaryen-split"
  rm -rf "$deb"
fi
if [ "$("$SPLIT" --version | awk '{print $3}')" -lt 108 ] 2>/dev/null; then
  echo "install-web-tools: wasm-split $("$SPLIT" --version) is older than 108 (needs bulk memory)" >&2
  exit 1
fi

# Every package of package-lock.json's root (playwright-core, terser, axe-core for the
# accessibility checks) at its locked version, or npm ci: a node_modules from before a package
# was added would otherwise miss it.
npm_stale() {
  (cd "$ROOT" && node -e '
    const lock = require("./package-lock.json");
    for (const name of Object.keys(lock.packages[""].devDependencies)) {
      let v = null;
      try { v = require(`./node_modules/${name}/package.json`).version; } catch {}
      if (v !== lock.packages[`node_modules/${name}`].version) process.exit(0);
    }
    process.exit(1);')
}
if npm_stale || [ ! -x "$ROOT/node_modules/.bin/terser" ]; then
  (cd "$ROOT" && npm ci --silent --no-audit --no-fund)
fi

echo "install-web-tools: $WEB_TOOLCHAIN, trunk $(trunk --version | awk '{print $2}'), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}'), wasm-opt $(wasm-opt --version | awk '{print $3}'), wasm-split $("$SPLIT" --version | awk '{print $3}'), $(chromium --version 2>/dev/null | head -1)"
