//! The table's randomness: every proof's and shuffle's generator is derived from the table's secret
//! seed and the statement it serves, so a reload makes the same messages and no nonce serves two
//! statements.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};

/// A generator seeded by `seed`, `label` and `context` (SHA-256 of the three).
pub(super) fn rng_for(seed: &[u8; 32], label: &[u8], context: &[u8]) -> TableRng {
    let mut h = Sha256::new();
    h.update(b"orbis-deal-rng\0");
    h.update(seed);
    h.update(label);
    h.update([0]);
    h.update(context);
    TableRng(rand_chacha::ChaCha20Rng::from_seed(h.finalize().into()))
}

/// ChaCha20 (rand_chacha 0.9, the engine's) behind the rand_core 0.6 traits that
/// curve25519-dalek and merlin take. rand_chacha 0.3's ChaCha20Rng, which the deal used before,
/// gives the very same stream for the same calls (`same_stream_as_rand_chacha_0_3`); one ChaCha
/// in the online page instead of two.
pub(crate) struct TableRng(rand_chacha::ChaCha20Rng);

impl rand_core6::RngCore for TableRng {
    fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.0.fill_bytes(dest)
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core6::Error> {
        self.0.fill_bytes(dest);
        Ok(())
    }
}

impl rand_core6::CryptoRng for TableRng {}

#[cfg(test)]
mod rng_tests {
    use super::*;
    use rand_core6::RngCore as New;

    /// Any mix of calls reads the same bytes from TableRng as from rand_chacha 0.3's generator.
    #[test]
    fn same_stream_as_rand_chacha_0_3() {
        use rand_chacha3::rand_core::{RngCore as Old, SeedableRng as _};
        for seed in 0..8u8 {
            let mut old = rand_chacha3::ChaCha20Rng::from_seed([seed; 32]);
            let mut new = TableRng(rand_chacha::ChaCha20Rng::from_seed([seed; 32]));
            let mut x = u64::from(seed);
            for _ in 0..2000 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                match (x >> 60) % 4 {
                    0 => assert_eq!(Old::next_u32(&mut old), New::next_u32(&mut new)),
                    1 => assert_eq!(Old::next_u64(&mut old), New::next_u64(&mut new)),
                    _ => {
                        let n = ((x >> 32) % 300) as usize;
                        let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
                        Old::fill_bytes(&mut old, &mut a);
                        New::fill_bytes(&mut new, &mut b);
                        assert_eq!(a, b);
                    }
                }
            }
        }
    }
}
