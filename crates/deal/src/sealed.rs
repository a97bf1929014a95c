//! Bytes sealed to an ed25519 identity key: the escrow's Diffie–Hellman seal (an ephemeral
//! key, its product with the recipient's key, and a keystream drawn from a merlin transcript
//! of both), for messages that travel over connections others may be handed (private chat:
//! security review C11).
//!
//! Owns nothing; pure functions. Invariant: only the holder of the recipient's secret key
//! recovers the bytes (the ephemeral key comes from the sender's secret and the whole message,
//! so two messages never share a keystream); opening hostile bytes returns `None`, never
//! panics. Integrity is the caller's: the sealed bytes travel inside a signed message.

use crate::transcript;
use curve25519_dalek::edwards::{CompressedEdwardsY, EdwardsPoint};
use curve25519_dalek::scalar::Scalar;
use transcript::TranscriptExt;

/// Bytes an ephemeral key adds to the sealed message.
pub const SEAL_OVERHEAD: usize = 32;

fn stream(
    context: &[u8],
    to: &[u8; 32],
    ephemeral: &[u8; 32],
    dh: &EdwardsPoint,
    n: usize,
) -> Vec<u8> {
    let mut tr = transcript::start(b"sealed bytes", context);
    tr.append_message(b"to", to);
    tr.append_message(b"ephemeral", ephemeral);
    tr.append_message(b"dh", dh.compress().as_bytes());
    let mut ks = vec![0u8; n];
    tr.challenge_bytes(b"stream", &mut ks);
    ks
}

/// Seals `plain` to the ed25519 public key `to`; `witness` is secret to the sender and unique
/// to this message (its key and the message's number, say): the ephemeral key is derived from
/// it and the plain text. `None` if `to` is not a point.
pub fn seal(context: &[u8], to: &[u8; 32], witness: &[u8], plain: &[u8]) -> Option<Vec<u8>> {
    let recipient = CompressedEdwardsY(*to).decompress()?;
    let mut tr = transcript::start(b"sealed bytes ephemeral", context);
    tr.append_message(b"to", to);
    tr.append_message(b"witness", witness);
    tr.append_message(b"plain", plain);
    let e = tr.scalar_challenge(b"ephemeral");
    let ephemeral = EdwardsPoint::mul_base(&e).compress().to_bytes();
    let dh = (e * recipient).mul_by_cofactor();
    let ks = stream(context, to, &ephemeral, &dh, plain.len());
    let mut out = ephemeral.to_vec();
    out.extend(plain.iter().zip(ks).map(|(p, k)| p ^ k));
    Some(out)
}

/// Opens bytes sealed to our key: `me` is our ed25519 public key, `secret` our secret scalar
/// (ed25519's clamped and reduced scalar). `None` if `sealed` is malformed.
pub fn open(context: &[u8], me: &[u8; 32], secret: &[u8; 32], sealed: &[u8]) -> Option<Vec<u8>> {
    if sealed.len() < SEAL_OVERHEAD {
        return None;
    }
    let (eph, body) = sealed.split_at(SEAL_OVERHEAD);
    let mut ephemeral = [0u8; 32];
    ephemeral.copy_from_slice(eph);
    let e = CompressedEdwardsY(ephemeral).decompress()?;
    let a = Scalar::from_bytes_mod_order(*secret);
    let dh = (a * e).mul_by_cofactor();
    let ks = stream(context, me, &ephemeral, &dh, body.len());
    Some(body.iter().zip(ks).map(|(c, k)| c ^ k).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(seed: u8) -> ([u8; 32], [u8; 32]) {
        let a = Scalar::from_bytes_mod_order([seed; 32]);
        (
            EdwardsPoint::mul_base(&a).compress().to_bytes(),
            a.to_bytes(),
        )
    }

    #[test]
    fn only_the_recipient_opens_what_is_sealed_to_it() {
        let (pk, sk) = key(7);
        let (other_pk, other_sk) = key(9);
        let s = seal(b"room", &pk, b"secret 1", b"meet at dawn").expect("sealed");
        assert_eq!(s.len(), SEAL_OVERHEAD + 12);
        assert!(!s.windows(4).any(|w| w == b"meet"));
        assert_eq!(
            open(b"room", &pk, &sk, &s).as_deref(),
            Some(&b"meet at dawn"[..])
        );
        assert_ne!(
            open(b"room", &other_pk, &other_sk, &s).as_deref(),
            Some(&b"meet at dawn"[..])
        );
        assert_ne!(
            open(b"other room", &pk, &sk, &s).as_deref(),
            Some(&b"meet at dawn"[..])
        );
        // Two messages never share a keystream.
        let t = seal(b"room", &pk, b"secret 2", b"meet at dawn").expect("sealed");
        assert_ne!(s, t);
        // Hostile bytes: nothing, or garbage, never a panic.
        assert_eq!(open(b"room", &pk, &sk, &[1, 2, 3]), None);
        let _ = open(b"room", &pk, &sk, &[0xff; 40]);
    }
}
