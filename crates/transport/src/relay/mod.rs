//! Rendezvous over public Nostr relays: a matchbox custom signaller, so peers of a static page
//! find each other with no server of ours.
//!
//! Each peer subscribes to the room's topic on several relays, says hello (quickly on joining,
//! then more slowly, and not at all once the game runs with every seat connected), and sends its
//! WebRTC offers, answers and candidates as sealed envelopes addressed to one peer. Of each pair,
//! the peer with the larger id offers. The relay sockets live in a background task; the signaller
//! matchbox holds only reads and writes channels (matchbox drops a pending `next_message` whenever
//! a send completes first, so a socket read must not live there).
//!
//! Invariants: nothing reaches matchbox that did not arrive as a validly signed event of our kind
//! and topic, open under the room key, and name its signer; a peer id is the hash of the key that
//! signs for it ([`peer_id`]); at most [`MAX_PEERS`] peers are met at once and matchbox is asked
//! for at most [`MAX_HANDSHAKES`] connections (one more every [`HANDSHAKE_REFILL_S`]); a peer that
//! sends no signal within [`HANDSHAKE_S`] is forgotten; frames over [`nostr::MAX_FRAME`] are not
//! parsed and the inbox holds at most [`INBOX`] events; an event is checked cheapest first, the
//! AEAD before the signature, and a bad signature is verified once; every refused event is counted
//! by reason, never a panic.

pub mod invite;
pub mod nostr;
mod pool;
mod rendezvous;
pub mod room;
mod rt;
pub mod store;
/// The sockets of [`store`] (fetch, publish, refill); kept apart so the sans-I/O core imports
/// nothing of them.
pub mod store_net;

pub use pool::valid_url;
pub use rendezvous::*;
pub use room::{new_secret, KIND};

use futures::channel::mpsc::{self, UnboundedReceiver, UnboundedSender};
use futures::future::LocalBoxFuture;
use futures::{select, FutureExt, StreamExt};
use futures_timer::Delay;
use matchbox_socket::async_trait::async_trait;
use matchbox_socket::{
    PeerEvent, PeerId, PeerRequest, SignalingError, Signaller, SignallerBuilder,
};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use room::{Body, Envelope, Room};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The relays a page uses unless told otherwise (Settings, `?relays=`, `--relays`): public
/// relays that accept ephemeral events from anyone.
pub const DEFAULT_RELAYS: [&str; 4] = [
    "wss://relay.damus.io",
    "wss://nos.lol",
    "wss://relay.primal.net",
    "wss://nostr.mom",
];

/// Events older or newer than this (by their `created_at`, against our clock) are stale.
const WINDOW_S: u64 = 600;
/// Event ids remembered to drop the copies other relays pass on, and replays.
const SEEN: usize = 4096;
/// Gaps between hellos while not quiet: quick at first, then every 30 s (two events a minute from
/// an idle lobby; none once the game runs with every seat connected).
const HELLO_GAPS_S: [u64; 5] = [2, 4, 8, 16, 30];
/// How long a peer counts as found after its last event: over two of the slowest hellos' gaps.
pub const PRESENT_S: u64 = 75;

/// How a relay connection stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RelayState {
    Connecting,
    Open,
    /// Down, with the reason and when it is tried again.
    Failed(String),
}

/// One relay's line in the status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelayStatus {
    pub url: String,
    pub state: RelayState,
    /// Frames written to it.
    pub frames: u64,
    /// Whether it has ever opened this session.
    pub ever_open: bool,
    /// The last refusal or notice it sent.
    pub note: Option<String>,
}

/// What the rendezvous has done, for the lobby and its debug view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Status {
    pub relays: Vec<RelayStatus>,
    /// Distinct events published (each goes to every relay).
    pub events_sent: u64,
    /// Hellos among them.
    pub hellos_sent: u64,
    /// Events of our room accepted.
    pub events_accepted: u64,
    /// Events refused, by reason.
    pub dropped: BTreeMap<&'static str, u64>,
    /// Peers heard from through the relays lately ([`Rendezvous::peer_count`]).
    pub peers: usize,
    /// As host: the offer code of the latest invitation, once made.
    pub invite: Option<String>,
    /// As guest: the answer code to send back to the host, once made.
    pub answer: Option<String>,
    /// What went wrong with an invitation or a code, for the player.
    pub invite_error: Option<String>,
}

impl Status {
    /// Whether at least one relay is open now.
    pub fn any_open(&self) -> bool {
        self.relays.iter().any(|r| r.state == RelayState::Open)
    }

    /// Whether every relay has failed at least once and none is open: the room cannot be found.
    pub fn all_failed(&self) -> bool {
        !self.relays.is_empty()
            && self
                .relays
                .iter()
                .all(|r| matches!(r.state, RelayState::Failed(_)))
    }
}

/// State shared between the background task and the transport's owner.
#[derive(Debug, Default)]
pub struct Shared {
    status: Mutex<Status>,
    quiet: AtomicBool,
    /// Events for the mesh (the data channels already open): (neighbour to skip, event JSON).
    mesh_out: Mutex<Vec<(Option<PeerId>, String)>>,
    /// Where events from the mesh go (the background task's inbox), once it runs.
    mesh_in: Mutex<Option<Inbox>>,
    /// The player's invitation commands for the background task.
    commands: Mutex<Option<UnboundedSender<Command>>>,
    /// A new mesh neighbour connected: say hello at once (even while quiet), so the rest of the
    /// room hears of a newcomer that came in by an invite code.
    kick: AtomicBool,
    /// The room's topics listened to now.
    topics: Mutex<Vec<String>>,
}

/// An invitation command.
#[derive(Debug)]
enum Command {
    /// Make an offer code for a new guest.
    Invite,
    /// The guest's answer code, pasted by the host.
    Answer(invite::Code),
}

/// The background task's inbox: events with where they came from. Bounded: when events come
/// faster than they are checked, the newest are dropped (counted as `inbox_full`).
type Inbox = mpsc::Sender<(Source, Box<nostr::Event>)>;

/// Events waiting in the background task's inbox at most (plus one per relay and the mesh).
pub const INBOX: usize = 256;

fn inbox() -> (Inbox, mpsc::Receiver<(Source, Box<nostr::Event>)>) {
    mpsc::channel(INBOX)
}

/// Puts an event in the inbox, or counts it dropped if the inbox is full.
fn deliver(inbox: &mut Inbox, shared: &Shared, source: Source, e: Box<nostr::Event>) {
    if inbox.try_send((source, e)).is_err() {
        shared.drop_event("inbox_full");
    }
}

/// Where an event came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Relay number i.
    Relay(usize),
    /// A mesh neighbour.
    Mesh(PeerId),
}

impl Shared {
    fn with(&self, f: impl FnOnce(&mut Status)) {
        if let Ok(mut s) = self.status.lock() {
            f(&mut s)
        }
    }
    fn set_state(&self, i: usize, state: RelayState) {
        self.with(|s| {
            if let Some(r) = s.relays.get_mut(i) {
                r.ever_open |= state == RelayState::Open;
                r.state = state;
            }
        })
    }
    fn note(&self, i: usize, note: String) {
        self.with(|s| {
            if let Some(r) = s.relays.get_mut(i) {
                r.note = Some(note)
            }
        })
    }
    fn count_frame(&self, i: usize) {
        self.with(|s| {
            if let Some(r) = s.relays.get_mut(i) {
                r.frames += 1
            }
        })
    }
    fn drop_event(&self, why: &'static str) {
        self.with(|s| *s.dropped.entry(why).or_default() += 1)
    }

    /// Events to send to the mesh neighbours, each with the neighbour to leave out.
    pub fn take_mesh_out(&self) -> Vec<(Option<PeerId>, String)> {
        self.mesh_out
            .lock()
            .map(|mut m| std::mem::take(&mut *m))
            .unwrap_or_default()
    }

    /// An event a mesh neighbour sent (the event's JSON). Oversized or malformed ones are counted
    /// and dropped here.
    pub fn mesh_received(&self, from: PeerId, json: &[u8]) {
        if json.len() > nostr::MAX_FRAME {
            return self.drop_event("oversized");
        }
        // Read as text (serde_json's `from_str`, the parser that matchbox's signalling also uses,
        // so the online page carries one copy of it instead of two); bytes that are not UTF-8 are
        // malformed (no peer of ours writes any: its events are serde_json's text).
        let Some(e) = std::str::from_utf8(json)
            .ok()
            .and_then(|t| serde_json::from_str::<nostr::Event>(t).ok())
        else {
            return self.drop_event("malformed");
        };
        if let Ok(mut tx) = self.mesh_in.lock() {
            if let Some(tx) = tx.as_mut() {
                deliver(tx, self, Source::Mesh(from), Box::new(e));
            }
        }
    }

    /// The topics the relays are asked for now (read when a relay connects).
    fn topics(&self) -> Vec<String> {
        self.topics.lock().map(|t| t.clone()).unwrap_or_default()
    }

    fn set_topics(&self, topics: &[String]) {
        if let Ok(mut t) = self.topics.lock() {
            *t = topics.to_vec();
        }
    }

    fn to_mesh(&self, skip: Option<PeerId>, json: String) {
        if let Ok(mut m) = self.mesh_out.lock() {
            // Bounded: nobody polls a transport whose owner stopped, and a mesh event is only worth
            // sending fresh.
            if m.len() < 256 {
                m.push((skip, json));
            }
        }
    }

    fn command(&self, c: Command) {
        if let Ok(tx) = self.commands.lock() {
            if let Some(tx) = tx.as_ref() {
                let _ = tx.unbounded_send(c);
            }
        }
    }

    /// Makes an invitation: its offer code appears in [`Status::invite`] once WebRTC has gathered
    /// its candidates (a second or two).
    pub fn invite(&self) {
        self.with(|s| {
            s.invite = None;
            s.invite_error = None;
        });
        self.command(Command::Invite)
    }

    /// The guest's answer code, pasted by the host; `Err` says what is wrong with it.
    pub fn answer(&self, text: &str, room: &str) -> Result<(), String> {
        let code = invite::decode(text, rt::now_s()).map_err(|e| e.to_string())?;
        if code.room != room {
            return Err(invite::CodeError::WrongRoom.to_string());
        }
        self.command(Command::Answer(code));
        Ok(())
    }

    /// A new connection opened: say hello to the mesh at once.
    pub fn kick(&self) {
        self.kick.store(true, Ordering::Relaxed)
    }

    /// A copy of the status.
    pub fn status(&self) -> Status {
        self.status.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Quiet: stop saying hello (the game runs and every seat is connected). Hellos of newcomers
    /// are still answered, so a player coming back finds the room.
    pub fn set_quiet(&self, quiet: bool) {
        self.quiet.store(quiet, Ordering::Relaxed)
    }
}

/// What the relay rendezvous needs.
#[derive(Clone, Debug)]
pub struct RelayConfig {
    /// `ws://` or `wss://` relay URLs.
    pub relays: Vec<String>,
    /// The room secret (the link's `#room=`).
    pub secret: String,
    /// Fresh randomness for this session's keys, peer id and nonces.
    pub entropy: [u8; 32],
    /// As a guest: the host's offer code (the room must be the code's).
    pub invite: Option<String>,
}

/// The matchbox signaller builder for a relay room.
#[derive(Debug)]
pub struct RelaySignallerBuilder {
    config: RelayConfig,
    shared: Arc<Shared>,
}

impl RelaySignallerBuilder {
    pub fn new(config: RelayConfig) -> (RelaySignallerBuilder, Arc<Shared>) {
        let shared = Arc::new(Shared::default());
        shared.with(|s| {
            s.relays = config
                .relays
                .iter()
                .map(|u| RelayStatus {
                    url: u.clone(),
                    state: RelayState::Connecting,
                    frames: 0,
                    ever_open: false,
                    note: None,
                })
                .collect()
        });
        (
            RelaySignallerBuilder {
                config,
                shared: shared.clone(),
            },
            shared,
        )
    }
}

/// What matchbox holds: two channels to the background task.
struct RelaySignaller {
    requests: UnboundedSender<PeerRequest>,
    events: Mutex<UnboundedReceiver<PeerEvent>>,
}

#[cfg_attr(not(target_arch = "wasm32"), async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait(?Send))]
impl SignallerBuilder for RelaySignallerBuilder {
    async fn new_signaller(
        &self,
        _attempts: Option<u16>,
        _room_url: String,
    ) -> Result<Box<dyn Signaller>, SignalingError> {
        let (req_tx, req_rx) = mpsc::unbounded();
        let (ev_tx, ev_rx) = mpsc::unbounded();
        let config = self.config.clone();
        let shared = self.shared.clone();
        rt::spawn(move || -> LocalBoxFuture<'static, ()> {
            Box::pin(run(config, shared, req_rx, ev_tx))
        });
        Ok(Box::new(RelaySignaller {
            requests: req_tx,
            events: Mutex::new(ev_rx),
        }))
    }
}

#[cfg_attr(not(target_arch = "wasm32"), async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait(?Send))]
impl Signaller for RelaySignaller {
    async fn send(&mut self, request: PeerRequest) -> Result<(), SignalingError> {
        self.requests
            .unbounded_send(request)
            .map_err(|_| SignalingError::StreamExhausted)
    }

    async fn next_message(&mut self) -> Result<PeerEvent, SignalingError> {
        let next = match self.events.get_mut() {
            Ok(rx) => rx.next().await,
            Err(_) => None,
        };
        next.ok_or(SignalingError::StreamExhausted)
    }
}

/// The invitation a guest's page was opened with, checked: an offer, for this room, and not
/// naming the guest itself as the host (a code made up to confuse the page: the MAC's key is the
/// room secret, which every member holds).
fn guest_offer(text: &str, secret: &str, now: u64) -> Result<invite::Code, invite::CodeError> {
    invite::decode(text, now).and_then(|c| match c.kind {
        invite::Kind::Offer if c.room != secret => Err(invite::CodeError::WrongRoom),
        invite::Kind::Offer if c.host == rendezvous::invited_id(&c.guest) => {
            Err(invite::CodeError::Garbled)
        }
        invite::Kind::Offer => Ok(c),
        invite::Kind::Answer => Err(invite::CodeError::WrongKind(invite::Kind::Answer)),
    })
}

/// The background task: the relay loops and the rendezvous, until matchbox drops the signaller.
async fn run(
    config: RelayConfig,
    shared: Arc<Shared>,
    mut requests: UnboundedReceiver<PeerRequest>,
    events: UnboundedSender<PeerEvent>,
) {
    let mut invites = invite::Invites::default();
    // A guest takes the id its invitation names and starts with the host's offer.
    let guest = config
        .invite
        .as_deref()
        .map(|text| guest_offer(text, &config.secret, rt::now_s()));
    let mut rv = match &guest {
        Some(Ok(c)) => Rendezvous::invited(&config.secret, config.entropy, c.guest),
        _ => Rendezvous::new(&config.secret, config.entropy),
    };
    let _ = events.unbounded_send(PeerEvent::IdAssigned(PeerId(uuid::Uuid::from_bytes(rv.me))));
    match guest {
        Some(Ok(c)) => {
            invites.answering(c.host);
            rv.introduce(c.host, rt::now_s());
            let _ = events.unbounded_send(PeerEvent::Signal {
                sender: PeerId(uuid::Uuid::from_bytes(c.host)),
                data: matchbox_socket::PeerSignal::Offer(invite::build_sdp(
                    &c.sdp,
                    invite::Kind::Offer,
                )),
            });
        }
        Some(Err(e)) => shared.with(|s| s.invite_error = Some(e.to_string())),
        None => {}
    }
    let (cmd_tx, mut commands) = mpsc::unbounded();
    if let Ok(mut c) = shared.commands.lock() {
        *c = Some(cmd_tx);
    }
    let (inbox_tx, mut inbox) = inbox();
    let mut topics = rv.topics(rt::now_s());
    shared.set_topics(&topics);
    let mut outs = vec![];
    let mut loops = vec![];
    for (i, url) in config.relays.iter().enumerate() {
        let (tx, rx) = mpsc::unbounded();
        outs.push(tx);
        loops.push(pool::relay_loop(
            i,
            url.clone(),
            rx,
            inbox_tx.clone(),
            shared.clone(),
        ));
    }
    // Events from the mesh come into the same inbox as the relays'.
    if let Ok(mut m) = shared.mesh_in.lock() {
        *m = Some(inbox_tx.clone());
    }
    drop(inbox_tx);
    // Our own events go to every relay and every mesh neighbour.
    let publish = |e: &nostr::Event, shared: &Shared, hello: bool| {
        shared.with(|s| {
            s.events_sent += 1;
            s.hellos_sent += u64::from(hello);
        });
        let frame = nostr::publish(e);
        for o in &outs {
            let _ = o.unbounded_send(frame.clone());
        }
        shared.to_mesh(None, serde_json::to_string(e).unwrap_or_default());
    };
    let main = async {
        let mut tick = Delay::new(Duration::ZERO).fuse();
        loop {
            select! {
                _ = tick => {
                    let now = rt::now_s();
                    let hello = if shared.kick.swap(false, Ordering::Relaxed) {
                        Some(rv.hello(now))
                    } else {
                        rv.tick(now, shared.quiet.load(Ordering::Relaxed))
                    };
                    if let Some(h) = hello {
                        publish(&h, &shared, true);
                    }
                    shared.with(|s| s.peers = rv.peer_count(now));
                    // A new UTC day (or midnight near): listen to the new topics.
                    let now_topics = rv.topics(now);
                    if now_topics != topics {
                        topics = now_topics;
                        shared.set_topics(&topics);
                        let frame = pool::subscription(&topics, now);
                        for o in &outs {
                            let _ = o.unbounded_send(frame.clone());
                        }
                    }
                    tick = Delay::new(Duration::from_millis(500)).fuse();
                }
                req = requests.next() => match req {
                    None => break,
                    Some(PeerRequest::Signal { receiver, data }) => {
                        let to = *receiver.0.as_bytes();
                        match invites.outgoing(&config.secret, rv.me, to, &data, rt::now_s()) {
                            invite::Outgoing::Publish => {
                                let e = rv.signal(to, data, rt::now_s());
                                publish(&e, &shared, false);
                            }
                            invite::Outgoing::Code(invite::Kind::Offer, code) => shared.with(|s| s.invite = Some(code)),
                            invite::Outgoing::Code(invite::Kind::Answer, code) => shared.with(|s| s.answer = Some(code)),
                            invite::Outgoing::Swallow => {}
                        }
                    }
                    Some(PeerRequest::KeepAlive) => {}
                },
                cmd = commands.next() => match cmd {
                    Some(Command::Invite) => {
                        let (seed, guest) = rv.fresh_invitation();
                        invites.start(guest, seed, rt::now_s());
                        rv.introduce(guest, rt::now_s());
                        // matchbox makes the offer (the larger-id rule does not apply: we chose the id).
                        let _ = events.unbounded_send(PeerEvent::NewPeer(PeerId(uuid::Uuid::from_bytes(guest))));
                    }
                    Some(Command::Answer(code)) => match invites.answer(rv.me, &code, rt::now_s()) {
                        Ok(ev) => {
                            let _ = events.unbounded_send(ev);
                            shared.with(|s| { s.invite = None; s.invite_error = None; });
                        }
                        Err(e) => shared.with(|s| s.invite_error = Some(e)),
                    },
                    None => {}
                },
                got = inbox.next() => {
                    let Some((source, e)) = got else { continue };
                    match rv.receive(&e, rt::now_s()) {
                        Ok(r) => {
                            shared.with(|s| { s.events_accepted += 1; s.peers = rv.peer_count(rt::now_s()); });
                            if r.forward {
                                let skip = match source { Source::Mesh(p) => Some(p), Source::Relay(_) => None };
                                shared.to_mesh(skip, serde_json::to_string(&*e).unwrap_or_default());
                            }
                            for ev in r.to_matchbox {
                                let _ = events.unbounded_send(ev);
                            }
                            for e in &r.publish {
                                publish(e, &shared, true);
                            }
                        }
                        Err("duplicate") => {}
                        Err(why) => shared.drop_event(why),
                    }
                }
            }
        }
    };
    // When matchbox drops the signaller the main loop ends, and with it every relay loop.
    futures::pin_mut!(main);
    let relays = futures::future::join_all(loops).fuse();
    futures::pin_mut!(relays);
    select! {
        _ = main.fuse() => {},
        _ = relays => {},
    }
}

#[cfg(test)]
mod tests;
