//! NIP-01, the part a rendezvous needs: events (id, BIP-340 signature), the client's `EVENT`,
//! `REQ` and `CLOSE`, and the relay's `EVENT`, `OK`, `EOSE`, `CLOSED` and `NOTICE`.
//!
//! Invariant: [`Event::verify`] accepts an event only if its id is the SHA-256 of its canonical
//! serialisation and its signature is valid for its public key, so a relay cannot alter a field
//! of an event it passes on.

use k256::schnorr::{Signature, SigningKey, VerifyingKey};
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;

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
    // unsaid); our contents are base64 and hex, so no case where they differ arises. A tuple is
    // written as a JSON array.
    let s =
        serde_json::to_string(&(0, pubkey, created_at, kind, tags, content)).unwrap_or_default();
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

/// An event as [`publish`] writes it: its fields in alphabetical order.
#[derive(Serialize)]
struct Sorted<'a> {
    content: &'a str,
    created_at: u64,
    id: &'a str,
    kind: u32,
    pubkey: &'a str,
    sig: &'a str,
    tags: &'a [Vec<String>],
}

/// `["EVENT", event]`: publish (the event's fields in alphabetical order).
pub fn publish(e: &Event) -> String {
    let sorted = Sorted {
        content: &e.content,
        created_at: e.created_at,
        id: &e.id,
        kind: e.kind,
        pubkey: &e.pubkey,
        sig: &e.sig,
        tags: &e.tags,
    };
    serde_json::to_string(&("EVENT", sorted)).unwrap_or_default()
}

/// A subscription's filter, its keys in alphabetical order.
#[derive(Serialize)]
struct Filter<'a> {
    #[serde(rename = "#t")]
    topics: &'a [String],
    kinds: [u32; 1],
    since: u64,
}

/// `["REQ", sub, {"#t":topics, "kinds":[kind], "since": since}]`: subscribe to a room's events
/// (a REQ with the same `sub` replaces the subscription).
pub fn subscribe(sub: &str, kind: u32, topics: &[String], since: u64) -> String {
    let filter = Filter {
        topics,
        kinds: [kind],
        since,
    };
    serde_json::to_string(&("REQ", sub, filter)).unwrap_or_default()
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

/// The longest frame from a relay that is parsed: an event of the largest content the rendezvous
/// accepts (16 KB, `room::MAX_CONTENT`) with its id, key, signature, topic and framing (about
/// 600 bytes), with room to spare. Longer frames are dropped unread: no event of ours is that long.
pub const MAX_FRAME: usize = 20 * 1024;

/// Parses one text frame from a relay; `None` for anything not of NIP-01's forms, and for frames
/// longer than [`MAX_FRAME`] (not parsed at all).
pub fn parse(text: &str) -> Option<RelayMsg> {
    if text.len() > MAX_FRAME {
        return None;
    }
    serde_json::from_str::<Frame>(text).ok()?.0
}

/// A relay's frame, read straight from its text (no `serde_json::Value` in between, which keeps
/// Value's code out of the online page): a JSON array whose first element names the message;
/// elements after those the message has are ignored.
struct Frame(Option<RelayMsg>);

/// Any JSON value, kept only if it is a string or a boolean.
enum Item {
    Str(String),
    Bool(bool),
    Other,
}

impl Item {
    fn str(self) -> Option<String> {
        match self {
            Item::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Item {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Item, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Item;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any value")
            }
            fn visit_str<E>(self, s: &str) -> Result<Item, E> {
                Ok(Item::Str(s.to_string()))
            }
            fn visit_string<E>(self, s: String) -> Result<Item, E> {
                Ok(Item::Str(s))
            }
            fn visit_bool<E>(self, b: bool) -> Result<Item, E> {
                Ok(Item::Bool(b))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Item, E> {
                Ok(Item::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Item, E> {
                Ok(Item::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Item, E> {
                Ok(Item::Other)
            }
            fn visit_unit<E>(self) -> Result<Item, E> {
                Ok(Item::Other)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Item, A::Error> {
                while a.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Item::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Item, A::Error> {
                while a.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Item::Other)
            }
        }
        d.deserialize_any(V)
    }
}

/// The next element if it is a string.
fn next<'de, A: SeqAccess<'de>>(a: &mut A) -> Result<Option<String>, A::Error> {
    Ok(a.next_element::<Item>()?.and_then(Item::str))
}

impl<'de> Deserialize<'de> for Frame {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Frame, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Frame;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a relay message")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Frame, A::Error> {
                let msg = match next(&mut a)?.as_deref() {
                    Some("EVENT") => match next(&mut a)? {
                        Some(sub) => a.next_element::<Event>()?.map(|e| RelayMsg::Event {
                            sub,
                            event: Box::new(e),
                        }),
                        None => None,
                    },
                    Some("OK") => match (next(&mut a)?, a.next_element::<Item>()?) {
                        (Some(id), Some(Item::Bool(accepted))) => Some(RelayMsg::Ok {
                            id,
                            accepted,
                            message: next(&mut a)?.unwrap_or_default(),
                        }),
                        _ => None,
                    },
                    Some("EOSE") => next(&mut a)?.map(|sub| RelayMsg::Eose { sub }),
                    Some("CLOSED") => match next(&mut a)? {
                        Some(sub) => Some(RelayMsg::Closed {
                            sub,
                            message: next(&mut a)?.unwrap_or_default(),
                        }),
                        None => None,
                    },
                    Some("NOTICE") => Some(RelayMsg::Notice {
                        message: next(&mut a)?.unwrap_or_default(),
                    }),
                    _ => None,
                };
                // serde_json wants every element read.
                while a.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Frame(msg))
            }
        }
        d.deserialize_seq(V)
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
    use serde_json::json;

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
        assert!(subscribe("s", 1, &["ab".into()], 9).starts_with(r##"["REQ","s",{"##));
        // Elements of other types where a string or a boolean is due, and extra elements.
        assert_eq!(
            parse(r#"["OK","ab",true,7,{"x":[1]}]"#),
            Some(RelayMsg::Ok {
                id: "ab".into(),
                accepted: true,
                message: String::new()
            })
        );
        assert_eq!(parse(r#"["OK","ab","true"]"#), None);
        assert_eq!(parse(r#"["EOSE",1]"#), None);
        assert_eq!(parse(r#"[["EOSE"],"s"]"#), None);
        assert_eq!(
            parse(r#"["NOTICE",null,"x"]"#),
            Some(RelayMsg::Notice {
                message: String::new()
            })
        );
        assert_eq!(
            parse(r#"["CLOSED","s",[],1.5]"#),
            Some(RelayMsg::Closed {
                sub: "s".into(),
                message: String::new()
            })
        );
    }

    /// The frames and the id's preimage are the very text that serde_json's `json!` values wrote
    /// (objects' keys in alphabetical order).
    #[test]
    fn frames_are_written_as_before() {
        let e = Event::sign(
            &keys(),
            7,
            29_731,
            vec![vec!["t".into(), "a\"b\u{1}é".into()]],
            "x\ny".into(),
            &[0; 32],
        );
        assert_eq!(publish(&e), json!(["EVENT", e]).to_string());
        assert_eq!(
            subscribe("s", 29_731, &["ab".into(), "cd".into()], 9),
            json!(["REQ", "s", {"kinds": [29_731], "#t": ["ab", "cd"], "since": 9}]).to_string()
        );
        let text = json!([0, e.pubkey, e.created_at, e.kind, e.tags, e.content]).to_string();
        assert_eq!(hex(&Sha256::digest(text.as_bytes())), e.id);
    }
}
