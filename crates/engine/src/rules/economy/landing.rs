//! Amphibious landings (source 004, "Amphibious Landing"): armies move from contested water onto
//! a land territory. It goes like a withdraw: only hostile navies there may intercept, each
//! landing army rolling against each interceptor in turn. The player may engage their navies in
//! the landing: then each lost roll costs a navy as well as the army. Armies that get ashore are
//! amphibious newcomers there, and bring a battle token to hostile ground.
//!
//! Invariant: only armies that have not moved this round land (a landing is their move), and only
//! onto a country whose coast the water is.

use super::action::EconomyEvent;
use super::battlefield::{Arrival, Foe, Site, Unit};
use super::map::{EconomyMap, RegionId};
use super::roll::{Loser, Side};
use super::state::EconomyState;
use super::units::{Allowance, Force, Kind};
use crate::dice::Dice;
use crate::rules::classic::PlayerId;

impl EconomyState {
    /// Where `p`'s armies in the battle at `site` may land, and how many: countries whose coast
    /// the water is, for armies that have held the water since planning.
    pub fn landing_options(
        &self,
        map: &EconomyMap,
        site: Site,
        p: PlayerId,
    ) -> Vec<(RegionId, u32)> {
        let Site::Region(w) = site else { return vec![] };
        // Between two rolls of an attack only attacks and withdraws are declared.
        if self.assault(site).is_some() {
            return vec![];
        }
        if !map.is_water(w) || !self.hostile_present(site, p) {
            return vec![];
        }
        let armies = self.defenders(p, w).armies;
        if armies == 0 {
            return vec![];
        }
        map.regions[w as usize]
            .shore
            .iter()
            .map(|&c| (c, armies))
            .collect()
    }

    /// Carries out `p`'s landing of `armies` onto `to`, once the interceptors have answered.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn finish_landing(
        &mut self,
        map: &EconomyMap,
        site: Site,
        p: PlayerId,
        armies: u32,
        to: RegionId,
        navies_engaged: bool,
        interceptors: &[PlayerId],
        dice: &mut dyn Dice,
        events: &mut Vec<EconomyEvent>,
    ) {
        let Site::Region(w) = site else { return };
        let mut ashore = 0;
        let mut lost = Force::default();
        for _ in 0..armies {
            let mut alive = true;
            for &q in interceptors {
                if self.site_force(site, Foe::Player(q)).navies == 0 {
                    continue;
                }
                let me = Side::plain(0, 0);
                // "If that option is used then a loss for that player results in the death of
                // both an army and a navy unit while a loss for the intercepting player results
                // in a loss of one of their navy units": without engaged navies, the landing
                // armies cannot sink the interceptor's navies.
                let loser = self.interception_roll(
                    site,
                    p,
                    q,
                    Kind::Navy,
                    me,
                    false,
                    navies_engaged,
                    dice,
                    events,
                );
                if matches!(loser, Loser::First | Loser::Both) {
                    alive = false;
                    if navies_engaged && self.site_force(site, Foe::Player(p)).navies > 0 {
                        let (navy, _) = self.pick_target(site, p, Kind::Navy);
                        self.take_unit(site, p, Kind::Navy, navy);
                        lost.navies += 1;
                    }
                    break;
                }
            }
            self.take_unit(site, p, Kind::Army, Unit::Defender);
            if alive {
                ashore += 1;
            } else {
                lost.armies += 1;
            }
        }
        self.settle_in(Arrival {
            player: p,
            region: to,
            from: w,
            force: Force {
                armies: ashore,
                navies: 0,
            },
            left: Allowance::SPENT,
            amphibious: true,
            withdrawn: false,
        });
        // Like a withdraw, a landing after fighting here counts as leaving the battle beaten.
        self.left_after_fighting(p);
        events.push(EconomyEvent::Landed {
            player: p,
            to,
            ashore,
            lost,
        });
        self.sink(map, w, events);
    }
}

#[cfg(test)]
mod tests;
