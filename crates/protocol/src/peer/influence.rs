//! The face-down influence cards of an economy game (`SetupProposal::face_down` with the
//! economy ruleset): what the deal (`deal`) does for them, and how one is shown.
//!
//! Owns no state of its own: it feeds `Run::deal` from the economy's events and judges the
//! reveals an economy payload carries. How the game and the deal meet:
//! - the engine's state holds slots, never cards (`EconomyState::new_sealed`); each `SlotDrawn`,
//!   `SlotStolen` and `SlotsTaken` event is a draw of the table for the seat's participant (for
//!   everyone when a computer plays the seat), each `InfluenceReshuffled` a new deck of the
//!   discards (cards everyone saw played);
//! - a card is shown by a `ShowCard` action in its holder's payload, and the same payload
//!   carries that card's reveal (every participant's share, each with its proof). Every peer
//!   judges the reveals against the deal before the position is applied, so whether a show
//!   stands depends on the payload alone, never on when a broadcast arrived;
//! - a computer seat's cards are drawn face up; a payload whose sender can read one carries its
//!   reveal too, and every peer then plays that seat's `ShowCard` first in the position;
//! - this participant's page trades and incites with face-down cards by naming the card: the
//!   payload shows it first ([`Peer::economy_payload`]).
//!
//! Invariant: a payload whose reveal does not check out, that reveals a slot nobody may show
//! there, or that shows a card other than the one its reveal opens, is void and its sender
//! named ("an influence card lied about": `influence_lie_is_void_and_named` in
//! `tests/economy_face_down.rs`); a reveal the deal cannot judge yet (a deck whose shuffles
//! have not all reached us) holds the position until it can, and every peer then judges it
//! alike; while it holds, the deal's withholder is what the game waits on, and may be voted out
//! (`Run::judging_reveals`, `Wait::Cards`).

use super::*;
use crate::wire::encode_economy_with;
use orbis_deal::table::{DealMsg, DeckSpec, Holder, Refused};
use orbis_engine::classic::Slot;
use orbis_engine::rules::economy::action::{EconomyAction, EconomyEvent};
use orbis_engine::rules::economy::map::RegionId;
use orbis_engine::rules::economy::sealed::SealedInfluence;
use orbis_engine::rules::economy::state::EconomyState;

/// Most reveals one payload may carry (a Get phase's trades and a few computer seats' cards are
/// far fewer); more makes the payload void.
pub const MAX_PAYLOAD_REVEALS: usize = 64;

/// The influence deck as first dealt: a card per country, in region order.
pub(super) fn influence_decks(s: &SealedInfluence) -> Vec<DeckSpec> {
    vec![DeckSpec::full(b"influence", s.decks[0].len() as u16)]
}

/// The position a reveal opens.
fn revealed(msg: &DealMsg) -> Option<Slot> {
    match msg {
        DealMsg::Reveal { deck, position, .. } => Some(Slot {
            deck: *deck,
            position: *position,
        }),
        _ => None,
    }
}

/// What every peer concluded from the reveals of a round's payloads.
#[derive(Clone, Default)]
pub(super) struct Judged {
    /// Participants whose payloads are void, with why.
    pub(super) void: BTreeMap<u8, String>,
    /// Computer seats' cards a payload revealed: (seat, slot, card), shown first.
    pub(super) computer_shows: Vec<(PlayerId, Slot, RegionId)>,
}

impl Run {
    /// The face-down cards `seat` holds, whichever the ruleset: a classic seat's cards then its
    /// mission, an economy seat's influence cards.
    pub(super) fn hidden(&self, seat: PlayerId) -> Vec<Slot> {
        match &self.state {
            Game::Classic(s) => s.players.get(seat as usize).map_or(vec![], |p| {
                p.sealed.iter().chain(&p.sealed_mission).copied().collect()
            }),
            Game::Economy(s) => s
                .players
                .get(seat as usize)
                .map_or(vec![], |p| p.sealed.clone()),
            Game::Orders(_) => vec![],
        }
    }

    /// The face-down cards of the seats we hold that we can read: (seat, slot, card). Both
    /// rulesets' private views turn these face up.
    pub(super) fn readable(&self) -> Vec<(PlayerId, Slot, u8)> {
        let (Some(d), Some(me)) = (&self.deal, self.me) else {
            return vec![];
        };
        (0..self.proposal.seats.len() as PlayerId)
            .filter(|&seat| self.holder(seat) == Holder::Seat(me))
            .flat_map(|seat| self.hidden(seat).into_iter().map(move |slot| (seat, slot)))
            .filter_map(|(seat, slot)| d.card(slot).map(|card| (seat, slot, card)))
            .collect()
    }

    /// Whether `seat` holds a classic mission face down (the last of [`Run::hidden`]).
    pub(super) fn mission_held(&self, seat: PlayerId) -> bool {
        matches!(&self.state, Game::Classic(s)
            if s.players.get(seat as usize).is_some_and(|p| p.sealed_mission.is_some()))
    }

    /// The deal's side of an economy position just played.
    pub(super) fn deal_economy_events(&mut self, events: &[EconomyEvent]) -> Result<(), String> {
        let Game::Economy(s) = &self.state else {
            return Ok(());
        };
        let ids = s.sealed.as_ref().map_or(0, |x| x.decks[0].len() as u16);
        let holders: Vec<Holder> = (0..s.players.len() as PlayerId)
            .map(|p| self.holder(p))
            .collect();
        let Some(d) = &mut self.deal else {
            return Ok(());
        };
        for e in events {
            match e {
                EconomyEvent::SlotDrawn { player, slot }
                | EconomyEvent::SlotStolen { player, slot, .. } => {
                    d.draw(*slot, holders[*player as usize]);
                }
                EconomyEvent::SlotsTaken { player, slots, .. } => {
                    for slot in slots {
                        d.draw(*slot, holders[*player as usize]);
                    }
                }
                EconomyEvent::InfluenceReshuffled { deck, cards } => {
                    let layout = cards.iter().map(|&c| u16::from(c)).collect();
                    d.reshuffled(*deck, b"influence", ids, layout)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Whether participant `p` holds influence cards the deal cannot deal yet: the deal still
    /// lacks someone else's key, escrow or shuffle (`DealRun::awaited`), and a seat `p` plays
    /// holds a face-down card (for us: one we cannot read; for another: any, since we never read
    /// theirs). Such a participant commits nothing until the deal is whole, so a withheld
    /// shuffle stops the game where a card is held and names its withholder, who may be voted
    /// out, instead of leaving every card face down for good with nobody named (review of the
    /// face-down influence cards). Our own table's view, like `waiting_on`.
    ///
    /// For us also when the deal is whole but a participant still in the game has not sent us
    /// its share of a card we hold (`Run::withheld`): we wait for it as for the deal (a share
    /// in flight comes within a round trip), and our `Sync` claims it withheld, so every page
    /// names the withholder and may vote it out (issue 29: before, a participant that kept back
    /// its share of one player's card left that player without the card for good, and nobody
    /// was named). Others cannot see a private share missing: they go by our claim
    /// ([`Peer::withheld_from`]), which the accused refutes by showing its share.
    pub(super) fn dealing_to(&self, p: u8) -> bool {
        let (Game::Economy(_), Some(d)) = (&self.state, &self.deal) else {
            return false;
        };
        let awaited = d.awaited(&self.excluded);
        if awaited.contains(&p) {
            return false;
        }
        let held = self.held_face_down(p);
        if self.me == Some(p) {
            held.iter().any(|&slot| d.card(slot).is_none())
                && (!awaited.is_empty() || !self.withheld().is_empty())
        } else {
            !awaited.is_empty() && !held.is_empty()
        }
    }

    /// Whether a computer seat holds face-down influence cards, as the state (the log) shows:
    /// the same on every peer, unlike what our table has taken of the deal.
    fn computers_hold_face_down(&self) -> bool {
        (0..self.proposal.seats.len() as PlayerId)
            .filter(|&s| matches!(self.controller(s), Some(Controller::Bot(_))))
            .any(|s| !self.hidden(s).is_empty())
    }

    /// Whether participant `p` commits nothing at this position until the deal is whole: its
    /// own cards cannot be dealt ([`Run::dealing_to`]), or a computer seat holds a card the deal
    /// cannot deal yet (it lacks someone else's key, escrow or shuffle). A computer's cards are
    /// drawn face up for everyone, which needs the whole deal as much as a player's own draw
    /// does; before, a withheld shuffle left them face down for good while the game played on,
    /// nobody named (issue 29). Now the game stops there and names the withholder, as for a
    /// player's own cards.
    pub(super) fn holds_back(&self, p: u8) -> bool {
        if self.dealing_to(p) {
            return true;
        }
        let (Game::Economy(_), Some(d)) = (&self.state, &self.deal) else {
            return false;
        };
        let awaited = d.awaited(&self.excluded);
        !awaited.is_empty() && !awaited.contains(&p) && self.computers_hold_face_down()
    }

    /// The face-down cards of the seats participant `p` plays now.
    fn held_face_down(&self, p: u8) -> Vec<Slot> {
        self.seats_of(p)
            .into_iter()
            .flat_map(|s| self.hidden(s))
            .collect()
    }

    /// Whether we are at an economy position still taking its batches: no roll pending, the
    /// game not over.
    fn economy_position_open(&self) -> bool {
        matches!(self.state, Game::Economy(_)) && self.pending.is_none() && !self.over()
    }

    /// Whether the economy position we are on waits on a participant that cannot play before
    /// the deal is whole ([`Run::dealing_to`]): then what it waits for is the deal's withholder.
    pub(super) fn dealing_blocks(&self) -> bool {
        if !self.economy_position_open() {
            return false;
        }
        let o = self.orders.get(&(self.next_index() as u32));
        self.economy_required()
            .into_iter()
            .filter(|p| !o.is_some_and(|o| o.commits.contains_key(p)))
            .any(|p| self.holds_back(p))
    }

    /// Whether the position we are on may wait on `target` for the deal, as the state shows
    /// it (the same on every peer): `target` has nothing to play here, and another participant
    /// who has holds face-down cards. Each voter still votes only for a target it sees withhold
    /// (`may_vote`), and a target that withholds nothing refuses it.
    pub(super) fn may_wait_on_deal(&self, target: u8) -> bool {
        if self.deal.is_none() {
            return false;
        }
        let required = self.economy_required();
        // From the state alone, never from our table's view of the deal: whether a vote
        // applies is written in the log head, so it must not depend on which deal messages
        // reached us (independent review of this rule: a withholder's late shuffle, taken by
        // one voter just before the vote completed, split the peers).
        !required.contains(&target)
            && (self.computers_hold_face_down()
                || required
                    .iter()
                    .any(|&q| q != target && !self.held_face_down(q).is_empty()))
    }

    /// Whether the economy position we are on has every payload revealed and one of them
    /// carries reveals of face-down cards: it applies as soon as they are judged, so if it
    /// stays here, a deck they are of was never finished (a participant withholds its shuffle
    /// or key). A function of the log and the round's reveals, the same on every peer there.
    pub(super) fn judging_reveals(&self) -> bool {
        if !self.economy_position_open() {
            return false;
        }
        let round = self.next_index() as u32;
        let Some(o) = self.orders.get(&round).filter(|o| o.done) else {
            return false;
        };
        self.economy_required().iter().any(|p| {
            o.reveals.get(p).is_some_and(|(bytes, _)| {
                crate::wire::decode_economy_with(bytes).is_ok_and(|(_, r)| !r.is_empty())
            })
        })
    }

    /// Judges the reveals of the round at `index` (the payloads of `required`), taking the
    /// ones that check out into our table. `None`: one cannot be judged yet (our table lacks a
    /// shuffle of its deck); the position waits.
    pub(super) fn judge_reveals(&mut self, index: u64, required: &[u8]) -> Option<Judged> {
        let mut judged = Judged::default();
        let round = index as u32;
        let Game::Economy(s) = &self.state else {
            return Some(judged);
        };
        let Some(o) = self.orders.get(&round) else {
            return Some(judged);
        };
        let mut payloads = vec![];
        for &p in required {
            let Some((bytes, _)) = o.reveals.get(&p) else {
                continue;
            };
            if let Ok((actions, reveals)) = crate::wire::decode_economy_with(bytes) {
                payloads.push((p, actions, reveals));
            }
        }
        // Who may reveal a slot here: its holder's participant, or anyone for a computer's.
        let computers: BTreeSet<PlayerId> = (0..s.players.len() as PlayerId)
            .filter(|&q| matches!(self.controller(q), Some(Controller::Bot(_))))
            .collect();
        let computer = |seat: PlayerId| computers.contains(&seat);
        let seats: BTreeMap<u8, Vec<PlayerId>> =
            required.iter().map(|&p| (p, self.seated(p))).collect();
        let holder_of = |slot: Slot| {
            (0..s.players.len() as PlayerId).find(|&q| s.players[q as usize].sealed.contains(&slot))
        };
        let Some(d) = &mut self.deal else {
            // Nothing is face down: a payload that reveals something is void.
            for (p, actions, reveals) in payloads {
                let shows = actions
                    .iter()
                    .any(|a| matches!(a, EconomyAction::ShowCard { .. }));
                if !reveals.is_empty() || shows {
                    judged
                        .void
                        .insert(p, "reveals a card in a game dealt face up".into());
                }
            }
            return Some(judged);
        };
        // Every reveal first: whether each can be judged now (else the position waits).
        for (p, actions, reveals) in &payloads {
            if reveals.len() > MAX_PAYLOAD_REVEALS {
                judged
                    .void
                    .insert(*p, format!("{} card reveals", reveals.len()));
                continue;
            }
            let mine = seats.get(p).cloned().unwrap_or_default();
            let mut opened: BTreeMap<Slot, RegionId> = BTreeMap::new();
            let mut why = None;
            for msg in reveals {
                let Some(slot) = revealed(msg) else {
                    why = Some("a deal message that is not a reveal".to_string());
                    break;
                };
                let ok = holder_of(slot).is_some_and(|q| computer(q) || mine.contains(&q));
                if !ok {
                    why = Some(format!(
                        "reveals card {}:{}, which it may not show",
                        slot.deck, slot.position
                    ));
                    break;
                }
                let from = d.seat_of(*p);
                // Our own payload: we made the reveal from the card we read.
                let ours = from.is_some() && from == Some(d.table.me()) && !d.table.is_observer();
                // The seat a lie is blamed on inside the table (the payload's sender is named
                // by the caller): any other seat when the sender is not at this deal's table.
                let me = d.table.me();
                let blame = from
                    .filter(|&f| f != me)
                    .unwrap_or_else(|| (me.wrapping_add(1)) % d.table.seats().max(1));
                match d.table.receive(blame, msg.clone()) {
                    _ if ours => {}
                    Ok(_) => {}
                    Err(Refused::OutOfTurn { .. } | Refused::Diverged { .. }) => return None,
                    Err(e) => {
                        why = Some(format!("a card reveal that does not check out: {e:?}"));
                        break;
                    }
                }
                match d
                    .table
                    .card(slot.deck, slot.position)
                    .map(RegionId::try_from)
                {
                    Some(Ok(c)) => {
                        opened.insert(slot, c);
                    }
                    Some(Err(_)) => {
                        why = Some("reveals a card no country pictures".to_string());
                        break;
                    }
                    None => return None,
                }
            }
            if why.is_none() {
                for a in actions {
                    if let EconomyAction::ShowCard { slot, card, .. } = a {
                        if opened.get(slot) != Some(card) {
                            why = Some(format!(
                                "shows card {}:{} as {card}, which its reveal does not open",
                                slot.deck, slot.position
                            ));
                            break;
                        }
                    }
                }
            }
            match why {
                Some(w) => {
                    judged.void.insert(*p, w);
                }
                None => {
                    for (slot, card) in opened {
                        if let Some(q) = holder_of(slot).filter(|&q| computer(q)) {
                            if !judged.computer_shows.iter().any(|x| x.1 == slot) {
                                judged.computer_shows.push((q, slot, card));
                            }
                        }
                    }
                }
            }
        }
        judged.computer_shows.sort();
        Some(judged)
    }
}

impl Peer {
    /// Economy game: our seats' private view, the face-down influence cards we can read turned
    /// face up. `None` outside an economy game.
    pub fn economy_view(&self) -> Option<EconomyState> {
        let r = self.run.as_ref()?;
        let Game::Economy(s) = &r.state else {
            return None;
        };
        let mut v = s.clone();
        for (seat, slot, card) in r.readable() {
            v.peek(seat, slot, card);
        }
        Some(v)
    }

    /// How many face-down cards of our seats we can read (a page redraws its private view when
    /// this grows, without building the view to find out).
    pub fn cards_read(&self) -> usize {
        self.run.as_ref().map_or(0, |r| r.readable().len())
    }

    /// Economy game: the payload that plays `actions` — with, in a game dealt face down, a
    /// `ShowCard` before each trade or revolution for every face-down card it uses, and the
    /// reveals of those cards and of the computer seats' cards we can read.
    pub fn economy_payload(&self, actions: Vec<EconomyAction>) -> Result<Vec<u8>, CommandError> {
        let (actions, reveals) = self.economy_shows(actions)?;
        Ok(encode_economy_with(&actions, &reveals))
    }

    /// [`Peer::economy_payload`]'s actions and reveals.
    pub(super) fn economy_shows(
        &self,
        actions: Vec<EconomyAction>,
    ) -> Result<(Vec<EconomyAction>, Vec<DealMsg>), CommandError> {
        let Some(r) = &self.run else {
            return Ok((actions, vec![]));
        };
        let (Game::Economy(s), Some(d)) = (&r.state, &r.deal) else {
            return Ok((actions, vec![]));
        };
        if s.sealed.is_none() {
            return Ok((actions, vec![]));
        }
        let mut out = vec![];
        let mut shown: BTreeSet<Slot> = BTreeSet::new();
        let mut reveals = vec![];
        let reveal = |slot: Slot, reveals: &mut Vec<DealMsg>| -> Result<(), CommandError> {
            let m = d.table.reveal(slot.deck, slot.position).ok_or_else(|| {
                CommandError::Illegal(
                    "that influence card is still being dealt to you: try again in a moment".into(),
                )
            })?;
            reveals.push(m);
            Ok(())
        };
        for a in actions {
            let (player, cards): (PlayerId, Vec<RegionId>) = match &a {
                EconomyAction::TradeCards { player, cards } => (*player, cards.to_vec()),
                EconomyAction::IncitRevolution {
                    player, country, ..
                } => (*player, vec![*country]),
                EconomyAction::ShowCard { slot, .. } => {
                    if shown.insert(*slot) {
                        reveal(*slot, &mut reveals)?;
                    }
                    out.push(a);
                    continue;
                }
                _ => (0, vec![]),
            };
            if let Some(pl) = s.players.get(player as usize) {
                for c in cards {
                    if pl.cards.contains(&c) {
                        continue;
                    }
                    let slot = pl
                        .sealed
                        .iter()
                        .find(|x| {
                            !shown.contains(x)
                                && d.table.card(x.deck, x.position) == Some(u16::from(c))
                        })
                        .copied()
                        .ok_or_else(|| {
                            CommandError::Illegal(format!(
                                "the influence card of region {c} is not in your hand"
                            ))
                        })?;
                    shown.insert(slot);
                    reveal(slot, &mut reveals)?;
                    out.push(EconomyAction::ShowCard {
                        player,
                        slot,
                        card: c,
                    });
                }
            }
            out.push(a);
        }
        // The computer seats' cards we can read (drawn face up for everyone) go along, so
        // that every peer can play them.
        for seat in 0..s.players.len() as PlayerId {
            if !matches!(r.controller(seat), Some(Controller::Bot(_))) {
                continue;
            }
            for slot in &s.players[seat as usize].sealed {
                if reveals.len() >= MAX_PAYLOAD_REVEALS / 2 {
                    break;
                }
                if let Some(m) = d.table.reveal(slot.deck, slot.position) {
                    reveals.push(m);
                }
            }
        }
        Ok((out, reveals))
    }
}
