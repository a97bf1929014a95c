//! Bytes sealed to an ed25519 identity key by a known sender, for messages that travel over
//! connections others may be handed (private chat: security review C11): an ephemeral key, its
//! Diffie–Hellman product with the recipient's key, and XChaCha20-Poly1305 (the rendezvous's
//! cipher, so the page carries one) under a key drawn
//! from a merlin transcript of the context, the sender, the recipient, the ephemeral key and the
//! product.
//!
//! Owns nothing; pure functions. Invariants: only the holder of the recipient's secret key
//! recovers the bytes; they open only as sent by the sender they were sealed as from (a copy
//! re-signed by someone else, or changed in any bit, opens to `None`); the ephemeral key comes
//! from the sender's secret witness and the whole message, so two messages never share a key;
//! opening hostile bytes returns `None`, never panics.

use crate::transcript;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use curve25519_dalek::edwards::{CompressedEdwardsY, EdwardsPoint};
use curve25519_dalek::scalar::Scalar;
use transcript::TranscriptExt;

/// Bytes an ephemeral key and the tag add to the sealed message.
pub const SEAL_OVERHEAD: usize = 32 + 16;

/// The cipher of one message: its key is unique to the ephemeral key, so the nonce is fixed.
/// XChaCha20 rather than ChaCha20 only because the rendezvous uses it: one cipher in the page.
fn cipher(
    context: &[u8],
    from: &[u8; 32],
    to: &[u8; 32],
    ephemeral: &[u8; 32],
    dh: &EdwardsPoint,
) -> XChaCha20Poly1305 {
    let mut tr = transcript::start(b"sealed bytes v2", context);
    tr.append_message(b"from", from);
    tr.append_message(b"to", to);
    tr.append_message(b"ephemeral", ephemeral);
    tr.append_message(b"dh", dh.compress().as_bytes());
    let mut key = [0u8; 32];
    tr.challenge_bytes(b"key", &mut key);
    XChaCha20Poly1305::new(&key.into())
}

/// Seals `plain` from the ed25519 public key `from` to the ed25519 public key `to`; `witness`
/// is secret to the sender and unique to this message (its key and the message's number, say):
/// the ephemeral key is derived from it and the plain text. `None` if `to` is not a point.
pub fn seal(
    context: &[u8],
    from: &[u8; 32],
    to: &[u8; 32],
    witness: &[u8],
    plain: &[u8],
) -> Option<Vec<u8>> {
    let recipient = CompressedEdwardsY(*to).decompress()?;
    let mut tr = transcript::start(b"sealed bytes ephemeral", context);
    tr.append_message(b"from", from);
    tr.append_message(b"to", to);
    tr.append_message(b"witness", witness);
    tr.append_message(b"plain", plain);
    let e = tr.scalar_challenge(b"ephemeral");
    let ephemeral = EdwardsPoint::mul_base(&e).compress().to_bytes();
    let dh = (e * recipient).mul_by_cofactor();
    let body = cipher(context, from, to, &ephemeral, &dh)
        .encrypt(
            &XNonce::default(),
            Payload {
                msg: plain,
                aad: &ephemeral,
            },
        )
        .ok()?;
    let mut out = ephemeral.to_vec();
    out.extend(body);
    Some(out)
}

/// Opens bytes sealed to our key by `from`: `me` is our ed25519 public key, `secret` our secret
/// scalar (ed25519's clamped and reduced scalar). `None` if `sealed` is malformed, was sealed by
/// another sender or to another key, or was changed.
pub fn open(
    context: &[u8],
    from: &[u8; 32],
    me: &[u8; 32],
    secret: &[u8; 32],
    sealed: &[u8],
) -> Option<Vec<u8>> {
    if sealed.len() < SEAL_OVERHEAD {
        return None;
    }
    let (eph, body) = sealed.split_at(32);
    let mut ephemeral = [0u8; 32];
    ephemeral.copy_from_slice(eph);
    let e = CompressedEdwardsY(ephemeral).decompress()?;
    let a = Scalar::from_bytes_mod_order(*secret);
    let dh = (a * e).mul_by_cofactor();
    cipher(context, from, me, &ephemeral, &dh)
        .decrypt(
            &XNonce::default(),
            Payload {
                msg: body,
                aad: &ephemeral,
            },
        )
        .ok()
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
    fn only_the_recipient_opens_what_is_sealed_to_it_and_only_as_from_its_sender() {
        let (pk, sk) = key(7);
        let (other_pk, other_sk) = key(9);
        let (from, _) = key(11);
        let s = seal(b"room", &from, &pk, b"secret 1", b"meet at dawn").expect("sealed");
        assert_eq!(s.len(), SEAL_OVERHEAD + 12);
        assert!(!s.windows(4).any(|w| w == b"meet"));
        assert_eq!(
            open(b"room", &from, &pk, &sk, &s).as_deref(),
            Some(&b"meet at dawn"[..])
        );
        // Another recipient, another room, another sender (a copy re-signed by someone else):
        // nothing opens.
        assert_eq!(open(b"room", &from, &other_pk, &other_sk, &s), None);
        assert_eq!(open(b"other room", &from, &pk, &sk, &s), None);
        assert_eq!(open(b"room", &other_pk, &pk, &sk, &s), None);
        // Any bit changed: nothing opens.
        for i in 0..s.len() {
            let mut t = s.clone();
            t[i] ^= 1;
            assert_eq!(open(b"room", &from, &pk, &sk, &t), None, "byte {i}");
        }
        // Two messages never share a key.
        let t = seal(b"room", &from, &pk, b"secret 2", b"meet at dawn").expect("sealed");
        assert_ne!(s[..32], t[..32]);
        // Hostile bytes: nothing, never a panic.
        assert_eq!(open(b"room", &from, &pk, &sk, &[1, 2, 3]), None);
        assert_eq!(open(b"room", &from, &pk, &sk, &[0xff; 60]), None);
    }
}
