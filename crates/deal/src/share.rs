//! Reading a card: each participant sends the holder a decryption share `x·c1` of the card's
//! ciphertext with a Chaum–Pedersen proof that it used the same `x` as in its published key
//! (`log_G X = log_c1 (x·c1)`); the holder subtracts every share from `c2` and finds the card.
//! A share sent to the holder alone shows the card to the holder alone.

use crate::cipher::{card_of, CardId, Ciphertext};
use crate::error::DealError;
use crate::keys::SecretShare;
use crate::transcript::{self, TranscriptExt};
use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use rand_core6::CryptoRngCore;
use serde::{Deserialize, Serialize};

/// One participant's decryption share of one ciphertext, with its proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecryptionShare {
    pub share: CompressedRistretto,
    pub t_g: CompressedRistretto,
    pub t_c: CompressedRistretto,
    pub response: Scalar,
}

fn challenge(context: &[u8], key: &RistrettoPoint, ct: &Ciphertext, d: &DecryptionShare) -> Scalar {
    let mut tr = transcript::start(b"decryption share", context);
    tr.point(b"key", &key.compress());
    tr.point(b"c1", &ct.c1);
    tr.point(b"c2", &ct.c2);
    tr.point(b"share", &d.share);
    tr.point(b"t_g", &d.t_g);
    tr.point(b"t_c", &d.t_c);
    tr.scalar_challenge(b"challenge")
}

/// `secret`'s share of `ct`, with a proof bound to `context`.
pub fn decryption_share(
    context: &[u8],
    secret: &SecretShare,
    ct: &Ciphertext,
    rng: &mut impl CryptoRngCore,
) -> Result<DecryptionShare, DealError> {
    let c1 = ct.points()?.c1;
    let k = Scalar::random(rng);
    let mut d = DecryptionShare {
        share: (secret.0 * c1).compress(),
        t_g: RistrettoPoint::mul_base(&k).compress(),
        t_c: (k * c1).compress(),
        response: Scalar::ZERO,
    };
    let c = challenge(context, &secret.key(), ct, &d);
    d.response = k + c * secret.0;
    Ok(d)
}

/// Checks `d`, the share of `ct` from the participant whose key is `key`; returns the share.
pub fn verify_share(
    context: &[u8],
    key: &RistrettoPoint,
    ct: &Ciphertext,
    d: &DecryptionShare,
) -> Result<RistrettoPoint, DealError> {
    let c1 = ct.points()?.c1;
    let bad = DealError::NotAPoint("a decryption share");
    let share = d.share.decompress().ok_or(bad.clone())?;
    let t_g = d.t_g.decompress().ok_or(bad.clone())?;
    let t_c = d.t_c.decompress().ok_or(bad)?;
    let c = challenge(context, key, ct, d);
    let ok = RistrettoPoint::mul_base(&d.response) == t_g + c * key
        && d.response * c1 == t_c + c * share;
    if ok {
        Ok(share)
    } else {
        Err(DealError::ShareProof)
    }
}

/// The card in `ct` of deck `deck` (of `cards` cards), from every participant's verified share.
pub fn open(
    deck: &[u8],
    cards: CardId,
    ct: &Ciphertext,
    shares: &[RistrettoPoint],
) -> Result<CardId, DealError> {
    let m = ct.points()?.c2 - shares.iter().sum::<RistrettoPoint>();
    card_of(deck, cards, &m)
}

/// A card shown to everyone by its holder (a trade, a mission claimed, a hand handed over):
/// every participant's share of its ciphertext with the proofs, in seat order. The proofs were
/// made for the draw's context, so the holder can republish the shares it was sent, and anyone
/// can check them without trusting the holder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reveal {
    pub shares: Vec<DecryptionShare>,
}

/// Checks a reveal of `ct` drawn in `context` against every participant's key (in seat order);
/// returns the card. A share that fails names its seat.
pub fn verify_reveal(
    context: &[u8],
    keys: &[RistrettoPoint],
    deck: &[u8],
    cards: CardId,
    ct: &Ciphertext,
    reveal: &Reveal,
) -> Result<CardId, (Option<usize>, DealError)> {
    if reveal.shares.len() != keys.len() {
        let e = DealError::Length {
            expected: keys.len() as u32,
            got: reveal.shares.len() as u32,
        };
        return Err((None, e));
    }
    let mut points = Vec::with_capacity(keys.len());
    for (seat, (k, d)) in keys.iter().zip(&reveal.shares).enumerate() {
        points.push(verify_share(context, k, ct, d).map_err(|e| (Some(seat), e))?);
    }
    open(deck, cards, ct, &points).map_err(|e| (None, e))
}
