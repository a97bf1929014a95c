//! Influence cards dealt face down: an online game whose influence cards the participants deal
//! among themselves (`crates/deal`), so that nobody reads a card but its holder. The design is the
//! classic ruleset's (`classic/sealed.rs`); this module holds the data, `facedown` its rules.
//!
//! In such a game the state holds [`Slot`]s — positions of the decks as dealt — for every
//! influence card nobody has shown, never the card behind one: every peer holds the same state,
//! and it is the same whoever reads it. A holder shows a card with `EconomyAction::ShowCard`; the
//! protocol lets that action into the log only with the proof that the card is the one at that
//! position, so the engine takes its word. A shown card joins the holder's known `cards`, where
//! trades and revolutions use it as always.
//!
//! Decks: deck `k` of [`SealedInfluence::decks`] is `Slot::deck == k`. Deck 0 is every country's
//! card, in ascending order as laid out before the shuffle; each later deck is the discards of the
//! moment they were reshuffled (everyone knows them: each was shown to be traded or spent).
//!
//! Invariant (checked on load): every influence card is in exactly one place — the discards, a
//! known hand, behind one slot held by a player or gone with a surrendered one, or at a position
//! of the last deck not yet drawn — and no slot is held twice.

use super::map::RegionId;
use crate::rules::classic::Slot;
use serde::{Deserialize, Serialize};

/// The face-down deal of a game's influence cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealedInfluence {
    /// The cards of each deck, in the order they were laid out before the shuffles: the first is
    /// every country's card in ascending order, each later one the discards (sorted) at the
    /// moment they were reshuffled.
    pub decks: Vec<Vec<RegionId>>,
    /// Positions of the last deck drawn so far.
    pub drawn: u16,
    /// Slots shown so far, with their card (a slot is shown once).
    pub shown: Vec<(Slot, RegionId)>,
    /// Slots that left the game unseen: the face-down cards of a player who surrendered. Nobody
    /// may read them, and nobody is left to show them.
    pub gone: Vec<Slot>,
}

impl SealedInfluence {
    /// The cards of deck `deck` as laid out.
    pub fn deck(&self, deck: u8) -> Option<&[RegionId]> {
        self.decks.get(usize::from(deck)).map(Vec::as_slice)
    }

    /// Cards of the last deck not drawn yet.
    pub fn left(&self) -> usize {
        self.decks
            .last()
            .map_or(0, |d| d.len().saturating_sub(usize::from(self.drawn)))
    }

    /// Whether `slot` is a position dealt so far: every position of an earlier deck (a deck is
    /// reshuffled in only once the last is used up), or one drawn of the last.
    pub fn dealt(&self, slot: Slot) -> bool {
        let k = usize::from(slot.deck);
        let Some(d) = self.decks.get(k) else {
            return false;
        };
        let end = if k + 1 == self.decks.len() {
            usize::from(self.drawn).min(d.len())
        } else {
            d.len()
        };
        usize::from(slot.position) < end
    }

    /// The card a slot was shown to be, if it was.
    pub fn shown(&self, slot: Slot) -> Option<RegionId> {
        self.shown.iter().find(|(s, _)| *s == slot).map(|x| x.1)
    }
}
