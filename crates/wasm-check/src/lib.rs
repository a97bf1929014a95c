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

/// An orders game of seven computer powers on Europe 1901 until the end of 1915: `easy` when
/// `easy` is non-zero, else `normal` (as `orbis tournament --ruleset orders --seats <level>×7
/// --games 1 --seed <seed> --max-year 1915`).
#[unsafe(no_mangle)]
pub extern "C" fn reference_hash_orders(seed: u64, easy: u32) -> *const u8 {
    use orbis_engine::rules::classic::BotLevel;
    let level = if easy != 0 {
        BotLevel::Easy
    } else {
        BotLevel::Normal
    };
    put(&orbis_engine::sim::orders_reference_hash(seed, level, 1915))
}

/// An economy game of four computer players for `rounds` rounds: `normal` when `normal` is
/// non-zero, else `easy` (as `orbis simulate --ruleset economy --players 4 --bot <level> --games 1
/// --seed <seed> --max-turns <rounds>`).
#[unsafe(no_mangle)]
pub extern "C" fn reference_hash_economy(seed: u64, rounds: u32, normal: u32) -> *const u8 {
    use orbis_engine::rules::classic::BotLevel;
    let level = if normal != 0 {
        BotLevel::Normal
    } else {
        BotLevel::Easy
    };
    put(&orbis_engine::sim::economy_reference_hash(
        seed, level, rounds,
    ))
}

fn put(hex: &str) -> *const u8 {
    let mut out = OUT.lock().unwrap_or_else(|e| e.into_inner());
    let bytes = hex.as_bytes();
    let n = bytes.len().min(64);
    out[..n].copy_from_slice(&bytes[..n]);
    out.as_ptr()
}
