//! What a move meets where it goes, for the planning screen (issue 60): whether a move may start
//! from a region at all (and why not), and, for a planned move's target, who holds it, the
//! hostile units standing there, its walls and buildings, and the chance that the units planned
//! there destroy its defenders. A new player lost six of seven armies to a fortified capital
//! without being told; this is what the page shows before the plans are submitted.
//!
//! Plans are secret, so the estimate is what happens if the others stay where they are and
//! plan nothing there: on a copy of the game only the mover's own plans are carried out, with
//! the combat phase's own functions (units leave, arrive, amphibious arrivals, flanks), the
//! battle at the target is opened, and its attack is counted by [`super::odds`] exactly as the
//! battle screen will count it once the battle is picked.
//!
//! Nothing here changes a game.

use super::battlefield::{Battle, Foe, Site};
use super::error::EconomyError;
use super::map::{EconomyMap, RegionId};
use super::phase::Phase;
use super::state::EconomyState;
use super::units::{Force, Kind, PlannedMove};
use crate::rules::classic::PlayerId;
use std::collections::BTreeMap;

/// The attack a planned move would fight at its target, and its odds.
#[derive(Clone, Debug, PartialEq)]
pub struct Fight {
    /// Whose units the mover attacks, and with which kind (armies on land).
    pub target: Foe,
    pub kind: Kind,
    /// Units of that kind on each side when the battle starts.
    pub attackers: u32,
    pub defenders: u32,
    /// The chance the mover destroys all of them, if both sides roll to the end.
    pub win: f64,
    /// Units each side loses on average (the mover's, the target's).
    pub lost: (f64, f64),
}

/// What a planned move meets at its target `to`.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetPreview {
    pub to: RegionId,
    /// Who holds it (`None`: nobody).
    pub owner: Option<PlayerId>,
    /// The hostile units there now, each player's or the neutrals': its holder's first.
    pub defenders: Vec<(Foe, Force)>,
    /// Fortifications there help the defenders the mover fights (+1 on each of their rolls).
    pub walls: bool,
    /// Whose capital it is.
    pub capital_of: Option<PlayerId>,
    pub army_bases: u8,
    pub navy_bases: u32,
    /// The mover's units planned to arrive there (every plan of `plans` that goes there).
    pub arriving: Force,
    /// The attack on the first defenders, if there is one to fight.
    pub fight: Option<Fight>,
}

impl EconomyState {
    /// Whether `p` may start a move from `from` now (planning or friendly movement): the units
    /// it may take, less those `drafted` already takes (plans written, not yet submitted), or
    /// why not, in the engine's words. The page asks before it marks a region as a move's start.
    pub fn move_start(
        &self,
        map: &EconomyMap,
        p: PlayerId,
        from: RegionId,
        drafted: &[PlannedMove],
    ) -> Result<Force, EconomyError> {
        if (from as usize) >= map.regions.len() {
            return Err(EconomyError::UnknownRegion(from));
        }
        let here = self.units_of(p, from);
        match self.phase {
            Phase::Planning => {
                if self.contested(from) && here.units() > 0 {
                    return Err(EconomyError::ContestedNoPlans(from));
                }
                if here.units() == 0 {
                    return Err(EconomyError::NoUnitsThere(from));
                }
                let mut left = here;
                for m in drafted.iter().filter(|m| m.from == from) {
                    left.armies = left.armies.saturating_sub(m.armies);
                    left.navies = left.navies.saturating_sub(m.navies);
                }
                if left.units() == 0 {
                    return Err(EconomyError::AllPlanned(from));
                }
                if self.destinations(map, p, from).is_empty() {
                    return Err(EconomyError::NothingToPlan(from));
                }
                Ok(left)
            }
            Phase::Moving => {
                if here.units() == 0 {
                    return Err(EconomyError::NoUnitsThere(from));
                }
                if !self.passable(p, from) {
                    return Err(EconomyError::NotFriendly(from));
                }
                let free = self.free_units(p, from);
                if free.units() == 0 {
                    return Err(EconomyError::NotFree(from));
                }
                Ok(free)
            }
            phase => Err(EconomyError::WrongPhase(phase)),
        }
    }

    /// What `p`'s `plans` meet at `to`, if the other players stay where they are and plan
    /// nothing there (their plans are secret): see the module's comment.
    pub fn plan_preview(
        &self,
        map: &EconomyMap,
        p: PlayerId,
        plans: &[PlannedMove],
        to: RegionId,
    ) -> TargetPreview {
        let rs = &self.regions[to as usize];
        let owner = rs.owner;
        let mut defenders: Vec<(Foe, Force)> = rs
            .forces
            .iter()
            .filter(|&(&q, f)| !self.friends(p, q) && f.units() > 0)
            .map(|(&q, &f)| (Foe::Player(q), f))
            .collect();
        // The holder's units first: those are the ones that hold the region.
        defenders.sort_by_key(|&(foe, _)| (foe != owner.map_or(Foe::Neutral, Foe::Player), foe));
        if rs.neutral.units() > 0 {
            defenders.push((Foe::Neutral, rs.neutral));
        }
        let mut arriving = Force::default();
        for m in plans.iter().filter(|m| m.to == to) {
            arriving.armies = arriving.armies.saturating_add(m.armies);
            arriving.navies = arriving.navies.saturating_add(m.navies);
        }
        // Armies fight armies and navies navies: on water the navies fight when some come.
        let kind = if map.is_water(to) && arriving.navies > 0 {
            Kind::Navy
        } else {
            Kind::Army
        };
        let first = defenders
            .iter()
            .find(|(_, f)| f.of(kind) > 0)
            .or(defenders.first())
            .map(|&(foe, _)| foe);
        let walls = match first {
            Some(Foe::Player(q)) => self.fortified_for(q, to),
            Some(Foe::Neutral) => self.fortified(to),
            None => false,
        };
        let fight = first.and_then(|foe| self.planned_fight(map, p, plans, to, foe, kind));
        TargetPreview {
            to,
            owner,
            defenders,
            walls,
            capital_of: self
                .players
                .iter()
                .position(|x| x.capital == Some(to))
                .map(|i| i as PlayerId),
            army_bases: rs.infra.army_bases,
            navy_bases: rs.infra.navy_bases.len() as u32,
            arriving,
            fight,
        }
    }

    /// The odds of `p`'s attack on `foe` at `to` once `plans` (only `p`'s) are carried out.
    fn planned_fight(
        &self,
        map: &EconomyMap,
        p: PlayerId,
        plans: &[PlannedMove],
        to: RegionId,
        foe: Foe,
        kind: Kind,
    ) -> Option<Fight> {
        if plans.iter().all(|m| m.to != to) || self.phase != Phase::Planning {
            return None;
        }
        let mut s = self.clone();
        // Only the mover's plans: the others' are secret (at one device they may be written).
        s.plans = BTreeMap::from([(p, plans.to_vec())]);
        s.open_combat(map, p);
        s.carry_out_plans(map, &mut vec![]);
        let site = Site::Region(to);
        s.combat_mut().battle = Some(Battle::new(site));
        let odds = s.attack_odds::<f64>(site, p, foe, kind)?;
        Some(Fight {
            target: foe,
            kind,
            attackers: odds.attacker_units,
            defenders: odds.target_units,
            win: odds.win(),
            lost: odds.expected_losses(),
        })
    }
}

#[cfg(test)]
mod tests;
