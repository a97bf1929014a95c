# Sourced by the scripts that build the browser pages (build-web.sh, bench-web.sh; install-web-tools.sh
# installs the toolchain named here). The pages are built with a pinned nightly so that the standard
# library is rebuilt without its panic messages and their source locations (`-Zbuild-std`,
# `-Cpanic=immediate-abort`, `-Zlocation-detail=none`): the lite page's first load is 35 KB (15%)
# smaller gzipped than with stable Rust, measured on this code (issue 10's note). Every other build
# and test uses stable. A panic then traps without running a hook; the pages' start-up script
# (web/boot.js) shows the "Something went wrong" message for it instead.
WEB_TOOLCHAIN=nightly-2026-05-20
export RUSTUP_TOOLCHAIN="$WEB_TOOLCHAIN"
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
# The standard library's `optimize_for_size` (smaller sorts and formatting; this list replaces
# cargo's default std features, none of which a wasm32 page that aborts on panic uses): pages
# 22 KB (full) and 27 KB (online) smaller gzipped, lite 0.7 KB; the engine's hashes unchanged
# (tests/wasm-determinism.mjs on a wasm built with these settings) and bots no slower.
export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
# The wasm features are named, not the target's default set: the online page is split in two
# by Debian's binaryen 108 (tools/split-page.py), which reads no reference types, and
# wasm-bindgen then keeps its JS values in a JS array instead of an externref table. The pages
# are no bigger for it (online page 961 KB gzipped unsplit, against 963 KB with the defaults).
export RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Ctarget-cpu=mvp -Ctarget-feature=+bulk-memory,+mutable-globals,+sign-ext,+nontrapping-fptoint"
