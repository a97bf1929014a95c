//! How an economy game begins (source 004, "Setups"): the four ways of sharing out the board,
//! then the standard start where the setup calls for it, then the first round's Get phase.
//!
//! - European capitals: each player picks a country in Europe, which holds a capital, two army
//!   bases, fortifications, roads, 5 armies and 50 MU; nothing else is placed.
//! - A continent each, or the countries of the dealt risk cards, or a draft of countries in
//!   initiative order; then the standard start: each player chooses where their capital and two
//!   army bases stand and places 20 armies in their countries, with 50 MU.
//!
//! Picks go in seat order from the winner of a roll for initiative; in the draft, each round of
//! selection starts with whoever picked last. Countries nobody gets are empty, or hold one neutral
//! army each (an option).
//!
//! Invariants: a country is picked at most once; the first round begins exactly when every
//! player still to choose has chosen.

use super::action::{EconomyEvent, SetupAction};
use super::error::EconomyError;
use super::initiative::{self, Contender};
use super::map::{EconomyMap, RegionId, RegionKind};
use super::options::{EconomyOptions, Setup};
use super::phase::Phase;
use super::state::EconomyState;
use super::units::Force;
use crate::dice::{shuffle, SeededDice};
use crate::map::ContinentId;
use crate::rules::classic::PlayerId;

/// Players an economy game seats.
pub const PLAYERS: std::ops::RangeInclusive<usize> = 2..=6;
/// MU each player starts with.
pub const START_MU: u32 = 50;
/// Armies each player places in the standard start.
pub const START_ARMIES: u32 = 20;
/// Armies in a European capital.
pub const CAPITAL_ARMIES: u32 = 5;
/// Army bases each player places in the standard start (and finds in a European capital).
pub const START_BASES: usize = 2;

impl EconomyState {
    /// A new game for `players` with `options`, its randomness drawn from `seed`.
    pub fn new(
        players: &[&str],
        options: EconomyOptions,
        seed: [u8; 32],
    ) -> Result<(EconomyState, Vec<EconomyEvent>), EconomyError> {
        if !PLAYERS.contains(&players.len()) {
            return Err(EconomyError::PlayerCount(players.len() as u32));
        }
        let map = EconomyMap::get();
        let mut s = EconomyState::empty(map, players, options);
        s.rng = SeededDice::new(seed);
        let mut dice = s.rng.clone();
        for p in &mut s.players {
            p.mu = START_MU;
        }
        if s.options.influence_cards {
            shuffle(&mut dice, &mut s.deck);
        }
        let all: Vec<Contender> = (0..players.len() as PlayerId)
            .map(|player| Contender {
                player,
                has_capital: false,
            })
            .collect();
        let roll = initiative::roll(&all, None, &mut dice).expect("two players or more");
        let first = roll.holder;
        s.initiative = Some(first);
        let n = players.len() as PlayerId;
        s.pick_queue = (0..n).map(|i| (first + i) % n).collect();
        let mut events = vec![EconomyEvent::InitiativeRolled {
            rolls: roll.rolls,
            holder: first,
        }];
        match s.options.setup {
            Setup::Cards => {
                let mut cards: Vec<RegionId> = (0..map.countries() as RegionId).collect();
                shuffle(&mut dice, &mut cards);
                let each = cards.len() / players.len();
                for (i, &c) in cards.iter().take(each * players.len()).enumerate() {
                    s.regions[c as usize].owner = Some(s.pick_queue[i % players.len()]);
                }
                s.pick_queue.clear();
                events.extend(s.end_picks(map));
            }
            Setup::EuropeanCapitals | Setup::Continents if s.options.random_picks => {
                let mut choices = s.choices(map);
                shuffle(&mut dice, &mut choices);
                for (i, p) in s.pick_queue.clone().into_iter().enumerate() {
                    events.extend(s.take(map, p, choices[i])?);
                }
                s.pick_queue.clear();
                events.extend(s.end_picks(map));
            }
            _ => s.phase = Phase::Pick(s.pick_queue.remove(0)),
        }
        s.rng = dice;
        Ok((s, events))
    }

    /// What is left to pick: European countries, continents or any country (the draft), as
    /// region ids or continent ids.
    pub fn choices(&self, map: &EconomyMap) -> Vec<u32> {
        let free = |&c: &RegionId| self.regions[c as usize].owner.is_none();
        match self.options.setup {
            Setup::EuropeanCapitals => {
                let europe = map
                    .base
                    .continents
                    .iter()
                    .find(|c| c.key == "europe")
                    .map_or(&[][..], |c| &c.territories[..]);
                europe
                    .iter()
                    .copied()
                    .filter(free)
                    .filter(|&c| {
                        self.options.iceland_capital || map.regions[c as usize].key != "iceland"
                    })
                    .map(u32::from)
                    .collect()
            }
            Setup::Continents => (0..map.base.continents.len() as u32)
                .filter(|&c| map.base.continents[c as usize].territories.iter().all(free))
                .collect(),
            Setup::Draft => (0..map.countries() as RegionId)
                .filter(free)
                .map(u32::from)
                .collect(),
            Setup::Cards => vec![],
        }
    }

    /// Gives `p` the pick `choice` (checked to be open).
    fn take(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        choice: u32,
    ) -> Result<Vec<EconomyEvent>, EconomyError> {
        if !self.choices(map).contains(&choice) {
            return Err(match self.options.setup {
                Setup::Continents => EconomyError::ContinentNotOpen(choice as ContinentId),
                _ => EconomyError::CountryNotOpen(choice as RegionId),
            });
        }
        let mut events = vec![];
        match self.options.setup {
            Setup::Continents => {
                for &t in &map.base.continents[choice as usize].territories {
                    self.regions[t as usize].owner = Some(p);
                }
                events.push(EconomyEvent::ContinentPicked {
                    player: p,
                    continent: choice as ContinentId,
                });
            }
            Setup::EuropeanCapitals => {
                let c = choice as RegionId;
                let o = self.options.clone();
                let x = &mut self.regions[c as usize];
                x.owner = Some(p);
                x.forces.insert(
                    p,
                    Force {
                        armies: CAPITAL_ARMIES,
                        navies: 0,
                    },
                );
                x.infra.roads = o.roads;
                x.infra.fortifications = o.fortifications;
                if o.bases {
                    x.infra.army_bases = START_BASES as u8;
                }
                if o.capitals {
                    self.players[p as usize].capital = Some(c);
                }
                events.push(EconomyEvent::CountryPicked {
                    player: p,
                    country: c,
                });
            }
            _ => {
                self.regions[choice as usize].owner = Some(p);
                events.push(EconomyEvent::CountryPicked {
                    player: p,
                    country: choice as RegionId,
                });
            }
        }
        Ok(events)
    }

    /// The picks are over: neutral armies where nobody is, then the standard start or, for
    /// European capitals, the first round.
    fn end_picks(&mut self, map: &EconomyMap) -> Vec<EconomyEvent> {
        if self.options.neutrals {
            for c in 0..map.countries() {
                if self.regions[c].owner.is_none() {
                    self.regions[c].neutral = Force {
                        armies: 1,
                        navies: 0,
                    };
                }
            }
        }
        if self.options.setup == Setup::EuropeanCapitals {
            return self.begin_round(map);
        }
        self.phase = Phase::Place;
        vec![EconomyEvent::PlacingBegan]
    }

    pub(super) fn setup_action(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        a: &SetupAction,
    ) -> Result<Vec<EconomyEvent>, EconomyError> {
        match (self.phase, a) {
            (Phase::Pick(turn), SetupAction::Country(_) | SetupAction::Continent(_)) => {
                if turn != p {
                    return Err(EconomyError::NotYourPick(turn));
                }
                let choice = match (self.options.setup, a) {
                    (Setup::Continents, SetupAction::Continent(c)) => u32::from(*c),
                    (Setup::EuropeanCapitals | Setup::Draft, SetupAction::Country(c)) => {
                        u32::from(*c)
                    }
                    _ => return Err(EconomyError::WrongPick),
                };
                let mut events = self.take(map, p, choice)?;
                // The draft: "Repeat until there are no countries remaining. If there is a
                // remainder, those countries are unoccupied": a new round of selection starts
                // only while every player can still get a country in it.
                let n = self.players.len();
                let draft_over = self.options.setup == Setup::Draft
                    && self.pick_queue.is_empty()
                    && self.choices(map).len() < n;
                if self.choices(map).is_empty()
                    || draft_over
                    || (self.pick_queue.is_empty() && self.options.setup != Setup::Draft)
                {
                    self.pick_queue.clear();
                    events.extend(self.end_picks(map));
                    return Ok(events);
                }
                if self.pick_queue.is_empty() {
                    // A new round of the draft: whoever picked last picks first, then clockwise.
                    let n = self.players.len() as PlayerId;
                    self.pick_queue = (0..n).map(|i| (p + i) % n).collect();
                }
                self.phase = Phase::Pick(self.pick_queue.remove(0));
                Ok(events)
            }
            (
                Phase::Place,
                SetupAction::Place {
                    capital,
                    bases,
                    armies,
                },
            ) => self.place_start(map, p, *capital, bases, armies),
            (phase, _) => Err(EconomyError::WrongPhase(phase)),
        }
    }

    fn place_start(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        capital: Option<RegionId>,
        bases: &[RegionId],
        armies: &[(RegionId, u32)],
    ) -> Result<Vec<EconomyEvent>, EconomyError> {
        if self.placed.contains(&p) {
            return Err(EconomyError::AlreadyDone);
        }
        let mine = |r: RegionId| -> Result<(), EconomyError> {
            match map.regions.get(r as usize).map(|x| x.kind) {
                None => Err(EconomyError::UnknownRegion(r)),
                Some(RegionKind::Water { .. }) => Err(EconomyError::NotACountry(r)),
                Some(_) if self.regions[r as usize].owner != Some(p) => {
                    Err(EconomyError::NotYours(r))
                }
                Some(_) => Ok(()),
            }
        };
        match (self.options.capitals, capital) {
            (true, None) => return Err(EconomyError::ChooseCapital),
            (true, Some(c)) => mine(c)?,
            (false, _) => {}
        }
        let want = if self.options.bases { START_BASES } else { 0 };
        if bases.len() != want {
            return Err(EconomyError::ChooseBases(want as u32));
        }
        for &b in bases {
            mine(b)?;
        }
        let mut total = 0u32;
        for (i, &(r, n)) in armies.iter().enumerate() {
            mine(r)?;
            if n == 0 {
                return Err(EconomyError::ZeroUnits);
            }
            if armies[..i].iter().any(|x| x.0 == r) {
                return Err(EconomyError::Repeated(r));
            }
            total = total.saturating_add(n);
        }
        if total != START_ARMIES {
            return Err(EconomyError::PlaceArmies {
                placed: total,
                want: START_ARMIES,
            });
        }
        if self.options.capitals {
            self.players[p as usize].capital = capital;
        }
        for &b in bases {
            self.regions[b as usize].infra.army_bases += 1;
        }
        for &(r, n) in armies {
            self.add_units(
                p,
                r,
                Force {
                    armies: n,
                    navies: 0,
                },
            );
        }
        self.placed.push(p);
        let mut events = vec![EconomyEvent::Placed { player: p }];
        if self.placed.len() == self.players.len() {
            events.extend(self.begin_round(map));
        }
        Ok(events)
    }
}

#[cfg(test)]
mod tests;
