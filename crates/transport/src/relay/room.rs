//! A room on the relays: what the room secret (the text after `#room=` in the link) derives, and
//! the sealed envelopes peers exchange through the relays.
//!
//! Invariant: a relay sees only the topic (a domain-separated hash of the secret) and ciphertext.
//! Every envelope is sealed with XChaCha20-Poly1305 under a key derived from the secret, with the
//! topic as associated data, and names the Nostr key that signed its event, so an envelope copied
//! into another room or re-signed by another key fails to open.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use matchbox_socket::PeerSignal;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The Nostr event kind of Orbis rendezvous events: ephemeral (20000–29999), so relays pass them
/// on without storing them.
pub const KIND: u32 = 29_731;

/// The largest event content accepted (an SDP offer seals to about 1.5 KB).
pub const MAX_CONTENT: usize = 16 * 1024;

/// Bytes of a room secret made by "Create room" (128 bits).
pub const SECRET_BYTES: usize = 16;

/// A fresh room secret for a link: 16 random bytes, base64url (22 characters).
pub fn new_secret(random: [u8; SECRET_BYTES]) -> String {
    URL_SAFE_NO_PAD.encode(random)
}

fn derive(label: &str, secret: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"orbis/relay/");
    h.update(label.as_bytes());
    h.update([0]);
    h.update(secret.as_bytes());
    h.finalize().into()
}

/// What a room secret derives.
#[derive(Clone)]
pub struct Room {
    /// The relay topic (tag `t`), lowercase hex.
    pub topic: String,
    cipher: XChaCha20Poly1305,
}

impl std::fmt::Debug for Room {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Room")
            .field("topic", &self.topic)
            .finish_non_exhaustive()
    }
}

/// What one peer tells the others through the relays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Body {
    /// "I am in the room": sent on joining, then more slowly, and in reply to a newcomer.
    Hello,
    /// A WebRTC signal (offer, answer, candidate) for the addressee.
    Signal(PeerSignal),
}

/// The plaintext of a rendezvous event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    /// The sender's matchbox peer id (a UUID, fresh each session).
    pub from: [u8; 16],
    /// The addressee's peer id; `None`: everyone in the room.
    pub to: Option<[u8; 16]>,
    /// The Nostr key that signs the event carrying this envelope (hex).
    pub signer: String,
    pub body: Body,
}

/// Why an envelope did not open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenError {
    /// Too long, not base64, too short for a nonce.
    Malformed,
    /// Not sealed under this room's key and topic (another room, or forged).
    Foreign,
    /// It opened but its plaintext is not an envelope.
    BadPlaintext,
}

impl Room {
    /// The room of a secret (any text: a link's random secret, or a name a player typed).
    pub fn new(secret: &str) -> Room {
        let key = derive("key", secret);
        Room {
            topic: super::nostr::hex(&derive("topic", secret)),
            cipher: XChaCha20Poly1305::new(&key.into()),
        }
    }

    /// Seals an envelope with a 24-byte random nonce: base64url(nonce ‖ ciphertext).
    pub fn seal(&self, e: &Envelope, nonce: [u8; 24]) -> String {
        let plain = serde_json::to_vec(e).unwrap_or_default();
        let ct = self
            .cipher
            .encrypt(
                XNonce::from_slice(&nonce),
                Payload {
                    msg: &plain,
                    aad: self.topic.as_bytes(),
                },
            )
            // Encryption fails only for plaintexts beyond 256 GiB.
            .unwrap_or_default();
        let mut out = nonce.to_vec();
        out.extend_from_slice(&ct);
        URL_SAFE_NO_PAD.encode(out)
    }

    /// Opens what [`Room::seal`] made.
    pub fn open(&self, content: &str) -> Result<Envelope, OpenError> {
        if content.len() > MAX_CONTENT {
            return Err(OpenError::Malformed);
        }
        let raw = URL_SAFE_NO_PAD
            .decode(content)
            .map_err(|_| OpenError::Malformed)?;
        if raw.len() < 24 + 16 {
            return Err(OpenError::Malformed);
        }
        let (nonce, ct) = raw.split_at(24);
        let plain = self
            .cipher
            .decrypt(
                XNonce::from_slice(nonce),
                Payload {
                    msg: ct,
                    aad: self.topic.as_bytes(),
                },
            )
            .map_err(|_| OpenError::Foreign)?;
        serde_json::from_slice(&plain).map_err(|_| OpenError::BadPlaintext)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn env() -> Envelope {
        Envelope {
            from: [1; 16],
            to: Some([2; 16]),
            signer: "ab".repeat(32),
            body: Body::Signal(PeerSignal::Offer("v=0 secret-sdp".into())),
        }
    }

    #[test]
    fn seal_open_round_trip_and_other_rooms_fail() {
        let a = Room::new("Zm9vYmFyYmF6cXV4cXV1eA");
        let sealed = a.seal(&env(), [9; 24]);
        assert_eq!(a.open(&sealed), Ok(env()));
        assert_eq!(Room::new("other").open(&sealed), Err(OpenError::Foreign));
        // The relay sees neither the secret, the SDP nor the addressee in the clear.
        assert!(!sealed.contains("secret-sdp"));
        assert_ne!(a.topic, Room::new("other").topic);
        assert_eq!(a.topic.len(), 64);
        // Flip any byte: it no longer opens.
        let mut raw = URL_SAFE_NO_PAD.decode(&sealed).unwrap();
        let last = raw.len() - 1;
        raw[last] ^= 1;
        assert_eq!(
            a.open(&URL_SAFE_NO_PAD.encode(raw)),
            Err(OpenError::Foreign)
        );
        assert_eq!(a.open("!!"), Err(OpenError::Malformed));
        assert_eq!(
            a.open(&"A".repeat(MAX_CONTENT + 1)),
            Err(OpenError::Malformed)
        );
    }

    #[test]
    fn topic_and_key_are_domain_separated() {
        // The topic is not the key: knowing the topic (as relays do) gives no key.
        assert_ne!(derive("topic", "s"), derive("key", "s"));
        assert_eq!(new_secret([0; 16]).len(), 22);
    }

    proptest! {
        #[test]
        fn garbage_never_panics(s in ".{0,400}") {
            let _ = Room::new("r").open(&s);
        }

        #[test]
        fn garbage_base64_never_panics(b in proptest::collection::vec(any::<u8>(), 0..300)) {
            let _ = Room::new("r").open(&URL_SAFE_NO_PAD.encode(b));
        }
    }
}
