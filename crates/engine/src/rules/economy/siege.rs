//! Sieges (source 004, "Siege"): armies declare a siege against hostile defenders in
//! fortifications. Besieged units cannot withdraw without first attacking; they are linked to
//! nothing, so their upkeep cannot be paid and a besieged capital links no country. A siege lasts
//! until its besieger declares another action or either side is gone, across rounds. While it
//! stands, and for the rest of the round, the besieger cannot use the fortifications there.
//!
//! Invariant: `RegionState::besieged` is true exactly when a siege in the region is against its
//! owner; a siege exists only while both sides have units there.

use super::action::EconomyEvent;
use super::battlefield::{Foe, Site};
use super::map::RegionId;
use super::state::EconomyState;
use crate::rules::classic::PlayerId;

impl EconomyState {
    /// The players whose units `p` can besiege at `site`: hostile defenders in fortifications.
    pub fn siege_targets(&self, site: Site, p: PlayerId) -> Vec<PlayerId> {
        let Site::Region(r) = site else { return vec![] };
        // Between two rolls of an attack only attacks and withdraws are declared.
        if self.assault(site).is_some() {
            return vec![];
        }
        if !self.fortified(r) || self.site_force(site, Foe::Player(p)).armies == 0 {
            return vec![];
        }
        let standing = &self.regions[r as usize].sieges;
        (0..self.players.len() as PlayerId)
            .filter(|&q| !self.friends(p, q) && self.defenders(q, r).units() > 0)
            .filter(|&q| !standing.contains(&(p, q)))
            .collect()
    }

    /// Fortifications in `r` help `x`'s defenders: built, the rule on, and `x` not besieging
    /// anyone there this round who is still there.
    pub fn fortified_for(&self, x: PlayerId, r: RegionId) -> bool {
        if !self.fortified(r) {
            return false;
        }
        let present = |q: PlayerId| self.units_of(q, r).units() > 0;
        let now = self.regions[r as usize]
            .sieges
            .iter()
            .any(|&(a, b)| a == x && present(b));
        let this_round = self
            .combat
            .iter()
            .flat_map(|c| &c.sieged)
            .any(|&(at, a, b)| at == r && a == x && present(b));
        !(now || this_round)
    }

    /// Besieged units of `p` at `site` that have not attacked in this battle cannot withdraw.
    pub(super) fn must_attack_first(&self, site: Site, p: PlayerId) -> bool {
        let Site::Region(r) = site else { return false };
        let besieged = self.regions[r as usize].sieges.iter().any(|&(_, b)| b == p);
        let attacked = self
            .combat
            .as_ref()
            .and_then(|c| c.battle.as_ref())
            .is_some_and(|b| b.attacked.contains(&p));
        besieged && !attacked
    }

    pub(super) fn lay_siege(
        &mut self,
        r: RegionId,
        p: PlayerId,
        q: PlayerId,
        events: &mut Vec<EconomyEvent>,
    ) {
        self.regions[r as usize].sieges.insert((p, q));
        if let Some(c) = self.combat.as_mut() {
            c.sieged.insert((r, p, q));
            if let Some(b) = c.battle.as_mut() {
                b.fought.insert((p, Foe::Player(q)));
                b.fought.insert((q, Foe::Player(p)));
            }
        }
        self.refresh_siege(r);
        events.push(EconomyEvent::SiegeLaid {
            player: p,
            target: q,
            region: r,
        });
    }

    /// Ends every siege `p` holds at `r` (they declared another action).
    pub(super) fn end_sieges_by(
        &mut self,
        p: PlayerId,
        r: RegionId,
        events: &mut Vec<EconomyEvent>,
    ) {
        let ended: Vec<(PlayerId, PlayerId)> = self.regions[r as usize]
            .sieges
            .iter()
            .copied()
            .filter(|&(a, _)| a == p)
            .collect();
        for (a, b) in ended {
            self.regions[r as usize].sieges.remove(&(a, b));
            events.push(EconomyEvent::SiegeEnded {
                player: a,
                target: b,
                region: r,
            });
        }
        self.refresh_siege(r);
    }

    /// Ends the sieges at `r` whose besieger has no army left there or whose besieged have no
    /// unit left there.
    pub(super) fn prune_sieges(&mut self, r: RegionId, events: &mut Vec<EconomyEvent>) {
        let gone: Vec<(PlayerId, PlayerId)> = self.regions[r as usize]
            .sieges
            .iter()
            .copied()
            .filter(|&(a, b)| self.units_of(a, r).armies == 0 || self.units_of(b, r).units() == 0)
            .collect();
        for (a, b) in gone {
            self.regions[r as usize].sieges.remove(&(a, b));
            events.push(EconomyEvent::SiegeEnded {
                player: a,
                target: b,
                region: r,
            });
        }
        self.refresh_siege(r);
    }

    fn refresh_siege(&mut self, r: RegionId) {
        let x = &mut self.regions[r as usize];
        x.besieged = x
            .owner
            .is_some_and(|o| x.sieges.iter().any(|&(_, b)| b == o));
    }
}

#[cfg(test)]
mod tests;
