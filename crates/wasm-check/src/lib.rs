//! Exposes the engine's reference simulation to a plain WebAssembly host (no wasm-bindgen), so
//! `tests/wasm-determinism.mjs` can run it under Node and compare with the native hash.

use std::sync::Mutex;

static OUT: Mutex<[u8; 64]> = Mutex::new([0; 64]);

/// Runs the reference game for `seed` and returns a pointer to 64 ASCII hex digits of its hash.
#[unsafe(no_mangle)]
pub extern "C" fn reference_hash(seed: u64) -> *const u8 {
    put(&orbis_engine::sim::reference_hash(seed))
}

/// As [`reference_hash`], with four `hard` bots (look-ahead with rollouts) for 40 turns.
#[unsafe(no_mangle)]
pub extern "C" fn reference_hash_hard(seed: u64) -> *const u8 {
    put(&orbis_engine::sim::reference_hash_with(
        seed,
        orbis_engine::rules::classic::BotLevel::Hard,
        40,
    ))
}

fn put(hex: &str) -> *const u8 {
    let mut out = OUT.lock().unwrap_or_else(|e| e.into_inner());
    let bytes = hex.as_bytes();
    let n = bytes.len().min(64);
    out[..n].copy_from_slice(&bytes[..n]);
    out.as_ptr()
}
