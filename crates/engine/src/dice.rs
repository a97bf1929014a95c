//! Randomness. Every random draw in a game goes through a [`Dice`] source.
//!
//! The default source is a ChaCha20 stream keyed by the game seed ([`SeededDice`]); its position is
//! part of the game state, so a saved game resumes the same stream. The peer-to-peer layer supplies
//! its own source (a per-roll seed from commit-reveal) behind the same trait.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};

/// A source of uniform random numbers.
pub trait Dice {
    /// A uniform `u32`.
    fn next_u32(&mut self) -> u32;

    /// A fair six-sided die, 1..=6, by rejection sampling (no modulo bias).
    fn d6(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }

    /// A uniform integer in `0..n` (`n` ≥ 1), by rejection sampling.
    fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "below(0)");
        // Largest multiple of n that fits in 2^32; draws at or above it are rejected.
        let zone = u32::MAX - (u32::MAX % n + 1) % n;
        loop {
            let x = self.next_u32();
            if x <= zone {
                return x % n;
            }
        }
    }
}

/// Fisher–Yates shuffle driven by a [`Dice`] source.
pub fn shuffle<T>(dice: &mut dyn Dice, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = dice.below(i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

/// A ChaCha20 stream from a 32-byte seed; serialisable as (seed, position).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeededDice {
    seed: [u8; 32],
    /// Number of 32-bit words consumed so far.
    position: u64,
    #[serde(skip, default = "no_rng")]
    rng: Option<ChaCha20Rng>,
}

fn no_rng() -> Option<ChaCha20Rng> {
    None
}

// bincode's own decoding (see `codec::decode_lean`): the same fields as serde's, the generator
// left to be rebuilt, as `#[serde(skip)]` does.
impl<Context> bincode::Decode<Context> for SeededDice {
    fn decode<D: bincode::de::Decoder<Context = Context>>(
        d: &mut D,
    ) -> Result<Self, bincode::error::DecodeError> {
        Ok(SeededDice {
            seed: bincode::Decode::decode(d)?,
            position: bincode::Decode::decode(d)?,
            rng: None,
        })
    }
}
bincode::impl_borrow_decode!(SeededDice);

// Equality ignores the cached generator, which is rebuilt from (seed, position) on demand.
impl PartialEq for SeededDice {
    fn eq(&self, other: &Self) -> bool {
        self.seed == other.seed && self.position == other.position
    }
}

impl Eq for SeededDice {}

impl SeededDice {
    /// A fresh stream at position 0.
    pub fn new(seed: [u8; 32]) -> Self {
        SeededDice {
            seed,
            position: 0,
            rng: None,
        }
    }

    /// The seed of this stream.
    pub fn seed(&self) -> [u8; 32] {
        self.seed
    }

    /// How many 32-bit words have been drawn.
    pub fn position(&self) -> u64 {
        self.position
    }

    fn rng(&mut self) -> &mut ChaCha20Rng {
        let (seed, position) = (self.seed, self.position);
        self.rng.get_or_insert_with(|| {
            let mut r = ChaCha20Rng::from_seed(seed);
            r.set_word_pos(position as u128);
            r
        })
    }
}

impl Dice for SeededDice {
    fn next_u32(&mut self) -> u32 {
        let x = self.rng().next_u32();
        self.position += 1;
        x
    }
}

/// Parses a seed written as 64 hexadecimal digits.
pub fn parse_seed_hex(s: &str) -> Result<[u8; 32], String> {
    let s = s.trim();
    if s.len() != 64 {
        return Err(format!(
            "a seed is 64 hexadecimal digits; got {} characters",
            s.len()
        ));
    }
    let mut out = [0u8; 32];
    for (i, chunk) in s.as_bytes().chunks(2).enumerate() {
        let hex = std::str::from_utf8(chunk).map_err(|_| "the seed is not ASCII".to_string())?;
        out[i] = u8::from_str_radix(hex, 16)
            .map_err(|_| format!("`{hex}` is not a hexadecimal byte"))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d6_is_in_range_and_roughly_uniform() {
        let mut d = SeededDice::new([7; 32]);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            let v = d.d6();
            assert!((1..=6).contains(&v));
            counts[v as usize - 1] += 1;
        }
        // Chi-square with 5 degrees of freedom; 20.5 is the 0.999 quantile.
        let chi: f64 = counts
            .iter()
            .map(|&c| (c as f64 - 10_000.0).powi(2) / 10_000.0)
            .sum();
        assert!(chi < 20.5, "chi-square {chi} counts {counts:?}");
    }

    #[test]
    fn rejection_zone_rejects_exactly_the_biased_tail() {
        struct Fixed(Vec<u32>);
        impl Dice for Fixed {
            fn next_u32(&mut self) -> u32 {
                self.0.remove(0)
            }
        }
        // 2^32 = 6 * 715827882 + 4: the top 4 values are rejected.
        let mut d = Fixed(vec![u32::MAX, u32::MAX - 3, u32::MAX - 4, 0]);
        assert_eq!(d.d6(), (u32::MAX - 4) as u8 % 6 + 1);
        assert_eq!(d.d6(), 1);
    }

    #[test]
    fn stream_resumes_from_serialised_position() {
        let mut a = SeededDice::new([3; 32]);
        for _ in 0..17 {
            a.d6();
        }
        let mut b = SeededDice::new([3; 32]);
        b.position = a.position;
        assert_eq!(
            (0..50).map(|_| a.d6()).collect::<Vec<_>>(),
            (0..50).map(|_| b.d6()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn seed_hex_parsing() {
        assert_eq!(parse_seed_hex(&"00".repeat(32)).unwrap(), [0; 32]);
        assert_eq!(parse_seed_hex(&"ff".repeat(32)).unwrap(), [255; 32]);
        assert!(parse_seed_hex("abc").is_err());
        assert!(parse_seed_hex(&"zz".repeat(32)).is_err());
    }
}
