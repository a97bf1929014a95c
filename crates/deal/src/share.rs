//! Reading a card: each participant sends the holder a decryption share `x·c1` of the card's
//! ciphertext with a Chaum–Pedersen proof that it used the same `x` as in its published key
//! (`log_G X = log_c1 (x·c1)`); the holder subtracts every share from `c2` and finds the card.
//! A share sent to the holder alone shows the card to the holder alone.

use crate::cipher::{card_of, CardId, Ciphertext};
use crate::dleq;
use crate::error::DealError;
use crate::keys::SecretShare;
use crate::transcript::{self, TranscriptExt};
use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use merlin::Transcript;
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

/// The statement of a share's proof.
fn statement(
    context: &[u8],
    key: &RistrettoPoint,
    ct: &Ciphertext,
    share: &CompressedRistretto,
) -> Transcript {
    let mut tr = transcript::start(b"decryption share", context);
    tr.point(b"key", &key.compress());
    tr.point(b"c1", &ct.c1);
    tr.point(b"c2", &ct.c2);
    tr.point(b"share", share);
    tr
}

/// `secret`'s share of `ct`, with a proof bound to `context`.
pub fn decryption_share(
    context: &[u8],
    secret: &SecretShare,
    ct: &Ciphertext,
    rng: &mut impl CryptoRngCore,
) -> Result<DecryptionShare, DealError> {
    let c1 = ct.points()?.c1;
    let share = (secret.0 * c1).compress();
    let tr = statement(context, &secret.key(), ct, &share);
    let p = dleq::prove(tr, &secret.0, &c1, rng);
    Ok(DecryptionShare {
        share,
        t_g: p.t_g,
        t_c: p.t_b,
        response: p.response,
    })
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
    let proof = dleq::Proof {
        t_g: d.t_g,
        t_b: d.t_c,
        response: d.response,
    };
    let tr = statement(context, key, ct, &d.share);
    match dleq::holds(tr, key, &c1, &share, &proof) {
        Some(true) => Ok(share),
        Some(false) => Err(DealError::ShareProof),
        None => Err(bad),
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
