//! Peer-to-peer play in the browser: a matchbox WebRTC socket (one reliable channel) feeding the
//! sans-I/O protocol [`Peer`] from a timer. The game state shown on the board is the protocol's
//! engine state; the board and panel send their actions here (`submit`) instead of applying them.
//!
//! Settings: the room comes from the page URL (`#room=SECRET` or `?room=SECRET`; "Create a room"
//! makes a random 128-bit secret), how peers meet from `online_net` (public Nostr relays by
//! default, a signalling server when one is set; STUN and TURN servers). The identity (key entropy) and name are
//! kept in localStorage per room, so a reload rejoins with the same seat. How long a silent peer
//! takes to count as missing (after which the others may vote to hand its seats to a bot) is
//! `?missing_ms=N` or localStorage `orbis.p2p.missing_ms` (default 10 s; tests use a short one).

pub mod form;
pub mod net;
pub mod orders;

use crate::classic::play::{take_queued, Roll, Seat, Sync, BOT_NAMES};
use crate::online::form::{invite_panel, relay_details, short_room, JoinForm, JoinRequest, Target};
use crate::online::net::NetSettings;
use crate::store;
use orbis_engine::bot;
use orbis_engine::classic::{Action, BotLevel, ClassicOptions, Colour, Event, PlayerId};
use orbis_engine::codec::sha256;
use orbis_engine::view;
use orbis_protocol::{
    Config, Control, Controller, Output, Peer, PeerKey, ProtocolEvent, SeatSpec, SetupProposal,
};
use orbis_transport::Transport;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// What the online screen tells the app.
pub enum Report {
    /// The protocol's classic game changed.
    Classic(Box<Sync>),
    /// The protocol's orders game changed.
    Orders(Box<crate::online::orders::OrdersSync>),
    /// The player left the online screen.
    Leave,
}

/// Which game the app has ready to show for the running room.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Showing {
    Nothing,
    Classic,
    Orders,
}

fn window() -> web_sys::Window {
    web_sys::window().expect("window")
}

fn param(name: &str) -> Option<String> {
    let loc = window().location();
    let from = |s: String| {
        let s = s.trim_start_matches(['#', '?']).to_string();
        web_sys::UrlSearchParams::new_with_str(&s)
            .ok()
            .and_then(|p| p.get(name))
            .filter(|v| !v.is_empty())
    };
    loc.hash()
        .ok()
        .and_then(from)
        .or_else(|| loc.search().ok().and_then(from))
}

/// The room named in the page URL, if any.
pub fn room_in_url() -> Option<String> {
    if cfg!(not(target_arch = "wasm32")) {
        return None;
    }
    param("room")
}

/// Whether the page URL asks for the online screen: a room, or an invite code (`#offer=…`).
pub fn online_in_url() -> bool {
    cfg!(target_arch = "wasm32") && (param("room").is_some() || param("offer").is_some())
}

const NAME_KEY: &str = "orbis.p2p.name";
const MISSING_KEY: &str = "orbis.p2p.missing_ms";

/// Silence after which a peer counts as missing: `?missing_ms=`, localStorage, else 10 s.
fn missing_ms() -> u64 {
    param("missing_ms")
        .or_else(|| store::get(MISSING_KEY))
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|v| *v >= 500)
        .unwrap_or(10_000)
}

/// How long the others wait for a connected player's own turn before they may vote it out:
/// `?turn_ms=`, else 3 minutes (people think).
fn turn_ms() -> u64 {
    param("turn_ms")
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|v| *v >= 500)
        .unwrap_or(180_000)
}

/// Fresh bytes from `crypto.getRandomValues`.
fn random<const N: usize>() -> [u8; N] {
    let mut e = [0u8; N];
    if let Ok(c) = window().crypto() {
        let _ = c.get_random_values_with_u8_array(&mut e);
    }
    e
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex32(s: &str) -> Option<[u8; 32]> {
    let s = s.trim();
    if s.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

fn id_key(room: &str) -> String {
    format!("orbis.p2p.id.{room}")
}

/// This browser's key entropy for `room`: stored, or fresh from `crypto.getRandomValues`.
fn identity(room: &str) -> [u8; 32] {
    if let Some(e) = store::get(&id_key(room)).and_then(|s| unhex32(&s)) {
        return e;
    }
    let e = random::<32>();
    store::set(&id_key(room), &hex(&e));
    e
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Records a time stamp for the end-to-end test's latency figure (`window.__orbisP2p`).
fn mark(kind: &str, index: u64) {
    let w = window();
    let key = wasm_bindgen::JsValue::from_str("__orbisP2p");
    let obj = js_sys::Reflect::get(&w, &key)
        .ok()
        .filter(|v| v.is_object())
        .unwrap_or_else(|| {
            let o = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&o, &"declared".into(), &js_sys::Object::new());
            let _ = js_sys::Reflect::set(&o, &"shown".into(), &js_sys::Object::new());
            let _ = js_sys::Reflect::set(&w, &key, &o);
            o.into()
        });
    if let Ok(m) = js_sys::Reflect::get(&obj, &kind.into()) {
        let _ = js_sys::Reflect::set(
            &m,
            &(index as f64).into(),
            &wasm_bindgen::JsValue::from_f64(now_ms()),
        );
    }
}

/// The socket (`orbis-transport`, the same adapter as the native bot peer), its message loop
/// spawned on the page's executor.
fn connect(room: &str, settings: &NetSettings, invite: Option<String>) -> Transport {
    let (net, fut) = Transport::connect(
        settings.rendezvous(room, random(), invite),
        Some(settings.ice()),
    );
    // How it ended is read back from the transport (`Transport::ended`).
    yew::platform::spawn_local(async move {
        let _ = fut.await;
    });
    net
}

/// One online session: the protocol peer, the socket, and what the lobby shows.
struct Session {
    room: String,
    room_url: String,
    peer: Peer,
    net: Transport,
    /// Whether the socket's loop had ended at the last step (its end redraws the lobby).
    net_ended: bool,
    /// Whether peers meet through relays (else through a signalling server).
    via_relays: bool,
    /// What the lobby last showed of the relays (a change redraws it).
    relay_seen: String,
    /// Since when (ms, session time) a player found through the relays is not connected.
    unreached_since: Option<u64>,
    /// Whether this session joined by an invite code (it shows the answer code to send back).
    guest: bool,
    /// What is wrong with the answer code the host pasted.
    invite_msg: Option<String>,
    t0: f64,
    proposals: BTreeMap<[u8; 32], SetupProposal>,
    order: Vec<[u8; 32]>,
    accepted: BTreeSet<[u8; 32]>,
    started: Option<[u8; 32]>,
    chat: Vec<(String, bool, String)>,
    missing: BTreeSet<PeerKey>,
    /// Participants the game has been waiting on, since when (ms), and whether for their turn
    /// (else for a dice reveal or orders, which their page sends by itself).
    waiting_since: BTreeMap<PeerKey, (u64, bool)>,
    /// The overdue participants last shown (a change redraws the screen).
    overdue_shown: Vec<PeerKey>,
    notes: Vec<String>,
    synced: u64,
    last_seat: Option<Seat>,
    autoplay: bool,
    rev: u64,
    /// Orders game: phases resolved since the last sync, the sync for the app, and what it showed.
    resolved: Vec<Vec<orbis_engine::rules::orders::OrdersEvent>>,
    orders_sync: Option<crate::online::orders::OrdersSync>,
    orders_shown: Option<crate::online::orders::Shown>,
    /// Rules of the next proposal (chosen in the lobby).
    options: ClassicOptions,
    /// Computer seats of the next proposal.
    bots: usize,
    /// Participants voted out (their seats are played by the computer).
    dropped: BTreeSet<PeerKey>,
    /// Game lines produced outside `step` (by a command), shown with the next sync.
    lines: Vec<String>,
    /// Addressee of the next chat message (None: everyone).
    chat_to: Option<PeerKey>,
    /// Ruleset of the next proposal: "classic", or an orders map id.
    ruleset: String,
}

impl Session {
    fn new(room: &str, name: &str, settings: &NetSettings, invite: Option<String>) -> Session {
        let room_url = settings.room_name(room);
        let h = sha256(room_url.as_bytes());
        let mut game_id = [0u8; 16];
        game_id.copy_from_slice(&h[..16]);
        let mut cfg = Config::new(game_id, name, identity(room));
        cfg.resend_ms = 500;
        cfg.missing_ms = missing_ms();
        // Above any message number an earlier session with the same key used.
        cfg.seq_start = (now_ms() as u64).saturating_mul(1000);
        let net = connect(room, settings, invite.clone());
        Session {
            room: room.to_string(),
            room_url,
            peer: Peer::new(cfg),
            net,
            net_ended: false,
            via_relays: settings.signal.is_none(),
            relay_seen: String::new(),
            unreached_since: None,
            guest: invite.is_some(),
            invite_msg: None,
            t0: now_ms(),
            proposals: BTreeMap::new(),
            order: vec![],
            accepted: BTreeSet::new(),
            started: None,
            chat: vec![],
            missing: BTreeSet::new(),
            waiting_since: BTreeMap::new(),
            overdue_shown: vec![],
            notes: vec![],
            synced: 0,
            last_seat: None,
            autoplay: false,
            rev: 0,
            resolved: vec![],
            orders_sync: None,
            orders_shown: None,
            options: ClassicOptions::default(),
            bots: 0,
            dropped: BTreeSet::new(),
            lines: vec![],
            chat_to: None,
            ruleset: "classic".into(),
        }
    }

    fn t(&self) -> u64 {
        (now_ms() - self.t0).max(0.0) as u64
    }

    fn name_of(&self, k: &PeerKey) -> String {
        if *k == self.peer.key() {
            return format!("{} (you)", self.peer_name());
        }
        self.peer
            .names()
            .get(k)
            .cloned()
            .unwrap_or_else(|| k.short())
    }

    fn peer_name(&self) -> String {
        store::get(NAME_KEY).unwrap_or_else(|| "Player".into())
    }

    /// Our participant index in the started game.
    fn my_index(&self) -> Option<u8> {
        let p = self.proposals.get(&self.started?)?;
        p.participants
            .iter()
            .position(|k| *k == self.peer.key())
            .map(|i| i as u8)
    }

    fn my_seat(&self) -> Option<PlayerId> {
        let i = self.my_index()?;
        let p = self.proposals.get(&self.started?)?;
        p.seats
            .iter()
            .position(|s| s.controller == Controller::Peer(i))
            .map(|s| s as PlayerId)
    }

    fn seat(&self) -> Seat {
        Seat {
            me: self.my_seat(),
            can_act: self.peer.is_my_turn() && !self.autoplay,
        }
    }

    /// Handles the events of one output and sends its messages; returns the game lines and roll.
    fn absorb(&mut self, o: Output, lines: &mut Vec<String>, roll: &mut Option<Roll>) {
        for e in o.events {
            self.rev += 1;
            match e {
                ProtocolEvent::SetupProposed { hash, proposal, .. } => {
                    if !self.proposals.contains_key(&hash) {
                        self.order.push(hash);
                    }
                    self.proposals.insert(hash, proposal);
                }
                ProtocolEvent::GameStarted { proposal, .. } => {
                    self.started = Some(proposal);
                    lines.push("The online game begins.".into());
                }
                ProtocolEvent::Applied { index, events, .. } => {
                    let s = self.peer.state();
                    let mut rolls = 0;
                    for ev in &events {
                        if let Some(s) = s {
                            lines.push(view::describe(ev, s));
                        }
                        if let Event::Rolled {
                            from,
                            to,
                            attack,
                            defence,
                            ..
                        } = ev
                        {
                            rolls += 1;
                            *roll = Some(Roll {
                                from: *from,
                                to: *to,
                                attack: attack.clone(),
                                defence: defence.clone(),
                                rolls,
                                step: s.map_or(0, |s| s.step),
                            });
                        }
                    }
                    if rolls > 0 {
                        mark("shown", index);
                    }
                }
                ProtocolEvent::PhaseResolved { events, .. } => self.resolved.push(events),
                ProtocolEvent::PeerMissing { peer } => {
                    self.missing.insert(peer);
                }
                ProtocolEvent::PeerReturned { peer } => {
                    self.missing.remove(&peer);
                }
                ProtocolEvent::Chat {
                    from,
                    private,
                    text,
                } => {
                    let n = self.name_of(&from);
                    self.chat.push((n, private, text));
                }
                ProtocolEvent::Rejected {
                    peer, violation, ..
                } => {
                    let who = peer.map(|p| self.name_of(&p)).unwrap_or_else(|| "?".into());
                    self.notes
                        .push(format!("Refused a message from {who}: {violation}"));
                }
                ProtocolEvent::ControlApplied { control, .. } => {
                    let what = match control {
                        Control::Drop { peer, .. } => {
                            self.dropped.insert(peer);
                            format!(
                                "{}'s seat is now played by the computer.",
                                self.name_of(&peer)
                            )
                        }
                        Control::SeatToBot { seat, .. } => {
                            format!("Seat {} is now played by the computer.", seat + 1)
                        }
                    };
                    lines.push(what.clone());
                    self.notes.push(what);
                }
                ProtocolEvent::Halted(r) => {
                    self.notes.push(format!("The game is halted: {r:?}"));
                }
                _ => {}
            }
        }
        self.net.send(o.send);
    }

    /// Keeps when the game started waiting on each participant, so a connected peer that never
    /// reveals, orders or plays becomes votable too (`overdue`), not only a silent one.
    fn note_waiting(&mut self, t: u64) {
        let waiting = self.peer.waiting_on();
        self.waiting_since.retain(|k, _| waiting.contains(k));
        let turn_of = self.peer.state().and_then(|g| {
            let p = self.proposals.get(&self.started?)?;
            match p.seats.get(g.current as usize)?.controller {
                orbis_protocol::Controller::Peer(i) => p.participants.get(i as usize).copied(),
                orbis_protocol::Controller::Bot(_) => None,
            }
        });
        for k in waiting {
            self.waiting_since
                .entry(k)
                .or_insert((t, turn_of == Some(k)));
        }
        let overdue = self.overdue();
        if overdue != self.overdue_shown {
            self.overdue_shown = overdue;
            self.rev += 1;
        }
    }

    /// Connected participants the game has waited on past the timeout: the usual one for what
    /// a page does by itself (dice reveals, orders commitments and reveals), [`turn_ms`] for a
    /// player's own turn.
    fn overdue(&self) -> Vec<PeerKey> {
        let now = self.t();
        let me = self.peer.key();
        let (limit, turn_limit) = (missing_ms(), turn_ms().max(missing_ms()));
        self.waiting_since
            .iter()
            .filter(|(k, (since, turn))| {
                **k != me
                    && !self.missing.contains(k)
                    && now.saturating_sub(*since) >= if *turn { turn_limit } else { limit }
            })
            .map(|(k, _)| *k)
            .collect()
    }

    /// One timer step: network in, protocol tick, queued actions, network out. Returns the sync
    /// for the app when the game changed.
    fn step(&mut self) -> Option<Sync> {
        let t = self.t();
        let mut outs: Vec<Output> = vec![];
        let polled = self.net.poll();
        let ended = self.net.ended().is_some();
        if !polled.connected.is_empty()
            || !polled.disconnected.is_empty()
            || ended != self.net_ended
        {
            self.net_ended = ended;
            self.rev += 1;
        }
        if !polled.connected.is_empty() {
            outs.push(self.peer.start(t));
        }
        for (l, bytes) in polled.messages {
            outs.push(self.peer.handle(l, &bytes, t));
        }
        outs.push(self.peer.tick(t));
        self.watch_relays(t);
        self.note_waiting(t);
        let mut lines = std::mem::take(&mut self.lines);
        let mut roll = None;
        for o in outs {
            self.absorb(o, &mut lines, &mut roll);
        }
        if matches!(self.peer.game(), Some(orbis_engine::rules::Game::Orders(_))) {
            self.orders_step(lines, roll);
            return None;
        }
        // Actions chosen on the board (or by autoplay), one at a time through the protocol.
        let queued: Vec<Action> = take_queued();
        let mut todo: Vec<Action> = queued;
        if self.autoplay && todo.is_empty() && self.peer.is_my_turn() {
            if let Some(a) = self
                .peer
                .state()
                .and_then(|s| bot::choose(s, BotLevel::Normal))
            {
                todo.push(a);
            }
        }
        for a in todo {
            if !self.peer.is_my_turn() {
                break;
            }
            let index = self.peer.log_len();
            let random = matches!(a, Action::Attack { .. } | Action::Blitz { .. });
            match self.peer.act(a) {
                Ok(o) => {
                    if random {
                        mark("declared", index);
                    }
                    self.absorb(o, &mut lines, &mut roll);
                }
                Err(e) => self.notes.push(format!("Action refused: {e}")),
            }
        }
        if self.notes.len() > 20 {
            self.notes.drain(..self.notes.len() - 20);
        }
        let seat = self.seat();
        let len = self.peer.log_len();
        let changed = len != self.synced || self.last_seat != Some(seat) || !lines.is_empty();
        let s = self.peer.state()?;
        if !changed {
            return None;
        }
        self.synced = len;
        self.last_seat = Some(seat);
        self.rev += 1;
        Some(Sync {
            game: s.clone(),
            seat,
            lines,
            roll,
            hash: s.state_hash().to_hex(),
        })
    }

    /// Relays: stop the hellos once the game runs with everyone connected (an idle game sends the
    /// shared relays nothing), redraw the lobby when their state changes, and time how long a
    /// player found through them has stayed unconnected.
    fn watch_relays(&mut self, t: u64) {
        let parts = self.peer.participants().len();
        let connected = self.net.connected();
        self.net
            .set_quiet(parts > 0 && self.missing.is_empty() && connected + 1 >= parts);
        let Some(st) = self.net.relay_status() else {
            return;
        };
        let open = st
            .relays
            .iter()
            .filter(|r| r.state == orbis_transport::relay::RelayState::Open)
            .count();
        let seen = format!(
            "{open} {:?} {} {} {} {:?} {:?} {:?}",
            self.net.link_kinds(),
            st.peers,
            st.all_failed(),
            st.hellos_sent,
            st.invite,
            st.answer,
            st.invite_error
        );
        if seen != self.relay_seen {
            self.relay_seen = seen;
            self.rev += 1;
        }
        if st.peers > connected && self.started.is_none() {
            if self.unreached_since.is_none() {
                self.unreached_since = Some(t);
                self.rev += 1;
            }
        } else if self.unreached_since.take().is_some() {
            self.rev += 1;
        }
    }

    /// Orders game: commits queued orders and prepares the sync for the orders screens.
    fn orders_step(&mut self, mut lines: Vec<String>, mut roll: Option<Roll>) {
        let game = self.started.unwrap_or_default();
        for r in crate::online::orders::commit_queued(&mut self.peer, &self.room, game) {
            match r {
                Ok(o) => self.absorb(o, &mut lines, &mut roll),
                Err(e) => self.notes.push(format!("Orders refused: {e}")),
            }
        }
        let committed = self
            .peer
            .orders_committed()
            .iter()
            .map(|k| self.name_of(k))
            .collect();
        let waiting = self
            .peer
            .waiting_on()
            .iter()
            .map(|k| self.name_of(k))
            .collect();
        let resolved = std::mem::take(&mut self.resolved);
        let sent = crate::online::orders::sent(&self.peer, &self.room, game);
        if let Some(sync) = crate::online::orders::sync(
            &self.peer,
            sent,
            resolved,
            committed,
            waiting,
            &mut self.orders_shown,
        ) {
            self.orders_sync = Some(sync);
            self.rev += 1;
        }
    }

    /// Participants (sorted: the same order on every peer) bound to seats, then bot seats.
    /// `orders`: the orders ruleset on that map (Europe: 7 seats, the others bots; world: the
    /// players and `bots` more seats, 2 to 6).
    fn propose_ruleset(&mut self, orders: Option<&str>) {
        let bots = self.bots;
        let Some(map_id) = orders else {
            self.propose();
            return;
        };
        let mut keys: Vec<PeerKey> = self.peer.names().keys().copied().collect();
        keys.push(self.peer.key());
        keys.sort();
        keys.dedup();
        let total = if map_id == "europe-1901" {
            7
        } else {
            (keys.len() + bots).clamp(2, 6)
        };
        keys.truncate(total);
        let seats: Vec<SeatSpec> = (0..total)
            .map(|i| SeatSpec {
                name: keys
                    .get(i)
                    .map(|k| self.name_of(k).trim_end_matches(" (you)").to_string())
                    .unwrap_or_else(|| "Computer".into()),
                colour: Colour::ALL[i % Colour::ALL.len()],
                controller: if i < keys.len() {
                    Controller::Peer(i as u8)
                } else {
                    Controller::Bot(BotLevel::Normal)
                },
            })
            .collect();
        let p = SetupProposal {
            participants: keys,
            seats,
            options: ClassicOptions::default(),
            orders: Some(orbis_protocol::wire::OrdersSetup {
                map: map_id.to_string(),
                options: Default::default(),
            }),
            nonce: now_ms() as u64,
        };
        let mut lines = vec![];
        let mut roll = None;
        match self.peer.propose_setup(p) {
            Ok(o) => self.absorb(o, &mut lines, &mut roll),
            Err(e) => self.notes.push(format!("Proposal refused: {e}")),
        }
        self.rev += 1;
    }

    /// Participants (sorted: the same order on every peer) bound to seats, then bot seats.
    fn propose(&mut self) {
        let bots = self.bots;
        let mut keys: Vec<PeerKey> = self.peer.names().keys().copied().collect();
        keys.push(self.peer.key());
        keys.sort();
        keys.dedup();
        keys.truncate(6);
        let mut seats: Vec<SeatSpec> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| SeatSpec {
                name: self.name_of(k).trim_end_matches(" (you)").to_string(),
                colour: Colour::ALL[i],
                controller: Controller::Peer(i as u8),
            })
            .collect();
        for _ in 0..bots.min(6 - seats.len()) {
            let i = seats.len();
            seats.push(SeatSpec {
                name: BOT_NAMES[i % 6].to_string(),
                colour: Colour::ALL[i],
                controller: Controller::Bot(BotLevel::Normal),
            });
        }
        let p = SetupProposal {
            participants: keys,
            seats,
            options: self.options.clone(),
            orders: None,
            nonce: now_ms() as u64,
        };
        let mut lines = vec![];
        let mut roll = None;
        match self.peer.propose_setup(p) {
            Ok(o) => self.absorb(o, &mut lines, &mut roll),
            Err(e) => self.notes.push(format!("Proposal refused: {e}")),
        }
        self.rev += 1;
    }

    fn accept(&mut self, h: [u8; 32]) {
        let mut lines = vec![];
        let mut roll = None;
        match self.peer.accept_setup(h) {
            Ok(o) => {
                self.accepted.insert(h);
                self.absorb(o, &mut lines, &mut roll)
            }
            Err(e) => self.notes.push(format!("Cannot accept: {e}")),
        }
        self.rev += 1;
    }

    /// Votes to hand a missing peer's seats to the computer (it stops rolling dice too).
    fn vote_drop(&mut self, peer: PeerKey) {
        let mut lines = vec![];
        let mut roll = None;
        match self.peer.vote(Control::Drop {
            peer,
            level: BotLevel::Normal,
        }) {
            Ok(o) => self.absorb(o, &mut lines, &mut roll),
            Err(e) => self.notes.push(format!("Vote not taken: {e}")),
        }
        self.lines.extend(lines);
        self.rev += 1;
    }

    fn chat(&mut self, to: Option<PeerKey>, text: &str) {
        let mut lines = vec![];
        let mut roll = None;
        match self.peer.chat(to, text) {
            Ok(o) => {
                let whom = to.map(|k| format!(" → {}", self.name_of(&k)));
                self.chat.push((
                    format!("you{}", whom.clone().unwrap_or_default()),
                    to.is_some(),
                    text.to_string(),
                ));
                self.absorb(o, &mut lines, &mut roll);
            }
            Err(e) => self.notes.push(format!("Chat not sent: {e}")),
        }
        self.rev += 1;
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Protocol changes and leaving, for the app.
    pub on_event: Callback<Report>,
    /// Which game the app has ready for the running room, and its screen (drawn by the app).
    pub showing: Showing,
    pub game: Html,
}

/// How long a player found through the relays may stay unconnected before the lobby says why.
const UNREACHED_MS: u64 = 20_000;

/// The value of the input with this id ("" when there is none).
fn input_value(id: &str) -> String {
    window()
        .document()
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
        .map(|i| i.value())
        .unwrap_or_default()
}

/// A click that runs a command on the session (if joined) and redraws the screen.
fn on_session(
    session: &Rc<RefCell<Option<Session>>>,
    rev: &UseStateHandle<u64>,
    command: impl Fn(&mut Session) + 'static,
) -> Callback<MouseEvent> {
    let session = session.clone();
    let rev = rev.clone();
    Callback::from(move |_: MouseEvent| {
        if let Some(s) = session.borrow_mut().as_mut() {
            command(s);
        }
        rev.set(*rev + 1);
    })
}

/// The "Play online" screen: join form, lobby, then the board driven through the protocol.
#[function_component(Online)]
pub fn online(props: &Props) -> Html {
    let session: Rc<RefCell<Option<Session>>> = use_mut_ref(|| None);
    let rev = use_state(|| 0u64);
    let on_event = props.on_event.clone();
    // Back to the menu: the app leaves the online screen.
    let to_menu = {
        let e = on_event.clone();
        Callback::from(move |()| e.emit(Report::Leave))
    };

    // What went wrong with the last join attempt, shown above the buttons.
    let error = use_state(|| None::<String>);
    // Join a room (`None`: create one with a fresh secret): from the form, or at once when this
    // browser already has a key for the room in the link. Every click either joins or says why not.
    let join = {
        let session = session.clone();
        let rev = rev.clone();
        let error = error.clone();
        Callback::from(
            move |JoinRequest {
                      target,
                      name,
                      typed,
                  }: JoinRequest| {
                let settings = if let Some(typed) = typed {
                    match net::parse(&typed) {
                        Ok(n) => {
                            net::save(&n, param);
                            n
                        }
                        Err(e) => {
                            error.set(Some(e));
                            return;
                        }
                    }
                } else {
                    net::current(param)
                };
                let mut invite = None;
                let room = match target {
                    Target::Create => None,
                    Target::Room(r) => Some(r),
                    Target::Code(text) => {
                        let now = (now_ms() / 1000.0) as u64;
                        match orbis_transport::relay::invite::decode(&text, now) {
                            Err(e) => {
                                error.set(Some(e.to_string()));
                                return;
                            }
                            Ok(c) if c.kind != orbis_transport::relay::invite::Kind::Offer => {
                                error.set(Some(
                                    orbis_transport::relay::invite::CodeError::WrongKind(c.kind)
                                        .to_string(),
                                ));
                                return;
                            }
                            Ok(_) if settings.signal.is_some() => {
                                error.set(Some("Invite codes work when players meet through relays: clear the signalling server in Settings.".into()));
                                return;
                            }
                            Ok(c) => {
                                invite = Some(text);
                                Some(c.room)
                            }
                        }
                    }
                };
                let room = match room.map(|r| r.trim().trim_start_matches("#room=").to_string()) {
                    Some(r) if r.is_empty() => {
                        error.set(Some("Type the room from your friend's link (the part after #room=), or create a new room.".into()));
                        return;
                    }
                    Some(r)
                        if r.contains(char::is_whitespace) || r.contains(['#', '&', '?', '/']) =>
                    {
                        error.set(Some(format!("“{r}” is not a room: paste only the part of the link after #room=, or open the link itself.")));
                        return;
                    }
                    Some(r) => r,
                    None => orbis_transport::relay::new_secret(random()),
                };
                let name = if name.trim().is_empty() {
                    "Player".to_string()
                } else {
                    name.trim().to_string()
                };
                store::set(NAME_KEY, &name);
                error.set(None);
                let _ = window().location().set_hash(&format!("room={room}"));
                *session.borrow_mut() = Some(Session::new(&room, &name, &settings, invite));
                rev.set(*rev + 1);
            },
        )
    };
    {
        let join = join.clone();
        use_effect_with((), move |_| {
            if let Some(room) = room_in_url() {
                if store::get(&id_key(&room)).is_some() {
                    join.emit(JoinRequest {
                        target: Target::Room(room),
                        name: store::get(NAME_KEY).unwrap_or_default(),
                        typed: None,
                    });
                }
            }
        });
    }
    // The protocol timer.
    {
        let session = session.clone();
        let rev = rev.clone();
        let d = on_event.clone();
        use_effect_with((), move |_| {
            let iv = gloo::timers::callback::Interval::new(15, move || {
                let mut g = session.borrow_mut();
                let Some(s) = g.as_mut() else { return };
                let before = s.rev;
                let sync = s.step();
                let osync = s.orders_sync.take();
                let after = s.rev;
                drop(g);
                if let Some(sync) = sync {
                    d.emit(Report::Classic(Box::new(sync)));
                }
                if let Some(o) = osync {
                    d.emit(Report::Orders(Box::new(o)));
                }
                if after != before {
                    rev.set(after);
                }
            });
            move || drop(iv)
        });
    }

    // The chat addressee lives in the session, not in the DOM: while players arrived and Yew
    // patched the option list, the browser's selection drifted off "Everyone" (the e2e test saw
    // a message meant for everyone go privately to the last player listed). The select shows the
    // session's choice after every render.
    {
        let session = session.clone();
        use_effect(move || {
            let v = session
                .borrow()
                .as_ref()
                .and_then(|s| s.chat_to.filter(|k| s.peer.names().contains_key(k)))
                .map(|k| hex(&k.0))
                .unwrap_or_default();
            if let Some(sel) = window()
                .document()
                .and_then(|d| d.get_element_by_id("chat-to"))
                .and_then(|e| e.dyn_into::<web_sys::HtmlSelectElement>().ok())
            {
                if sel.value() != v {
                    sel.set_value(&v);
                }
            }
        });
    }

    let g = session.borrow();
    let Some(s) = g.as_ref() else {
        return html! {
            <JoinForm on_leave={to_menu.clone()} {join} room={room_in_url()} code={param("offer")} name={store::get(NAME_KEY).unwrap_or_default()}
                net={net::current(param)} error={(*error).clone()}/>
        };
    };

    let me = s.peer.key();
    let mut present: Vec<PeerKey> = s.peer.names().keys().copied().collect();
    present.push(me);
    present.sort();
    present.dedup();
    let connected = s.net.connected();
    let closed = s.net.ended().map(|r| match r {
        Ok(()) => "The connection to the signalling server closed: check that it still runs, then reload the page.".to_string(),
        Err(e) => format!("The signalling server could not be reached ({e}). Check its address in Settings (leave the room first), or clear it to meet through relays."),
    });
    let relays = s.net.relay_status();
    let (relay_line, relay_alert) = relays.as_ref().map_or((None, None), |st| {
        let (l, a) = net::relay_summary(st);
        // A guest who joined by code, or a peer already connected, does not need the relays.
        (Some(l), a.filter(|_| !s.guest && connected == 0))
    });
    let unreached = s.unreached_since.filter(|since| s.t() >= since + UNREACHED_MS).and(relays.as_ref()).map(|st| {
        let n = st.peers.saturating_sub(connected);
        format!("Found {n} player{} through the relays but could not connect directly: your network or theirs may block direct connections. Add a TURN server in Settings (leave the room, open Settings, join again), or play on the same network.",
            if n == 1 { "" } else { "s" })
    });
    let links = s.net.link_kinds();
    let direct = links.iter().filter(|k| **k == Some(false)).count();
    let relayed = links.iter().filter(|k| **k == Some(true)).count();
    let copy = {
        Callback::from(move |_: MouseEvent| {
            let href = window().location().href().unwrap_or_default();
            let _ = window().navigator().clipboard().write_text(&href);
        })
    };
    // Back to the join form (to change Settings, or another room); the link's room is dropped so
    // the form does not join it again at once.
    let leave = {
        let session = session.clone();
        let rev = rev.clone();
        Callback::from(move |_: MouseEvent| {
            let loc = window().location();
            let url = format!(
                "{}{}",
                loc.pathname().unwrap_or_default(),
                loc.search().unwrap_or_default()
            );
            if let Ok(h) = window().history() {
                let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
            }
            *session.borrow_mut() = None;
            rev.set(*rev + 1);
        })
    };
    let make_invite = on_session(&session, &rev, |s| {
        s.invite_msg = s.net.invite().err();
    });
    let answer_invite = {
        let session = session.clone();
        let rev = rev.clone();
        Callback::from(move |text: String| {
            if let Some(s) = session.borrow_mut().as_mut() {
                s.invite_msg = s.net.answer_invite(&text).err();
            }
            rev.set(*rev + 1);
        })
    };
    // The page without its fragment: invite links add `#offer=…` to it.
    let page_url = {
        let loc = window().location();
        format!(
            "{}{}{}",
            loc.origin().unwrap_or_default(),
            loc.pathname().unwrap_or_default(),
            loc.search().unwrap_or_default()
        )
    };
    let chat_send = {
        let session = session.clone();
        let rev = rev.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let text = input_value("chat-text");
            if text.trim().is_empty() {
                return;
            }
            if let Some(s) = session.borrow_mut().as_mut() {
                let to = s.chat_to.filter(|k| s.peer.names().contains_key(k));
                s.chat(to, text.trim());
            }
            if let Some(i) = window()
                .document()
                .and_then(|d| d.get_element_by_id("chat-text"))
                .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
            {
                i.set_value("");
            }
            rev.set(*rev + 1);
        })
    };
    let waiting: Vec<String> = s.peer.waiting_on().iter().map(|k| s.name_of(k)).collect();
    // After the timeout: vote to hand each missing participant's seats to the computer, with the
    // tally of the open vote (every other dice-rolling participant must agree).
    let open = s.peer.open_votes();
    let overdue = s.overdue();
    let votable: Vec<PeerKey> = s.missing.iter().chain(overdue.iter()).copied().collect();
    let votes = html! {
        <ul class="online-votes" id="online-votes">
        { for votable.iter().filter(|k| !s.dropped.contains(k) && s.started.is_some() && s.peer.state().is_some_and(|g| g.winner().is_none())
            && s.proposals.get(&s.started.unwrap_or_default()).is_some_and(|p| p.participants.contains(k)))
            .map(|k| {
            let name = s.name_of(k);
            let tally = open.iter().find(|(c, _, _)| matches!(c, Control::Drop { peer, .. } if peer == k));
            let (have, need) = tally.map_or((vec![], vec![]), |(_, v, n)| (v.clone(), n.clone()));
            let voted = have.contains(&me);
            let onclick = {
                let k = *k;
                on_session(&session, &rev, move |s| s.vote_drop(k))
            };
            html! {
                <li class="vote" data-peer-name={name.clone()}>
                    <button class="btn small vote-drop" disabled={voted} {onclick}>
                        {format!("Hand {name}'s seat to the computer")}
                    </button>
                    if tally.is_some() {
                        <span class="tally">{format!(" {} of {} votes{}", have.len(), need.len(),
                            if voted { " (yours included)" } else { "" })}</span>
                    }
                </li>
            }
        }) }
        </ul>
    };
    let paused = !s.missing.is_empty() || !overdue.is_empty();
    let status = html! {
        <div class="online-status" id="online-status">
            <span>{format!("Room {} · {} connected", short_room(&s.room), connected)}</span>
            <button class="btn small" id="copy-link" onclick={copy}>{"Copy link"}</button>
            if s.started.is_none() {
                <button class="btn small" id="online-leave" onclick={leave}>{"Leave room"}</button>
            }
            <p class="hint" id="online-links">
                { if connected == 0 { "Searching for players…".to_string() } else {
                    format!("{direct} direct{}{}", if relayed > 0 { format!(", {relayed} through TURN") } else { String::new() },
                        if direct + relayed < connected { format!(", {} connecting", connected - direct - relayed) } else { String::new() }) } }
                if let Some(l) = &relay_line { {" · "}{l} }
            </p>
            if let Some(c) = &closed { <p class="notice" role="alert" id="online-error">{c}</p> }
            if let Some(a) = &relay_alert { <p class="notice" role="alert" id="online-error">{a}</p> }
            if let Some(u) = &unreached { <p class="notice" role="alert" id="online-unreached">{u}</p> }
            if let Some(st) = relays.as_ref().filter(|_| s.via_relays) {
                { invite_panel(st, s.guest, connected, make_invite, answer_invite, s.invite_msg.clone(), &page_url) }
            }
            if let Some(st) = &relays { { relay_details(st, s.via_relays) } }
            if paused {
                if !s.missing.is_empty() {
                    <p class="notice" id="online-paused" role="status">{format!("Paused — missing: {}",
                        s.missing.iter().map(|k| s.name_of(k)).collect::<Vec<_>>().join(", "))}</p>
                }
                if !overdue.is_empty() {
                    <p class="notice" id="online-overdue" role="status">{format!(
                        "{}: connected but not playing for a while. You may hand the seat to the computer.",
                        overdue.iter().map(|k| s.name_of(k)).collect::<Vec<_>>().join(", "))}</p>
                }
                { votes }
            }
            if let Some(h) = s.peer.halted() { <p class="notice" role="alert">{format!("Halted: {h:?}")}</p> }
            if s.started.is_some() && !waiting.is_empty() {
                <p class="hint">{format!("Waiting for {}", waiting.join(", "))}</p>
            }
        </div>
    };
    let chat_to = {
        let session = session.clone();
        Callback::from(move |e: yew::Event| {
            let v = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .map(|s| s.value())
                .unwrap_or_default();
            if let Some(s) = session.borrow_mut().as_mut() {
                s.chat_to = unhex32(&v).map(PeerKey);
            }
        })
    };
    let chat = html! {
        <section class="online-chat" aria-label="Chat">
            <ul id="chat-log">
                { for s.chat.iter().rev().take(30).collect::<Vec<_>>().into_iter().rev().map(|(who, private, text)| html! {
                    <li class={classes!(private.then_some("private"))}><b>{who}</b>{if *private { " (private): " } else { ": " }}{text}</li>
                }) }
            </ul>
            <form onsubmit={chat_send}>
                <select id="chat-to" aria-label="To" onchange={chat_to}>
                    <option value="" selected={s.chat_to.is_none()}>{"Everyone"}</option>
                    { for present.iter().filter(|k| **k != me).map(|k| html! {
                        <option value={hex(&k.0)} selected={s.chat_to == Some(*k)}>{s.name_of(k)}</option>
                    }) }
                </select>
                <input id="chat-text" maxlength="200" placeholder="Message" aria-label="Message"/>
                <button class="btn small" id="chat-send" type="submit">{"Send"}</button>
            </form>
        </section>
    };
    let notes = html! {
        <ul class="online-notes">{ for s.notes.iter().rev().take(3).map(|n| html!{<li>{n}</li>}) }</ul>
    };
    let attrs_started = if s.started.is_some() { "1" } else { "0" };
    let log_len = s.peer.log_len().to_string();
    // Hellos this page has sent to the relays (the e2e test checks a running game sends none).
    let hellos = relays.as_ref().map_or(0, |r| r.hellos_sent).to_string();

    if s.started.is_some() && props.showing == Showing::Orders {
        return html! {
            <div class="online-play online-orders" id="online" data-started={attrs_started} data-log-len={log_len.clone()} data-hellos={hellos.clone()}
                data-paused={if paused { "1" } else { "0" }}>
                { props.game.clone() }
                <aside class="online-bar">
                    { status }
                    { notes }
                    { chat }
                </aside>
            </div>
        };
    }

    if s.started.is_some() && props.showing == Showing::Classic {
        let auto = on_session(&session, &rev, |s| {
            s.autoplay = !s.autoplay;
            s.rev += 1;
        });
        return html! {
            <div class="online-play" id="online" data-started={attrs_started} data-log-len={log_len.clone()} data-hellos={hellos.clone()}
                data-paused={if paused { "1" } else { "0" }} data-autoplay={if s.autoplay { "1" } else { "0" }}>
                { props.game.clone() }
                <aside class="online-bar">
                    { status }
                    <button class="btn small" id="autoplay" aria-pressed={if s.autoplay { "true" } else { "false" }} onclick={auto}>
                        { if s.autoplay { "Stop playing for me" } else { "Let the computer play my seat" } }
                    </button>
                    { notes }
                    { chat }
                </aside>
            </div>
        };
    }

    // Lobby.
    let propose = on_session(&session, &rev, |s| {
        let ruleset = s.ruleset.clone();
        let orders = match ruleset.as_str() {
            "europe-1901" | "world" => Some(ruleset.as_str()),
            _ => None,
        };
        s.propose_ruleset(orders);
    });
    let set_ruleset = {
        let session = session.clone();
        let rev = rev.clone();
        Callback::from(move |e: yew::Event| {
            let v = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .map(|s| s.value())
                .unwrap_or_default();
            if let Some(s) = session.borrow_mut().as_mut() {
                s.ruleset = v;
                s.rev += 1;
            }
            rev.set(*rev + 1);
        })
    };
    let set_bots = {
        let session = session.clone();
        let rev = rev.clone();
        Callback::from(move |e: InputEvent| {
            let v: usize = e
                .target_unchecked_into::<HtmlInputElement>()
                .value()
                .parse()
                .unwrap_or(0);
            if let Some(s) = session.borrow_mut().as_mut() {
                s.bots = v.min(4);
            }
            rev.set(*rev + 1);
        })
    };
    let set_options = {
        let session = session.clone();
        let rev = rev.clone();
        Callback::from(move |o: ClassicOptions| {
            if let Some(s) = session.borrow_mut().as_mut() {
                s.options = o;
                s.rev += 1;
            }
            rev.set(*rev + 1);
        })
    };
    let seats_next = (present.len().min(6) + s.bots).min(6);
    let proposals = s.order.iter().rev().take(3).map(|h| {
        let p = &s.proposals[h];
        let mine = p.participants.contains(&me);
        let accepted = s.accepted.contains(h);
        let onclick = {
            let h = *h;
            on_session(&session, &rev, move |s| s.accept(h))
        };
        html! {
            <li class="proposal">
                <p>{match &p.orders {
                    None => format!("Classic game, {} seats:", p.seats.len()),
                    Some(o) => format!("Orders game on the {} map, {} seats:",
                        orbis_engine::rules::orders::map::OrdersMap::get(&o.map).map_or(o.map.clone(), |m| m.name.clone()),
                        p.seats.len()),
                }}</p>
                if p.orders.is_none() { <p class="hint rules-summary">{crate::classic::options::options_summary(&p.options)}</p> }
                <ol>{ for p.seats.iter().enumerate().map(|(i, seat)| html!{
                    <li>{format!("{} ({}) — {}", seat.name, seat_label(p, i), match seat.controller {
                        Controller::Peer(i) => p.participants.get(i as usize).map(|k| s.name_of(k)).unwrap_or_default(),
                        Controller::Bot(_) if p.orders.is_some() => "computer (civil disorder: holds)".to_string(),
                        Controller::Bot(_) => "computer".to_string(),
                    })}</li>
                }) }</ol>
                if mine && !accepted {
                    <button class="btn primary accept" {onclick}>{"Accept and start"}</button>
                } else if accepted {
                    <span class="hint">{"Accepted — waiting for the others."}</span>
                }
            </li>
        }
    });
    html! {
        <main class="menu online" id="online" data-started={attrs_started} data-log-len={log_len.clone()} data-hellos={hellos.clone()}
            data-peers={present.len().to_string()} data-room-url={s.room_url.clone()}
            data-chat-pending={s.peer.chats_unacknowledged().to_string()}>
            <div class="menu-card online-lobby">
                <h1>{"Play online"}</h1>
                { status }
                <h2>{"Players here"}</h2>
                <ul id="online-peers">{ for present.iter().map(|k| {
                    let how = if *k == me { String::new() } else {
                        match s.peer.link_of(k).and_then(|l| s.net.link_state(l)) {
                            None => " — not connected".into(),
                            Some(None) => " — connecting".into(),
                            Some(Some(false)) => " — direct".into(),
                            Some(Some(true)) => " — through TURN".into(),
                        }
                    };
                    html!{ <li>{s.name_of(k)}<span class="hint">{how}</span></li> }
                }) }</ul>
                <h2>{"New game"}</h2>
                <label>{"Game "}<select id="online-ruleset" style="max-width:100%" onchange={set_ruleset}>
                    <option value="classic" selected={s.ruleset == "classic"}>{"Classic"}</option>
                    <option value="europe-1901" selected={s.ruleset == "europe-1901"}>{"Orders: Europe 1901"}</option>
                    <option value="world" selected={s.ruleset == "world"}>{"Orders: World"}</option>
                </select></label>
                if s.ruleset == "classic" {
                    <p class="notice" id="p2p-notice">{"Hands and missions are visible to a modified client: cards and secret missions are still in every browser's game state."}</p>
                } else if s.ruleset == "europe-1901" {
                    <p class="hint">{"Seven powers; those without a player are in civil disorder (they hold)."}</p>
                } else {
                    <p class="hint">{"The players plus the computer seats, 2 to 6 powers; computer powers are in civil disorder (they hold)."}</p>
                }
                if s.ruleset != "europe-1901" {
                    <label>{"Computer seats "}<input id="online-bots" type="number" min="0" max="4" value={s.bots.to_string()} oninput={set_bots}/></label>
                }
                if s.ruleset == "classic" {
                    <details class="options" id="online-options">
                        <summary>{"Rules"}</summary>
                        { crate::classic::options::options_fields(&s.options, seats_next, set_options) }
                    </details>
                }
                <button class="btn" id="online-propose" onclick={propose}>{"Propose a game with everyone here"}</button>
                <ul id="online-proposals">{ for proposals }</ul>
                { notes }
                { chat }
                <button class="btn" type="button" onclick={to_menu.reform(|_: MouseEvent| ())}>{"Leave"}</button>
            </div>
        </main>
    }
}

/// What a proposed seat is shown as: its colour (classic) or the power it plays (orders).
fn seat_label(p: &SetupProposal, i: usize) -> String {
    use orbis_engine::rules::orders::map::OrdersMap;
    match &p.orders {
        None => p
            .seats
            .get(i)
            .map_or(String::new(), |s| s.colour.name().to_string()),
        Some(o) => OrdersMap::get(&o.map)
            .and_then(|m| {
                let powers = m.powers_for(p.seats.len() as u8)?;
                Some(m.powers.get(*powers.get(i)? as usize)?.name.clone())
            })
            .unwrap_or_default(),
    }
}
