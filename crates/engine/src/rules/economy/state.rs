//! What an economy game holds between actions: who owns each region, whose units stand there,
//! infrastructure, each player's money, capital and influence cards, alliances, the phase and
//! each player's progress through it. Plans and battles are added with their rules (issue 11).
//!
//! Invariants: one `RegionState` per region of the map, in map order; `forces` never holds an
//! empty `Force`; infrastructure stands only in countries; every influence card is in exactly one
//! of the deck, the discard pile or a hand (face down, see [`SealedInfluence`]: or behind one
//! slot of a dealt deck).

use super::battlefield::Combat;
use super::infra::Infrastructure;
use super::map::{EconomyMap, RegionId};
use super::options::EconomyOptions;
use super::phase::{GetTurn, Income, Phase, Upkeep};
use super::sealed::SealedInfluence;
use super::units::{Force, PlannedMove};
use crate::dice::SeededDice;
use crate::rules::classic::{PlayerId, Slot};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A region during a game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegionState {
    /// Who owns it: the player whose forces alone occupy it, or were the last to.
    pub owner: Option<PlayerId>,
    /// Each player's units here.
    pub forces: BTreeMap<PlayerId, Force>,
    /// Neutral units here (they only defend): armies left in empty countries by a setup, raised
    /// by revolutions, or of a player who surrendered, and that player's navies.
    pub neutral: Force,
    pub infra: Infrastructure,
    /// The round in which the owner gained it from a player who was not its ally: its units are
    /// exempt from upkeep that round.
    pub conquered_in: Option<u32>,
    /// Hostile units besiege the owner's defenders in fortifications: not linked to anything.
    /// Kept equal to "some siege here is against the owner" (see `sieges`).
    pub besieged: bool,
    /// Sieges standing here: (besieger, besieged). A siege lasts until its besieger declares
    /// another action or either side is gone.
    pub sieges: BTreeSet<(PlayerId, PlayerId)>,
    /// Who owned it until hostile forces took that away in combat; whoever gains it next round
    /// gains it from them (for the upkeep exemption).
    pub lost_by: Option<PlayerId>,
}

/// Whether a player still takes part.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Standing {
    #[default]
    Playing,
    /// Gave up: their units became neutral.
    Surrendered,
    /// Lost every unit and every territory.
    Eliminated,
}

/// A player during a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EconomyPlayer {
    pub name: String,
    pub mu: u32,
    pub capital: Option<RegionId>,
    /// Influence cards held: each pictures a country.
    pub cards: Vec<RegionId>,
    pub standing: Standing,
    /// Influence cards held face down (a game dealt face down): slots of the dealt decks that
    /// only this player can read. `cards` holds the known ones.
    pub sealed: Vec<Slot>,
}

/// A navy unit blockading a navy base: the base recruits nothing while it lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Blockade {
    pub by: PlayerId,
    /// The country whose navy base is blockaded.
    pub country: RegionId,
    /// The water territory the base recruits into, where the blockading navy stands.
    pub water: RegionId,
}

/// An economy game's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EconomyState {
    pub options: EconomyOptions,
    pub players: Vec<EconomyPlayer>,
    pub regions: Vec<RegionState>,
    /// Pairs of allied players, the lower id first.
    pub alliances: BTreeSet<(PlayerId, PlayerId)>,
    /// Alliances offered and not yet accepted: (from, to).
    pub alliance_offers: BTreeSet<(PlayerId, PlayerId)>,
    /// Rounds started so far.
    pub round: u32,
    pub phase: Phase,
    /// Each player's progress through the Get phase of this round (indexed by player).
    pub get: Vec<GetTurn>,
    /// Influence cards to draw, top last.
    pub deck: Vec<RegionId>,
    pub discard: Vec<RegionId>,
    pub blockades: BTreeSet<Blockade>,
    /// Who holds initiative, or held it last.
    pub initiative: Option<PlayerId>,
    /// Who picks after the current picker in this round of selection.
    pub pick_queue: Vec<PlayerId>,
    /// Players who have made their standard start.
    pub placed: Vec<PlayerId>,
    /// Each player's plans for this round, once submitted.
    pub plans: BTreeMap<PlayerId, Vec<PlannedMove>>,
    /// Units that arrived in a region by friendly movement this round: they move no more.
    pub moved: BTreeMap<(PlayerId, RegionId), Force>,
    /// Players done with friendly movement this round.
    pub moving_done: BTreeSet<PlayerId>,
    /// Who won, once the game is over (nobody when no player is left).
    pub winner: Option<PlayerId>,
    /// The combat phase under way.
    pub combat: Option<Combat>,
    /// Actions applied so far: seeds computer players' choices.
    pub steps: u32,
    /// The game's own random stream.
    pub rng: SeededDice,
    /// `Some`: the influence cards were dealt face down by the participants (`deck` is then
    /// empty; see [`SealedInfluence`]).
    pub sealed: Option<SealedInfluence>,
}

impl EconomyState {
    /// An empty board for `players` on `map`: nobody owns anything yet.
    pub fn empty(map: &EconomyMap, players: &[&str], options: EconomyOptions) -> EconomyState {
        EconomyState {
            options,
            players: players
                .iter()
                .map(|n| EconomyPlayer {
                    name: (*n).into(),
                    mu: 0,
                    capital: None,
                    cards: vec![],
                    standing: Standing::Playing,
                    sealed: vec![],
                })
                .collect(),
            regions: vec![RegionState::default(); map.regions.len()],
            alliances: BTreeSet::new(),
            alliance_offers: BTreeSet::new(),
            round: 0,
            phase: Phase::Get,
            get: vec![GetTurn::default(); players.len()],
            deck: (0..map.countries() as RegionId).rev().collect(),
            discard: vec![],
            blockades: BTreeSet::new(),
            initiative: None,
            pick_queue: vec![],
            placed: vec![],
            plans: BTreeMap::new(),
            moved: BTreeMap::new(),
            moving_done: BTreeSet::new(),
            winner: None,
            combat: None,
            steps: 0,
            rng: SeededDice::new([0; 32]),
            sealed: None,
        }
    }

    /// The players still in the game (neither surrendered nor eliminated), in seat order.
    pub fn playing(&self) -> impl Iterator<Item = PlayerId> + '_ {
        (0..self.players.len() as PlayerId)
            .filter(|&p| self.players[p as usize].standing == Standing::Playing)
    }

    /// True when `a` and `b` are the same player or allies.
    pub fn friends(&self, a: PlayerId, b: PlayerId) -> bool {
        a == b || self.alliances.contains(&(a.min(b), a.max(b)))
    }

    /// Friendly territory of `p`: owned by `p` or an ally.
    pub fn friendly(&self, p: PlayerId, r: RegionId) -> bool {
        self.regions
            .get(r as usize)
            .and_then(|x| x.owner)
            .is_some_and(|o| self.friends(p, o))
    }

    /// Who controls `r`'s infrastructure other than its roads: its owner; once it has none, the
    /// player who lost it to hostile forces while their units hold its fortifications (source:
    /// *"A player that has units that are considered defenders in fortifications retains control
    /// of all infrastructure except for roads within that territory"*).
    pub fn infrastructure_holder(&self, r: RegionId) -> Option<PlayerId> {
        let x = self.regions.get(r as usize)?;
        x.owner.or_else(|| {
            x.lost_by.filter(|q| {
                self.options.fortifications && x.infra.fortifications && x.forces.contains_key(q)
            })
        })
    }

    /// Contested: units of players who are not allies stand here (neutral units count).
    pub fn contested(&self, r: RegionId) -> bool {
        let Some(x) = self.regions.get(r as usize) else {
            return false;
        };
        let present: Vec<PlayerId> = x.forces.keys().copied().collect();
        let players_clash = present
            .iter()
            .enumerate()
            .any(|(i, &a)| present[i + 1..].iter().any(|&b| !self.friends(a, b)));
        players_clash || (x.neutral.units() > 0 && !present.is_empty())
    }

    /// What `p` gains in the Get phase.
    pub fn income(&self, map: &EconomyMap, p: PlayerId) -> Income {
        let owns = |r: RegionId| self.regions[r as usize].owner == Some(p);
        let countries: Vec<RegionId> = (0..map.countries() as RegionId)
            .filter(|&r| owns(r))
            .collect();
        let roads = if self.options.roads {
            countries
                .iter()
                .filter(|&&r| self.regions[r as usize].infra.roads)
                .count() as u32
        } else {
            0
        };
        let mut bonuses = 0;
        if self.options.continent_bonuses {
            let me = map.middle_east.0;
            for (c, cont) in map.base.continents.iter().enumerate() {
                let mut members = cont
                    .territories
                    .iter()
                    .copied()
                    .filter(|&t| !(self.options.middle_east && t == me));
                if members.all(owns) {
                    bonuses += map.bonuses[c];
                }
            }
            if self.options.middle_east && owns(me) {
                bonuses += map.middle_east.1;
            }
        }
        Income {
            countries: countries.len() as u32,
            roads,
            bonuses,
        }
    }

    /// `p`'s units in `r` are under siege (whoever owns `r` now): source 004, *"While units are
    /// under siege they are not considered linked to adjacent countries"*.
    pub fn besieged_for(&self, p: PlayerId, r: RegionId) -> bool {
        self.regions
            .get(r as usize)
            .is_some_and(|x| x.sieges.iter().any(|&(_, b)| b == p))
    }

    /// Regions whose units are linked to `p`'s capital: friendly territory reached from the
    /// capital through friendly territory, and contested regions next to one of those (they are
    /// linked but pass no link on). Besieged regions (the owner's units, or `p`'s, under siege)
    /// are linked to nothing, and a capital where `p` is besieged links nothing at all. Without
    /// the capitals rule every region is linked; without a capital, none is.
    pub fn linked(&self, map: &EconomyMap, p: PlayerId) -> Vec<bool> {
        let n = map.regions.len();
        if !self.options.capitals {
            return vec![true; n];
        }
        let mut linked = vec![false; n];
        let Some(capital) = self.players.get(p as usize).and_then(|x| x.capital) else {
            return linked;
        };
        let cut = |r: RegionId| self.regions[r as usize].besieged || self.besieged_for(p, r);
        let passes = |r: RegionId| self.friendly(p, r) && !self.contested(r) && !cut(r);
        if !passes(capital) {
            // A capital under siege or contested links only itself (when not besieged).
            linked[capital as usize] = !cut(capital);
            return linked;
        }
        linked[capital as usize] = true;
        let mut stack = vec![capital];
        while let Some(r) = stack.pop() {
            for &nb in map.neighbours(r) {
                if linked[nb as usize] || cut(nb) {
                    continue;
                }
                if passes(nb) {
                    linked[nb as usize] = true;
                    stack.push(nb);
                } else if self.contested(nb) {
                    linked[nb as usize] = true;
                }
            }
        }
        linked
    }

    /// The countries where `p` owes upkeep on the units it has there: the countries it owns,
    /// and, owned by nobody who is its ally, those where its units stand contested (source 004:
    /// *"Units in contested territory are considered linked to adjacent territories"*, which
    /// asks them to pay) or under siege (*"upkeep cannot be paid for units under siege"*, which
    /// asks them to owe it). An ally's country is the ally's (RULES.md, "Income and upkeep").
    fn upkeep_countries(&self, map: &EconomyMap, p: PlayerId) -> Vec<RegionId> {
        (0..map.countries() as RegionId)
            .filter(|&r| {
                let x = &self.regions[r as usize];
                match x.owner {
                    Some(o) if o == p => true,
                    Some(o) if self.friends(p, o) => false,
                    _ => {
                        x.forces.contains_key(&p) && (self.contested(r) || self.besieged_for(p, r))
                    }
                }
            })
            .collect()
    }

    /// The upkeep `p` owes, country by country, in the Get phase: 1 MU for each unit over 5 in a
    /// country it controls or where its units stand contested or besieged (over 10 where its
    /// capital stands), none for units in a country it conquered this round.
    pub fn upkeep(&self, map: &EconomyMap, p: PlayerId) -> Vec<Upkeep> {
        let linked = self.linked(map, p);
        let capital = self.players.get(p as usize).and_then(|x| x.capital);
        self.upkeep_countries(map, p)
            .into_iter()
            .filter_map(|r| {
                let x = &self.regions[r as usize];
                let units = x.forces.get(&p).map_or(0, |f| f.units());
                let free = if self.options.capitals && capital == Some(r) {
                    10
                } else {
                    5
                };
                // "Units in a country that you just gained control of during this round".
                let exempt = x.owner == Some(p) && x.conquered_in == Some(self.round);
                let due = if exempt {
                    0
                } else {
                    units.saturating_sub(free)
                };
                (due > 0).then_some(Upkeep {
                    country: r,
                    units,
                    due,
                    linked: linked[r as usize],
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
