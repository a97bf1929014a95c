//! The Chaum–Pedersen proof that one secret `x` gives both `X = x·G` and `D = x·B` for a second
//! base `B`: a decryption share (`B` the ciphertext's `c1`) and an escrow complaint (`B` the
//! seal's ephemeral point) are both this proof. The caller's transcript already holds the
//! statement (context, key, base, image); the commitments are absorbed here before the challenge.

use crate::transcript::TranscriptExt;
use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use merlin::Transcript;
use rand_core6::CryptoRngCore;

/// The commitments `k·G` and `k·B`, and the response `k + c·x`.
pub(crate) struct Proof {
    pub t_g: CompressedRistretto,
    pub t_b: CompressedRistretto,
    pub response: Scalar,
}

/// Proves with `x` that `log_G(x·G) = log_base(x·base)`.
pub(crate) fn prove(
    mut tr: Transcript,
    x: &Scalar,
    base: &RistrettoPoint,
    rng: &mut impl CryptoRngCore,
) -> Proof {
    // The nonce depends on the whole statement the caller's transcript holds.
    let k = Scalar::random(&mut crate::transcript::prover_rng(&tr, x.as_bytes(), rng));
    let t_g = RistrettoPoint::mul_base(&k).compress();
    let t_b = (k * base).compress();
    let c = challenge(&mut tr, &t_g, &t_b);
    Proof {
        t_g,
        t_b,
        response: k + c * x,
    }
}

/// Checks a proof that `log_G(key) = log_base(image)`; `None` when a commitment is no point.
pub(crate) fn holds(
    mut tr: Transcript,
    key: &RistrettoPoint,
    base: &RistrettoPoint,
    image: &RistrettoPoint,
    p: &Proof,
) -> Option<bool> {
    let t_g = p.t_g.decompress()?;
    let t_b = p.t_b.decompress()?;
    let c = challenge(&mut tr, &p.t_g, &p.t_b);
    Some(
        RistrettoPoint::mul_base(&p.response) == t_g + c * key
            && p.response * base == t_b + c * image,
    )
}

fn challenge(tr: &mut Transcript, t_g: &CompressedRistretto, t_b: &CompressedRistretto) -> Scalar {
    tr.point(b"t_g", t_g);
    tr.point(b"t_b", t_b);
    tr.scalar_challenge(b"challenge")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript;
    use rand_chacha3::rand_core::SeedableRng;
    use rand_chacha3::ChaCha20Rng;

    /// Issue 30, A3, attacked: a participant that reloads (same seed, same position) and is
    /// served a different history proves again with the same outer randomness for another
    /// statement. Were the nonce the same, `x = (r₁ − r₂) / (c₁ − c₂)` would give away its secret
    /// key from two proofs. The nonce is bound to the statement, so the attack finds nothing.
    #[test]
    fn two_proofs_at_one_position_for_two_statements_do_not_give_away_the_secret() {
        let x = Scalar::from(123_456_789u64);
        let key = RistrettoPoint::mul_base(&x);
        let bases = [
            RistrettoPoint::mul_base(&Scalar::from(7u64)),
            RistrettoPoint::mul_base(&Scalar::from(11u64)),
        ];
        let statement = |base: &RistrettoPoint| {
            let mut tr = transcript::start(b"test share", b"game 1 draw 4");
            tr.point(b"key", &key.compress());
            tr.point(b"base", &base.compress());
            tr.point(b"image", &(x * base).compress());
            tr
        };
        // The same position, hence the same outer randomness, after a reload.
        let proofs: Vec<Proof> = bases
            .iter()
            .map(|b| prove(statement(b), &x, b, &mut ChaCha20Rng::from_seed([9; 32])))
            .collect();
        for (b, p) in bases.iter().zip(&proofs) {
            assert_eq!(holds(statement(b), &key, b, &(x * b), p), Some(true));
        }
        let c: Vec<Scalar> = bases
            .iter()
            .zip(&proofs)
            .map(|(b, p)| challenge(&mut statement(b), &p.t_g, &p.t_b))
            .collect();
        let guess = (proofs[0].response - proofs[1].response) * (c[0] - c[1]).invert();
        assert_ne!(guess, x, "two proofs gave away the secret key");
        assert_ne!(proofs[0].t_g, proofs[1].t_g, "a nonce was used twice");
        // The same statement again proves the same way (a reload that sees the same history).
        let again = prove(
            statement(&bases[0]),
            &x,
            &bases[0],
            &mut ChaCha20Rng::from_seed([9; 32]),
        );
        assert_eq!(again.t_g, proofs[0].t_g);
    }
}
