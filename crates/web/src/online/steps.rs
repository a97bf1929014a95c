//! The simultaneous rulesets' part of the online session's timer step. Orders: our queued
//! orders to the protocol and its news to the orders screens. Economy: our queued batches (or
//! the computer's, when it plays our seats) to the protocol, and the protocol's state, events
//! and windows to the economy screens (`economy::EconomySync`).

use super::economy::{commit_queued, EconomySync};
use super::session::Session;
use crate::classic::play::Roll;
use orbis_engine::bot::economy as eco_bot;
use orbis_engine::classic::BotLevel;
use orbis_protocol::CommandError;

/// How long our cards wait on the deal before the page says whose part is missing.
const DEALING_SHOWN_AFTER_MS: u64 = 1_500;

impl Session {
    /// Orders game: commits queued orders and prepares the sync for the orders screens.
    pub(super) fn orders_step(&mut self, mut lines: Vec<String>, mut roll: Option<Roll>) {
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

    /// Economy game: commits queued batches (or the computer's, when it plays our seats) and
    /// prepares the sync for the economy screens.
    pub(super) fn economy_step(&mut self, mut lines: Vec<String>, mut roll: Option<Roll>) {
        let game = self.started.unwrap_or_default();
        let mut queued = crate::economy::online::take_queued();
        if self.autoplay && queued.is_empty() {
            if let (Some((_, due)), Some(s)) = (self.peer.economy_due(), self.peer.economy_view()) {
                let b = eco_bot::batch(&s, &due, BotLevel::Normal);
                if !b.is_empty() {
                    queued.push((s.steps, b));
                }
            }
        }
        for r in commit_queued(&mut self.peer, &self.room, game, queued) {
            match r {
                Ok(o) => self.absorb(o, &mut lines, &mut roll),
                Err(e) => {
                    self.notes.push(match e {
                        CommandError::AlreadyCommitted | CommandError::NotYourTurn => {
                            "Your choices came too late for that step (its window had closed); \
                             choose again for this one."
                                .into()
                        }
                        e => format!("Your choices were refused ({e}): choose again."),
                    });
                    // The screen thinks them sent: a sync tells it they are not.
                    self.economy_shown = None;
                }
            }
        }
        let committed = self
            .peer
            .orders_committed()
            .iter()
            .map(|k| self.name_of(k))
            .collect::<Vec<_>>();
        // Ourselves aside: the panel says what we have to do.
        let me = self.peer.key();
        let waiting = self
            .peer
            .waiting_on()
            .iter()
            .filter(|k| **k != me)
            .map(|k| self.name_of(k))
            .collect::<Vec<_>>();
        let len = self.peer.log_len();
        // Ours is in when we hold it, or when the others hold our commitment (handed back by
        // their resync after a reload, before our stored batch is committed again).
        let sent =
            self.peer.has_my_orders(len as u32) || self.peer.orders_committed().contains(&me);
        let events = std::mem::take(&mut self.economy_events);
        // The protocol's own window, from its clock to the page's.
        let deadline = self
            .peer
            .economy_deadline()
            .map(|d| super::session::now_ms() as i64 + d.saturating_sub(self.t()) as i64);
        let mine = self.peer.economy_seats();
        if self.notes.len() > 20 {
            self.notes.drain(..self.notes.len() - 20);
        }
        // Without copying the state: the view below is built only when something changed.
        let read = self.peer.cards_read();
        let dealing = if self.peer.economy_dealing() {
            Some(crate::economy::online::Dealing::Ours)
        } else if self.peer.economy_computers_dealing() {
            Some(crate::economy::online::Dealing::Computers)
        } else {
            None
        };
        // A card's shares come within a round trip of its draw: the line says the cards wait on
        // someone only once they have waited a moment, so it does not flash at every card.
        let now = self.t();
        let dealing = match dealing {
            None => {
                self.dealing_since = None;
                None
            }
            Some(d) => {
                let since = *self.dealing_since.get_or_insert(now);
                (now >= since.saturating_add(DEALING_SHOWN_AFTER_MS)).then_some(d)
            }
        };
        let key = (
            (len, read, dealing),
            sent,
            committed.clone(),
            waiting.clone(),
            deadline,
            mine.clone(),
        );
        if events.is_empty() && self.economy_shown.as_ref() == Some(&key) {
            return;
        }
        self.economy_shown = Some(key);
        // Our own view: the face-down cards we read turned face up.
        let Some(g) = self.peer.economy_view() else {
            return;
        };
        self.economy_sync = Some(EconomySync {
            game: g,
            mine,
            events,
            committed,
            waiting,
            sent,
            deadline,
            dealing,
            hash: self
                .peer
                .state_hash()
                .map(|h| h.iter().map(|b| format!("{b:02x}")).collect())
                .unwrap_or_default(),
        });
        self.rev += 1;
    }
}
