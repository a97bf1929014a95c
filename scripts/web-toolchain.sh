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
export RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none"
