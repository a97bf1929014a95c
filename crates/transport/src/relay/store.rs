//! Games over days: the protocol's signed envelopes kept on relays as regular (stored) Nostr
//! events, so players who are never online together play by visiting (issue 61, the design in
//! PROTOCOL.md "Games over days"). This is the sans-I/O core: the events a visit writes
//! ([`Days::wrap`]) and a [`Mailbox`] that takes what relays return, checks it, reassembles the
//! bundles and says what each relay lacks ([`Mailbox::refills`]). `store_net` drives it over the
//! relay sockets.
//!
//! One visit's messages travel as one **bundle**: bincode `Vec<Vec<u8>>` of the envelopes, sealed
//! (XChaCha20-Poly1305 under the room key) into an event of kind [`DAYS_KIND`] tagged with the
//! room's stable days topic (`t`) and a NIP-40 `expiration`. A bundle whose content would pass
//! [`MAX_PART`] is split into parts (`["part", bundle id, i, n]`), each sealed by itself.
//!
//! Invariants: a relay sees the topic, a throwaway key per visit, sizes, times and ciphertext.
//! Every part's seal binds the topic, the signer's key and its place in its bundle, so a part
//! cannot be moved to another room, signer, bundle or place; a bundle's id is a hash of its
//! plaintext, checked when it is reassembled, so the same bundle wrapped twice (a refill that
//! had to be rewrapped) is one bundle. Everything a relay returns is checked cheapest first (the
//! AEAD before the signature) and refused by reason ([`Refused`]), never a panic; a mailbox holds
//! at most [`MAX_EVENTS`] events.

use super::nostr::{self, Event, Keys};
use super::room::{Room, MAX_CONTENT};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};

/// The Nostr kind of a stored Orbis event: regular (1000-9999), so relays keep it.
pub const DAYS_KIND: u32 = 7462;
/// The longest content of one event (parts of a bigger bundle each stay within it).
pub const MAX_PART: usize = MAX_CONTENT;
/// The part size tried after a relay refused a bigger event for another reason than age or rate
/// (nostr-relay's default `max_event_size` is 4,096 characters of content).
pub const SMALL_PART: usize = 4096;
/// Parts of one bundle at most.
pub const MAX_PARTS: usize = 256;
/// A bundle's bytes at most (before sealing).
pub const MAX_BUNDLE: usize = 1 << 20;
/// Events a mailbox holds at most (a two-year orders game of seven is a few hundred).
pub const MAX_EVENTS: usize = 5000;
/// NIP-40: how long after the game's last deadline its events may be dropped.
pub const KEEP_AFTER_S: u64 = 30 * 86_400;
/// The end assumed while a game's last deadline is unknown: a year after it began.
pub const UNKNOWN_END_S: u64 = 365 * 86_400;

/// A bundle's id: the first 16 bytes of a domain-separated SHA-256 of its bytes.
pub type BundleId = [u8; 16];

/// The expiration tag's value: the game's last deadline (or `created + a year` while unknown),
/// plus [`KEEP_AFTER_S`].
pub fn expiration(last_deadline: Option<u64>, created: u64) -> u64 {
    last_deadline
        .unwrap_or(created.saturating_add(UNKNOWN_END_S))
        .saturating_add(KEEP_AFTER_S)
}

/// The bytes of a bundle of envelopes.
pub fn encode(envelopes: &[Vec<u8>]) -> Vec<u8> {
    bincode::encode_to_vec(envelopes, bincode::config::standard()).unwrap_or_default()
}

/// The envelopes of a bundle's bytes; `None` unless the bytes are exactly one bundle.
pub fn decode(bytes: &[u8]) -> Option<Vec<Vec<u8>>> {
    if bytes.len() > MAX_BUNDLE {
        return None;
    }
    let config = bincode::config::standard().with_limit::<MAX_BUNDLE>();
    match bincode::decode_from_slice::<Vec<Vec<u8>>, _>(bytes, config) {
        Ok((v, used)) if used == bytes.len() => Some(v),
        _ => None,
    }
}

/// The id of a bundle's bytes.
pub fn bundle_id(bytes: &[u8]) -> BundleId {
    let mut h = Sha256::new();
    h.update(b"orbis/days/bundle\0");
    h.update(bytes);
    let mut id = [0u8; 16];
    id.copy_from_slice(&h.finalize()[..16]);
    id
}

/// Plaintext bytes of one part whose sealed content fits in `content` characters: base64 of
/// nonce (24) + bytes + tag (16) without padding.
fn chunk_for(content: usize) -> usize {
    (content * 3 / 4).saturating_sub(40).max(1)
}

/// A throwaway Nostr key for one visit, from its entropy.
pub fn visit_keys(entropy: &[u8; 32]) -> Keys {
    let mut counter = 0u32;
    loop {
        let mut h = Sha256::new();
        h.update(b"orbis/days/visit-key\0");
        h.update(entropy);
        h.update(counter.to_be_bytes());
        if let Some(k) = Keys::from_secret(&h.finalize().into()) {
            break k;
        }
        counter += 1;
    }
}

/// Why an event a relay returned was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Refused {
    /// Content longer than [`MAX_PART`] (not read).
    Oversized,
    /// Not of kind [`DAYS_KIND`].
    WrongKind,
    /// Not tagged with this room's days topic.
    WrongTopic,
    /// A `part` tag that is not `[id hex, i < n, n <= MAX_PARTS]`.
    BadPart,
    /// The seal does not open under the room key for this topic, signer and place (another
    /// room's, forged, or moved).
    Garbage,
    /// The id is not the event's hash, or a field is malformed.
    BadId,
    /// The signature does not verify.
    BadSignature,
    /// Another event of the same signer for the same part of the same bundle (the first kept).
    Conflict,
    /// Its bundle's parts, put together, are no bundle or not the bundle their id names.
    BadBundle,
    /// The mailbox is full ([`MAX_EVENTS`]).
    Full,
}

impl Refused {
    pub fn as_str(self) -> &'static str {
        match self {
            Refused::Oversized => "oversized",
            Refused::WrongKind => "wrong_kind",
            Refused::WrongTopic => "wrong_topic",
            Refused::BadPart => "bad_part",
            Refused::Garbage => "garbage",
            Refused::BadId => "bad_id",
            Refused::BadSignature => "bad_signature",
            Refused::Conflict => "conflict",
            Refused::BadBundle => "bad_bundle",
            Refused::Full => "full",
        }
    }
}

/// What the room secret derives for games over days: the stable topic and the key.
#[derive(Clone, Debug)]
pub struct Days {
    room: Room,
    topic: String,
}

/// Where an event sits: signer, the bundle id its tag names (or, untagged, its own event id) and
/// the number of parts.
type Wrap = (String, String, u16);

/// A part tag's (id, i, n); `None` for an event of one part with no tag.
type PartTag = Option<(String, u16, u16)>;

impl Days {
    /// The days of a room secret (a typed name pays the room's KDF, as [`Room::new`] does).
    pub fn new(secret: &str) -> Days {
        let room = Room::new(secret);
        let topic = room.days_topic();
        Days { room, topic }
    }

    /// The topic (tag `t`) every event of the game carries.
    pub fn topic(&self) -> &str {
        &self.topic
    }

    fn aad(&self, pubkey: &str, part: &PartTag) -> Vec<u8> {
        let mut a = format!("{}\0{pubkey}", self.topic);
        if let Some((id, i, n)) = part {
            a.push_str(&format!("\0{id}\0{i}\0{n}"));
        }
        a.into_bytes()
    }

    /// The events of one bundle, signed by `keys` at `created_at`, each content at most `part`
    /// characters (at most [`MAX_PART`]); `Err` if the bundle is too big to store.
    pub fn wrap(
        &self,
        keys: &Keys,
        envelopes: &[Vec<u8>],
        created_at: u64,
        expiration: u64,
        part: usize,
        rng: &mut ChaCha20Rng,
    ) -> Result<Vec<Event>, String> {
        let bytes = encode(envelopes);
        if bytes.len() > MAX_BUNDLE {
            return Err(format!(
                "a bundle of {} bytes is more than the {MAX_BUNDLE} a game stores at once",
                bytes.len()
            ));
        }
        let chunk = chunk_for(part.min(MAX_PART));
        let n = bytes.len().div_ceil(chunk).max(1);
        if n > MAX_PARTS {
            return Err(format!("a bundle of {n} parts is more than {MAX_PARTS}"));
        }
        let id = nostr::hex(&bundle_id(&bytes));
        let mut out = vec![];
        for i in 0..n {
            let plain = &bytes[(i * chunk).min(bytes.len())..((i + 1) * chunk).min(bytes.len())];
            let tag: PartTag = (n > 1).then(|| (id.clone(), i as u16, n as u16));
            let mut nonce = [0u8; 24];
            rng.fill_bytes(&mut nonce);
            let content = self
                .room
                .seal_bytes(plain, &self.aad(&keys.public, &tag), nonce);
            let mut tags = vec![
                vec!["t".to_string(), self.topic.clone()],
                vec!["expiration".to_string(), expiration.to_string()],
            ];
            if let Some((id, i, n)) = &tag {
                tags.push(vec![
                    "part".into(),
                    id.clone(),
                    i.to_string(),
                    n.to_string(),
                ]);
            }
            let mut aux = [0u8; 32];
            rng.fill_bytes(&mut aux);
            out.push(Event::sign(
                keys, created_at, DAYS_KIND, tags, content, &aux,
            ));
        }
        Ok(out)
    }

    /// Checks an event's form, topic and tag, opens its seal and verifies its signature: its
    /// wrap, part number and plaintext.
    fn check(&self, e: &Event) -> Result<(Wrap, u16, Vec<u8>), Refused> {
        if e.content.len() > MAX_PART {
            return Err(Refused::Oversized);
        }
        if e.kind != DAYS_KIND {
            return Err(Refused::WrongKind);
        }
        if e.tag("t") != Some(self.topic.as_str()) {
            return Err(Refused::WrongTopic);
        }
        let tag = part_tag(e)?;
        let plain = self
            .room
            .open_bytes(&e.content, &self.aad(&e.pubkey, &tag))
            .map_err(|_| Refused::Garbage)?;
        e.verify().map_err(|err| match err {
            nostr::EventError::BadSignature => Refused::BadSignature,
            _ => Refused::BadId,
        })?;
        Ok(match tag {
            Some((id, i, n)) => ((e.pubkey.clone(), id, n), i, plain),
            None => ((e.pubkey.clone(), e.id.clone(), 1), 0, plain),
        })
    }
}

/// The `part` tag of an event, checked.
fn part_tag(e: &Event) -> Result<PartTag, Refused> {
    let Some(t) = e
        .tags
        .iter()
        .find(|t| t.first().map(String::as_str) == Some("part"))
    else {
        return Ok(None);
    };
    let (Some(id), Some(i), Some(n)) = (t.get(1), t.get(2), t.get(3)) else {
        return Err(Refused::BadPart);
    };
    let (Ok(i), Ok(n)) = (i.parse::<u16>(), n.parse::<u16>()) else {
        return Err(Refused::BadPart);
    };
    let canonical = id.len() == 32 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if !canonical || n == 0 || usize::from(n) > MAX_PARTS || i >= n {
        return Err(Refused::BadPart);
    }
    Ok(Some((id.clone(), i, n)))
}

/// An event held, with what it carries and the relays that returned it.
#[derive(Clone, Debug)]
struct Held {
    event: Event,
    plain: Vec<u8>,
    relays: BTreeSet<usize>,
}

/// One visit's messages, put together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bundle {
    pub id: BundleId,
    /// The earliest `created_at` among its copies.
    pub created_at: u64,
    pub envelopes: Vec<Vec<u8>>,
    /// Events and content bytes of its first complete copy.
    pub events: usize,
    pub bytes: usize,
    /// Its complete copies (several when it was rewrapped).
    wraps: Vec<Wrap>,
}

/// What was received from a game's relays: the events checked, the bundles put together.
#[derive(Clone, Debug)]
pub struct Mailbox {
    days: Days,
    events: BTreeMap<String, Held>,
    /// Each wrap's parts: part number -> event id.
    parts: BTreeMap<Wrap, BTreeMap<u16, String>>,
    bundles: BTreeMap<BundleId, Bundle>,
    refused: BTreeMap<Refused, u64>,
    /// Events returned again (by another relay, or twice).
    pub duplicates: u64,
}

/// Events to publish to a relay that lacks a bundle: the original signed events of a copy that
/// another relay holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refill {
    pub relay: usize,
    pub bundle: BundleId,
    pub events: Vec<Event>,
}

impl Mailbox {
    pub fn new(days: Days) -> Mailbox {
        Mailbox {
            days,
            events: BTreeMap::new(),
            parts: BTreeMap::new(),
            bundles: BTreeMap::new(),
            refused: BTreeMap::new(),
            duplicates: 0,
        }
    }

    pub fn days(&self) -> &Days {
        &self.days
    }

    /// Takes an event relay `relay` returned: `Ok(true)` if new, `Ok(false)` if already held
    /// (the relay is noted as holding it), or why it was refused (counted).
    pub fn receive(&mut self, relay: usize, e: &Event) -> Result<bool, Refused> {
        let r = self.take(relay, e);
        if let Err(why) = r {
            *self.refused.entry(why).or_default() += 1;
        }
        r
    }

    fn take(&mut self, relay: usize, e: &Event) -> Result<bool, Refused> {
        if let Some(h) = self.events.get_mut(&e.id) {
            // The same id with other fields fails the checks below (the id is their hash).
            if h.event == *e {
                h.relays.insert(relay);
                self.duplicates += 1;
                return Ok(false);
            }
        }
        if self.events.len() >= MAX_EVENTS {
            return Err(Refused::Full);
        }
        let (wrap, i, plain) = self.days.check(e)?;
        let slots = self.parts.entry(wrap.clone()).or_default();
        if slots.get(&i).is_some_and(|id| *id != e.id) {
            return Err(Refused::Conflict);
        }
        slots.insert(i, e.id.clone());
        let complete = slots.len() == usize::from(wrap.2);
        self.events.insert(
            e.id.clone(),
            Held {
                event: e.clone(),
                plain,
                relays: BTreeSet::from([relay]),
            },
        );
        if complete {
            self.assemble(&wrap)?;
        }
        Ok(true)
    }

    /// Puts a complete wrap's parts together into its bundle.
    fn assemble(&mut self, wrap: &Wrap) -> Result<(), Refused> {
        let ids: Vec<&String> = self.parts[wrap].values().collect();
        let held: Vec<&Held> = ids.iter().map(|id| &self.events[*id]).collect();
        let bytes: Vec<u8> = held.iter().flat_map(|h| h.plain.iter().copied()).collect();
        let id = bundle_id(&bytes);
        // A tagged wrap names its bundle; an untagged one is named by its event id.
        let named = wrap.2 == 1 && held[0].event.tag("part").is_none();
        let envelopes = match decode(&bytes) {
            Some(v) if named || wrap.1 == nostr::hex(&id) => v,
            _ => return Err(Refused::BadBundle),
        };
        let created_at = held.iter().map(|h| h.event.created_at).min().unwrap_or(0);
        let events = held.len();
        let size = held.iter().map(|h| h.event.content.len()).sum();
        let b = self.bundles.entry(id).or_insert_with(|| Bundle {
            id,
            created_at,
            envelopes,
            events,
            bytes: size,
            wraps: vec![],
        });
        b.created_at = b.created_at.min(created_at);
        b.wraps.push(wrap.clone());
        Ok(())
    }

    /// Events refused, by reason.
    pub fn refused(&self) -> &BTreeMap<Refused, u64> {
        &self.refused
    }

    /// The bundles, by `created_at` then id.
    pub fn bundles(&self) -> Vec<&Bundle> {
        let mut v: Vec<&Bundle> = self.bundles.values().collect();
        v.sort_by_key(|b| (b.created_at, b.id));
        v
    }

    /// Every envelope once, in bundle order.
    pub fn envelopes(&self) -> Vec<Vec<u8>> {
        let mut seen = BTreeSet::new();
        let mut out = vec![];
        for b in self.bundles() {
            for e in &b.envelopes {
                if seen.insert(e.as_slice()) {
                    out.push(e.clone());
                }
            }
        }
        out
    }

    /// Bundles begun but with parts missing.
    pub fn incomplete(&self) -> usize {
        self.parts
            .iter()
            .filter(|(w, p)| p.len() < usize::from(w.2))
            .count()
    }

    /// Events held.
    pub fn event_count(&self) -> usize {
        self.events.len()
    }

    /// The relays that hold every part of `wrap`.
    fn holders(&self, wrap: &Wrap) -> BTreeSet<usize> {
        let mut sets = self.parts[wrap].values().map(|id| &self.events[id].relays);
        let first = sets.next().cloned().unwrap_or_default();
        sets.fold(first, |acc, s| acc.intersection(s).copied().collect())
    }

    /// Bundles relay `relay` holds a complete copy of.
    pub fn held_on(&self, relay: usize) -> usize {
        self.bundles
            .values()
            .filter(|b| b.wraps.iter().any(|w| self.holders(w).contains(&relay)))
            .count()
    }

    /// For each relay in `answered` (those that returned everything they hold) that lacks a
    /// bundle, the events of its earliest copy another relay holds, to publish there as they are.
    pub fn refills(&self, answered: &[usize]) -> Vec<Refill> {
        let mut out = vec![];
        for b in self.bundles() {
            let holders: BTreeSet<usize> = b.wraps.iter().flat_map(|w| self.holders(w)).collect();
            let Some(wrap) = b
                .wraps
                .iter()
                .filter(|w| !self.holders(w).is_empty())
                .min_by_key(|w| self.wrap_time(w))
            else {
                continue;
            };
            for &r in answered {
                if !holders.contains(&r) {
                    out.push(Refill {
                        relay: r,
                        bundle: b.id,
                        events: self.parts[wrap]
                            .values()
                            .map(|id| self.events[id].event.clone())
                            .collect(),
                    });
                }
            }
        }
        out
    }

    fn wrap_time(&self, wrap: &Wrap) -> u64 {
        self.parts[wrap]
            .values()
            .map(|id| self.events[id].event.created_at)
            .min()
            .unwrap_or(0)
    }

    /// A bundle's envelopes by id (to rewrap it).
    pub fn bundle(&self, id: &BundleId) -> Option<&Bundle> {
        self.bundles.get(id)
    }
}

/// What to do after a relay refused an event (`OK false` with `message`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Send it again after this many seconds (rate-limited).
    Retry { after_s: u64 },
    /// Wrap the bundle anew, now, in parts of at most this content (too old; or too large).
    Rewrap { part: usize },
    /// Leave this relay be for this bundle (the others carry it).
    GiveUp,
}

/// Tries of one event at a rate-limiting relay.
pub const MAX_TRIES: u32 = 4;

/// The answer to a refusal: rate limits are waited out (1, 2, 4 s), an event too old for the
/// relay (nostr-relay's `is_recent`: a year) is rewrapped now once, a big event refused for any
/// other reason is split smaller once; anything else (blocked, proof of work, authentication) is
/// given up.
pub fn after_refusal(message: &str, content: usize, tries: u32, rewrapped: bool) -> Next {
    let m = message.to_ascii_lowercase();
    if m.starts_with("rate-limited") || m.contains("rate limit") || m.contains("slow down") {
        return if tries < MAX_TRIES {
            Next::Retry {
                after_s: 1 << tries.min(4),
            }
        } else {
            Next::GiveUp
        };
    }
    if rewrapped {
        return Next::GiveUp;
    }
    if m.contains("too old") || m.contains("created_at") {
        return Next::Rewrap { part: MAX_PART };
    }
    if content > SMALL_PART && !m.starts_with("blocked") && !m.starts_with("auth") {
        return Next::Rewrap { part: SMALL_PART };
    }
    Next::GiveUp
}

/// A generator for a visit's nonces and signatures' aux randomness.
pub fn rng(entropy: &[u8; 32], label: &str) -> ChaCha20Rng {
    let mut h = Sha256::new();
    h.update(b"orbis/days/rng\0");
    h.update(entropy);
    h.update(label.as_bytes());
    ChaCha20Rng::from_seed(h.finalize().into())
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
