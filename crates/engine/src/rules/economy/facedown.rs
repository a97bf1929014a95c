//! The rules of influence cards dealt face down (the data, and its invariant, are in
//! [`super::sealed`]): the deal, drawing the next position of the last deck (after laying out
//! the discards as a new deck), showing a card, a holder's private view, and the check on load.
//! Stealing, capital capture and surrender move slots as they move cards (`combat`, `get`,
//! `diplomacy`).
//!
//! One difference from the face-up game (RULES.md): a surrendered player's face-down cards leave
//! the game unseen instead of going to the discards.

use super::action::EconomyEvent;
use super::error::EconomyError;
use super::map::{EconomyMap, RegionId};
use super::options::EconomyOptions;
use super::sealed::SealedInfluence;
use super::state::{EconomyState, Standing};
use crate::rules::classic::{PlayerId, Slot};

impl EconomyState {
    /// As [`EconomyState::new`], with the influence cards dealt face down: the same board,
    /// initiative and everything else from the same seed, but the deck is laid out in ascending
    /// order as deck 0 of [`SealedInfluence`] (the participants shuffle it), and `deck` is empty.
    /// Without influence cards nothing is dealt, and the game is an ordinary one.
    pub fn new_sealed(
        players: &[&str],
        options: EconomyOptions,
        seed: [u8; 32],
    ) -> Result<(EconomyState, Vec<EconomyEvent>), EconomyError> {
        let (mut s, events) = Self::new(players, options, seed)?;
        if s.options.influence_cards {
            let mut all = std::mem::take(&mut s.deck);
            crate::short_sort::sort(&mut all);
            s.sealed = Some(SealedInfluence {
                decks: vec![all],
                drawn: 0,
                shown: vec![],
                gone: vec![],
            });
        }
        Ok((s, events))
    }

    /// Influence cards `p` holds, known or face down.
    pub fn cards_held(&self, p: PlayerId) -> usize {
        self.players
            .get(p as usize)
            .map_or(0, |pl| pl.cards.len() + pl.sealed.len())
    }

    /// The card a slot was shown to be, if it was.
    pub fn shown(&self, slot: Slot) -> Option<RegionId> {
        self.sealed.as_ref()?.shown(slot)
    }

    /// The error for a card `p` does not hold face up: with face-down cards in hand, it may be
    /// one of them, and must be shown first.
    pub(super) fn card_missing(&self, p: PlayerId, card: RegionId) -> EconomyError {
        if self.players[p as usize].sealed.is_empty() {
            EconomyError::CardNotHeld(card)
        } else {
            EconomyError::CardNotShown(card)
        }
    }

    /// A card drawn in a game dealt face down: the next position of the last deck, after laying
    /// out the discards as a new deck when it has run out. `None` when no card is left to draw,
    /// or when the deck numbers (a byte) have all been used: after hundreds of reshuffles, which
    /// no game reaches, a player owed a card steals one instead.
    pub(super) fn draw_sealed(&mut self, events: &mut Vec<EconomyEvent>) -> Option<Slot> {
        let d = self.sealed.as_mut()?;
        if d.left() == 0 {
            if self.discard.is_empty() || d.decks.len() > usize::from(u8::MAX) {
                return None;
            }
            let mut cards = std::mem::take(&mut self.discard);
            crate::short_sort::sort(&mut cards);
            d.decks.push(cards.clone());
            d.drawn = 0;
            events.push(EconomyEvent::InfluenceReshuffled {
                deck: (d.decks.len() - 1) as u8,
                cards,
            });
        }
        let slot = Slot {
            deck: (d.decks.len() - 1) as u8,
            position: d.drawn,
        };
        d.drawn += 1;
        Some(slot)
    }

    /// `EconomyAction::ShowCard`: `p` shows the card behind one of its slots. It is no move:
    /// phases, turns and steps are untouched.
    pub(super) fn show_card(
        &mut self,
        p: PlayerId,
        slot: Slot,
        card: RegionId,
    ) -> Result<Vec<EconomyEvent>, EconomyError> {
        let Some(d) = &self.sealed else {
            return Err(EconomyError::NothingFaceDown);
        };
        let Some(i) = self.players[p as usize]
            .sealed
            .iter()
            .position(|s| *s == slot)
        else {
            return Err(EconomyError::NotYourSlot);
        };
        if !d.deck(slot.deck).is_some_and(|c| c.contains(&card)) {
            return Err(EconomyError::UnknownCard(card));
        }
        // Shown from an earlier deck, a card has gone round to the discards since (which is how
        // it came to be in this deck); shown from this deck or a later one, it is elsewhere.
        let shown_since = d
            .shown
            .iter()
            .any(|&(s, c)| c == card && s.deck >= slot.deck);
        let known =
            self.discard.contains(&card) || self.players.iter().any(|q| q.cards.contains(&card));
        if shown_since || known {
            return Err(EconomyError::DuplicateCard(card));
        }
        if let Some(d) = &mut self.sealed {
            d.shown.push((slot, card));
        }
        let me = &mut self.players[p as usize];
        me.sealed.remove(i);
        me.cards.push(card);
        Ok(vec![EconomyEvent::CardShown {
            player: p,
            slot,
            card,
        }])
    }

    /// A private view: `p`'s face-down card at `slot` turned face up in this copy only, as its
    /// holder sees it. Nothing is recorded as shown.
    pub fn peek(&mut self, p: PlayerId, slot: Slot, card: RegionId) {
        if self.sealed.is_none() {
            return;
        }
        let Some(pl) = self.players.get_mut(p as usize) else {
            return;
        };
        if let Some(i) = pl.sealed.iter().position(|s| *s == slot) {
            pl.sealed.remove(i);
            pl.cards.push(card);
        }
    }

    /// `p` surrendered: its face-down cards leave the game unseen. Nobody is left to show them,
    /// and a card in the discards must be known to be laid out in a reshuffled deck.
    pub(super) fn face_down_gone(&mut self, p: PlayerId) {
        let slots = std::mem::take(&mut self.players[p as usize].sealed);
        if let Some(d) = &mut self.sealed {
            d.gone.extend(slots);
        }
    }

    /// Checks the influence cards of a state read from a save (see [`super::sealed`]'s
    /// invariant). What no state can check — which card is behind a slot nobody showed — it
    /// leaves alone.
    pub(super) fn check_influence(&self, map: &EconomyMap) -> Result<(), String> {
        let countries = map.countries();
        let is_country = |c: RegionId| usize::from(c) < countries;
        let mut known: Vec<RegionId> = self.discard.clone();
        known.extend(self.players.iter().flat_map(|p| p.cards.iter().copied()));
        if let Some(&c) = known.iter().find(|&&c| !is_country(c)) {
            return Err(format!(
                "an influence card pictures region {c}, not a country"
            ));
        }
        let Some(d) = &self.sealed else {
            if self.players.iter().any(|p| !p.sealed.is_empty()) {
                return Err("face-down influence cards in a game dealt face up".into());
            }
            // Every influence card is in exactly one place: the deck, the discard pile or a hand.
            known.extend(self.deck.iter().copied());
            crate::short_sort::sort(&mut known);
            if !known.iter().copied().eq(0..countries as RegionId) {
                return Err("the influence cards do not add up to one per country".into());
            }
            return Ok(());
        };
        if !self.deck.is_empty() {
            return Err("a face-up influence deck in a game dealt face down".into());
        }
        if d.decks.is_empty() || d.decks.len() > usize::from(u8::MAX) + 1 {
            return Err("the face-down influence decks are missing or too many".into());
        }
        if !d.decks[0].iter().copied().eq(0..countries as RegionId) {
            return Err("the first influence deck is not one card per country".into());
        }
        for deck in &d.decks[1..] {
            let ascending = deck.windows(2).all(|w| w[0] < w[1]);
            if deck.is_empty() || !ascending || deck.iter().any(|&c| !is_country(c)) {
                return Err("a reshuffled influence deck is not a set of known cards".into());
            }
        }
        if usize::from(d.drawn) > d.decks.last().map_or(0, Vec::len) {
            return Err("more influence cards drawn than the deck holds".into());
        }
        let mut slots: Vec<Slot> = self
            .players
            .iter()
            .flat_map(|p| p.sealed.iter().copied())
            .chain(d.gone.iter().copied())
            .collect();
        let unread = slots.len();
        slots.extend(d.shown.iter().map(|x| x.0));
        let n = slots.len();
        crate::short_sort::sort(&mut slots);
        slots.dedup();
        if slots.len() != n {
            return Err("an influence card position is held twice".into());
        }
        if let Some(s) = slots.iter().find(|&&s| !d.dealt(s)) {
            return Err(format!(
                "no influence card was dealt at position {}:{}",
                s.deck, s.position
            ));
        }
        if let Some(&(s, _)) = d
            .shown
            .iter()
            .find(|&&(s, c)| !d.deck(s.deck).is_some_and(|k| k.contains(&c)))
        {
            return Err(format!(
                "the card shown at position {}:{} was not in that deck",
                s.deck, s.position
            ));
        }
        let all = known.len();
        crate::short_sort::sort(&mut known);
        known.dedup();
        if known.len() != all {
            return Err("an influence card is known to be in two places".into());
        }
        // Known cards, cards behind unread slots and cards still to draw: one per country.
        if all + unread + d.left() != countries {
            return Err("the influence cards do not add up to one per country".into());
        }
        // A surrendered player holds nothing; a player still in may hold anything.
        if self
            .players
            .iter()
            .any(|p| p.standing == Standing::Surrendered && !p.sealed.is_empty())
        {
            return Err("a player who surrendered still holds face-down cards".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
