//! Why a message of the deal was refused.

use std::fmt;

/// A message of the deal that does not check out. Each names what failed, so that the peer
/// who sent it can be named as a cheat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealError {
    /// Bytes that are not a point of the group.
    NotAPoint(&'static str),
    /// A key share whose proof of knowledge fails.
    KeyProof,
    /// A shuffle's output or proof has the wrong number of entries.
    Length { expected: u32, got: u32 },
    /// A shuffle whose proof fails: the output is not the input permuted and re-encrypted.
    ShuffleProof(&'static str),
    /// A decryption share whose proof fails.
    ShareProof,
    /// An opened card is none of the cards dealt.
    UnknownCard,
    /// A key share's escrow, or a complaint about it, does not check out.
    Escrow(&'static str),
    /// A secret published at the end is not the one behind its key.
    Secret,
    /// Two different signed messages from one seat for one slot of the deal (its key, its
    /// escrow, its shuffle of a deck): whoever sends both told different peers different things.
    Conflict(&'static str),
}

impl fmt::Display for DealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealError::NotAPoint(what) => write!(f, "{what} is not a valid group element"),
            DealError::KeyProof => f.write_str("the proof of knowledge of a key share fails"),
            DealError::Length { expected, got } => {
                write!(f, "expected {expected} entries, got {got}")
            }
            DealError::ShuffleProof(step) => write!(f, "the shuffle proof fails ({step})"),
            DealError::ShareProof => f.write_str("the proof of a decryption share fails"),
            DealError::UnknownCard => f.write_str("the opened card is not one of the deck"),
            DealError::Escrow(why) => write!(f, "escrow: {why}"),
            DealError::Secret => f.write_str("the secret published at the end is not its key's"),
            DealError::Conflict(what) => write!(f, "equivocation: {what}"),
        }
    }
}

impl std::error::Error for DealError {}
