//! The orders ruleset in an online room. The protocol runs the game (one commit-reveal round
//! per phase, every peer adjudicates); this module carries orders from the orders screens to the
//! protocol and the protocol's state and results back to them.
//!
//! The orders screens (`orders_ui`, `orders_view`) are the hot-seat ones with
//! `OrdersSession::online` set: this browser enters only its own powers' orders, "Submit" commits
//! them (`Peer::submit_orders`), and the results appear once every peer's orders are revealed.

use orbis_engine::rules::orders::map::PowerId;
use orbis_engine::rules::orders::{OrdersEvent, OrdersState};
use orbis_engine::rules::Game;
use orbis_protocol::wire::encode_orders;
use orbis_protocol::{CommandError, Output, Peer};

/// One browser's orders and draw votes for one phase, per power it plays.
pub type Payload = orbis_protocol::wire::OrdersPayload;

/// What the app needs after a protocol step of an orders game.
#[derive(Clone, Debug)]
pub struct OrdersSync {
    /// The state after every phase resolved so far.
    pub game: OrdersState,
    /// The powers this browser plays.
    pub mine: Vec<PowerId>,
    /// The events of the phases resolved since the last sync, oldest first.
    pub resolved: Vec<Vec<OrdersEvent>>,
    /// Names of who has committed this phase's orders, and of who the phase waits for.
    pub committed: Vec<String>,
    pub waiting: Vec<String>,
    /// Our orders for this phase are committed (also after a reload).
    pub sent: bool,
    pub hash: String,
}

/// Commits the queued orders (at most one payload per phase reaches the protocol), and after a
/// reload commits our stored orders of the current phase again.
pub fn commit_queued(
    peer: &mut Peer,
    room: &str,
    game: [u8; 32],
) -> Vec<Result<Output, CommandError>> {
    let mut out = vec![];
    let round = peer.log_len() as u32;
    if let Some((r, payload, salt)) = super::kept::kept("orders", room, game) {
        if r == round && !peer.has_my_orders(round) {
            out.push(peer.commit_orders(round, payload, salt));
        }
    }
    let queued: Vec<Payload> = crate::orders::take_queued();
    for p in queued {
        // Without randomness the orders are not sealed at all (a salt of zeros would let anyone
        // test guesses against the commitment); the session could not have started without
        // it, so this does not happen in a browser that can play online.
        let Some(s) = super::entropy::random::<32>() else {
            continue;
        };
        let r = peer.submit_orders(p.clone(), s);
        if r.is_ok() {
            super::kept::keep("orders", room, game, round, encode_orders(&p), s);
        }
        out.push(r);
    }
    out
}

/// True when our (non-empty) orders for the current phase are committed.
pub fn sent(peer: &Peer, room: &str, game: [u8; 32]) -> bool {
    let round = peer.log_len() as u32;
    super::kept::kept("orders", room, game).is_some_and(|(r, _, _)| r == round)
        && peer.has_my_orders(round)
}

/// What a sync showed: log length, sent, committed, waiting.
pub type Shown = (u64, bool, Vec<String>, Vec<String>);

/// The sync for the app, when something it shows changed since `last` (log length, who
/// committed, who is awaited).
pub fn sync(
    peer: &Peer,
    sent: bool,
    resolved: Vec<Vec<OrdersEvent>>,
    committed: Vec<String>,
    waiting: Vec<String>,
    last: &mut Option<Shown>,
) -> Option<OrdersSync> {
    let Some(Game::Orders(game)) = peer.game() else {
        return None;
    };
    let key = (peer.log_len(), sent, committed.clone(), waiting.clone());
    if resolved.is_empty() && last.as_ref() == Some(&key) {
        return None;
    }
    *last = Some(key);
    let mine = peer.my_powers();
    Some(OrdersSync {
        game: game.clone(),
        mine,
        resolved,
        committed,
        waiting,
        sent,
        hash: peer
            .state_hash()
            .map(|h| h.iter().map(|b| format!("{b:02x}")).collect())
            .unwrap_or_default(),
    })
}
