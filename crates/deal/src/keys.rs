//! Key shares: each participant draws a secret scalar `x` and publishes `X = xG` with a Schnorr
//! proof that it knows `x`, bound to the context (game id and seat), so nobody can publish a key
//! computed from the others' keys to cancel them out of the joint key. The joint key is the
//! sum of the published keys; decrypting under it needs every participant's share.

use crate::error::DealError;
use crate::transcript::{self, TranscriptExt};
use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use rand_core6::CryptoRngCore;
use serde::{Deserialize, Serialize};

/// A participant's secret key share. Published at the end of a game, so that anyone can check
/// every step of the deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecretShare(pub(crate) Scalar);

/// A participant's public key share with its proof of knowledge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicShare {
    pub key: CompressedRistretto,
    pub commitment: CompressedRistretto,
    pub response: Scalar,
}

impl SecretShare {
    /// A fresh secret share.
    pub fn generate(rng: &mut impl CryptoRngCore) -> SecretShare {
        SecretShare(Scalar::random(rng))
    }

    /// The public share, with a proof of knowledge bound to `context`.
    pub fn public(&self, context: &[u8], rng: &mut impl CryptoRngCore) -> PublicShare {
        let key = RistrettoPoint::mul_base(&self.0).compress();
        let mut bound = crate::transcript::start(b"key share nonce", context);
        bound.append_message(b"key", key.as_bytes());
        let k = Scalar::random(&mut crate::transcript::prover_rng(
            &bound,
            self.0.as_bytes(),
            rng,
        ));
        let commitment = RistrettoPoint::mul_base(&k).compress();
        let c = challenge(context, &key, &commitment);
        PublicShare {
            key,
            commitment,
            response: k + c * self.0,
        }
    }

    /// The public key of this share, without a proof.
    pub fn key(&self) -> RistrettoPoint {
        RistrettoPoint::mul_base(&self.0)
    }

    /// The share as bytes (to publish at the end of a game).
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0.to_bytes()
    }

    /// The sum of two shares (a key share from its escrow's pieces).
    pub fn add(&self, other: &SecretShare) -> SecretShare {
        SecretShare(self.0 + other.0)
    }

    /// A share from bytes; `None` unless they are a canonical scalar.
    pub fn from_bytes(bytes: [u8; 32]) -> Option<SecretShare> {
        Option::from(Scalar::from_canonical_bytes(bytes)).map(SecretShare)
    }
}

fn challenge(context: &[u8], key: &CompressedRistretto, t: &CompressedRistretto) -> Scalar {
    let mut tr = transcript::start(b"key share", context);
    tr.point(b"key", key);
    tr.point(b"commitment", t);
    tr.scalar_challenge(b"challenge")
}

impl PublicShare {
    /// Checks the proof of knowledge; returns the key.
    pub fn verify(&self, context: &[u8]) -> Result<RistrettoPoint, DealError> {
        let key = self
            .key
            .decompress()
            .ok_or(DealError::NotAPoint("a key share"))?;
        let t = self
            .commitment
            .decompress()
            .ok_or(DealError::NotAPoint("a key proof"))?;
        let c = challenge(context, &self.key, &self.commitment);
        if RistrettoPoint::mul_base(&self.response) == t + c * key {
            Ok(key)
        } else {
            Err(DealError::KeyProof)
        }
    }

    /// True when `secret` is the secret of this share (checked when keys are published).
    pub fn belongs_to(&self, secret: &SecretShare) -> bool {
        secret.key().compress() == self.key
    }
}

/// The joint key: the sum of every participant's key.
pub fn joint_key(keys: &[RistrettoPoint]) -> RistrettoPoint {
    keys.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha3::rand_core::SeedableRng;
    use rand_chacha3::ChaCha20Rng;

    #[test]
    fn a_key_share_proves_knowledge_in_its_context_only() {
        let mut rng = ChaCha20Rng::from_seed([1; 32]);
        let s = SecretShare::generate(&mut rng);
        let p = s.public(b"game 1 seat 0", &mut rng);
        assert_eq!(p.verify(b"game 1 seat 0"), Ok(s.key()));
        assert_eq!(p.verify(b"game 2 seat 0"), Err(DealError::KeyProof));
        assert!(p.belongs_to(&s));
        // A key chosen to cancel another's, without knowing its secret, has no valid proof.
        let other = SecretShare::generate(&mut rng).public(b"game 1 seat 1", &mut rng);
        let forged = PublicShare {
            key: (RistrettoPoint::mul_base(&Scalar::ONE) - s.key()).compress(),
            ..other
        };
        assert_eq!(forged.verify(b"game 1 seat 1"), Err(DealError::KeyProof));
        let bad = PublicShare {
            key: CompressedRistretto([0xff; 32]),
            ..p
        };
        assert_eq!(
            bad.verify(b"game 1 seat 0"),
            Err(DealError::NotAPoint("a key share"))
        );
        assert_eq!(SecretShare::from_bytes(s.to_bytes()), Some(s));
    }
}
