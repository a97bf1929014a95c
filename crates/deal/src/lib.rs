//! Dealing hidden cards without a dealer ("mental poker", after Barnett–Smart, "Mental Poker
//! Revisited"): every participant holds a share of one ElGamal key on ristretto255; the deck
//! starts as the public cards, every participant in turn shuffles and re-encrypts it with a
//! proof that the output is a permutation of the input; a card is read by whoever collects a
//! decryption share from every other participant, each share with a proof that it is honest.
//!
//! The crate is pure and sans-I/O: the caller brings the randomness (`rand_core` 0.6) and moves
//! the messages. Every proof is bound to a `context` (the game id and what is being dealt), so a
//! proof from one game or deck is worthless in another.
//!
//! - [`keys`]: key shares with a proof of knowledge, and the joint key;
//! - [`cipher`]: cards as group elements, ciphertexts, the open deck;
//! - [`shuffle`]: a shuffle and re-encryption with a Terelius–Wikström proof of a shuffle (the
//!   permutation stays secret: no difference between input and output is published);
//! - [`share`]: decryption shares with Chaum–Pedersen proofs, opening a card, and showing it to
//!   everyone;
//! - [`escrow`]: each key share split among the other participants, so that all of them
//!   together can stand in for one who stops answering;
//! - [`sealed`]: bytes sealed to an ed25519 identity key (private chat), with the escrow's
//!   Diffie–Hellman seal;
//! - [`table`]: the whole deal as one participant runs it (keys, escrows, shuffles in seat
//!   order, draws, reveals), refusing and naming any participant whose message fails.
//!
//! Invariant: every function that reads bytes from another peer (points, scalars, proofs)
//! returns a [`DealError`] saying what failed; nothing here panics on hostile input.

pub mod cipher;
mod dleq;
mod error;
pub mod escrow;
pub mod keys;
pub mod sealed;
pub mod share;
pub mod shuffle;
pub mod table;
mod transcript;

/// The group library, for callers that name its points and scalars.
pub use curve25519_dalek;
pub use error::DealError;
