//! Going on without a participant: each participant splits its secret key share `x` into pieces
//! `y_j`, one for every other participant, with `Σ y_j = x`, publishes the commitment `Y_j =
//! y_j·G` of each piece (anyone checks `Σ Y_j = X`) and seals each piece to its holder with a
//! Diffie–Hellman key. If the participant stops sending decryption shares, every other
//! participant sends its piece's share `y_j·c1` with a Chaum–Pedersen proof against `Y_j`, and
//! those add up to the missing share. Only all the others together can stand in for one
//! participant, so no coalition short of all the other players learns anything it could not
//! before.
//!
//! Invariant: an escrow has at least two holders. With a single other participant its one
//! piece would be the whole key share, handed to the only opponent (security review A1), so
//! [`escrow`] refuses to split a key for fewer than two holders and [`verify_escrow`] refuses
//! such an escrow: a deal of two has no escrow, and nobody can stand in for either participant.
//!
//! A participant who seals a wrong piece is caught: each holder unseals its piece as soon as
//! the escrow comes (before any shuffle, so before any card could be read), and on a wrong one
//! publishes the Diffie–Hellman point with a proof that it used its own key ([`Complaint`]);
//! anyone can then unseal the piece and see that it does not match its commitment. The point a
//! complaint publishes is `x_to·E`, which the sealer could compute itself (`e·X_to`): each
//! piece proves knowledge of `e`, so a sealer cannot aim a complaint at a point of its choice.

use crate::dleq;
use crate::error::DealError;
use crate::keys::SecretShare;
use crate::transcript::{self, TranscriptExt};
use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use merlin::Transcript;
use rand_core6::CryptoRngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// One piece of a participant's key share, sealed to the participant at seat `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EscrowPiece {
    pub to: u8,
    /// `y·G`: public, so that the pieces' shares can be checked.
    pub commitment: CompressedRistretto,
    /// `E = e·G` for the Diffie–Hellman key of the seal.
    pub ephemeral: CompressedRistretto,
    /// `y + H(e·X_to)`.
    pub sealed: Scalar,
    /// A Schnorr proof that the sealer knows `e` (commitment `k·G`, response `k + c·e`), bound
    /// to the context, the owner, the holder, `Y` and `E`. Without it a sealer could pick `E`
    /// as any point, a card's `c1` say, seal garbage, and have the holder's complaint publish
    /// `x_to·E`: a decryption share of that card (security review A5). With it, `x_to·E =
    /// e·X_to` is a point the sealer could compute itself, so a complaint shows nothing new.
    pub ephemeral_t: CompressedRistretto,
    pub ephemeral_s: Scalar,
}

/// A participant's key share in pieces, one for each other seat in seat order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Escrow {
    /// The digest of every participant's public key ([`holders_digest`]) the pieces were
    /// sealed to: an escrow names the keys it builds on, so a participant served other keys
    /// (someone sent different keys to different peers) sets it aside instead of taking it,
    /// and two different escrows from one owner for the same keys are proof that it cheated.
    pub holders: [u8; 32],
    pub pieces: Vec<EscrowPiece>,
}

/// The digest of every participant's public key in seat order, which an escrow names.
pub fn holders_digest(keys: &[RistrettoPoint]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"orbis-deal escrow holders");
    h.update((keys.len() as u64).to_le_bytes());
    for k in keys {
        h.update(k.compress().as_bytes());
    }
    h.finalize().into()
}

impl Escrow {
    /// The digest of the whole escrow: a complaint names the escrow it is about, so that a
    /// participant that was sent another escrow by the same owner does not take the complaint
    /// as a lie of the complainer.
    pub fn digest(&self) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(b"orbis-deal escrow");
        h.update(self.holders);
        h.update((self.pieces.len() as u64).to_le_bytes());
        for p in &self.pieces {
            h.update([p.to]);
            h.update(p.commitment.as_bytes());
            h.update(p.ephemeral.as_bytes());
            h.update(p.sealed.as_bytes());
            h.update(p.ephemeral_t.as_bytes());
            h.update(p.ephemeral_s.as_bytes());
        }
        h.finalize().into()
    }
}

/// The challenge of the proof of knowledge of a piece's ephemeral key.
fn ephemeral_challenge(context: &[u8], owner: u8, piece: &EscrowPiece) -> Scalar {
    let mut tr = transcript::start(b"escrow ephemeral", context);
    tr.append_u64(b"owner", u64::from(owner));
    tr.append_u64(b"to", u64::from(piece.to));
    tr.point(b"commitment", &piece.commitment);
    tr.point(b"ephemeral", &piece.ephemeral);
    tr.point(b"t", &piece.ephemeral_t);
    tr.scalar_challenge(b"challenge")
}

/// A holder's proof that the piece sealed to it does not open to its commitment: the
/// Diffie–Hellman point `x·E` and a Chaum–Pedersen proof that `log_G X = log_E (x·E)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Complaint {
    pub dh: CompressedRistretto,
    pub t_g: CompressedRistretto,
    pub t_e: CompressedRistretto,
    pub response: Scalar,
}

fn seal_key(context: &[u8], owner: u8, piece: &EscrowPiece, dh: &CompressedRistretto) -> Scalar {
    let mut tr = transcript::start(b"escrow seal", context);
    tr.append_u64(b"owner", u64::from(owner));
    tr.append_u64(b"to", u64::from(piece.to));
    tr.point(b"commitment", &piece.commitment);
    tr.point(b"ephemeral", &piece.ephemeral);
    tr.point(b"dh", dh);
    tr.scalar_challenge(b"key")
}

/// Fewest holders an escrow may have: with one, its piece is the whole key share.
pub const MIN_HOLDERS: usize = 2;

/// Splits `secret` (of the participant at seat `owner`) into pieces for every other seat of
/// `keys` (every participant's public key, in seat order). Refused for fewer than
/// [`MIN_HOLDERS`] other seats: the one holder would get the whole secret.
pub fn escrow(
    context: &[u8],
    secret: &SecretShare,
    owner: u8,
    keys: &[RistrettoPoint],
    rng: &mut impl CryptoRngCore,
) -> Result<Escrow, DealError> {
    let others: Vec<u8> = (0..keys.len() as u8).filter(|&j| j != owner).collect();
    if others.len() < MIN_HOLDERS {
        return Err(DealError::Escrow("an escrow needs two holders or more"));
    }
    // The pieces and seals depend on the holders' keys too: another history at the same
    // position (other keys) never splits the secret the same way again.
    let mut bound = crate::transcript::start(b"escrow nonce", context);
    bound.append_u64(b"owner", u64::from(owner));
    for k in keys {
        bound.append_message(b"key", k.compress().as_bytes());
    }
    let rng = &mut crate::transcript::prover_rng(&bound, secret.0.as_bytes(), rng);
    let mut rest = secret.0;
    let mut pieces = Vec::with_capacity(others.len());
    for (n, &to) in others.iter().enumerate() {
        let y = if n + 1 == others.len() {
            rest
        } else {
            Scalar::random(rng)
        };
        rest -= y;
        let e = Scalar::random(rng);
        let k = Scalar::random(rng);
        let mut piece = EscrowPiece {
            to,
            commitment: RistrettoPoint::mul_base(&y).compress(),
            ephemeral: RistrettoPoint::mul_base(&e).compress(),
            sealed: Scalar::ZERO,
            ephemeral_t: RistrettoPoint::mul_base(&k).compress(),
            ephemeral_s: Scalar::ZERO,
        };
        piece.ephemeral_s = k + ephemeral_challenge(context, owner, &piece) * e;
        let dh = (e * keys[to as usize]).compress();
        piece.sealed = y + seal_key(context, owner, &piece, &dh);
        pieces.push(piece);
    }
    Ok(Escrow {
        holders: holders_digest(keys),
        pieces,
    })
}

/// The public check anyone makes: one piece for every other seat, in order, whose commitments
/// add up to the owner's key, each with a proof that its sealer knows the ephemeral key, and at
/// least [`MIN_HOLDERS`] of them (an escrow to a single holder hands it the key). Returns the
/// commitments by seat (`None` for the owner's). Whether each piece opens to its commitment
/// only its holder can tell ([`open_piece`]): every holder checks its own on receipt.
pub fn verify_escrow(
    context: &[u8],
    owner: u8,
    owner_key: &RistrettoPoint,
    seats: usize,
    escrow: &Escrow,
) -> Result<Vec<Option<RistrettoPoint>>, DealError> {
    let others: Vec<u8> = (0..seats as u8).filter(|&j| j != owner).collect();
    if others.len() < MIN_HOLDERS {
        return Err(DealError::Escrow(
            "an escrow to a single holder gives it the key",
        ));
    }
    if escrow.pieces.len() != others.len() {
        return Err(DealError::Length {
            expected: others.len() as u32,
            got: escrow.pieces.len() as u32,
        });
    }
    let mut out = vec![None; seats];
    let mut sum = RistrettoPoint::default();
    for (p, &to) in escrow.pieces.iter().zip(&others) {
        if p.to != to {
            return Err(DealError::Escrow("pieces out of seat order"));
        }
        let y = p
            .commitment
            .decompress()
            .ok_or(DealError::NotAPoint("an escrow commitment"))?;
        let e = p
            .ephemeral
            .decompress()
            .ok_or(DealError::NotAPoint("an escrow seal"))?;
        let t = p
            .ephemeral_t
            .decompress()
            .ok_or(DealError::NotAPoint("an escrow seal's proof"))?;
        let c = ephemeral_challenge(context, owner, p);
        if RistrettoPoint::mul_base(&p.ephemeral_s) != t + c * e {
            return Err(DealError::Escrow(
                "no proof of knowledge of a seal's ephemeral key",
            ));
        }
        sum += y;
        out[to as usize] = Some(y);
    }
    if sum == *owner_key {
        Ok(out)
    } else {
        Err(DealError::Escrow("the pieces do not add up to the key"))
    }
}

/// What the holder of a piece finds when it unseals it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unsealed {
    /// The piece, matching its commitment: a key share to stand in with.
    Piece(SecretShare),
    /// A wrong piece, and the complaint that proves it.
    Wrong(Complaint),
}

/// The holder at `piece.to` unseals its piece of `owner`'s key.
pub fn open_piece(
    context: &[u8],
    owner: u8,
    piece: &EscrowPiece,
    mine: &SecretShare,
    rng: &mut impl CryptoRngCore,
) -> Result<Unsealed, DealError> {
    let e = piece
        .ephemeral
        .decompress()
        .ok_or(DealError::NotAPoint("an escrow seal"))?;
    let dh = mine.0 * e;
    let y = piece.sealed - seal_key(context, owner, piece, &dh.compress());
    if RistrettoPoint::mul_base(&y).compress() == piece.commitment {
        return Ok(Unsealed::Piece(SecretShare(y)));
    }
    let dh = dh.compress();
    let tr = complaint_statement(context, owner, piece, &mine.key(), &dh);
    let p = dleq::prove(tr, &mine.0, &e, rng);
    Ok(Unsealed::Wrong(Complaint {
        dh,
        t_g: p.t_g,
        t_e: p.t_b,
        response: p.response,
    }))
}

/// The statement of a complaint's proof.
fn complaint_statement(
    context: &[u8],
    owner: u8,
    piece: &EscrowPiece,
    key: &RistrettoPoint,
    dh: &CompressedRistretto,
) -> Transcript {
    let mut tr = transcript::start(b"escrow complaint", context);
    tr.append_u64(b"owner", u64::from(owner));
    tr.append_u64(b"to", u64::from(piece.to));
    tr.point(b"key", &key.compress());
    tr.point(b"ephemeral", &piece.ephemeral);
    tr.point(b"dh", dh);
    tr
}

/// Checks a complaint by the holder whose key is `holder_key`: `Ok(())` when it proves that
/// `owner` sealed a wrong piece (the owner cheated); an error when the complaint itself is false
/// (the complainer lied).
pub fn verify_complaint(
    context: &[u8],
    owner: u8,
    piece: &EscrowPiece,
    holder_key: &RistrettoPoint,
    c: &Complaint,
) -> Result<(), DealError> {
    let bad = DealError::NotAPoint("a complaint");
    let e = piece.ephemeral.decompress().ok_or(bad.clone())?;
    let dh = c.dh.decompress().ok_or(bad.clone())?;
    let proof = dleq::Proof {
        t_g: c.t_g,
        t_b: c.t_e,
        response: c.response,
    };
    let tr = complaint_statement(context, owner, piece, holder_key, &c.dh);
    match dleq::holds(tr, holder_key, &e, &dh, &proof) {
        Some(true) => {}
        Some(false) => return Err(DealError::Escrow("the complaint's proof fails")),
        None => return Err(bad),
    }
    let y = piece.sealed - seal_key(context, owner, piece, &c.dh);
    if RistrettoPoint::mul_base(&y).compress() == piece.commitment {
        Err(DealError::Escrow("the piece was sealed correctly"))
    } else {
        Ok(())
    }
}

/// The missing participant's decryption share, from the verified shares of its pieces (each
/// checked with `share::verify_share` against the piece's commitment).
pub fn stand_in(piece_shares: &[RistrettoPoint]) -> RistrettoPoint {
    piece_shares.iter().sum()
}
