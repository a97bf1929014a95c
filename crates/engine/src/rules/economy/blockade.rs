//! Blockades (source 004, "Blockade"): "a single navy unit can blockade a single navy base that
//! recruits into the water territory occupied by that navy unit." The base recruits nothing while
//! the blockade lasts (see [`super::get`]); the blockading navy takes no naval action but its own
//! defence. It lasts until the navy is gone from that water or its player ends it.
//!
//! Invariant: a player never has more blockades in a water territory than navies there.

use super::action::EconomyEvent;
use super::battlefield::Site;
use super::error::{EconomyError, Events, Rule};
use super::map::{EconomyMap, RegionId};
use super::phase::Phase;
use super::state::{Blockade, EconomyState};
use crate::rules::classic::PlayerId;

impl EconomyState {
    /// `p`'s navies in `water` that blockade a base.
    pub fn blockading(&self, p: PlayerId, water: RegionId) -> u32 {
        self.blockades
            .iter()
            .filter(|b| b.by == p && b.water == water)
            .count() as u32
    }

    /// `p`'s navies at `site` free for naval actions: not blockading.
    pub(super) fn free_navies(&self, site: Site, p: PlayerId) -> u32 {
        let navies = self
            .site_force(site, super::battlefield::Foe::Player(p))
            .navies;
        match site {
            Site::Region(r) => navies.saturating_sub(self.blockading(p, r)),
            Site::Border(..) => navies,
        }
    }

    pub(super) fn blockade(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        country: RegionId,
        water: RegionId,
    ) -> Events {
        if !self.options.bases {
            return Err(EconomyError::RuleOff(Rule::Bases));
        }
        if matches!(self.phase, Phase::Pick(_) | Phase::Place | Phase::Over) {
            return Err(EconomyError::WrongPhase(self.phase));
        }
        if country as usize >= map.regions.len() || water as usize >= map.regions.len() {
            return Err(EconomyError::UnknownRegion(country.max(water)));
        }
        let b = Blockade {
            by: p,
            country,
            water,
        };
        let owner = self.infrastructure_holder(country);
        let base = self.regions[country as usize]
            .infra
            .navy_bases
            .contains(&water);
        if !base || owner.is_some_and(|o| self.friends(p, o)) || self.blockades.contains(&b) {
            return Err(EconomyError::NoBaseToBlockade { country, water });
        }
        if self.units_of(p, water).navies <= self.blockading(p, water) {
            return Err(EconomyError::NoNavyFree(water));
        }
        self.blockades.insert(b);
        Ok(vec![EconomyEvent::BlockadeSet {
            player: p,
            country,
            water,
        }])
    }

    pub(super) fn end_blockade(
        &mut self,
        p: PlayerId,
        country: RegionId,
        water: RegionId,
    ) -> Events {
        let b = Blockade {
            by: p,
            country,
            water,
        };
        if !self.blockades.remove(&b) {
            return Err(EconomyError::NoBaseToBlockade { country, water });
        }
        Ok(vec![EconomyEvent::BlockadeEnded {
            player: p,
            country,
            water,
        }])
    }

    /// Ends the blockades of navies that are gone: destroyed, or sailed away.
    pub(super) fn prune_blockades(&mut self, events: &mut Vec<EconomyEvent>) {
        let all: Vec<Blockade> = self.blockades.iter().copied().collect();
        for b in all {
            if self.units_of(b.by, b.water).navies < self.blockading(b.by, b.water) {
                self.blockades.remove(&b);
                events.push(EconomyEvent::BlockadeEnded {
                    player: b.by,
                    country: b.country,
                    water: b.water,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests;
