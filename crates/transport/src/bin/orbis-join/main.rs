//! `orbis-join (<ws-url>/<room> | --relays ws://…[,…] --room <secret>) [--bot easy|normal|hard]
//! [--name N] [--players N] [--seed S] [--ruleset classic|economy] [--ice stun:…[,…]] [--timeout-s T]`: joins a room as a computer player through
//! the protocol crate, meeting the others through a matchbox_server or through Nostr relays.
//!
//! With `--players N`, a room of only `orbis-join` peers starts by itself once N peers have said
//! hello: the peer with the smallest key proposes (default classic options, nonce `--seed`), every
//! peer accepts a proposal whose participants are exactly the peers it knows, bots play every
//! seat, and each peer prints one JSON line on exit with the winner, the number of turns and the
//! final state hash.
#![forbid(unsafe_code)]

// Native only: it blocks a thread on the socket and reads the clock and the OS's randomness.
#[cfg(not(target_arch = "wasm32"))]
mod native;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    native::main()
}

/// Nothing to run in a browser (the crate's library is what the web client uses there).
#[cfg(target_arch = "wasm32")]
fn main() {}
