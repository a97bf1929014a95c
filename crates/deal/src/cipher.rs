//! Cards and ciphertexts. A card is a fixed group element, the hash-to-point of its id, so that
//! nobody knows a relation between two cards. A ciphertext under key `K` is `(rG, M + rK)`;
//! re-encrypting adds `(sG, sK)`, which changes every byte but not the card.

use crate::error::DealError;
use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::Identity;
use serde::{Deserialize, Serialize};
use sha2::Sha512;

/// A card's id: its index in the deck it was dealt from.
pub type CardId = u16;

/// The group element standing for card `id` of deck `deck` (a deck name such as `b"territory"`).
pub fn card_point(deck: &[u8], id: CardId) -> RistrettoPoint {
    let mut bytes = b"orbis card\0".to_vec();
    bytes.extend_from_slice(deck);
    bytes.push(0);
    bytes.extend_from_slice(&id.to_le_bytes());
    RistrettoPoint::hash_from_bytes::<Sha512>(&bytes)
}

/// An ElGamal ciphertext as it travels: two compressed points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ciphertext {
    pub c1: CompressedRistretto,
    pub c2: CompressedRistretto,
}

/// A ciphertext with its points decompressed, for computing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Points {
    pub c1: RistrettoPoint,
    pub c2: RistrettoPoint,
}

impl Ciphertext {
    pub(crate) fn points(&self) -> Result<Points, DealError> {
        let bad = DealError::NotAPoint("a ciphertext");
        Ok(Points {
            c1: self.c1.decompress().ok_or(bad.clone())?,
            c2: self.c2.decompress().ok_or(bad)?,
        })
    }
}

impl Points {
    pub(crate) fn compress(&self) -> Ciphertext {
        Ciphertext {
            c1: self.c1.compress(),
            c2: self.c2.compress(),
        }
    }

    /// The same card, encrypted afresh with `s` under `key`.
    pub(crate) fn rerandomize(&self, key: &RistrettoPoint, s: &Scalar) -> Points {
        Points {
            c1: self.c1 + RistrettoPoint::mul_base(s),
            c2: self.c2 + s * key,
        }
    }
}

/// The deck before anyone shuffled it: every card face up, `(0, M)`.
pub fn open_deck(deck: &[u8], cards: CardId) -> Vec<Ciphertext> {
    (0..cards)
        .map(|id| {
            Points {
                c1: RistrettoPoint::identity(),
                c2: card_point(deck, id),
            }
            .compress()
        })
        .collect()
}

/// Which card of `deck` (of `cards` cards) the element `m` is.
pub fn card_of(deck: &[u8], cards: CardId, m: &RistrettoPoint) -> Result<CardId, DealError> {
    (0..cards)
        .find(|&id| card_point(deck, id) == *m)
        .ok_or(DealError::UnknownCard)
}
