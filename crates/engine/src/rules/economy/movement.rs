//! How far units go in a round (source 004, "Army and Navy Movement", "Roads", "Canals", "Water
//! territories"): the movement model shared by plans, friendly movement and moves after a battle.
//!
//! Movement is counted in thirds of a move. Each unit has one move a round (three thirds): across
//! one border over land or a shore costs all three, from water to water one third, and a unit
//! needs the whole cost of a step left to take it. An army also has one road movement, from a
//! country with roads to a neighbouring country with roads, free of its normal move and taken
//! before or after it. Navies stay on water, and pass a canal (one third, from one of its coasts
//! to the other) when the canal's country is friendly to them, or its canal is held by a friend.
//!
//! Invariant: [`EconomyState::reach`] only passes through regions its caller allows; the region
//! a path ends in need not be one of them (that is where a plan's non-friendly destination lies).

use super::map::{EconomyMap, RegionId};
use super::state::EconomyState;
use super::units::{Allowance, Kind, FULL};
use crate::rules::classic::PlayerId;
use std::collections::BTreeSet;

impl EconomyState {
    /// The steps `kind` units of `p` standing in `a` with `left` can take: each neighbour with
    /// what is left after stepping there.
    fn steps(
        &self,
        map: &EconomyMap,
        p: PlayerId,
        kind: Kind,
        a: RegionId,
        left: Allowance,
    ) -> Vec<(RegionId, Allowance)> {
        let region = &map.regions[a as usize];
        let mut out = vec![];
        let normal = |cost: u8| {
            (left.thirds >= cost).then(|| Allowance {
                thirds: left.thirds - cost,
                road: left.road,
            })
        };
        let water = map.is_water(a);
        match (kind, water) {
            (Kind::Army, false) => {
                for &b in &region.land {
                    if let Some(l) = normal(FULL) {
                        out.push((b, l));
                    }
                    let roads =
                        |r: RegionId| self.options.roads && self.regions[r as usize].infra.roads;
                    if left.road && roads(a) && roads(b) {
                        out.push((
                            b,
                            Allowance {
                                thirds: left.thirds,
                                road: false,
                            },
                        ));
                    }
                }
                if let Some(l) = normal(FULL) {
                    out.extend(region.shore.iter().map(|&w| (w, l)));
                }
            }
            (Kind::Army, true) => {
                if let Some(l) = normal(1) {
                    out.extend(region.water.iter().map(|&w| (w, l)));
                }
                if let Some(l) = normal(FULL) {
                    out.extend(region.shore.iter().map(|&c| (c, l)));
                }
            }
            (Kind::Navy, true) => {
                if let Some(l) = normal(1) {
                    out.extend(region.water.iter().map(|&w| (w, l)));
                    for c in &map.canals {
                        let other = if c.joins.0 == a {
                            c.joins.1
                        } else if c.joins.1 == a {
                            c.joins.0
                        } else {
                            continue;
                        };
                        let x = &self.regions[c.country as usize];
                        // The canal's holder may have lost the country but kept the canal.
                        let holder = self.infrastructure_holder(c.country);
                        let friendly = self.friendly(p, c.country)
                            || holder.is_some_and(|h| x.owner.is_none() && self.friends(p, h));
                        if self.options.canals && x.infra.canal && friendly {
                            out.push((other, l));
                        }
                    }
                }
            }
            (Kind::Navy, false) => {}
        }
        out
    }

    /// Every region `kind` units of `p` can reach from `from` with `left`, passing only through
    /// regions where `pass` holds, with each allowance they can arrive with (`from` itself is
    /// not included).
    pub fn reach(
        &self,
        map: &EconomyMap,
        p: PlayerId,
        kind: Kind,
        from: RegionId,
        left: Allowance,
        pass: impl Fn(RegionId) -> bool,
    ) -> BTreeSet<(RegionId, Allowance)> {
        let mut seen: BTreeSet<(RegionId, Allowance)> = BTreeSet::new();
        let mut stack = vec![(from, left)];
        while let Some((a, l)) = stack.pop() {
            for (b, l2) in self.steps(map, p, kind, a, l) {
                if b == from || !seen.insert((b, l2)) {
                    continue;
                }
                if pass(b) && !l2.spent() {
                    stack.push((b, l2));
                }
            }
        }
        seen
    }

    /// Friendly territory `p` moves through freely: owned by `p` or an ally, and not contested.
    pub fn passable(&self, p: PlayerId, r: RegionId) -> bool {
        self.friendly(p, r) && !self.contested(r)
    }
}

#[cfg(test)]
mod tests;
