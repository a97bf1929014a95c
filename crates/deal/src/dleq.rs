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
    let k = Scalar::random(rng);
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
