//! The orders ruleset in an online room. The protocol runs the game (one commit-reveal round
//! per phase, every peer adjudicates); this module carries orders from the orders screens to the
//! protocol and the protocol's state and results back to them.
//!
//! The orders screens (`orders_ui`, `orders_view`) are the hot-seat ones with
//! `OrdersSession::online` set: this browser enters only its own powers' orders, "Submit" commits
//! them (`Peer::submit_orders`), and the results appear once every peer's orders are revealed.

use orbis_engine::rules::orders::map::PowerId;
use orbis_engine::rules::orders::notation::Written;
use orbis_engine::rules::orders::{OrdersEvent, OrdersState};
use orbis_engine::rules::Game;
use orbis_protocol::{CommandError, Output, Peer};
use std::cell::RefCell;

/// One browser's orders for one phase, per power it plays.
pub type Payload = Vec<(PowerId, Vec<Written>)>;

thread_local! {
    /// Orders submitted on the screen, waiting for the next protocol step.
    static QUEUE: RefCell<Vec<Payload>> = const { RefCell::new(Vec::new()) };
}

/// Called by the orders screen when this browser's orders for the phase are complete.
pub fn submit(p: Payload) {
    QUEUE.with(|q| q.borrow_mut().push(p));
}

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
    pub hash: String,
}

/// Fresh salt for a commitment, from the browser's `crypto.getRandomValues`.
fn salt() -> [u8; 32] {
    let mut s = [0u8; 32];
    if let Some(c) = web_sys::window().and_then(|w| w.crypto().ok()) {
        let _ = c.get_random_values_with_u8_array(&mut s);
    }
    s
}

/// Commits the queued orders (at most one payload per phase reaches the protocol).
pub fn commit_queued(peer: &mut Peer) -> Vec<Result<Output, CommandError>> {
    let queued: Vec<Payload> = QUEUE.with(|q| std::mem::take(&mut *q.borrow_mut()));
    queued
        .into_iter()
        .map(|p| peer.submit_orders(p, salt()))
        .collect()
}

/// The sync for the app, when something it shows changed since `last` (log length, who
/// committed, who is awaited).
pub fn sync(
    peer: &Peer,
    resolved: Vec<Vec<OrdersEvent>>,
    committed: Vec<String>,
    waiting: Vec<String>,
    last: &mut Option<(u64, Vec<String>, Vec<String>)>,
) -> Option<OrdersSync> {
    let Some(Game::Orders(game)) = peer.game() else {
        return None;
    };
    let key = (peer.log_len(), committed.clone(), waiting.clone());
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
        hash: peer
            .state_hash()
            .map(|h| h.iter().map(|b| format!("{b:02x}")).collect())
            .unwrap_or_default(),
    })
}
