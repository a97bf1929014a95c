//! An orders game played online: what the page knows beyond the engine state, the orders it
//! hands to the protocol, and the protocol's news (phases resolved, who has committed). The
//! protocol itself runs in `crate::online`; this keeps only the screen's side.

use super::OrdersSession;
#[cfg(feature = "online")]
use super::{Mode, Seat, Stage};
use orbis_engine::rules::orders::map::PowerId;
#[cfg(not(feature = "online"))]
use orbis_engine::rules::orders::notation::Written;
#[cfg(feature = "online")]
use orbis_engine::rules::orders::{notation::Written, OrdersEvent, OrdersState};

#[cfg(feature = "online")]
pub use orbis_protocol::wire::OrdersPayload;

/// The orders this browser submitted for a phase, with its powers' draw votes: the protocol's
/// payload where online play is built in; without it (the full page) nothing is ever submitted
/// (no session is online), and this stands in with the same shape.
#[cfg(not(feature = "online"))]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OrdersPayload {
    pub orders: Vec<(PowerId, Vec<Written>)>,
    pub draw: Vec<(PowerId, bool)>,
}

/// What an online orders page knows beyond the engine state.
#[derive(Clone, PartialEq, Default, Debug)]
pub struct OnlineOrders {
    /// Our orders for this phase are committed; waiting for the others.
    pub sent: bool,
    /// Who has committed orders for this phase, and who the phase is waiting for.
    pub committed: Vec<String>,
    pub waiting: Vec<String>,
    /// Our powers' draw votes for this phase, per power of the map: secret until the reveal,
    /// so they go out with the orders instead of into the engine state at once.
    pub draw: Vec<bool>,
}

thread_local! {
    /// Orders submitted on the screen in an online game, waiting for the online screen's next
    /// protocol step.
    static QUEUE: std::cell::RefCell<Vec<OrdersPayload>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Online game: queues this browser's orders for the phase for the protocol.
pub(super) fn submit(p: OrdersPayload) {
    QUEUE.with(|q| q.borrow_mut().push(p));
}

/// The orders queued since the last call (the online screen commits them).
#[cfg(feature = "online")]
pub fn take_queued() -> Vec<OrdersPayload> {
    QUEUE.with(|q| std::mem::take(&mut *q.borrow_mut()))
}

impl OrdersSession {
    /// An online session: this browser writes the orders of `mine` only.
    #[cfg(feature = "online")]
    pub fn new_online(game: OrdersState, mine: &[PowerId]) -> OrdersSession {
        let n = game.map().powers.len();
        let seats = (0..n)
            .map(|p| match mine.contains(&(p as PowerId)) {
                true => Seat::Human,
                false => Seat::Idle,
            })
            .collect();
        let mut s = OrdersSession::new(game, seats);
        s.online = Some(OnlineOrders {
            draw: s.game.draw.clone(),
            ..OnlineOrders::default()
        });
        s.stage = s.first_waiting().map_or(Stage::Results, Stage::Enter);
        s
    }

    /// Online: the protocol resolved one or more phases (`events` of each, oldest first); `game`
    /// is the state now. Shows the results of the last phase that had orders.
    #[cfg(feature = "online")]
    pub fn online_resolved(&mut self, game: OrdersState, events: &[Vec<OrdersEvent>]) {
        let (year, season) = (self.game.year, self.game.season);
        self.game = game;
        if let Some(ev) = events
            .iter()
            .rev()
            .find(|ev| {
                ev.iter().any(
                    |e| matches!(e, OrdersEvent::Resolved { results, .. } if !results.is_empty()),
                )
            })
            .or(events.last())
        {
            self.last = Some(self.summarise(year, season, ev));
        }
        if let Some(o) = self.online.as_mut() {
            o.sent = false;
            o.draw = self.game.draw.clone();
        }
        self.draft.clear();
        self.sel = None;
        self.mode = Mode::Move;
        self.error = None;
        self.stage = Stage::Results;
    }

    /// Online: who has committed and who is awaited; `sent`: the protocol holds our committed
    /// orders for this phase (e.g. restored after a reload), so there is nothing to enter.
    #[cfg(feature = "online")]
    pub fn online_status(&mut self, sent: bool, committed: Vec<String>, waiting: Vec<String>) {
        let Some(o) = self.online.as_mut() else {
            return;
        };
        o.committed = committed;
        o.waiting = waiting;
        if sent && !o.sent {
            o.sent = true;
            self.draft.clear();
            self.sel = None;
            self.stage = Stage::Results;
        }
    }

    /// Online: the orders this browser submitted for the current phase, per power, with those
    /// powers' draw votes.
    pub fn online_payload(&self) -> OrdersPayload {
        let orders: Vec<(PowerId, Vec<Written>)> = (0..self.game.orders.len())
            .filter(|&p| self.is_human(p as PowerId))
            .filter_map(|p| Some((p as PowerId, self.game.orders[p].clone()?)))
            .collect();
        let draw = orders
            .iter()
            .map(|&(p, _)| (p, self.draw_vote(p)))
            .collect();
        OrdersPayload { orders, draw }
    }
}
