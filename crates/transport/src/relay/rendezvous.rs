//! The rendezvous's logic apart from the sockets ([`Rendezvous`]), so tests drive it directly:
//! which peers we have met, the handshakes we let matchbox start, the hellos we send, and every
//! relay event checked cheapest first and answered with a [`Reaction`].
//!
//! Owns the peers met, the duplicate and bad-signature windows and the handshake budget.
//! Invariants: a peer id is the hash of the key that signs for it ([`peer_id`]); at most
//! [`MAX_PEERS`] peers are met at once; matchbox is asked for at most [`MAX_HANDSHAKES`]
//! connections (one more every [`HANDSHAKE_REFILL_S`]); a peer that sends no signal within
//! [`HANDSHAKE_S`] is forgotten; a bad signature is verified once; the duplicate window holds at
//! most [`SEEN`] ids, and a full window forgets first an id too old to be taken again, then one
//! of whoever holds most of it (a peer met or that has signalled, or everyone else together), so
//! a room member's flood pushes out its own ids, not the others'.

use super::*;
/// The peer id of a Nostr key (x-only, hex): the first 16 bytes of a domain-separated SHA-256 of
/// the key, as a version-4 UUID. An envelope must speak for its signer's id, so nobody can speak
/// for an id without its key, and one key has one id.
pub fn peer_id(pubkey: &str) -> [u8; 16] {
    let mut h = Sha256::new();
    h.update(b"orbis/relay/peer-id\0");
    h.update(pubkey.as_bytes());
    let d = h.finalize();
    let mut id = [0u8; 16];
    id.copy_from_slice(&d[..16]);
    // A version-4 UUID, as matchbox's own ids are.
    id[6] = (id[6] & 0x0f) | 0x40;
    id[8] = (id[8] & 0x3f) | 0x80;
    id
}

/// The peer id an invitation's seed gives its guest.
pub fn invited_id(seed: &[u8; 16]) -> [u8; 16] {
    peer_id(&invited_keys(seed).public)
}

/// The session key an invitation's seed gives its guest (the host knows it too, to know the
/// guest's id).
fn invited_keys(seed: &[u8; 16]) -> nostr::Keys {
    let mut counter = 0u32;
    loop {
        let mut h = Sha256::new();
        h.update(b"orbis/relay/invited-key\0");
        h.update(seed);
        h.update(counter.to_be_bytes());
        if let Some(k) = nostr::Keys::from_secret(&h.finalize().into()) {
            break k;
        }
        counter += 1;
    }
}

/// Peers met at once (heard from and not yet timed out): more than a full table of six with a
/// reload each.
pub const MAX_PEERS: usize = 16;
/// How long a peer met may take to send its first signal (an offer or an answer) before it is
/// forgotten: a WebRTC handshake's signals take a second or two.
pub const HANDSHAKE_S: u64 = 30;
/// Handshakes (each a WebRTC connection in matchbox, which never closes one that stalls) a
/// session may start at once; one more every [`HANDSHAKE_REFILL_S`].
pub const MAX_HANDSHAKES: u32 = 24;
/// See [`MAX_HANDSHAKES`].
pub const HANDSHAKE_REFILL_S: u64 = 120;
/// Events that opened but whose signature did not verify, remembered (by id and signature) so
/// their copies are not verified again.
const BAD: usize = 1024;

/// A peer met through the relays.
#[derive(Clone, Debug)]
struct Met {
    /// When we first and last heard from it (seconds).
    since: u64,
    heard: u64,
    /// Whether matchbox has a handshake with it (we told it to offer, or passed it a signal).
    handshake: bool,
    /// Whether it has sent us a signal: a peer that sends none within [`HANDSHAKE_S`] is forgotten.
    signalled: bool,
}

/// The rendezvous logic, apart from the sockets, so tests can drive it directly.
pub struct Rendezvous {
    rng: ChaCha20Rng,
    keys: nostr::Keys,
    room: Room,
    /// Our matchbox peer id: [`peer_id`] of our key.
    pub me: [u8; 16],
    /// Peers met (their id is [`peer_id`] of their key).
    peers: BTreeMap<[u8; 16], Met>,
    /// The duplicate window: ids of the events that opened and verified (ours included), oldest
    /// first, and how many each signer holds.
    seen: BTreeSet<String>,
    seen_order: VecDeque<Remembered>,
    seen_per: BTreeMap<[u8; 16], usize>,
    /// Peers that have signalled (or were introduced): each keeps its own share of the window
    /// while it holds ids there, even once forgotten as a peer met. There are few: each one
    /// spent a handshake of the budget.
    kept: BTreeSet<[u8; 16]>,
    /// Peers matchbox was told to offer to ([`PeerEvent::NewPeer`]), never forgotten: matchbox
    /// keeps one signal channel per peer id for the socket's life, and a second `NewPeer` for
    /// the same id replaces it, which panics the handshake still waiting on the first ("Signal
    /// server connection lost in the middle of a handshake"). That happened when an answer took
    /// over [`HANDSHAKE_S`] (a loaded machine, signals relayed through the mesh): the peer was
    /// forgotten, and its next hello met it anew. Bounded by the handshake budget.
    offered: BTreeSet<[u8; 16]>,
    /// The window's size: [`SEEN`] (smaller in tests, which then need fewer signed events).
    seen_cap: usize,
    bad: BTreeSet<[u8; 32]>,
    bad_order: VecDeque<[u8; 32]>,
    /// Handshakes that may start now, and when one was last added.
    budget: u32,
    budget_at: u64,
    next_hello: u64,
    hello_step: usize,
    was_quiet: bool,
    verifications: u64,
}

/// An id in the duplicate window.
#[derive(Clone, Debug)]
struct Remembered {
    id: String,
    /// Whose key signed it ([`peer_id`]).
    from: [u8; 16],
    /// The event's `created_at`: [`WINDOW_S`] after it the event is refused as stale, so its id
    /// need not be kept.
    at: u64,
}

/// What one relay event asks of matchbox and the relays.
#[derive(Debug, Default, PartialEq)]
pub struct Reaction {
    pub to_matchbox: Vec<PeerEvent>,
    /// Events to publish.
    pub publish: Vec<nostr::Event>,
    /// Pass the event on to the mesh neighbours (other than the one it came from): it is a room
    /// event seen for the first time and not addressed to us alone.
    pub forward: bool,
}

impl Rendezvous {
    /// As [`Rendezvous::new`], for the guest of an invitation: its key (and so its id) comes from
    /// the invitation's seed, which the host chose.
    pub fn invited(secret: &str, entropy: [u8; 32], seed: [u8; 16]) -> Rendezvous {
        let keys = invited_keys(&seed);
        Rendezvous {
            me: peer_id(&keys.public),
            keys,
            ..Rendezvous::new(secret, entropy)
        }
    }

    pub fn new(secret: &str, entropy: [u8; 32]) -> Rendezvous {
        let mut rng = ChaCha20Rng::from_seed(entropy);
        let keys = loop {
            let mut k = [0u8; 32];
            rng.fill_bytes(&mut k);
            if let Some(keys) = nostr::Keys::from_secret(&k) {
                break keys;
            }
        };
        Rendezvous {
            rng,
            me: peer_id(&keys.public),
            keys,
            room: Room::new(secret),
            peers: BTreeMap::new(),
            seen: BTreeSet::new(),
            seen_order: VecDeque::new(),
            seen_per: BTreeMap::new(),
            kept: BTreeSet::new(),
            offered: BTreeSet::new(),
            seen_cap: SEEN,
            bad: BTreeSet::new(),
            bad_order: VecDeque::new(),
            budget: MAX_HANDSHAKES,
            budget_at: 0,
            next_hello: 0,
            hello_step: 0,
            was_quiet: false,
            verifications: 0,
        }
    }

    /// A fresh invitation: its seed (for the code) and the id the guest will have.
    pub fn fresh_invitation(&mut self) -> ([u8; 16], [u8; 16]) {
        let mut seed = [0u8; 16];
        self.rng.fill_bytes(&mut seed);
        (seed, invited_id(&seed))
    }

    /// A peer matchbox is connecting to outside the relays (an invitation's host or guest): met,
    /// with its handshake under way, so its hellos through the mesh neither start another one
    /// nor time it out.
    pub fn introduce(&mut self, id: [u8; 16], now: u64) {
        if id == self.me {
            return; // a code naming us as the host: refused before this (`invited_id`)
        }
        self.kept.insert(id);
        self.peers.insert(
            id,
            Met {
                since: now,
                heard: now,
                handshake: true,
                signalled: true,
            },
        );
    }

    /// Ids in the duplicate window (its set and its order, which must agree).
    #[cfg(test)]
    pub(super) fn window(&self) -> (usize, usize) {
        (self.seen.len(), self.seen_order.len())
    }

    /// A smaller duplicate window, so a test fills it with fewer signed events.
    #[cfg(test)]
    pub(super) fn shrink_window(&mut self, cap: usize) {
        self.seen_cap = cap;
    }

    /// Signatures checked so far (the costly step).
    pub fn verifications(&self) -> u64 {
        self.verifications
    }

    /// The relay topic we publish under at `now`: today's (UTC).
    pub fn topic(&self, now: u64) -> String {
        self.room.topic(now / room::DAY_S)
    }

    /// The topics we listen to at `now`: today's, and yesterday's or tomorrow's too within
    /// [`WINDOW_S`] of midnight, so that peers whose clocks straddle midnight still meet.
    pub fn topics(&self, now: u64) -> Vec<String> {
        let days = [
            now.saturating_sub(WINDOW_S) / room::DAY_S,
            now / room::DAY_S,
            (now + WINDOW_S) / room::DAY_S,
        ];
        let mut out: Vec<String> = vec![];
        for d in days {
            let t = self.room.topic(d);
            if !out.contains(&t) {
                out.push(t);
            }
        }
        out
    }

    fn event(&mut self, to: Option<[u8; 16]>, body: Body, now: u64) -> nostr::Event {
        let env = Envelope {
            from: self.me,
            to,
            signer: self.keys.public.clone(),
            body,
        };
        let mut nonce = [0u8; 24];
        self.rng.fill_bytes(&mut nonce);
        let mut aux = [0u8; 32];
        self.rng.fill_bytes(&mut aux);
        let topic = self.topic(now);
        let content = self.room.seal(&env, &topic, nonce);
        let e = nostr::Event::sign(
            &self.keys,
            now,
            KIND,
            vec![vec!["t".into(), topic]],
            content,
            &aux,
        );
        self.remember(e.id.clone(), self.me, now, now);
        e
    }

    /// Adds `id`, signed for `from` at `at`, to the duplicate window at `now`. When the window
    /// is full, an id goes that is too old to be taken again anyway; failing that, the oldest id
    /// of whoever holds most of the window: one of the peers met or kept (see `kept`), or we,
    /// or everyone else together (keys not met, which a member can mint). So a flood, from one
    /// key or many, pushes out its own ids, and a peer loses one only once it holds more of the
    /// window than any other. Before, the window was first in, first out: any member's flood
    /// pushed out every other event's id, and a replay of it went through again
    /// (`a_members_flood_does_not_flush_the_others_ids`).
    fn remember(&mut self, id: String, from: [u8; 16], at: u64, now: u64) {
        if !self.seen.insert(id.clone()) {
            return;
        }
        self.seen_order.push_back(Remembered { id, from, at });
        *self.seen_per.entry(from).or_default() += 1;
        if self.seen_order.len() <= self.seen_cap {
            return;
        }
        let victim = match self
            .seen_order
            .iter()
            .position(|r| r.at.saturating_add(WINDOW_S) < now)
        {
            Some(i) => Some(i),
            None => {
                let mut own: BTreeSet<[u8; 16]> = self.kept.clone();
                own.extend(self.peers.keys().copied());
                own.insert(self.me);
                let held = |k: &[u8; 16]| self.seen_per.get(k).copied().unwrap_or(0);
                let top = own.iter().max_by_key(|k| held(k)).copied();
                let others = self
                    .seen_order
                    .len()
                    .saturating_sub(own.iter().map(held).sum());
                match top {
                    Some(t) if held(&t) > others => {
                        self.seen_order.iter().position(|r| r.from == t)
                    }
                    _ => self.seen_order.iter().position(|r| !own.contains(&r.from)),
                }
            }
        };
        // There is always one (the largest share is not empty), but should there be none, the
        // oldest goes: the window never grows past its size.
        if let Some(old) = self.seen_order.remove(victim.unwrap_or(0)) {
            self.seen.remove(&old.id);
            if let Some(n) = self.seen_per.get_mut(&old.from) {
                *n -= 1;
                if *n == 0 {
                    self.seen_per.remove(&old.from);
                }
            }
        }
    }

    /// What a bad copy is remembered by: its id and its signature (not the id alone, or a copy
    /// with a spoilt signature would get the genuine event refused).
    fn bad_key(e: &nostr::Event) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(e.id.as_bytes());
        h.update([0]);
        h.update(e.sig.as_bytes());
        h.finalize().into()
    }

    fn remember_bad(&mut self, k: [u8; 32]) {
        if self.bad.insert(k) {
            self.bad_order.push_back(k);
            if self.bad_order.len() > BAD {
                if let Some(old) = self.bad_order.pop_front() {
                    self.bad.remove(&old);
                }
            }
        }
    }

    /// A hello, if one is due at `now` (seconds): quick after joining or after leaving quiet,
    /// then slower; none while quiet.
    pub fn tick(&mut self, now: u64, quiet: bool) -> Option<nostr::Event> {
        self.expire(now);
        if quiet {
            self.was_quiet = true;
            return None;
        }
        if self.was_quiet {
            self.was_quiet = false;
            self.hello_step = 0;
            self.next_hello = now;
        }
        if now < self.next_hello {
            return None;
        }
        let gap = HELLO_GAPS_S[self.hello_step.min(HELLO_GAPS_S.len() - 1)];
        self.hello_step += 1;
        self.next_hello = now + gap;
        Some(self.event(None, Body::Hello, now))
    }

    /// A hello now, outside the schedule (a new neighbour connected).
    pub fn hello(&mut self, now: u64) -> nostr::Event {
        self.event(None, Body::Hello, now)
    }

    /// A signal matchbox asks us to pass to `to`.
    pub fn signal(
        &mut self,
        to: [u8; 16],
        data: matchbox_socket::PeerSignal,
        now: u64,
    ) -> nostr::Event {
        self.event(Some(to), Body::Signal(data), now)
    }

    /// Forgets the peers whose handshake timed out: met over [`HANDSHAKE_S`] ago and no signal
    /// since (made-up peers, or pages gone before connecting).
    fn expire(&mut self, now: u64) {
        self.peers
            .retain(|_, p| p.signalled || now.saturating_sub(p.since) <= HANDSHAKE_S);
        let (peers, per) = (&self.peers, &self.seen_per);
        self.kept
            .retain(|k| peers.contains_key(k) || per.contains_key(k));
    }

    /// Meets `id` at `now` (`Ok(true)`: for the first time), unless the room is full: then the
    /// peer heard from least lately is forgotten if it has been quiet over [`PRESENT_S`], or
    /// else the newcomer is refused.
    fn meet(&mut self, id: [u8; 16], now: u64) -> Result<bool, &'static str> {
        self.expire(now);
        if let Some(p) = self.peers.get_mut(&id) {
            p.heard = p.heard.max(now);
            return Ok(false);
        }
        if self.peers.len() >= MAX_PEERS {
            let oldest = self
                .peers
                .iter()
                .filter(|(_, p)| now.saturating_sub(p.heard) > PRESENT_S)
                .min_by_key(|(_, p)| p.heard)
                .map(|(k, _)| *k);
            match oldest {
                Some(k) => {
                    self.peers.remove(&k);
                }
                None => return Err("room_full"),
            }
        }
        self.peers.insert(
            id,
            Met {
                since: now,
                heard: now,
                handshake: false,
                signalled: false,
            },
        );
        Ok(true)
    }

    /// Starts a handshake with `id` in matchbox, if the budget allows.
    fn handshake(&mut self, id: [u8; 16], now: u64) -> Result<(), &'static str> {
        if self.peers.get(&id).is_some_and(|p| p.handshake) {
            return Ok(());
        }
        let refills = now.saturating_sub(self.budget_at) / HANDSHAKE_REFILL_S;
        if refills > 0 {
            self.budget = MAX_HANDSHAKES.min(
                self.budget
                    .saturating_add(u32::try_from(refills).unwrap_or(u32::MAX)),
            );
            self.budget_at += refills * HANDSHAKE_REFILL_S;
        }
        if self.budget == 0 {
            return Err("too_many_handshakes");
        }
        if self.budget == MAX_HANDSHAKES {
            self.budget_at = now;
        }
        self.budget -= 1;
        if let Some(p) = self.peers.get_mut(&id) {
            p.handshake = true;
        }
        Ok(())
    }

    /// Handles an event from a relay; `Err` names why it was refused (`"duplicate"` is the
    /// normal fate of the copies other relays pass on).
    ///
    /// The cheap checks come first and the signature last: kind, size, age and topic; the
    /// duplicate window; then the AEAD, which only a holder of the room secret can pass (so
    /// junk from outsiders costs one symmetric decryption and is never remembered); then the
    /// envelope's signer and id, which must be the event's key and that key's [`peer_id`]; and
    /// only then the Schnorr signature, whose failures are remembered.
    pub fn receive(&mut self, e: &nostr::Event, now: u64) -> Result<Reaction, &'static str> {
        if e.kind != KIND {
            return Err("wrong_kind");
        }
        if e.content.len() > room::MAX_CONTENT {
            return Err("oversized");
        }
        if e.created_at.saturating_add(WINDOW_S) < now || e.created_at > now + WINDOW_S {
            return Err("stale");
        }
        let Some(topic) = e
            .tag("t")
            .filter(|t| self.topics(now).iter().any(|o| o == t))
        else {
            return Err("foreign_topic");
        };
        if self.seen.contains(&e.id) {
            return Err("duplicate");
        }
        let bad = Rendezvous::bad_key(e);
        if self.bad.contains(&bad) {
            return Err("bad_signature");
        }
        let env = self.room.open(&e.content, topic).map_err(|err| match err {
            room::OpenError::Foreign => "undecryptable",
            _ => "malformed",
        })?;
        if env.signer != e.pubkey {
            return Err("wrong_key");
        }
        if env.from != peer_id(&e.pubkey) {
            return Err("foreign_id");
        }
        self.verifications += 1;
        if let Err(err) = e.verify() {
            self.remember_bad(bad);
            return Err(match err {
                nostr::EventError::Malformed => "malformed",
                _ => "bad_signature",
            });
        }
        if env.from == self.me {
            self.remember(e.id.clone(), self.me, e.created_at, now);
            return Err("own");
        }
        if env.to.is_some_and(|t| t != self.me) {
            // Not for us, but a neighbour may be on the way to its addressee.
            self.remember(e.id.clone(), env.from, e.created_at, now);
            return Ok(Reaction {
                forward: true,
                ..Reaction::default()
            });
        }
        let mut r = Reaction {
            forward: env.to.is_none(),
            ..Reaction::default()
        };
        // Met first, so that the window counts its id as the peer's own (a peer refused for a
        // full room counts with everyone else).
        let met = self.meet(env.from, now);
        self.remember(e.id.clone(), env.from, e.created_at, now);
        let new = met?;
        let from = PeerId(uuid::Uuid::from_bytes(env.from));
        match env.body {
            Body::Hello => {
                // Of each pair the larger id offers (matchbox's NewPeer tells a peer to offer).
                // Once per id: see `offered`.
                if new && env.from < self.me && !self.offered.contains(&env.from) {
                    self.handshake(env.from, now)?;
                    self.offered.insert(env.from);
                    r.to_matchbox.push(PeerEvent::NewPeer(from));
                }
                // Answer a newcomer's broadcast hello so it learns of us (relays keep no history
                // of ephemeral events). Peers met before are not answered again: should our
                // answer have been lost, our own hellos reach them.
                if env.to.is_none() && new {
                    r.publish.push(self.event(Some(env.from), Body::Hello, now));
                }
            }
            Body::Signal(data) => {
                // A signal from a peer matchbox has no handshake with starts one (it answers).
                self.handshake(env.from, now)?;
                if let Some(p) = self.peers.get_mut(&env.from) {
                    p.signalled = true;
                }
                self.kept.insert(env.from);
                r.to_matchbox.push(PeerEvent::Signal { sender: from, data })
            }
        }
        Ok(r)
    }

    /// Peers heard from in the last [`PRESENT_S`] seconds before `now`: a page that was
    /// reloaded (a new key) or closed stops counting once its hellos stop. Peers connected
    /// directly may fall quiet too: the page counts those itself.
    pub fn peer_count(&self, now: u64) -> usize {
        self.peers
            .values()
            .filter(|p| now.saturating_sub(p.heard) <= PRESENT_S)
            .count()
    }
}
