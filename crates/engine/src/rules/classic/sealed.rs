//! Face-down cards: an online game whose cards and missions the participants deal among
//! themselves (`crates/deal`), so that nobody reads a card but its holder.
//!
//! In such a game the state holds [`Slot`]s — positions of the decks as dealt — for every card
//! and mission nobody has shown, never the card behind one: every peer holds the same state, and
//! it is the same whoever reads it. A holder shows a card with [`Action::Show`]; the protocol
//! lets that action into the log only with the proof that the card is the one at that position,
//! so the engine takes its word. A shown card joins the known hand, where trades use it as
//! always; a shown mission becomes the holder's mission, and wins at once if it is done.
//!
//! Decks: [`TERRITORY_DECK`] (the 42 territory cards and the wilds, as dealt), [`MISSION_DECK`]
//! (the mission cards of [`mission_cards`], seat `i` holding position `i`), then one more deck per
//! reshuffle of the discards, whose cards everyone knows (each was shown to be traded).
//!
//! Invariant (checked on load): every card is in exactly one place — the discards, a known
//! hand, or behind one slot of a territory deck not yet shown — and no slot is held twice.

use super::*;

/// The territory deck as first dealt.
pub const TERRITORY_DECK: u8 = 0;
/// The mission deck.
pub const MISSION_DECK: u8 = 1;

/// A position of a dealt deck.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    bincode::Decode,
)]
pub struct Slot {
    pub deck: u8,
    pub position: u16,
}

/// The face-down deal of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, bincode::Decode)]
pub struct SealedDeal {
    /// The cards of each territory deck, in the order they were laid out before the shuffles:
    /// the first is every card, each later one the discards of the moment it was shuffled.
    /// Deck `k` of this list is deck number [`SealedDeal::deck_number`]`(k)` of the deal.
    pub decks: Vec<Vec<CardId>>,
    /// Positions of the last deck drawn so far.
    pub drawn: u16,
    /// The mission cards as laid out before the shuffles (empty without missions).
    pub missions: Vec<Mission>,
    /// Slots shown so far, with their card (a slot is shown once).
    pub shown: Vec<(Slot, CardId)>,
}

impl SealedDeal {
    /// The deal's number for the `k`-th territory deck (missions take number 1).
    pub fn deck_number(k: usize) -> u8 {
        if k == 0 {
            TERRITORY_DECK
        } else {
            (k + 1) as u8
        }
    }

    /// The cards of territory deck number `deck` as laid out.
    pub fn territory_deck(&self, deck: u8) -> Option<&[CardId]> {
        let k = match deck {
            TERRITORY_DECK => 0,
            MISSION_DECK => return None,
            d => d as usize - 1,
        };
        self.decks.get(k).map(|d| d.as_slice())
    }
}

impl ClassicState {
    /// As [`ClassicState::new_on`], with cards and missions dealt face down: hands hold slots,
    /// and seat `i` holds mission slot `i` (when missions are on). The territories, armies and
    /// first player are those `new_on` deals from the same seed.
    pub fn new_sealed(
        map_id: &str,
        seats: Vec<SeatConfig>,
        options: ClassicOptions,
        seed: [u8; 32],
    ) -> Result<Self, SetupError> {
        let mut s = Self::new_on(map_id, seats, options, seed)?;
        let map = s.map();
        let colours: Vec<Colour> = s.players.iter().map(|p| p.colour).collect();
        let missions = if s.options.missions {
            mission_cards(map, s.options.mission_deck, &colours)
        } else {
            vec![]
        };
        let mut all = std::mem::take(&mut s.deck);
        crate::short_sort::sort(&mut all);
        for (i, p) in s.players.iter_mut().enumerate() {
            p.mission = None;
            p.mission_since = None;
            if !missions.is_empty() {
                p.sealed_mission = Some(Slot {
                    deck: MISSION_DECK,
                    position: i as u16,
                });
            }
        }
        s.sealed = Some(SealedDeal {
            decks: vec![all],
            drawn: 0,
            missions,
            shown: vec![],
        });
        Ok(s)
    }

    /// Cards `p` holds, shown or not.
    pub fn cards_held(&self, p: PlayerId) -> usize {
        self.players
            .get(p as usize)
            .map_or(0, |pl| pl.hand.len() + pl.sealed.len())
    }

    /// The card a slot was shown to be, if it was.
    pub fn shown(&self, slot: Slot) -> Option<CardId> {
        let d = self.sealed.as_ref()?;
        d.shown.iter().find(|(s, _)| *s == slot).map(|x| x.1)
    }

    /// A conquest's card in a face-down game: the next position of the deck, after shuffling
    /// the discards into a new deck when it has run out. `None` when no card is left anywhere.
    pub(super) fn draw_sealed(&mut self, ev: &mut Vec<Event>) -> Option<Slot> {
        let d = self.sealed.as_mut()?;
        let last = d.decks.len() - 1;
        if usize::from(d.drawn) >= d.decks[last].len() {
            if self.discard.is_empty() {
                return None;
            }
            let mut cards = std::mem::take(&mut self.discard);
            crate::short_sort::sort(&mut cards);
            d.decks.push(cards.clone());
            d.drawn = 0;
            ev.push(Event::Reshuffled {
                deck: SealedDeal::deck_number(d.decks.len() - 1),
                cards,
            });
        }
        let slot = Slot {
            deck: SealedDeal::deck_number(d.decks.len() - 1),
            position: d.drawn,
        };
        d.drawn += 1;
        Some(slot)
    }

    /// [`Action::Show`]: the current player shows the card behind one of its slots.
    pub(super) fn show(
        &mut self,
        slot: Slot,
        card: CardId,
        ev: &mut Vec<Event>,
    ) -> Result<(), ClassicError> {
        let Some(d) = &self.sealed else {
            return Err(ClassicError::NothingFaceDown);
        };
        let me = self.current;
        let pl = &self.players[me as usize];
        if slot.deck == MISSION_DECK {
            if pl.sealed_mission != Some(slot) {
                return Err(ClassicError::NotYourSlot);
            }
            let Some(&dealt) = d.missions.get(card as usize) else {
                return Err(ClassicError::UnknownCard(card));
            };
            let m = self.as_dealt_to(me, dealt);
            self.reveal(slot, card);
            let pl = &mut self.players[me as usize];
            pl.sealed_mission = None;
            pl.mission = Some(m);
            ev.push(Event::MissionShown {
                player: me,
                mission: m,
            });
            // Claimed: done now wins now; with the full-round rule, the round starts now.
            if self.mission_done(me, m) {
                let immediate =
                    !self.options.hold_mission_full_round || matches!(m, Mission::Destroy(_));
                if immediate {
                    self.win(me, WinReason::Mission(m), ev);
                } else {
                    self.players[me as usize].mission_since = Some(self.turn);
                }
            }
            return Ok(());
        }
        let Some(i) = pl.sealed.iter().position(|s| *s == slot) else {
            return Err(ClassicError::NotYourSlot);
        };
        if !d
            .territory_deck(slot.deck)
            .is_some_and(|c| c.contains(&card))
        {
            return Err(ClassicError::UnknownCard(card));
        }
        if self.discard.contains(&card) || self.players.iter().any(|p| p.hand.contains(&card)) {
            return Err(ClassicError::DuplicateCard(card));
        }
        self.reveal(slot, card);
        let pl = &mut self.players[me as usize];
        pl.sealed.remove(i);
        pl.hand.push(card);
        ev.push(Event::CardShown {
            player: me,
            slot,
            card,
        });
        Ok(())
    }

    /// A private view: `p`'s face-down card at `slot` turned face up (the mission, for a
    /// mission slot) in this copy only, as its holder sees it. Nothing is recorded as shown.
    pub fn peek(&mut self, p: PlayerId, slot: Slot, card: CardId) {
        let Some(d) = &self.sealed else { return };
        let Some(pl) = self.players.get(p as usize) else {
            return;
        };
        if slot.deck == MISSION_DECK {
            if pl.sealed_mission == Some(slot) {
                if let Some(m) = d.missions.get(card as usize).copied() {
                    let m = self.as_dealt_to(p, m);
                    let pl = &mut self.players[p as usize];
                    pl.sealed_mission = None;
                    pl.mission = Some(m);
                }
            }
        } else if let Some(i) = pl.sealed.iter().position(|s| *s == slot) {
            let pl = &mut self.players[p as usize];
            pl.sealed.remove(i);
            pl.hand.push(card);
        }
    }

    /// Whether `p`'s mission, as far as this state knows it, is done now.
    pub fn mission_complete(&self, p: PlayerId) -> bool {
        self.players
            .get(p as usize)
            .and_then(|pl| pl.mission)
            .is_some_and(|m| self.mission_done(p, m))
    }

    /// A mission card as it counts for `p`: destroying one's own colour, or a colour not at
    /// the table, is 24 territories instead.
    pub(super) fn as_dealt_to(&self, p: PlayerId, m: Mission) -> Mission {
        if let Mission::Destroy(c) = m {
            let present = self.players.iter().any(|q| q.colour == c);
            if c == self.players[p as usize].colour || !present {
                return Mission::Territories(24);
            }
        }
        m
    }

    fn reveal(&mut self, slot: Slot, card: CardId) {
        if let Some(d) = &mut self.sealed {
            d.shown.push((slot, card));
        }
    }

    /// Checks a face-down deal read from a save (see the module's invariant).
    pub(super) fn check_sealed(&self, total: usize) -> Result<(), String> {
        let Some(d) = &self.sealed else {
            if self
                .players
                .iter()
                .any(|p| !p.sealed.is_empty() || p.sealed_mission.is_some())
            {
                return Err("face-down cards in a game dealt face up".into());
            }
            return Ok(());
        };
        if d.decks.is_empty() || d.decks.len() > 200 {
            return Err("no territory deck".into());
        }
        let last = d.decks.last().map_or(0, |x| x.len());
        if usize::from(d.drawn) > last {
            return Err("more cards drawn than the deck holds".into());
        }
        if !self.deck.is_empty() {
            return Err("a face-up deck in a game dealt face down".into());
        }
        let mut slots: Vec<Slot> = self
            .players
            .iter()
            .flat_map(|p| p.sealed.iter().copied().chain(p.sealed_mission))
            .collect();
        slots.extend(d.shown.iter().map(|x| x.0));
        let n = slots.len();
        crate::short_sort::sort(&mut slots);
        slots.dedup();
        if slots.len() != n {
            return Err("a card position is held twice".into());
        }
        for s in &slots {
            let ok = match s.deck {
                MISSION_DECK => usize::from(s.position) < d.missions.len(),
                k => d
                    .territory_deck(k)
                    .is_some_and(|c| usize::from(s.position) < c.len()),
            };
            if !ok {
                return Err(format!("no card position {}:{}", s.deck, s.position));
            }
        }
        if d.decks.iter().flatten().any(|&c| c as usize >= total) {
            return Err("a deck holds an unknown card".into());
        }
        Ok(())
    }
}
