//! A shuffle with a proof that its output is its input permuted and re-encrypted, revealing
//! nothing about the permutation: the commitment-consistent proof of a shuffle of Terelius and
//! Wikström ("Proofs of Restricted Shuffles", 2010), as laid out in the pseudo-code of Haenni,
//! Locher, Koenig and Dubuis ("Pseudo-Code Algorithms for Verifiable Re-Encryption Mix-Nets",
//! 2017), written additively for ristretto255 with a merlin transcript for Fiat–Shamir.
//!
//! Output `i` is input `ψ(i)` re-encrypted with `ρ_i`. The prover commits to ψ with Pedersen
//! commitments `c_ψ(i) = r_ψ(i)·G + h_i` on independent generators `h_i`, and proves with one
//! sigma protocol that the committed matrix is a permutation (a commitment chain over the
//! challenges `u`) and that `Σ u'_i·e'_i = Σ u_j·e_j + Enc(0; Σ ρ_i·u'_i)` for `u'_i = u_ψ(i)`.
//! A shuffle that drops, duplicates or replaces a card fails the proof.
//!
//! Costs for `N` cards: the prover about `7N` scalar multiplications, the verifier four
//! multi-scalar multiplications of size `N` and `N` small ones; the proof is `5N + 9` group
//! elements and scalars of 32 bytes.

use crate::cipher::{Ciphertext, Points};
use crate::error::DealError;
use crate::transcript::{self, TranscriptExt};
use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::{MultiscalarMul, VartimeMultiscalarMul};
use merlin::Transcript;
use rand_core6::CryptoRngCore;
use serde::{Deserialize, Serialize};
use sha2::Sha512;

/// The proof that accompanies a shuffled deck.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShuffleProof {
    /// Commitments to the permutation, one per card.
    pub commitments: Vec<CompressedRistretto>,
    /// The commitment chain over the permuted challenges, one per card.
    pub chain: Vec<CompressedRistretto>,
    pub t1: CompressedRistretto,
    pub t2: CompressedRistretto,
    pub t3: CompressedRistretto,
    pub t4: (CompressedRistretto, CompressedRistretto),
    pub t_hat: Vec<CompressedRistretto>,
    pub s1: Scalar,
    pub s2: Scalar,
    pub s3: Scalar,
    pub s4: Scalar,
    pub s_hat: Vec<Scalar>,
    pub s_prime: Vec<Scalar>,
}

/// The independent generators `h` and `h_0 … h_{n-1}`: hashes to the group, so that nobody
/// knows a relation between them or with `G`.
fn generators(n: usize) -> (RistrettoPoint, Vec<RistrettoPoint>) {
    let g = |i: u64| {
        let mut b = b"orbis deal generator\0".to_vec();
        b.extend_from_slice(&i.to_le_bytes());
        RistrettoPoint::hash_from_bytes::<Sha512>(&b)
    };
    (g(u64::MAX), (0..n as u64).map(g).collect())
}

/// The statement: the key, both decks and the commitments; then the challenges `u`.
fn statement(
    context: &[u8],
    key: &RistrettoPoint,
    input: &[Ciphertext],
    output: &[Ciphertext],
    commitments: &[CompressedRistretto],
) -> (Transcript, Vec<Scalar>) {
    let mut tr = transcript::start(b"shuffle", context);
    tr.point(b"key", &key.compress());
    for (label, deck) in [(&b"input"[..], input), (&b"output"[..], output)] {
        tr.append_u64(b"cards", deck.len() as u64);
        for c in deck {
            tr.append_message(label, c.c1.as_bytes());
            tr.append_message(label, c.c2.as_bytes());
        }
    }
    tr.points(b"commitments", commitments);
    let u = (0..input.len())
        .map(|_| tr.scalar_challenge(b"u"))
        .collect();
    (tr, u)
}

/// The challenge `c` once the chain and the prover's first messages are in.
fn challenge(tr: &mut Transcript, p: &ShuffleProof) -> Scalar {
    tr.points(b"chain", &p.chain);
    for t in [&p.t1, &p.t2, &p.t3, &p.t4.0, &p.t4.1] {
        tr.point(b"t", t);
    }
    tr.points(b"t_hat", &p.t_hat);
    tr.scalar_challenge(b"c")
}

/// A random permutation of `0..n` (Fisher–Yates, unbiased).
fn permutation(n: usize, rng: &mut impl CryptoRngCore) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        // Rejection sampling on u64: no modulo bias.
        let bound = (i + 1) as u64;
        let zone = u64::MAX - u64::MAX % bound;
        let j = loop {
            let x = rng.next_u64();
            if x < zone {
                break (x % bound) as usize;
            }
        };
        p.swap(i, j);
    }
    p
}

/// `Σ sᵢ·Pᵢ` in constant time: the prover's scalars are secret.
fn secret_msm(s: &[Scalar], p: &[RistrettoPoint]) -> RistrettoPoint {
    RistrettoPoint::multiscalar_mul(s, p)
}

/// Shuffles and re-encrypts `input` under `key`, with a proof bound to `context`.
pub fn shuffle(
    context: &[u8],
    key: &RistrettoPoint,
    input: &[Ciphertext],
    rng: &mut impl CryptoRngCore,
) -> Result<(Vec<Ciphertext>, ShuffleProof), DealError> {
    let n = input.len();
    let e: Vec<Points> = input
        .iter()
        .map(Ciphertext::points)
        .collect::<Result<_, _>>()?;
    // Every random choice (the permutation, re-encryptions, commitments, nonces) depends on the
    // deck shuffled: the same position with another deck never repeats them.
    let mut bound = transcript::start(b"shuffle nonce", context);
    bound.append_message(b"key", key.compress().as_bytes());
    for c in input {
        bound.append_message(b"c1", c.c1.as_bytes());
        bound.append_message(b"c2", c.c2.as_bytes());
    }
    let rng = &mut transcript::prover_rng(&bound, &[], rng);
    let psi = permutation(n, rng);
    let rho: Vec<Scalar> = (0..n).map(|_| Scalar::random(rng)).collect();
    let out: Vec<Points> = (0..n)
        .map(|i| e[psi[i]].rerandomize(key, &rho[i]))
        .collect();
    let output: Vec<Ciphertext> = out.iter().map(Points::compress).collect();

    let (h0, h) = generators(n);
    // c_ψ(i) = r_ψ(i)·G + h_i
    let r: Vec<Scalar> = (0..n).map(|_| Scalar::random(rng)).collect();
    let mut commitments = vec![CompressedRistretto::default(); n];
    for i in 0..n {
        let j = psi[i];
        commitments[j] = (RistrettoPoint::mul_base(&r[j]) + h[i]).compress();
    }
    let (mut tr, u) = statement(context, key, input, &output, &commitments);
    let u_p: Vec<Scalar> = (0..n).map(|i| u[psi[i]]).collect();

    // ĉ_i = r̂_i·G + u'_i·ĉ_{i-1}, ĉ_{-1} = h
    let r_hat: Vec<Scalar> = (0..n).map(|_| Scalar::random(rng)).collect();
    let mut chain_pts = Vec::with_capacity(n);
    let mut prev = h0;
    for i in 0..n {
        prev = RistrettoPoint::mul_base(&r_hat[i]) + u_p[i] * prev;
        chain_pts.push(prev);
    }
    let [w1, w2, w3, w4] = [(); 4].map(|_| Scalar::random(rng));
    let w_hat: Vec<Scalar> = (0..n).map(|_| Scalar::random(rng)).collect();
    let w_p: Vec<Scalar> = (0..n).map(|_| Scalar::random(rng)).collect();
    let t3 = RistrettoPoint::mul_base(&w3) + secret_msm(&w_p, &h);
    let c1s: Vec<RistrettoPoint> = out.iter().map(|x| x.c1).collect();
    let c2s: Vec<RistrettoPoint> = out.iter().map(|x| x.c2).collect();
    let t41 = -RistrettoPoint::mul_base(&w4) + secret_msm(&w_p, &c1s);
    let t42 = -(w4 * key) + secret_msm(&w_p, &c2s);
    let t_hat: Vec<CompressedRistretto> = (0..n)
        .map(|i| {
            let before = if i == 0 { h0 } else { chain_pts[i - 1] };
            (RistrettoPoint::mul_base(&w_hat[i]) + w_p[i] * before).compress()
        })
        .collect();
    let mut proof = ShuffleProof {
        commitments,
        chain: chain_pts.iter().map(RistrettoPoint::compress).collect(),
        t1: RistrettoPoint::mul_base(&w1).compress(),
        t2: RistrettoPoint::mul_base(&w2).compress(),
        t3: t3.compress(),
        t4: (t41.compress(), t42.compress()),
        t_hat,
        s1: Scalar::ZERO,
        s2: Scalar::ZERO,
        s3: Scalar::ZERO,
        s4: Scalar::ZERO,
        s_hat: vec![],
        s_prime: vec![],
    };
    let c = challenge(&mut tr, &proof);
    // v_{n-1} = 1, v_{i-1} = u'_i·v_i: what r̂_i is multiplied by along the rest of the chain.
    let mut v = vec![Scalar::ONE; n];
    for i in (1..n).rev() {
        v[i - 1] = u_p[i] * v[i];
    }
    let r_bar: Scalar = r.iter().sum();
    let r_hat_sum: Scalar = r_hat.iter().zip(&v).map(|(a, b)| a * b).sum();
    let r_u: Scalar = r.iter().zip(&u).map(|(a, b)| a * b).sum();
    let rho_u: Scalar = rho.iter().zip(&u_p).map(|(a, b)| a * b).sum();
    proof.s1 = w1 + c * r_bar;
    proof.s2 = w2 + c * r_hat_sum;
    proof.s3 = w3 + c * r_u;
    proof.s4 = w4 + c * rho_u;
    proof.s_hat = (0..n).map(|i| w_hat[i] + c * r_hat[i]).collect();
    proof.s_prime = (0..n).map(|i| w_p[i] + c * u_p[i]).collect();
    Ok((output, proof))
}

/// Checks that `output` is `input` permuted and re-encrypted under `key`.
pub fn verify_shuffle(
    context: &[u8],
    key: &RistrettoPoint,
    input: &[Ciphertext],
    output: &[Ciphertext],
    proof: &ShuffleProof,
) -> Result<(), DealError> {
    let n = input.len();
    let lengths = [
        output.len(),
        proof.commitments.len(),
        proof.chain.len(),
        proof.t_hat.len(),
        proof.s_hat.len(),
        proof.s_prime.len(),
    ];
    if let Some(&got) = lengths.iter().find(|&&l| l != n) {
        return Err(DealError::Length {
            expected: n as u32,
            got: got as u32,
        });
    }
    let pt = |c: &CompressedRistretto| {
        c.decompress()
            .ok_or(DealError::NotAPoint("a shuffle proof"))
    };
    let e: Vec<Points> = input
        .iter()
        .map(Ciphertext::points)
        .collect::<Result<_, _>>()?;
    let out: Vec<Points> = output
        .iter()
        .map(Ciphertext::points)
        .collect::<Result<_, _>>()?;
    let cs: Vec<RistrettoPoint> = proof.commitments.iter().map(pt).collect::<Result<_, _>>()?;
    let chain: Vec<RistrettoPoint> = proof.chain.iter().map(pt).collect::<Result<_, _>>()?;
    let (t1, t2, t3, t41, t42) = (
        pt(&proof.t1)?,
        pt(&proof.t2)?,
        pt(&proof.t3)?,
        pt(&proof.t4.0)?,
        pt(&proof.t4.1)?,
    );
    let t_hat: Vec<RistrettoPoint> = proof.t_hat.iter().map(pt).collect::<Result<_, _>>()?;

    let (mut tr, u) = statement(context, key, input, output, &proof.commitments);
    let c = challenge(&mut tr, proof);
    let (h0, h) = generators(n);
    let msm = |s: &[Scalar], p: &[RistrettoPoint]| RistrettoPoint::vartime_multiscalar_mul(s, p);

    // t1: the commitments open to the sum of the r's.
    let c_bar: RistrettoPoint =
        cs.iter().sum::<RistrettoPoint>() - h.iter().sum::<RistrettoPoint>();
    if -(c * c_bar) + RistrettoPoint::mul_base(&proof.s1) != t1 {
        return Err(DealError::ShuffleProof("permutation commitments"));
    }
    // t2: the chain ends in h times the product of the challenges.
    let u_prod: Scalar = u.iter().product();
    let last = chain.last().copied().unwrap_or(h0);
    let c_hat = last - u_prod * h0;
    if -(c * c_hat) + RistrettoPoint::mul_base(&proof.s2) != t2 {
        return Err(DealError::ShuffleProof("commitment chain"));
    }
    // t3: the commitments weighted by u open to the permuted challenges.
    let c_tilde = msm(&u, &cs);
    if -(c * c_tilde) + RistrettoPoint::mul_base(&proof.s3) + msm(&proof.s_prime, &h) != t3 {
        return Err(DealError::ShuffleProof("permuted challenges"));
    }
    // t4: the output weighted by u' is the input weighted by u, re-encrypted.
    let in1: Vec<RistrettoPoint> = e.iter().map(|x| x.c1).collect();
    let in2: Vec<RistrettoPoint> = e.iter().map(|x| x.c2).collect();
    let o1: Vec<RistrettoPoint> = out.iter().map(|x| x.c1).collect();
    let o2: Vec<RistrettoPoint> = out.iter().map(|x| x.c2).collect();
    let t41_v =
        -(c * msm(&u, &in1)) - RistrettoPoint::mul_base(&proof.s4) + msm(&proof.s_prime, &o1);
    let t42_v = -(c * msm(&u, &in2)) - proof.s4 * key + msm(&proof.s_prime, &o2);
    if t41_v != t41 || t42_v != t42 {
        return Err(DealError::ShuffleProof("re-encryption"));
    }
    // t̂: each link of the chain.
    for i in 0..n {
        let before = if i == 0 { h0 } else { chain[i - 1] };
        let v = msm(&[-c, proof.s_prime[i]], &[chain[i], before])
            + RistrettoPoint::mul_base(&proof.s_hat[i]);
        if v != t_hat[i] {
            return Err(DealError::ShuffleProof("chain link"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cipher::open_deck;
    use rand_chacha3::rand_core::SeedableRng;
    use rand_chacha3::ChaCha20Rng;

    /// Issue 30, A3, attacked: the same shuffler at the same position (a reload with the same
    /// seed) shuffles two different decks. Were its random choices the same, the responses
    /// `s′ᵢ = w′ᵢ + c·u_ψ(i)` of the two proofs would differ by `c₁·u₁[ψ(i)] − c₂·u₂[ψ(i)]`, and
    /// matching those differences against every `j` would give away its whole permutation ψ.
    /// The choices are bound to the deck, so no position matches.
    #[test]
    fn two_shuffles_at_one_position_of_two_decks_do_not_give_away_the_permutation() {
        let key = RistrettoPoint::mul_base(&Scalar::from(42u64));
        let n = 8;
        let first = open_deck(b"cards", n);
        // A second deck: the first, re-encrypted (as another history would have it).
        let second: Vec<Ciphertext> = first
            .iter()
            .map(|c| {
                c.points()
                    .expect("a deck")
                    .rerandomize(&key, &Scalar::from(5u64))
                    .compress()
            })
            .collect();
        let run = |input: &[Ciphertext]| {
            let mut rng = ChaCha20Rng::from_seed([3; 32]);
            let (output, proof) = shuffle(b"game 1 deck 0", &key, input, &mut rng).unwrap();
            verify_shuffle(b"game 1 deck 0", &key, input, &output, &proof).unwrap();
            let (mut tr, u) = statement(b"game 1 deck 0", &key, input, &output, &proof.commitments);
            let c = challenge(&mut tr, &proof);
            (proof, u, c)
        };
        let (p1, u1, c1) = run(&first);
        let (p2, u2, c2) = run(&second);
        let matched = (0..n as usize)
            .filter(|&i| {
                let d = p1.s_prime[i] - p2.s_prime[i];
                (0..n as usize).any(|j| d == c1 * u1[j] - c2 * u2[j])
            })
            .count();
        assert_eq!(matched, 0, "the two proofs gave away the permutation");
        assert_ne!(p1.t1, p2.t1, "a nonce was used twice");
    }
}
