//! One browser's online session: the protocol peer, its transport, and what the online screen
//! shows of them (lobby, proposals, chat, who is missing or overdue, notes). `step` runs one timer
//! tick: network in, protocol, queued actions and orders, network out.

use crate::classic::play::{take_queued, Seat, Sync};
use crate::online::entropy::random;
use crate::online::net::NetSettings;
use crate::store;
use crate::widgets::record_bot_ms;
use orbis_engine::bot;
use orbis_engine::classic::{Action, BotLevel, ClassicOptions, PlayerId};
use orbis_engine::codec::sha256;
use orbis_engine::rules::orders::map::PowerId;
use orbis_protocol::{Config, Controller, Output, Peer, PeerKey, SetupProposal};
use orbis_transport::Transport;
use std::collections::{BTreeMap, BTreeSet};

pub(super) fn window() -> web_sys::Window {
    web_sys::window().expect("window")
}

/// The room named in the page URL, if any.
pub fn room_in_url() -> Option<String> {
    if cfg!(not(target_arch = "wasm32")) {
        return None;
    }
    store::url_param("room")
}

pub(super) const NAME_KEY: &str = "orbis.p2p.name";
pub(super) const MISSING_KEY: &str = "orbis.p2p.missing_ms";

/// Silence after which a peer counts as missing: `?missing_ms=`, localStorage, else 10 s.
pub(super) fn missing_ms() -> u64 {
    store::url_param("missing_ms")
        .or_else(|| store::get(MISSING_KEY))
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|v| *v >= 500)
        .unwrap_or(10_000)
}

/// How long the others wait for a connected player's own turn before they may vote it out:
/// `?turn_ms=`, else 3 minutes (people think).
pub(super) fn turn_ms() -> u64 {
    store::url_param("turn_ms")
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|v| *v >= 500)
        .unwrap_or(180_000)
}

/// How long the game may wait on our own move or orders before we accept a vote handing our
/// seat over: below the time the others wait before they may vote (`turn_ms`), so an honest
/// vote (their clocks started a little before or after ours) is never refused, by a margin of
/// 20 s (a quarter of `turn_ms` when that is shorter). The margin is also how much sooner a
/// modified client can act against an idle player than an honest page can answer that
/// client's own stalling (issue 59: it was 45 s of the default 3 minutes).
pub(super) fn turn_grace_ms(turn_ms: u64) -> u64 {
    turn_ms.saturating_sub(20_000).max(turn_ms * 3 / 4)
}

pub(super) fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

pub(super) fn unhex32(s: &str) -> Option<[u8; 32]> {
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

pub(super) fn id_key(room: &str) -> String {
    format!("orbis.p2p.id.{room}")
}

pub(super) fn memento_key(room: &str) -> String {
    format!("orbis.p2p.memento.{room}")
}

/// Our last signed dice reveals and open votes in `room`, as `Peer::memento` gave them (see
/// `Config::remembered`).
fn load_memento(room: &str) -> Vec<Vec<u8>> {
    store::get(&memento_key(room))
        .map(|s| {
            s.split(',')
                .filter_map(|h| {
                    (h.len() % 2 == 0)
                        .then(|| {
                            (0..h.len() / 2)
                                .map(|i| u8::from_str_radix(h.get(2 * i..2 * i + 2)?, 16).ok())
                                .collect::<Option<Vec<u8>>>()
                        })
                        .flatten()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// This browser's key entropy for `room`: stored, or fresh from `crypto.getRandomValues`
/// (`None` when there is none to be had).
pub(super) fn identity(room: &str) -> Option<[u8; 32]> {
    if let Some(e) = store::get(&id_key(room)).and_then(|s| unhex32(&s)) {
        return Some(e);
    }
    let e = random::<32>()?;
    store::set(&id_key(room), &hex(&e));
    Some(e)
}

pub(super) fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Records a time stamp for the end-to-end test's latency figure (`window.__orbisP2p`).
pub(super) fn mark(kind: &str, index: u64) {
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
/// spawned on the page's executor. `None` when the browser gives no randomness for the
/// rendezvous's throwaway keys.
/// A game over days (`live` false) keeps the socket closed: its loop never runs, and the
/// visit reads and stores the game on the relays itself (`days_visit`).
pub(super) fn connect(
    room: &str,
    settings: &NetSettings,
    invite: Option<String>,
    live: bool,
) -> Option<Transport> {
    let (net, fut) = Transport::connect(
        settings.rendezvous(room, random()?, invite),
        Some(settings.ice()),
    );
    // How it ended is read back from the transport (`Transport::ended`).
    if live {
        yew::platform::spawn_local(async move {
            let _ = fut.await;
        });
    }
    Some(net)
}

/// One online session: the protocol peer, the socket, and what the lobby shows.
pub(super) struct Session {
    pub(super) room: String,
    /// The player's name in this room.
    name: String,
    pub(super) room_url: String,
    pub(super) peer: Peer,
    pub(super) net: Transport,
    /// Whether the socket's loop had ended at the last step (its end redraws the lobby).
    pub(super) net_ended: bool,
    /// Whether peers meet through relays (else through a signalling server).
    pub(super) via_relays: bool,
    /// What the lobby last showed of the relays (a change redraws it).
    pub(super) relay_seen: String,
    /// Since when (ms, session time) a player found through the relays is not connected.
    pub(super) unreached_since: Option<u64>,
    /// Whether this session joined by an invite code (it shows the answer code to send back).
    pub(super) guest: bool,
    /// What is wrong with the answer code the host pasted.
    pub(super) invite_msg: Option<String>,
    t0: f64,
    pub(super) proposals: BTreeMap<[u8; 32], SetupProposal>,
    pub(super) order: Vec<[u8; 32]>,
    pub(super) accepted: BTreeSet<[u8; 32]>,
    pub(super) started: Option<[u8; 32]>,
    pub(super) chat: Vec<(String, bool, String)>,
    pub(super) missing: BTreeSet<PeerKey>,
    /// Participants the game has been waiting on, since when (ms), and whether for their turn
    /// (else for a dice reveal or orders, which their page sends by itself).
    pub(super) waiting_since: BTreeMap<PeerKey, (u64, bool)>,
    /// The log position `waiting_since` counts at: a move restarts every clock.
    pub(super) waiting_at: u64,
    /// Players left out of the next proposal by hand.
    pub(super) left_out: BTreeSet<PeerKey>,
    /// Orders games: the power picked for each player in the lobby (absent: random).
    pub(super) power_pick: BTreeMap<PeerKey, PowerId>,
    /// The overdue participants last shown (a change redraws the screen).
    pub(super) overdue_shown: Vec<PeerKey>,
    pub(super) notes: Vec<String>,
    pub(super) synced: u64,
    /// Face-down game: how many of our cards we read and whether we read our mission, at the
    /// last redraw.
    pub(super) read: (usize, bool),
    pub(super) last_seat: Option<Seat>,
    pub(super) autoplay: bool,
    pub(super) rev: u64,
    /// Orders game: phases resolved since the last sync, the sync for the app, and what it showed.
    pub(super) resolved: Vec<Vec<orbis_engine::rules::orders::OrdersEvent>>,
    pub(super) orders_sync: Option<crate::online::orders::OrdersSync>,
    pub(super) orders_shown: Option<crate::online::orders::Shown>,
    /// Economy game: events of the positions played since the last sync, the sync for the app,
    /// and what it showed.
    pub(super) economy_events: Vec<orbis_engine::rules::economy::action::EconomyEvent>,
    pub(super) economy_sync: Option<crate::online::economy::EconomySync>,
    pub(super) economy_shown: Option<crate::online::economy::Shown>,
    /// Economy game: since when (`t`) our cards, or a computer's, have waited on the deal.
    pub(super) dealing_since: Option<u64>,
    /// Economy game: the log position on screen and when this page reached it, and when it saw
    /// a majority's plans committed (the windows' clocks, as this page sees them).
    pub(super) economy_clock: (u64, u64, Option<u64>),
    /// Rules of the next proposal (chosen in the lobby).
    pub(super) options: ClassicOptions,
    /// Rules and setup of the next economy proposal.
    pub(super) economy_options: orbis_engine::rules::economy::options::EconomyOptions,
    /// Computer seats of the next proposal, and their level (classic).
    pub(super) bots: usize,
    /// Face-down classic, three players or more: the others may stand in for a leaver's cards
    /// (`SetupProposal::stand_in`).
    pub(super) stand_in: bool,
    pub(super) bot_level: BotLevel,
    /// Participants voted out (their seats are played by the computer).
    pub(super) dropped: BTreeSet<PeerKey>,
    /// Game lines produced outside `step` (by a command), shown with the next sync.
    pub(super) lines: Vec<String>,
    /// Addressee of the next chat message (None: everyone).
    pub(super) chat_to: Option<PeerKey>,
    /// Ruleset of the next proposal: "classic", or an orders map id.
    pub(super) ruleset: String,
    /// Hash of the memento last stored (to store it only when it changes).
    pub(super) memento_last: Option<[u8; 32]>,
    /// Left out of the game (voted out while away) and the player asked to come back: the
    /// position we last asked at (`u64::MAX` until the first request goes out).
    pub(super) asked_back: Option<u64>,
    /// How the next proposal is played: live, or over days with its clock.
    pub(super) days: super::days_clock::Draft,
    /// A game over days: the visit (the store read, our messages on their way to the relays).
    pub(super) visit: Option<Box<super::days_visit::Visit>>,
    /// Over days: a command of ours signed something since the last step (see `days_step`).
    pub(super) acted: bool,
}

/// Leaving the room: the charts forget its game's course.
impl Drop for Session {
    fn drop(&mut self) {
        super::course::forget();
    }
}

/// The protocol peer's configuration for `room` (its id from the room's name `room_url`).
/// Over days (`stored`), the peer keeps no connection and signs only what the store needs.
fn config(room: &str, room_url: &str, name: &str, stored: bool) -> Option<Config> {
    let h = sha256(room_url.as_bytes());
    let mut game_id = [0u8; 16];
    game_id.copy_from_slice(&h[..16]);
    let mut cfg = Config::new(game_id, name, identity(room)?);
    // So that an opponent who is our only source after a reload cannot re-sign its last
    // attacks once it knows their dice.
    cfg.remembered = load_memento(room);
    cfg.resend_ms = 500;
    cfg.missing_ms = missing_ms();
    cfg.turn_grace_ms = turn_grace_ms(turn_ms());
    // Above any message number an earlier session with the same key used.
    cfg.seq_start = (now_ms() as u64).saturating_mul(1000);
    cfg.stored = stored;
    Some(cfg)
}

/// A protocol peer whose computer seats' moves the page thinks in its worker
/// (`think::online`), so the page answers while they think (issue 62). Over days the visit
/// catches up in one go, so the peer thinks them itself.
fn thinking_peer(cfg: Config) -> Peer {
    let stored = cfg.stored;
    let mut peer = Peer::new(cfg);
    if !stored {
        peer.think_elsewhere();
    }
    peer
}

impl Session {
    /// After a game: back to this room's lobby with the same connections. A fresh protocol peer
    /// (the same key and name) greets everyone again; the others' pages come back the same way,
    /// and anyone may propose the next game. The finished game's memento is dropped (it only
    /// guards a game in progress).
    pub(super) fn play_again(&mut self) -> bool {
        store::remove(&memento_key(&self.room));
        let Some(cfg) = config(&self.room, &self.room_url, &self.name, self.visit.is_some()) else {
            return false;
        };
        self.peer = thinking_peer(cfg);
        self.proposals.clear();
        self.order.clear();
        self.accepted.clear();
        self.started = None;
        self.missing.clear();
        self.waiting_since.clear();
        self.dropped.clear();
        self.overdue_shown.clear();
        self.resolved.clear();
        self.orders_sync = None;
        self.orders_shown = None;
        self.economy_events.clear();
        self.economy_sync = None;
        self.economy_shown = None;
        self.dealing_since = None;
        self.economy_clock = (0, 0, None);
        self.synced = 0;
        self.read = (0, false);
        self.last_seat = None;
        self.autoplay = false;
        self.lines.clear();
        self.memento_last = None;
        self.asked_back = None;
        self.notes
            .push("Back in the room's lobby: propose the next game when everyone is here.".into());
        let out = self.peer.start(self.t());
        let (mut lines, mut roll) = (vec![], None);
        self.absorb(out, &mut lines, &mut roll);
        self.rev += 1;
        true
    }

    pub(super) fn new(
        room: &str,
        name: &str,
        settings: &NetSettings,
        invite: Option<String>,
        over_days: bool,
    ) -> Option<Session> {
        let room_url = settings.room_name(room);
        let cfg = config(room, &room_url, name, over_days)?;
        let net = connect(room, settings, invite.clone(), !over_days)?;
        Some(Session {
            room: room.to_string(),
            name: name.to_string(),
            room_url,
            peer: thinking_peer(cfg),
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
            waiting_at: 0,
            left_out: BTreeSet::new(),
            power_pick: BTreeMap::new(),
            overdue_shown: vec![],
            notes: vec![],
            synced: 0,
            read: (0, false),
            last_seat: None,
            autoplay: false,
            rev: 0,
            resolved: vec![],
            orders_sync: None,
            orders_shown: None,
            economy_events: vec![],
            economy_sync: None,
            economy_shown: None,
            dealing_since: None,
            economy_clock: (0, 0, None),
            options: ClassicOptions::default(),
            economy_options: Default::default(),
            bots: 0,
            stand_in: true,
            bot_level: BotLevel::Normal,
            dropped: BTreeSet::new(),
            lines: vec![],
            chat_to: None,
            // Over days: orders games only (`days_clock::WHY_LIVE_ONLY`).
            ruleset: if over_days { "europe-1901" } else { "classic" }.into(),
            memento_last: None,
            asked_back: None,
            days: super::days_clock::Draft {
                over_days,
                ..Default::default()
            },
            visit: over_days
                .then(|| Box::new(super::days_visit::Visit::new(room, settings.relays.clone()))),
            acted: false,
        })
    }

    pub(super) fn t(&self) -> u64 {
        (now_ms() - self.t0).max(0.0) as u64
    }

    /// The players the next proposal includes: this peer and those it can reach now that were
    /// not left out by hand (a key that said hello once is not a player here).
    pub(super) fn next_players(&self) -> Vec<PeerKey> {
        let me = self.peer.key();
        if let Some(v) = &self.visit {
            // Over days: everyone who visited the room (their hello is in the store).
            let mut keys: Vec<PeerKey> = v
                .visitors
                .keys()
                .filter(|k| !self.left_out.contains(k))
                .copied()
                .chain([me])
                .collect();
            keys.sort();
            keys.dedup();
            return keys;
        }
        let mut keys: Vec<PeerKey> = self
            .peer
            .names()
            .keys()
            .filter(|k| {
                **k != me
                    && !self.left_out.contains(k)
                    && self
                        .peer
                        .link_of(k)
                        .and_then(|l| self.net.link_state(l))
                        .is_some()
            })
            .copied()
            .collect();
        keys.push(me);
        keys.sort();
        keys.dedup();
        keys
    }

    pub(super) fn name_of(&self, k: &PeerKey) -> String {
        if *k == self.peer.key() {
            return format!("{} (you)", self.peer_name());
        }
        self.peer
            .names()
            .get(k)
            .or_else(|| self.visit.as_ref()?.visitors.get(k))
            .cloned()
            .unwrap_or_else(|| k.short())
    }

    pub(super) fn peer_name(&self) -> String {
        store::get(NAME_KEY).unwrap_or_else(|| "Player".into())
    }

    /// Our participant index in the started game.
    pub(super) fn my_index(&self) -> Option<u8> {
        let p = self.proposals.get(&self.started?)?;
        p.participants
            .iter()
            .position(|k| *k == self.peer.key())
            .map(|i| i as u8)
    }

    pub(super) fn my_seat(&self) -> Option<PlayerId> {
        let i = self.my_index()?;
        let p = self.proposals.get(&self.started?)?;
        p.seats
            .iter()
            .position(|s| s.controller == Controller::Peer(i))
            .map(|s| s as PlayerId)
    }

    pub(super) fn seat(&self) -> Seat {
        Seat {
            me: self.my_seat(),
            can_act: self.peer.is_my_turn() && !self.autoplay,
            ended: self.peer.ended().is_some(),
        }
    }

    /// Keeps when the game started waiting on each participant, so a connected peer that never
    /// reveals, orders or plays becomes votable too (`overdue`), not only a silent one.
    pub(super) fn note_waiting(&mut self, t: u64) {
        let waiting = self.peer.waiting_on();
        // The clocks count at one position: a participant the game waited on at every look over
        // many quick positions (each part in within its grace) is not overdue at the next one a
        // moment after it began. Its own peer counts its grace from there too, and would halt
        // naming the voters of so early a vote.
        let at = self.peer.log_len();
        if at != self.waiting_at {
            self.waiting_at = at;
            self.waiting_since.clear();
        }
        self.waiting_since.retain(|k, _| waiting.contains(k));
        let turn_of = self.peer.state().and_then(|g| {
            let p = self.proposals.get(&self.started?)?;
            match p.seats.get(g.current as usize)?.controller {
                orbis_protocol::Controller::Peer(i) => p.participants.get(i as usize).copied(),
                orbis_protocol::Controller::Bot(_) => None,
            }
        });
        // Orders and economy steps are chosen by people: a round waits on them like a turn.
        let orders_game = matches!(
            self.peer.game(),
            Some(orbis_engine::rules::Game::Orders(_) | orbis_engine::rules::Game::Economy(_))
        );
        for k in waiting {
            self.waiting_since
                .entry(k)
                .or_insert((t, orders_game || turn_of == Some(k)));
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
    pub(super) fn overdue(&self) -> Vec<PeerKey> {
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
    pub(super) fn step(&mut self) -> Option<Sync> {
        if self.visit.is_some() {
            self.days_step();
            return None;
        }
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
        // The computer seats' moves, thought in the worker (issue 62).
        outs.extend(crate::think::online::step(&mut self.peer, t, record_bot_ms));
        outs.extend(self.readmissions());
        self.watch_relays(t);
        self.note_waiting(t);
        let mut lines = std::mem::take(&mut self.lines);
        let mut roll = None;
        for o in outs {
            self.absorb(o, &mut lines, &mut roll);
        }
        // The statistics charts' course of the game, sampled as it goes.
        super::course::observe(&self.peer);
        if matches!(self.peer.game(), Some(orbis_engine::rules::Game::Orders(_))) {
            self.orders_step(lines, roll);
            return None;
        }
        if matches!(
            self.peer.game(),
            Some(orbis_engine::rules::Game::Economy(_))
        ) {
            self.economy_step(lines, roll);
            return None;
        }
        // Actions chosen on the board (or by autoplay), one at a time through the protocol.
        let queued: Vec<Action> = take_queued();
        let mut todo: Vec<Action> = queued;
        if self.autoplay && todo.is_empty() && self.peer.is_my_turn() {
            // What this player sees (its own cards face up); it waits for cards on their way.
            if let Some(a) = self
                .peer
                .view()
                .filter(|v| v.players[v.current as usize].sealed.is_empty())
                .and_then(|v| bot::choose(&v, BotLevel::Normal))
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
        // Our own cards as we read them: the board redraws when one arrives. Counted on the
        // shared state (this runs every tick); the view is copied only to redraw.
        let read = match (seat.me, self.peer.state()) {
            (Some(m), Some(s)) => {
                let p = &s.players[m as usize];
                let readable = |slot: &orbis_engine::classic::Slot| self.peer.read(*slot).is_some();
                (
                    p.hand.len() + p.sealed.iter().filter(|x| readable(x)).count(),
                    p.mission.is_some() || p.sealed_mission.as_ref().is_some_and(readable),
                )
            }
            _ => (0, false),
        };
        let changed = len != self.synced
            || self.last_seat != Some(seat)
            || !lines.is_empty()
            || read != self.read;
        if !changed {
            return None;
        }
        self.synced = len;
        self.last_seat = Some(seat);
        self.read = read;
        self.rev += 1;
        let view = self.peer.view()?;
        let hash = self.peer.state()?.state_hash().to_hex();
        Some(Sync {
            game: view,
            seat,
            lines,
            roll,
            hash,
        })
    }

    /// Coming back: once the player asked for it ("Take my seat back", which sets
    /// `asked_back`), a left-out peer asks to be let back in, again at each position the game
    /// moved on to without it. Never by itself: a player voted out for idling at an open page
    /// must not be handed the seat again unasked. It also votes for any other player who asked
    /// (the request is signed by that player, so they are here) after leaving while away; one
    /// dropped while connected (a withholder) waits for the player's button
    /// ([`Session::vote_readmit`]). The seat returns where every peer agrees, between that
    /// seat's turns.
    fn readmissions(&mut self) -> Vec<Output> {
        let mut outs = vec![];
        let me = self.peer.key();
        if let (true, Some(last)) = (self.peer.left_out(), self.asked_back) {
            let at = self.peer.log_len();
            if last != at {
                self.asked_back = Some(at);
                if let Ok(o) = self.peer.ask_back() {
                    outs.push(o);
                }
            }
        }
        for r in self.peer.readmit_requests() {
            if r.peer != me && !r.left_present && !r.seconded {
                if let Ok(o) = self.peer.vote(r.control) {
                    outs.push(o);
                }
            }
        }
        outs
    }

    /// Relays: stop the hellos once the game runs with everyone connected (an idle game sends the
    /// shared relays nothing), redraw the lobby when their state changes, and time how long a
    /// player found through them has stayed unconnected.
    pub(super) fn watch_relays(&mut self, t: u64) {
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
}

/// A fingerprint of a key ("3f9a·01c2·8b7e·55d0", 64 bits), shown beside each name: names are
/// self-chosen, keys are not, so players can tell a stranger who took a friend's name (compare
/// by voice). 32 bits could be matched by a made-up key in minutes; 64 cannot.
pub(super) fn fingerprint(k: &PeerKey) -> String {
    let h = sha256(&k.0);
    h[..8]
        .chunks(2)
        .map(|c| format!("{:02x}{:02x}", c[0], c[1]))
        .collect::<Vec<_>>()
        .join("·")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 59: a modified client may vote an idle player out once that player's own grace is
    /// over; an honest page answers a stalling opponent at `turn_ms`. The gap is 20 s at the
    /// default 3 minutes (it was 45 s), and the grace stays below `turn_ms` at every setting.
    #[test]
    fn an_honest_page_answers_a_staller_within_20_s_of_when_a_cheat_could_act() {
        assert_eq!(turn_ms() - turn_grace_ms(turn_ms()), 20_000);
        for t in [500, 2_000, 60_000, 80_000, 180_000, 600_000] {
            let g = turn_grace_ms(t);
            assert!(g < t && t - g <= 20_000.max(t / 4), "{t}: {g}");
        }
    }

    /// Security review C13: a fingerprint of 32 bits could be matched by a made-up key in
    /// minutes. Two keys whose hashes agree on their first 32 bits (found here by search, as an
    /// impostor would) must still show different fingerprints.
    #[test]
    fn fingerprints_are_64_bits() {
        let fp = fingerprint(&PeerKey([7; 32]));
        let groups: Vec<&str> = fp.split('·').collect();
        assert_eq!(groups.len(), 4, "{fp}");
        assert!(groups
            .iter()
            .all(|g| g.len() == 4 && g.chars().all(|c| c.is_ascii_hexdigit())));
        // Two keys whose SHA-256 agrees on its first 16 bits (a search of a few thousand keys;
        // 32 bits would take minutes, which is the attack): the fingerprint tells them apart by
        // the bits beyond.
        let first = |i: u32| {
            let mut k = [0u8; 32];
            k[..4].copy_from_slice(&i.to_le_bytes());
            PeerKey(k)
        };
        let mut by_prefix = std::collections::BTreeMap::new();
        let (a, b) = (0u32..)
            .find_map(|i| {
                let h = sha256(&first(i).0);
                by_prefix
                    .insert([h[0], h[1]], i)
                    .map(|j| (first(j), first(i)))
            })
            .expect("a collision of 16 bits");
        let (fa, fb) = (fingerprint(&a), fingerprint(&b));
        assert_eq!(fa[..4], fb[..4], "same first group");
        assert_ne!(fa, fb);
        // Each group is two bytes of the hash, in order: 64 bits in all.
        let h = sha256(&a.0);
        let hex: String = h[..8].iter().map(|x| format!("{x:02x}")).collect();
        assert_eq!(fa.replace('·', ""), hex);
    }
}
