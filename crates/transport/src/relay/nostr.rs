//! NIP-01, the part a rendezvous needs: events (id, BIP-340 signature), the client's `EVENT`,
//! `REQ` and `CLOSE`, and the relay's `EVENT`, `OK`, `EOSE`, `CLOSED` and `NOTICE`.
//!
//! Invariant: [`Event::verify`] accepts an event only if its id is the SHA-256 of its canonical
//! serialisation and its signature is valid for its public key, so a relay cannot alter a field
//! of an event it passes on.

use k256::schnorr::{Signature, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// A throwaway Nostr key pair (one per session: it identifies nothing beyond the session).
pub struct Keys {
    secret: SigningKey,
    /// The x-only public key, lowercase hex.
    pub public: String,
}

impl Keys {
    /// The key pair for 32 secret bytes; `None` for the rare bytes that are no valid scalar.
    pub fn from_secret(bytes: &[u8; 32]) -> Option<Keys> {
        let secret = SigningKey::from_bytes(bytes).ok()?;
        let public = hex(&secret.verifying_key().to_bytes());
        Some(Keys { secret, public })
    }
}

/// A signed Nostr event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub id: String,
    pub pubkey: String,
    pub created_at: u64,
    pub kind: u32,
    pub tags: Vec<Vec<String>>,
    pub content: String,
    pub sig: String,
}

/// Why an event was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventError {
    /// A field is not of the form NIP-01 gives it.
    Malformed,
    /// The id is not the hash of the event.
    BadId,
    /// The signature does not verify for the public key.
    BadSignature,
}

fn canonical(
    pubkey: &str,
    created_at: u64,
    kind: u32,
    tags: &[Vec<String>],
    content: &str,
) -> [u8; 32] {
    // NIP-01: `[0,pubkey,created_at,kind,tags,content]` with no white space. serde_json escapes
    // exactly the characters NIP-01 names (and control characters as \u00XX, which NIP-01 leaves
    // unsaid); our contents are base64 and hex, so no case where they differ arises.
    let s = json!([0, pubkey, created_at, kind, tags, content]).to_string();
    Sha256::digest(s.as_bytes()).into()
}

impl Event {
    /// Builds and signs an event; `aux` is BIP-340's auxiliary randomness.
    pub fn sign(
        keys: &Keys,
        created_at: u64,
        kind: u32,
        tags: Vec<Vec<String>>,
        content: String,
        aux: &[u8; 32],
    ) -> Event {
        let id = canonical(&keys.public, created_at, kind, &tags, &content);
        let sig = keys
            .secret
            .sign_raw(&id, aux)
            .map(|s| hex(&s.to_bytes()))
            // Signing a 32-byte digest with a valid key cannot fail (k256 only errs on a zero
            // nonce, probability 2^-256); an empty signature is then refused by every relay.
            .unwrap_or_default();
        Event {
            id: hex(&id),
            pubkey: keys.public.clone(),
            created_at,
            kind,
            tags,
            content,
            sig,
        }
    }

    /// Checks the id and the signature.
    pub fn verify(&self) -> Result<(), EventError> {
        let id = unhex::<32>(&self.id).ok_or(EventError::Malformed)?;
        let pk = unhex::<32>(&self.pubkey).ok_or(EventError::Malformed)?;
        let sig = unhex::<64>(&self.sig).ok_or(EventError::Malformed)?;
        if canonical(
            &self.pubkey,
            self.created_at,
            self.kind,
            &self.tags,
            &self.content,
        ) != id
        {
            return Err(EventError::BadId);
        }
        let key = VerifyingKey::from_bytes(&pk).map_err(|_| EventError::BadSignature)?;
        let sig = Signature::try_from(&sig[..]).map_err(|_| EventError::BadSignature)?;
        key.verify_raw(&id, &sig)
            .map_err(|_| EventError::BadSignature)
    }

    /// The first value of the single-letter tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.first().map(String::as_str) == Some(name))
            .and_then(|t| t.get(1))
            .map(String::as_str)
    }
}

/// `["EVENT", event]`: publish.
pub fn publish(e: &Event) -> String {
    json!(["EVENT", e]).to_string()
}

/// `["REQ", sub, {"kinds":[kind], "#t":[topic], "since": since}]`: subscribe to a room's events.
pub fn subscribe(sub: &str, kind: u32, topic: &str, since: u64) -> String {
    json!(["REQ", sub, {"kinds": [kind], "#t": [topic], "since": since}]).to_string()
}

/// What a relay says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RelayMsg {
    /// An event matching a subscription.
    Event { sub: String, event: Box<Event> },
    /// Whether an event we published was accepted (`false`: refused, with the relay's reason).
    Ok {
        id: String,
        accepted: bool,
        message: String,
    },
    /// End of stored events for a subscription.
    Eose { sub: String },
    /// The relay ended a subscription (with its reason).
    Closed { sub: String, message: String },
    /// A human-readable notice.
    Notice { message: String },
}

/// Parses one text frame from a relay; `None` for anything not of NIP-01's forms.
pub fn parse(text: &str) -> Option<RelayMsg> {
    let v: Value = serde_json::from_str(text).ok()?;
    let a = v.as_array()?;
    let s = |i: usize| a.get(i).and_then(Value::as_str).map(str::to_string);
    match a.first()?.as_str()? {
        "EVENT" => Some(RelayMsg::Event {
            sub: s(1)?,
            event: Box::new(serde_json::from_value(a.get(2)?.clone()).ok()?),
        }),
        "OK" => Some(RelayMsg::Ok {
            id: s(1)?,
            accepted: a.get(2)?.as_bool()?,
            message: s(3).unwrap_or_default(),
        }),
        "EOSE" => Some(RelayMsg::Eose { sub: s(1)? }),
        "CLOSED" => Some(RelayMsg::Closed {
            sub: s(1)?,
            message: s(2).unwrap_or_default(),
        }),
        "NOTICE" => Some(RelayMsg::Notice {
            message: s(1).unwrap_or_default(),
        }),
        _ => None,
    }
}

/// Lowercase hex.
pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Exactly `N` bytes from lowercase or uppercase hex.
pub fn unhex<const N: usize>(s: &str) -> Option<[u8; N]> {
    if s.len() != 2 * N || !s.is_ascii() {
        return None;
    }
    let mut out = [0u8; N];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys() -> Keys {
        Keys::from_secret(&[7u8; 32]).unwrap()
    }

    #[test]
    fn signed_event_verifies_and_tampering_is_caught() {
        let e = Event::sign(
            &keys(),
            1_700_000_000,
            29_731,
            vec![vec!["t".into(), "ab".into()]],
            "hello".into(),
            &[1; 32],
        );
        assert_eq!(e.verify(), Ok(()));
        assert_eq!(e.tag("t"), Some("ab"));
        let mut t = e.clone();
        t.content = "hellO".into();
        assert_eq!(t.verify(), Err(EventError::BadId));
        let mut t = e.clone();
        t.pubkey = Keys::from_secret(&[8u8; 32]).unwrap().public;
        assert_eq!(t.verify(), Err(EventError::BadId));
        let mut t = e.clone();
        t.sig = hex(&[0u8; 64]);
        assert_eq!(t.verify(), Err(EventError::BadSignature));
        let mut t = e;
        t.sig = "zz".into();
        assert_eq!(t.verify(), Err(EventError::Malformed));
    }

    /// BIP-340's test vector 0 (secret key 3, zero message and aux): our signing matches it.
    #[test]
    fn bip340_vector() {
        let mut sk = [0u8; 32];
        sk[31] = 3;
        let k = Keys::from_secret(&sk).unwrap();
        assert_eq!(
            k.public,
            "f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9"
        );
        let sig = k.secret.sign_raw(&[0u8; 32], &[0u8; 32]).unwrap();
        assert_eq!(
            hex(&sig.to_bytes()).to_uppercase(),
            "E907831F80848D1069A5371B402410364BDF1C5F8307B0084C55F1CE2DCA821525F66A4A85EA8B71E482A74F382D2CE5EBEEE8FDB2172F477DF4900D310536C0"
        );
    }

    #[test]
    fn relay_messages_parse() {
        let e = Event::sign(&keys(), 5, 29_731, vec![], "x".into(), &[0; 32]);
        let frame = json!(["EVENT", "s", e]).to_string();
        assert_eq!(
            parse(&frame),
            Some(RelayMsg::Event {
                sub: "s".into(),
                event: Box::new(e)
            })
        );
        assert_eq!(
            parse(r#"["OK","ab",false,"blocked: no"]"#),
            Some(RelayMsg::Ok {
                id: "ab".into(),
                accepted: false,
                message: "blocked: no".into()
            })
        );
        assert_eq!(
            parse(r#"["NOTICE","slow down"]"#),
            Some(RelayMsg::Notice {
                message: "slow down".into()
            })
        );
        assert_eq!(
            parse(r#"["CLOSED","s","auth-required: x"]"#),
            Some(RelayMsg::Closed {
                sub: "s".into(),
                message: "auth-required: x".into()
            })
        );
        assert_eq!(
            parse(r#"["EOSE","s"]"#),
            Some(RelayMsg::Eose { sub: "s".into() })
        );
        for junk in [
            "",
            "[]",
            "{}",
            "[1]",
            r#"["EVENT","s",{}]"#,
            r#"["OK"]"#,
            "\u{0}",
            "[\"EVENT\"",
        ] {
            assert_eq!(parse(junk), None, "{junk:?}");
        }
        assert!(subscribe("s", 1, "ab", 9).starts_with(r##"["REQ","s",{"##));
    }
}
