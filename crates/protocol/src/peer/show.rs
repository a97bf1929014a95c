//! A face-down classic hand as its holder sees and uses it: reading a card, the private view,
//! the `Show` entries a trade needs first, the reveal before a `Show`, and claiming a mission
//! once it is done.
//!
//! Owns nothing of its own: reads `Run::deal` (kept by `deal`). Invariant: a card is shown
//! (revealed to everyone, then named in a `Show` entry) only by its holder, and only when every
//! share of it is in hand, so the reveal checks out on every peer.

use super::*;
use orbis_deal::table::Out;
use orbis_engine::classic::{CardId, Slot};

impl Peer {
    /// The card behind `slot`, if this peer can read it (its own draws, and shown cards).
    pub fn read(&self, slot: Slot) -> Option<CardId> {
        self.run.as_ref()?.deal.as_ref()?.card(slot)
    }

    /// Our seat's private view: the game state with the face-down cards we can read turned
    /// face up (and our mission). `None` before the game starts or in an orders game.
    pub fn view(&self) -> Option<ClassicState> {
        let r = self.run.as_ref()?;
        let Game::Classic(s) = &r.state else {
            return None;
        };
        let mut v = s.clone();
        for (seat, slot, card) in r.readable() {
            v.peek(seat, slot, card);
        }
        Some(v)
    }

    /// The face-down cards a trade of `cards` must show first: the slots of ours behind the
    /// cards that are not face up in our hand yet.
    pub(super) fn shows_for(&self, action: &Action) -> Result<Vec<Action>, CommandError> {
        let Action::Trade { cards } = action else {
            return Ok(vec![]);
        };
        let Some(r) = &self.run else {
            return Ok(vec![]);
        };
        let (Game::Classic(s), Some(d)) = (&r.state, &r.deal) else {
            return Ok(vec![]);
        };
        let p = &s.players[s.current as usize];
        let mut shows = vec![];
        for &c in cards {
            if p.hand.contains(&c) {
                continue;
            }
            let slot = p
                .sealed
                .iter()
                .find(|slot| d.card(**slot) == Some(c))
                .ok_or_else(|| CommandError::Illegal(format!("card {c} is not in your hand")))?;
            if !d.table.can_reveal(slot.deck, slot.position) {
                return Err(CommandError::Illegal(
                    "that card is still being dealt to you: try again in a moment".into(),
                ));
            }
            shows.push(Action::Show {
                slot: *slot,
                card: c,
            });
        }
        Ok(shows)
    }

    /// Reveals the card behind `slot` to everyone (before the `Show` entry that names it).
    pub(super) fn reveal_slot(&mut self, slot: Slot, out: &mut Output) {
        let Some(r) = &mut self.run else { return };
        let Some(d) = &mut r.deal else { return };
        if let Some(m) = d.table.reveal(slot.deck, slot.position) {
            d.outbox.push(Out::Broadcast(m));
        }
        self.deal_flush(out);
    }

    /// On our turn, shows our mission as soon as it is done: it wins (or, held for a full
    /// round, starts the round).
    pub(super) fn claim_mission(&mut self, out: &mut Output) {
        if !self.is_my_turn() {
            return;
        }
        let Some(r) = &self.run else { return };
        let (Game::Classic(s), Some(d)) = (&r.state, &r.deal) else {
            return;
        };
        let seat = s.current;
        let Some(slot) = s.players[seat as usize].sealed_mission else {
            return;
        };
        let Some(card) = d.card(slot) else { return };
        if !d.table.can_reveal(slot.deck, slot.position) {
            return;
        }
        let mut v = s.clone();
        v.peek(seat, slot, card);
        if !v.mission_complete(seat) {
            return;
        }
        self.reveal_slot(slot, out);
        if let Ok(o) = self.act_now(Action::Show { slot, card }) {
            out.merge(o);
        }
    }
}
