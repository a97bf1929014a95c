//! A game over days on the online page (issue 61 item 2): the visit's state ([`Visit`]); the
//! session's steps over days and the room bar's box are in `days_step`. Opening the room reads the
//! whole game from its relays (`store_net::fetch_all`), catches up a fresh stored-mode peer with
//! this browser's key and memento (`Peer::visit`), and from then on every message the player's
//! commands sign (a proposal, an acceptance, orders and their sealed copy, a reveal, a vote) is
//! kept here until a relay has stored it (`store_net::publish`), then the game waits on the
//! others' visits. A player who visits a room without a game leaves a hello in the store, so
//! whoever proposes later finds their key and name there.
//!
//! Invariant: nothing signed is lost. What no relay has stored yet stays in localStorage
//! (`orbis.p2p.days.pending.<room>`), is fed to the next visit's peer with the store, and is sent
//! again on that visit (and on the player's "Send again").

use super::entropy::random;
use crate::store;
use orbis_protocol::{Body, Envelope, PeerKey};
use orbis_transport::relay::{store as days_store, store_net};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::Duration;

/// How long a relay may take to send the game before the visit goes on without it.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// What one publication came to: the messages sent, and each relay's report.
type Sent = (Vec<Vec<u8>>, Vec<store_net::Published>);

/// The visit of a game over days (`Session::visit`).
pub(super) struct Visit {
    pub relays: Vec<String>,
    /// Our signed messages that no relay has stored yet.
    pub pending: Vec<Vec<u8>>,
    pub fetched: Rc<RefCell<Option<store_net::Fetched>>>,
    sent: Rc<RefCell<Option<Sent>>>,
    /// Whether the store has been read and the peer caught up.
    pub ready: bool,
    pub publishing: bool,
    /// What went wrong reading or storing, in words for the player.
    pub fetch_error: Option<String>,
    pub publish_error: Option<String>,
    /// Relays that stored our last messages, of how many.
    pub stored_on: Option<(usize, usize)>,
    /// Keys and names of everyone who visited the room (their hellos in the store).
    pub visitors: BTreeMap<PeerKey, String>,
    /// Figures: messages read, and the time to read them and to catch up (ms).
    pub figures: (usize, u64, u64),
    pub fetch_t0: f64,
}

fn pending_key(room: &str) -> String {
    format!("orbis.p2p.days.pending.{room}")
}

fn unhex(h: &str) -> Option<Vec<u8>> {
    h.len()
        .is_multiple_of(2)
        .then(|| {
            (0..h.len() / 2)
                .map(|i| u8::from_str_radix(h.get(2 * i..2 * i + 2)?, 16).ok())
                .collect()
        })
        .flatten()
}

/// Whether a message belongs in the store: not one that only serves a live connection.
pub(super) fn storable(raw: &[u8]) -> bool {
    !matches!(
        Envelope::open_where(raw, |_| true).map(|(_, b)| b),
        Ok(Body::Sync { .. }
            | Body::ChatAck { .. }
            | Body::Batch { .. }
            | Body::Hello { answer: true, .. })
            | Err(_)
    )
}

/// Who left a hello in the store: their keys and names (each signed by its key).
pub(super) fn hellos(store: &[Vec<u8>]) -> BTreeMap<PeerKey, String> {
    store
        .iter()
        .filter_map(|raw| match Envelope::open_where(raw, |_| true) {
            Ok((env, Body::Hello { name, .. })) => Some((env.sender, name)),
            _ => None,
        })
        .collect()
}

/// Now, UTC ms (the clock of a game over days).
pub(super) fn utc_ms() -> u64 {
    js_sys::Date::now().max(0.0) as u64
}

impl Visit {
    pub(super) fn new(room: &str, relays: Vec<String>) -> Visit {
        let pending = store::get(&pending_key(room))
            .map(|s| s.split(',').filter_map(unhex).collect())
            .unwrap_or_default();
        let mut v = Visit {
            relays,
            pending,
            fetched: Rc::default(),
            sent: Rc::default(),
            ready: false,
            publishing: false,
            fetch_error: None,
            publish_error: None,
            stored_on: None,
            visitors: BTreeMap::new(),
            figures: (0, 0, 0),
            fetch_t0: 0.0,
        };
        v.fetch(room);
        v
    }

    /// Reads the game from every relay, in the background (`Session::days_step` takes it).
    pub(super) fn fetch(&mut self, room: &str) {
        self.ready = false;
        self.fetch_error = None;
        self.fetch_t0 = js_sys::Date::now();
        let (relays, room, slot) = (self.relays.clone(), room.to_string(), self.fetched.clone());
        yew::platform::spawn_local(async move {
            let f = store_net::fetch_all(&relays, &room, FETCH_TIMEOUT).await;
            *slot.borrow_mut() = Some(f);
        });
    }

    fn keep(&self, room: &str) {
        if self.pending.is_empty() {
            store::remove(&pending_key(room));
        } else {
            let text: Vec<String> = self
                .pending
                .iter()
                .map(|m| m.iter().map(|b| format!("{b:02x}")).collect())
                .collect();
            store::set(&pending_key(room), &text.join(","));
        }
    }

    /// Our new messages, kept until a relay stores them.
    pub(super) fn add(&mut self, room: &str, sends: Vec<Vec<u8>>) {
        let before = self.pending.len();
        for raw in sends {
            if storable(&raw) && !self.pending.contains(&raw) {
                self.pending.push(raw);
            }
        }
        if self.pending.len() != before {
            self.keep(room);
        }
    }

    /// Stores what is pending on every relay, in the background.
    pub(super) fn publish(&mut self, room: &str) {
        if self.publishing || self.pending.is_empty() {
            return;
        }
        let Some(entropy) = random::<32>() else {
            self.publish_error = Some(super::entropy::NO_RANDOMNESS.into());
            return;
        };
        self.publishing = true;
        self.publish_error = None;
        let msgs = self.pending.clone();
        let (relays, room, slot) = (self.relays.clone(), room.to_string(), self.sent.clone());
        let expiration = days_store::expiration(None, utc_ms() / 1000);
        yew::platform::spawn_local(async move {
            let r = store_net::publish(&relays, &room, &msgs, expiration, entropy).await;
            *slot.borrow_mut() = Some((msgs, r));
        });
    }

    /// A publication that ended: what a relay stored leaves `pending`. True when it changed.
    pub(super) fn take_sent(&mut self, room: &str) -> bool {
        let Some((msgs, reports)) = self.sent.borrow_mut().take() else {
            return false;
        };
        self.publishing = false;
        let ok = reports.iter().filter(|p| p.error.is_none()).count();
        self.stored_on = Some((ok, reports.len()));
        if ok > 0 {
            self.pending.retain(|m| !msgs.contains(m));
            self.keep(room);
        } else {
            let why: Vec<String> = reports
                .iter()
                .map(|p| {
                    format!(
                        "{}: {}",
                        p.url,
                        p.error.clone().unwrap_or_else(|| "stored".into())
                    )
                })
                .collect();
            self.publish_error = Some(format!(
                "No relay stored your moves ({}). You may be offline: check your connection and \
                 press “Send again”. Nothing is lost: this browser keeps them and sends them \
                 again on your next visit too.",
                why.join("; ")
            ));
        }
        true
    }

    /// Gives relays that lack a bundle another holds a copy, in the background.
    pub(super) fn refill(&self, f: &store_net::Fetched) {
        let Some(entropy) = random::<32>() else {
            return;
        };
        if f.mailbox.refills(&f.answered()).is_empty() {
            return;
        }
        let (relays, f) = (self.relays.clone(), f.clone());
        let expiration = days_store::expiration(None, utc_ms() / 1000);
        yew::platform::spawn_local(async move {
            let _ = store_net::refill(&relays, &f, expiration, entropy).await;
        });
    }
}
