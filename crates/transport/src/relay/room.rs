//! A room on the relays: what the room secret (the text after `#room=` in the link) derives, and
//! the sealed envelopes peers exchange through the relays.
//!
//! Invariant: a relay sees only the topic (a domain-separated hash of the secret and the UTC day)
//! and ciphertext. A secret made by "Create room" (128 random bits, [`is_generated`]) is hashed
//! once; any other secret — a name a player typed — is first stretched by PBKDF2-HMAC-SHA256
//! ([`TYPED_NAME_ITERATIONS`]), so a relay that guesses names pays that per guess instead of one
//! SHA-256. The topic changes each UTC day, so a relay cannot link one room's sessions across days.
//! Every envelope is sealed with XChaCha20-Poly1305 under a key derived from the secret, with the
//! day's topic as associated data, and names the Nostr key that signed its event, so an envelope
//! copied into another room (or day) or re-signed by another key fails to open.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use matchbox_socket::PeerSignal;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::sync::Mutex;

/// The Nostr event kind of Orbis rendezvous events: ephemeral (20000–29999), so relays pass them
/// on without storing them.
pub const KIND: u32 = 29_731;

/// The largest event content accepted (an SDP offer seals to about 1.5 KB).
pub const MAX_CONTENT: usize = 16 * 1024;

/// Bytes of a room secret made by "Create room" (128 bits).
pub const SECRET_BYTES: usize = 16;

/// Seconds in a topic's day (UTC days: day `n` is `[n * DAY_S, (n + 1) * DAY_S)` Unix seconds).
pub const DAY_S: u64 = 86_400;

/// PBKDF2-HMAC-SHA256 iterations for a typed room name, paid once per page: measured (issue 30
/// C13 e, a loaded 2-core x86-64) at 18–22 ms natively with SHA extensions, 90–100 ms natively
/// without, and 230–350 ms as WebAssembly in Node 20's V8 built like the pages (`release-web`:
/// opt-level "z", fat LTO; the first call is the slowest), 85–160 ms at opt-level 3.
/// `typed_name_cost` measures the native figure.
pub const TYPED_NAME_ITERATIONS: u32 = 120_000;

const TYPED_NAME_SALT: &[u8] = b"orbis/relay/typed-room-name";

/// A fresh room secret for a link: 16 random bytes, base64url (22 characters).
pub fn new_secret(random: [u8; SECRET_BYTES]) -> String {
    URL_SAFE_NO_PAD.encode(random)
}

/// Whether `secret` is one "Create room" made: base64url of [`SECRET_BYTES`] bytes, exactly as
/// [`new_secret`] writes them. Only these skip the slow KDF (their 128 bits cannot be guessed); a
/// typed name of 22 characters passes only if it happens to decode to 16 bytes, and then it
/// holds 128 bits of whatever the player typed.
pub fn is_generated(secret: &str) -> bool {
    secret.len() == 22
        && URL_SAFE_NO_PAD
            .decode(secret)
            .is_ok_and(|b| b.len() == SECRET_BYTES)
}

fn derive(label: &str, secret: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"orbis/relay/");
    h.update(label.as_bytes());
    h.update([0]);
    h.update(secret);
    h.finalize().into()
}

/// PBKDF2-HMAC-SHA256 (RFC 8018), one 32-byte block, by RustCrypto's `pbkdf2` crate.
fn pbkdf2_sha256(password: &[u8], salt: &[u8], iterations: u32) -> [u8; 32] {
    let mut out = [0u8; 32];
    pbkdf2::pbkdf2_hmac::<Sha256>(password, salt, iterations, &mut out);
    out
}

/// Typed names stretched so far in this process, so a page or a test making several rooms of
/// one name pays the KDF once (few entries: a page joins one room at a time).
static STRETCHED: Mutex<Vec<(String, u32, [u8; 32])>> = Mutex::new(Vec::new());

fn stretched(secret: &str, iterations: u32) -> [u8; 32] {
    if let Ok(cache) = STRETCHED.lock() {
        if let Some((_, _, s)) = cache
            .iter()
            .find(|(n, i, _)| n == secret && *i == iterations)
        {
            return *s;
        }
    }
    let s = pbkdf2_sha256(secret.as_bytes(), TYPED_NAME_SALT, iterations);
    if let Ok(mut cache) = STRETCHED.lock() {
        if cache.len() >= 8 {
            cache.remove(0);
        }
        cache.push((secret.to_string(), iterations, s));
    }
    s
}

/// What a room secret derives.
#[derive(Clone)]
pub struct Room {
    /// What each day's topic is a hash of (not itself secret from the room, but from relays).
    base: [u8; 32],
    cipher: XChaCha20Poly1305,
}

impl std::fmt::Debug for Room {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Room")
            .field("today", &self.topic(0))
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
    /// The room of a secret (any text: a link's random secret, or a name a player typed, which
    /// costs [`TYPED_NAME_ITERATIONS`] of PBKDF2 first, once per name and process).
    pub fn new(secret: &str) -> Room {
        Room::with_cost(secret, TYPED_NAME_ITERATIONS)
    }

    fn with_cost(secret: &str, iterations: u32) -> Room {
        let (base, key) = if is_generated(secret) {
            (
                derive("topic", secret.as_bytes()),
                derive("key", secret.as_bytes()),
            )
        } else {
            let s = stretched(secret, iterations);
            (derive("typed/topic", &s), derive("typed/key", &s))
        };
        Room {
            base,
            cipher: XChaCha20Poly1305::new(&key.into()),
        }
    }

    /// The relay topic (tag `t`) of UTC day `day` (Unix seconds / [`DAY_S`]), lowercase hex.
    pub fn topic(&self, day: u64) -> String {
        let mut h = Sha256::new();
        h.update(b"orbis/relay/day-topic\0");
        h.update(self.base);
        h.update(day.to_be_bytes());
        super::nostr::hex(&h.finalize())
    }

    /// The topic (tag `t`) of the room's game over days (`store`): stable for the game's life (a
    /// game lasts weeks), unlinkable to the daily rendezvous topics without the secret.
    pub fn days_topic(&self) -> String {
        let mut h = Sha256::new();
        h.update(b"orbis/relay/orbis-days-topic\0");
        h.update(self.base);
        super::nostr::hex(&h.finalize())
    }

    /// Seals an envelope for `topic` with a 24-byte random nonce: base64url(nonce ‖ ciphertext).
    pub fn seal(&self, e: &Envelope, topic: &str, nonce: [u8; 24]) -> String {
        let plain = serde_json::to_vec(e).unwrap_or_default();
        self.seal_bytes(&plain, topic.as_bytes(), nonce)
    }

    /// Seals bytes under the room key with `aad`: base64url(nonce ‖ ciphertext).
    pub(crate) fn seal_bytes(&self, plain: &[u8], aad: &[u8], nonce: [u8; 24]) -> String {
        let ct = self
            .cipher
            .encrypt(XNonce::from_slice(&nonce), Payload { msg: plain, aad })
            // Encryption fails only for plaintexts beyond 256 GiB.
            .unwrap_or_default();
        let mut out = nonce.to_vec();
        out.extend_from_slice(&ct);
        URL_SAFE_NO_PAD.encode(out)
    }

    /// Opens what [`Room::seal_bytes`] made with `aad` (content longer than [`MAX_CONTENT`] is
    /// refused unread).
    pub(crate) fn open_bytes(&self, content: &str, aad: &[u8]) -> Result<Vec<u8>, OpenError> {
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
        self.cipher
            .decrypt(XNonce::from_slice(nonce), Payload { msg: ct, aad })
            .map_err(|_| OpenError::Foreign)
    }

    /// Opens what [`Room::seal`] made for `topic`.
    pub fn open(&self, content: &str, topic: &str) -> Result<Envelope, OpenError> {
        let plain = self.open_bytes(content, topic.as_bytes())?;
        // As text: serde_json's `from_str` is the parser the page already has (see
        // `Shared::mesh_received`); a plaintext that is not UTF-8 is no envelope of ours.
        let plain = std::str::from_utf8(&plain).map_err(|_| OpenError::BadPlaintext)?;
        serde_json::from_str(plain).map_err(|_| OpenError::BadPlaintext)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const LINK: &str = "Zm9vYmFyYmF6cXV4cXV1eA";

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
        let a = Room::new(LINK);
        let t = a.topic(20_000);
        let sealed = a.seal(&env(), &t, [9; 24]);
        assert_eq!(a.open(&sealed, &t), Ok(env()));
        let other = Room::new("other");
        assert_eq!(
            other.open(&sealed, &other.topic(20_000)),
            Err(OpenError::Foreign)
        );
        // Another day's topic: it does not open either.
        assert_eq!(a.open(&sealed, &a.topic(20_001)), Err(OpenError::Foreign));
        // The relay sees neither the secret, the SDP nor the addressee in the clear.
        assert!(!sealed.contains("secret-sdp"));
        assert_ne!(t, other.topic(20_000));
        assert_eq!(t.len(), 64);
        // Flip any byte: it no longer opens.
        let mut raw = URL_SAFE_NO_PAD.decode(&sealed).unwrap();
        let last = raw.len() - 1;
        raw[last] ^= 1;
        assert_eq!(
            a.open(&URL_SAFE_NO_PAD.encode(raw), &t),
            Err(OpenError::Foreign)
        );
        assert_eq!(a.open("!!", &t), Err(OpenError::Malformed));
        assert_eq!(
            a.open(&"A".repeat(MAX_CONTENT + 1), &t),
            Err(OpenError::Malformed)
        );
    }

    #[test]
    fn topic_and_key_are_domain_separated() {
        // The topic is not the key: knowing the topic (as relays do) gives no key.
        assert_ne!(derive("topic", b"s"), derive("key", b"s"));
        assert_eq!(new_secret([0; 16]).len(), 22);
        assert!(is_generated(&new_secret([7; 16])));
        assert!(!is_generated("friday night game"));
        assert!(!is_generated("Zm9vYmFyYmF6cXV4cXV1e"));
    }

    /// RFC 7914 section 11's PBKDF2-HMAC-SHA256 vectors (first 32 bytes), and the hmac crate's
    /// HMAC chained by hand for a long password and a few iteration counts: the crate is called
    /// the way RFC 8018 means (one block, the salt as given).
    #[test]
    fn pbkdf2_matches_the_rfc_7914_vectors() {
        let hex = super::super::nostr::hex;
        assert_eq!(
            hex(&pbkdf2_sha256(b"passwd", b"salt", 1)),
            "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
        );
        assert_eq!(
            hex(&pbkdf2_sha256(b"Password", b"NaCl", 80_000)),
            "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
        );
        use hmac::Mac;
        let long = [b'x'; 100];
        for (pw, c) in [(&b"pw"[..], 2), (&long[..], 3), (&b""[..], 5)] {
            let mac = |m: &[u8]| -> [u8; 32] {
                let mut h = <hmac::Hmac<Sha256> as Mac>::new_from_slice(pw).unwrap();
                h.update(m);
                h.finalize().into_bytes().into()
            };
            let mut u = mac(b"salt\0\0\0\x01");
            let mut t = u;
            for _ in 1..c {
                u = mac(&u);
                for (a, b) in t.iter_mut().zip(u) {
                    *a ^= b;
                }
            }
            assert_eq!(pbkdf2_sha256(pw, b"salt", c), t, "{c}");
        }
    }

    /// Security review C13 e: a typed room name was recovered from its topic (which every relay
    /// sees) by hashing a dictionary once per guess. The topic is now no hash of any guess alone:
    /// each guess costs the slow KDF. A generated secret keeps one hash (its 128 bits cannot be
    /// guessed), and the topic changes with the UTC day.
    #[test]
    fn a_typed_room_name_is_not_recovered_from_its_topic_by_one_hash_a_guess() {
        let typed = "friday night game";
        let day = 20_000;
        let topic = Room::new(typed).topic(day);
        let dictionary = ["risk", "game night", "friday night game", "orbis", "room"];
        let one_hash = |g: &str| {
            let plain = super::super::nostr::hex(&derive("topic", g.as_bytes()));
            let r = Room {
                base: derive("topic", g.as_bytes()),
                cipher: XChaCha20Poly1305::new(&[0; 32].into()),
            };
            [plain, r.topic(day)]
        };
        assert_eq!(
            dictionary.iter().find(|g| one_hash(g).contains(&topic)),
            None,
            "the relay's dictionary attack found the name"
        );
        // Each guess must pay the whole KDF: with it the name is found, with fewer iterations not.
        assert_eq!(
            Room::with_cost(typed, TYPED_NAME_ITERATIONS).topic(day),
            topic
        );
        assert_ne!(Room::with_cost(typed, 1_000).topic(day), topic);
        // Topics rotate daily.
        assert_ne!(Room::new(typed).topic(day + 1), topic);
        // A generated secret: one hash, no KDF.
        let link = new_secret([3; 16]);
        assert_eq!(Room::new(&link).base, derive("topic", link.as_bytes()));
    }

    /// The cost of one typed name at the real iteration count:
    /// `cargo test -p orbis-transport --release --lib typed_name_cost -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn typed_name_cost() {
        let t = std::time::Instant::now();
        let s = pbkdf2_sha256(b"friday night game", TYPED_NAME_SALT, TYPED_NAME_ITERATIONS);
        println!(
            "{TYPED_NAME_ITERATIONS} iterations: {:?} ({:02x})",
            t.elapsed(),
            s[0]
        );
    }

    proptest! {
        #[test]
        fn garbage_never_panics(s in ".{0,400}") {
            let r = Room::new(LINK);
            let _ = r.open(&s, &r.topic(1));
        }

        #[test]
        fn garbage_base64_never_panics(b in proptest::collection::vec(any::<u8>(), 0..300)) {
            let r = Room::new(LINK);
            let _ = r.open(&URL_SAFE_NO_PAD.encode(b), &r.topic(1));
        }
    }
}
