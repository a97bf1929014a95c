//! Dice hash chains: `x_N = H(secret)`, `x_{k-1} = H(x_k)`, tip `x_0` committed at setup; the
//! pre-image `x_k` is revealed for the k-th roll, so each reveal is checked with one hash against
//! the previous one and nobody can choose it after committing.

use orbis_engine::codec::sha256;

/// One step of the chain.
pub fn step(x: &[u8; 32]) -> [u8; 32] {
    let mut b = [0u8; 44];
    b[..12].copy_from_slice(b"orbis-chain:");
    b[12..].copy_from_slice(x);
    sha256(&b)
}

/// `H^n(x)`.
pub fn step_n(x: &[u8; 32], n: u32) -> [u8; 32] {
    let mut y = *x;
    for _ in 0..n {
        y = step(&y);
    }
    y
}

/// Distance between stored checkpoints; deriving any element costs fewer hashes than this.
const STRIDE: u32 = 128;

/// A peer's own chain, stored as every `STRIDE`-th element so any pre-image is cheap to derive.
#[derive(Clone, Debug)]
pub struct HashChain {
    len: u32,
    /// `marks[j]` = `x_{len - j*STRIDE}` = `H^{j*STRIDE}(H(secret))`.
    marks: Vec<[u8; 32]>,
}

impl HashChain {
    /// Builds a chain of `len` usable pre-images from a secret (costs `len` hashes once).
    pub fn new(secret: [u8; 32], len: u32) -> HashChain {
        let len = len.max(1);
        let mut x = step(&secret); // x_len
        let mut marks = vec![x];
        let mut at = 0u32; // number of steps taken from x_len
        while at < len {
            let n = STRIDE.min(len - at);
            x = step_n(&x, n);
            at += n;
            if at.is_multiple_of(STRIDE) || at == len {
                marks.push(x);
            }
        }
        HashChain { len, marks }
    }

    /// Number of usable pre-images.
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Always false: a chain has at least one pre-image.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The committed tip `x_0`.
    pub fn tip(&self) -> [u8; 32] {
        self.get(0).unwrap_or([0; 32])
    }

    /// `x_k`, or `None` past the end of the chain.
    pub fn get(&self, k: u32) -> Option<[u8; 32]> {
        if k > self.len {
            return None;
        }
        // x_k = H^{len-k}(x_len); start from the mark at or below len-k steps.
        let steps = self.len - k;
        let j = steps / STRIDE;
        let base = *self.marks.get(j as usize)?;
        Some(step_n(&base, steps - j * STRIDE))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_link_to_the_tip() {
        for len in [1u32, 5, 127, 128, 129, 300] {
            let c = HashChain::new([9; 32], len);
            let mut prev = c.tip();
            for k in 1..=len {
                let x = c.get(k).unwrap();
                assert_eq!(step(&x), prev, "len {len} k {k}");
                prev = x;
            }
            assert_eq!(c.get(len + 1), None);
            assert_eq!(step_n(&c.get(len).unwrap(), len), c.tip());
        }
    }
}
