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

/// An orders game of seven `hard` computer powers on Europe 1901 until the end of `max_year`
/// (as `orbis tournament --ruleset orders --seats hard×7 --games 1 --seed <seed> --max-year
/// <max_year>`): `hard`'s search decides the same in wasm.
#[unsafe(no_mangle)]
pub extern "C" fn reference_hash_orders_hard(seed: u64, max_year: u32) -> *const u8 {
    use orbis_engine::rules::classic::BotLevel;
    let year = u16::try_from(max_year).unwrap_or(1901);
    put(&orbis_engine::sim::orders_reference_hash(
        seed,
        BotLevel::Hard,
        year,
    ))
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

/// The deal's cryptography, timed from the host (`tests/bench-deal.mjs`): wasm has no clock of
/// its own here, so each export does one step and the host measures it.
mod deal {
    use orbis_deal::cipher::{open_deck, Ciphertext};
    use orbis_deal::curve25519_dalek::ristretto::RistrettoPoint;
    use orbis_deal::keys::{joint_key, SecretShare};
    use orbis_deal::share::{decryption_share, open, verify_share};
    use orbis_deal::shuffle::{shuffle, verify_shuffle, ShuffleProof};
    use rand_chacha3::rand_core::SeedableRng;
    use rand_chacha3::ChaCha20Rng;
    use std::sync::Mutex;

    const DECK: &[u8] = b"territory";

    struct Bench {
        rng: ChaCha20Rng,
        secrets: Vec<SecretShare>,
        keys: Vec<RistrettoPoint>,
        joint: RistrettoPoint,
        cards: u16,
        deck: Vec<Ciphertext>,
        last: Option<(Vec<Ciphertext>, ShuffleProof)>,
        drawn: usize,
    }

    static BENCH: Mutex<Option<Bench>> = Mutex::new(None);

    fn with<T>(f: impl FnOnce(&mut Bench) -> T) -> Option<T> {
        let mut b = BENCH.lock().unwrap_or_else(|e| e.into_inner());
        b.as_mut().map(f)
    }

    /// A table of `players` with their keys and the open deck of `cards` cards.
    #[unsafe(no_mangle)]
    pub extern "C" fn deal_setup(players: u32, cards: u32) {
        let mut rng = ChaCha20Rng::from_seed([1; 32]);
        let secrets: Vec<SecretShare> = (0..players.clamp(1, 16))
            .map(|_| SecretShare::generate(&mut rng))
            .collect();
        let keys: Vec<RistrettoPoint> = secrets.iter().map(SecretShare::key).collect();
        let cards = cards.clamp(1, 1000) as u16;
        let bench = Bench {
            rng,
            joint: joint_key(&keys),
            keys,
            secrets,
            cards,
            deck: open_deck(DECK, cards),
            last: None,
            drawn: 0,
        };
        *BENCH.lock().unwrap_or_else(|e| e.into_inner()) = Some(bench);
    }

    /// One participant's shuffle of the current deck, with its proof.
    #[unsafe(no_mangle)]
    pub extern "C" fn deal_shuffle() -> u32 {
        with(|b| {
            let done = shuffle(b"bench", &b.joint, &b.deck, &mut b.rng).ok();
            b.last = done;
            u32::from(b.last.is_some())
        })
        .unwrap_or(0)
    }

    /// Checks the last shuffle; 1 when it verifies (the deck moves on to its output).
    #[unsafe(no_mangle)]
    pub extern "C" fn deal_verify() -> u32 {
        with(|b| {
            let Some((out, proof)) = b.last.take() else {
                return 0;
            };
            let ok = verify_shuffle(b"bench", &b.joint, &b.deck, &out, &proof).is_ok();
            b.deck = out;
            u32::from(ok)
        })
        .unwrap_or(0)
    }

    /// One draw: every participant's share of the next card, made and checked, and the card
    /// opened. Returns the card's id, or `u32::MAX` on a failure.
    #[unsafe(no_mangle)]
    pub extern "C" fn deal_draw() -> u32 {
        with(|b| {
            let at = b.drawn % b.deck.len();
            b.drawn += 1;
            let ct = b.deck[at];
            let mut shares = vec![];
            for (s, k) in b.secrets.iter().zip(&b.keys) {
                let Ok(d) = decryption_share(b"draw", s, &ct, &mut b.rng) else {
                    return u32::MAX;
                };
                match verify_share(b"draw", k, &ct, &d) {
                    Ok(p) => shares.push(p),
                    Err(_) => return u32::MAX,
                }
            }
            open(DECK, b.cards, &ct, &shares).map_or(u32::MAX, u32::from)
        })
        .unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::deal::*;

    /// The deal of `tests/wasm-determinism.mjs`: three seats shuffle the territory deck, and
    /// positions 0 to 5 are read. The same seeds give the same cards in wasm.
    fn cards() -> Vec<u32> {
        deal_setup(3, 44);
        for _ in 0..3 {
            assert_eq!(deal_shuffle(), 1);
            assert_eq!(deal_verify(), 1);
        }
        (0..6).map(|_| deal_draw()).collect()
    }

    #[test]
    fn the_reference_deal() {
        // Also asserted of the wasm build by tests/wasm-determinism.mjs.
        assert_eq!(cards(), vec![38, 9, 18, 40, 29, 36]);
    }
}
