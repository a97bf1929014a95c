#!/usr/bin/env bash
# Runs every Orbis test, installing what is missing first. This is the README's test command
# and exactly what CI runs (.ci/run). Safe to re-run: installs are skipped when present.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

# Each step prints the clock and the seconds since the start, so a run's log shows where the time
# goes (issue 63: a cold run within 35 minutes on 2 cores, a warm one within 15), and the run ends,
# passed or failed, with a table of each step's seconds and the background job's (times_table).
STEPS=()
step() {
  STEPS+=("$SECONDS $*")
  printf '\n==> %s  [%s, %d s]\n' "$*" "$(date +%T)" "$SECONDS"
}
times_table() {
  local i start next name
  printf '\n==> seconds per step (of %d s in all)\n' "$SECONDS"
  for ((i = 0; i < ${#STEPS[@]}; i++)); do
    start="${STEPS[i]%% *}"
    name="${STEPS[i]#* }"
    if ((i + 1 < ${#STEPS[@]})); then next="${STEPS[i + 1]%% *}"; else next="$SECONDS"; fi
    printf '%6d s  %s\n' "$((next - start))" "$name"
  done
  # The background job's marks (seconds since the run's start): when the tools were in, when
  # each page build began, when the pages were done.
  if [[ -n "${BG:-}" && -e "$BG/marks" ]]; then
    printf '  background (started at %d s):\n' "$BG_START"
    awk -v t0="$T0" '{ t = $1; $1 = ""; printf "%6d s  at%s\n", t - t0, $0 }' "$BG/marks"
  fi
}
T0="$(date +%s)"

step "toolchain"
if ! command -v apt-get >/dev/null; then echo "needs a Debian machine (apt-get)"; exit 1; fi
need_apt=()
command -v node >/dev/null || need_apt+=(nodejs)
command -v python3 >/dev/null || need_apt+=(python3)
if ((${#need_apt[@]})); then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}"
fi
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
rustup target list --installed | grep -q '^wasm32-unknown-unknown$' || rustup target add wasm32-unknown-unknown

step "the pages' offline build finds every crate it needs (standard library's included)"
# First, so that a crate missing from the offline web build fails the run in its first minute
# rather than at the browser step half an hour later (issue 27).
scripts/fetch-web-deps.sh

# In the background, from here on, while the lint, the unit tests, the wasm check and the P2P
# games run in the foreground: first the tools only the later steps need (Chromium, trunk,
# wasm-bindgen-cli, wasm-opt, npm packages, matchbox_server, the Nostr relay), then the three pages
# (scripts/build-web.sh, its wasm-opt passes run once: WASM_OPT_CONVERGE=0). The two sides share
# the 2 cores: the background's single-threaded stretches (each page's link-time optimisation,
# wasm-opt, the split's profile in Chromium, the `cargo install`s' last crates; trunk alone takes
# ~240 s on a fresh machine) run beside the foreground's work, and the foreground's waits (the P2P
# games over WebRTC, single test binaries' tails) do not leave the cores idle. `nice` would not
# order the two: the job has a session of its own, and the kernel's autogroup scheduling gives each
# session an equal share. Nothing is skipped: the P2P step waits for the tools, the browser step for
# the pages, and the run fails with the job's log if it failed. A warm machine finds every tool
# installed in seconds.
BG="$(mktemp -d)"
cat >"$BG/job.sh" <<'JOB'
set -euo pipefail
BG="$1"
trap '[[ -e "$BG/tools-done" ]] || touch "$BG/tools-failed"' EXIT
scripts/install-web-tools.sh
if [[ -x scripts/matchbox-server.sh ]]; then scripts/matchbox-server.sh; fi
if [[ -x scripts/nostr-relay.sh ]]; then scripts/nostr-relay.sh; fi
echo "test.sh: tools installed  [$(date +%T)]"
echo "$(date +%s) tools installed" >>"$BG/marks"
touch "$BG/tools-done"
echo "test.sh: building the pages  [$(date +%T)]" >"$BG/pages.log"
# build-web.sh's "build-web: <page>" lines, with the time each was printed, are the job's marks.
WASM_OPT_CONVERGE=0 scripts/build-web.sh 2>&1 | while IFS= read -r line; do
  printf '%s\n' "$line"
  case "$line" in "build-web: "*) echo "$(date +%s) ${line%%  \[*}" >>"$BG/marks" ;; esac
done >>"$BG/pages.log"
echo "$(date +%s) pages built" >>"$BG/marks"
echo "test.sh: pages built  [$(date +%T)]" >>"$BG/pages.log"
JOB
BG_START=$SECONDS
setsid bash "$BG/job.sh" "$BG" >"$BG/tools.log" 2>&1 </dev/null &
BGJOB=$!
# A run that fails before waiting for it stops the job too (its own process group); every run
# ends with the table of times.
trap 'rc=$?; kill -- -"$BGJOB" 2>/dev/null || true; times_table; exit $rc' EXIT
# The tools are in once the job says so (it goes on with the pages) or it has stopped.
tools_ready() {
  while [[ ! -e "$BG/tools-done" && ! -e "$BG/tools-failed" ]] && kill -0 "$BGJOB" 2>/dev/null; do sleep 1; done
  cat "$BG/tools.log"
  if [[ ! -e "$BG/tools-done" ]]; then
    echo "test.sh: installing the browser and P2P tools failed (above)" >&2
    exit 1
  fi
}
pages_ready() {
  local rc=0
  wait "$BGJOB" || rc=$?
  cat "$BG/pages.log" 2>/dev/null || true
  if ((rc)); then echo "test.sh: building the pages failed (above)" >&2; exit "$rc"; fi
}

step "format and lint"
cargo fmt --all --check
# Modules import each other only downwards (no cycles), in every crate.
python3 scripts/check-cycles.py --self-test
python3 scripts/check-cycles.py crates/engine/src crates/protocol/src crates/transport/src crates/cli/src crates/web/src crates/deal/src
cargo clippy --workspace --all-targets --locked -- -D warnings
# The browser client's other bundles: the lite first load (no features) and the full page
# (`full`, without online play); the default builds the online page's. Selected from the whole
# workspace (its other crates' features unchanged, so only orbis-web is checked again) rather
# than with `-p orbis-web`, which re-checked 64 crates: 216 s wall (122 s CPU) before, 16 s
# (6 s CPU) after, on a fresh clone's build under load; the full page's 45 s.
cargo clippy --workspace --no-default-features --all-targets --locked -- -D warnings
cargo clippy --workspace --no-default-features --features orbis-web/full --all-targets --locked -- -D warnings

step "unit, property and CLI tests: build"
# cargo-nextest (when installed) runs every test binary's tests side by side, one process each, so
# the protocol suite's long tests no longer finish one binary before the next starts: on the same
# build the run took 386 s against cargo test's 597 s (load ~6 from other builds on 2 cores). It
# builds exactly what `cargo test --workspace` builds, so the P2P and browser steps reuse it.
# Doc tests are not nextest's: cargo test --doc runs them.
# The lite and full pages' tests (orbis-web without features, with `full`) are selected from the
# whole workspace rather than with `-p orbis-web`: `-p` resolves the dependencies' features for
# orbis-web alone, which compiled the engine, yew and the rest of its tree a second time (169 s of
# CPU, 458 s wall under load, on a fresh clone; with the workspace's features only orbis-web is
# compiled: 10 s and 20 s wall, the same 23 and 77 tests).
if cargo nextest --version >/dev/null 2>&1; then
  # The build first, in its own step (the table at the end gives the build and the run apart):
  # exactly what `cargo nextest run` builds (`cargo test --no-run`).
  cargo test --workspace --locked --no-run
  step "unit, property and CLI tests: run"
  cargo nextest run --workspace --locked --no-fail-fast --final-status-level slow
  cargo test --workspace --locked --doc
  cargo nextest run --workspace --no-default-features --locked -E 'package(orbis-web)'
  cargo nextest run --workspace --no-default-features --features orbis-web/full --locked -E 'package(orbis-web)'
else
  cargo test --workspace --locked
  cargo test -p orbis-web --no-default-features --locked
  cargo test -p orbis-web --no-default-features --features full --locked
fi

step "engine builds for wasm32 and matches the native state hashes"
# The native side is the `orbis` binary the unit tests above built (the dev profile optimises the
# engine; debug assertions and overflow checks stay on): a release build of it cost CI 80 s more.
cargo build --release --locked -p orbis-wasm-check --target wasm32-unknown-unknown
T="${CARGO_TARGET_DIR:-target}"
node tests/wasm-determinism.mjs "$T/wasm32-unknown-unknown/release/orbis_wasm_check.wasm" "$T/debug/orbis"

step "waiting for the browser and P2P tools (installed in the background since the start)"
tools_ready

if [[ -x scripts/test-p2p.sh ]]; then
  step "peer-to-peer games over real WebRTC on loopback"
  scripts/test-p2p.sh
fi

step "waiting for the pages (built in the background since the tools were in)"
pages_ready

if [[ -x scripts/test-web.sh ]]; then
  step "browser client"
  BUILD=0 scripts/test-web.sh
fi

step "all tests passed"
