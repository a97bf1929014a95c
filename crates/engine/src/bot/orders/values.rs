//! How much a DumbBot-style player wants each place on the board (the `normal` orders bot).
//!
//! The scheme is David Norman's DumbBot, the standard baseline of the DAIDE community, written
//! anew in integers: supply centres are worth the size of the power that holds them (to attack)
//! or of the largest enemy that can reach them (to defend); that worth spreads over the map in
//! ten "proximity" layers, each the neighbours' previous layer over five (two constants differ
//! from DumbBot's, measured: [`DEFENCE_DIVISOR`], [`NEUTRAL_SIZE`]); a place's value for a
//! unit is the weighted sum of its layers, plus our units that can reach it (strength), minus
//! the largest number of one enemy's units that can (competition). Adjustments weigh defence
//! instead of strength and competition.
//!
//! Everything is integer arithmetic on the state, so every peer computes the same values.

use crate::rules::orders::adjudicator::{Loc, UnitType};
use crate::rules::orders::map::{OrdersMap, PowerId, ProvinceId, ProvinceKind};
use crate::rules::orders::{facing_targets, OrdersState, Phase, Season};

/// Proximity layers.
const DEPTHS: usize = 10;
const SPRING_PROXIMITY: [i64; DEPTHS] = [100, 1000, 30, 10, 6, 5, 4, 3, 2, 1];
const FALL_PROXIMITY: [i64; DEPTHS] = [1000, 100, 30, 10, 6, 5, 4, 3, 2, 1];
const ADJUST_PROXIMITY: [i64; DEPTHS] = [1000, 100, 30, 10, 6, 5, 4, 3, 2, 1];
/// Attack and defence weights of the first layer, by season (attack, defence).
const SPRING_ATTACK_DEFENCE: (i64, i64) = (700, 300);
const FALL_ATTACK_DEFENCE: (i64, i64) = (600, 400);
const STRENGTH_WEIGHT: i64 = 1000;
const COMPETITION_WEIGHT: i64 = 1000;
const DEFENCE_WEIGHT: i64 = 1000;
/// A threatened centre of ours is worth a third of the threatening power's size. DumbBot counts
/// the whole size; measured with `orbis tournament` (one normal against six easy powers, 3 × 420
/// games), a third wins 77–81 % of games by 1920 against 67–68 % for the whole size, which keeps
/// too many units home.
const DEFENCE_DIVISOR: i64 = 3;
/// Neutral centres are worth what a five-centre power's are (DumbBot leaves them out of its
/// sizes): high enough to take them early, not so high that they outweigh everything else.
const NEUTRAL_SIZE: i64 = 5;

/// A power's size as DumbBot weighs it: n² + 4n + 16 for n centres (big powers are worth
/// attacking and dangerous next to our centres).
fn size(centres: i64) -> i64 {
    centres * centres + 4 * centres + 16
}

/// A place a unit of some kind can stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Slot {
    pub kind: UnitType,
    pub loc: Loc,
}

/// Where a unit of `kind` at `at` (facing `facing`, house option) may move this phase.
pub fn moves_from(
    map: &OrdersMap,
    kind: UnitType,
    at: Loc,
    facing: Option<ProvinceId>,
) -> Vec<Loc> {
    match kind {
        UnitType::Army => map.provinces[at.province as usize]
            .army
            .iter()
            .map(|&p| Loc::new(p))
            .collect(),
        UnitType::Fleet => facing_targets(map, at, facing),
    }
}

/// The values of every slot for one power in the current phase.
pub struct Values {
    slots: Vec<Slot>,
    value: Vec<i64>,
    /// Per province: the most units of one enemy power that can move there.
    pub competition: Vec<i64>,
}

impl Values {
    /// The value of a unit of `kind` standing at (or moving to) `loc`; unknown places are worth
    /// nothing.
    pub fn of(&self, kind: UnitType, loc: Loc) -> i64 {
        let key = Slot { kind, loc };
        self.slots
            .binary_search(&key)
            .map(|i| self.value[i])
            .unwrap_or(0)
    }

    /// The highest value of any slot, at least 1: the scale of `hard`'s scores (a centre gained
    /// is worth about as much as the best place on the board).
    pub fn top(&self) -> i64 {
        self.value.iter().copied().max().unwrap_or(0).max(1)
    }

    /// Computes the values for `power` in `s`'s current phase (`normal`'s: a place's worth
    /// spreads to every slot whose province a unit of either kind there could move to).
    pub fn new(s: &OrdersState, power: PowerId) -> Values {
        Values::with(s, power, false)
    }

    /// `hard`'s own values: spread as DumbBot does, along the moves of the slot's own kind only
    /// (an army on an island gets nothing from the seas around it but through its own
    /// province's fleet slot), plus [`MARCH_WEIGHT`] for each step a slot is nearer than
    /// [`MARCH_STEPS`] to a supply centre we do not own, so that units far from every fight move
    /// towards one instead of crowding where most of our units can reach.
    pub fn by_kind(s: &OrdersState, power: PowerId) -> Values {
        Values::with(s, power, true)
    }

    fn with(s: &OrdersState, power: PowerId, by_kind: bool) -> Values {
        let map = s.map();
        let n = map.len();
        let slots = all_slots(map);
        let powers = map.powers.len();
        let counts: Vec<i64> = (0..powers as PowerId)
            .map(|p| s.centre_count(p) as i64)
            .collect();
        // Who can move where: per province, units per power.
        let mut reach = vec![vec![0i64; powers]; n];
        for u in &s.units {
            let mut seen = vec![false; n];
            for l in moves_from(map, u.kind, u.loc, u.facing) {
                if !seen[l.province as usize] {
                    seen[l.province as usize] = true;
                    reach[l.province as usize][u.power as usize] += 1;
                }
            }
        }
        let mut attack = vec![0i64; n];
        let mut defence = vec![0i64; n];
        for c in map.centres() {
            match s.centres.get(&c) {
                Some(&o) if o == power => {
                    defence[c as usize] = (0..powers)
                        .filter(|&q| q != power as usize && reach[c as usize][q] > 0)
                        .map(|q| size(counts[q]) / DEFENCE_DIVISOR)
                        .max()
                        .unwrap_or(0);
                }
                Some(&o) => attack[c as usize] = size(counts[o as usize]),
                None => attack[c as usize] = size(NEUTRAL_SIZE),
            }
        }
        let strength: Vec<i64> = (0..n).map(|p| reach[p][power as usize]).collect();
        let competition: Vec<i64> = (0..n)
            .map(|p| {
                (0..powers)
                    .filter(|&q| q != power as usize)
                    .map(|q| reach[p][q])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let adjusting = s.phase == Phase::Adjustment;
        let spring = s.season == Season::Spring || adjusting;
        let (wa, wd) = if spring {
            SPRING_ATTACK_DEFENCE
        } else {
            FALL_ATTACK_DEFENCE
        };
        let weights = match (adjusting, s.season) {
            (true, _) => ADJUST_PROXIMITY,
            (false, Season::Spring) => SPRING_PROXIMITY,
            (false, Season::Fall) => FALL_PROXIMITY,
        };
        // Layer 0, then each layer from the one before: the best slot of the same province plus
        // every slot that can move here, over five.
        let mut layer: Vec<i64> = slots
            .iter()
            .map(|sl| {
                let p = sl.loc.province as usize;
                attack[p] * wa + defence[p] * wd
            })
            .collect();
        let into = sources(map, &slots, by_kind);
        let mut value: Vec<i64> = layer.iter().map(|v| v * weights[0]).collect();
        for w in weights.iter().skip(1) {
            let mut best = vec![0i64; n];
            for (i, sl) in slots.iter().enumerate() {
                let p = sl.loc.province as usize;
                best[p] = best[p].max(layer[i]);
            }
            let next: Vec<i64> = slots
                .iter()
                .enumerate()
                .map(|(i, sl)| {
                    let others: i64 = into[i].iter().map(|&j| layer[j]).sum();
                    (best[sl.loc.province as usize] + others) / 5
                })
                .collect();
            for (v, x) in value.iter_mut().zip(&next) {
                *v += w * x;
            }
            layer = next;
        }
        if by_kind {
            let dist = steps_to_targets(s, power, &slots, &into);
            for (v, d) in value.iter_mut().zip(dist) {
                *v += MARCH_WEIGHT * (MARCH_STEPS - d.min(MARCH_STEPS));
            }
        }
        for (v, sl) in value.iter_mut().zip(&slots) {
            let p = sl.loc.province as usize;
            if adjusting {
                *v += DEFENCE_WEIGHT * defence[p];
            } else {
                *v += STRENGTH_WEIGHT * strength[p] - COMPETITION_WEIGHT * competition[p];
            }
        }
        Values {
            slots,
            value,
            competition,
        }
    }
}

/// `hard`'s march (see [`Values::by_kind`]): worth more than the strength of two more of our
/// units reaching a place, far less than the first layers of a centre's worth.
const MARCH_WEIGHT: i64 = 3000;
const MARCH_STEPS: i64 = 12;

/// For each slot, the moves a unit of its kind needs to reach a supply centre `power` does not
/// own (`into`: the slots of the same kind that move into each slot); [`MARCH_STEPS`] when none
/// is in reach.
fn steps_to_targets(
    s: &OrdersState,
    power: PowerId,
    slots: &[Slot],
    into: &[Vec<usize>],
) -> Vec<i64> {
    let map = s.map();
    let mut dist = vec![MARCH_STEPS; slots.len()];
    let mut frontier: Vec<usize> = vec![];
    for (i, sl) in slots.iter().enumerate() {
        let p = sl.loc.province;
        if map.provinces[p as usize].centre && s.centres.get(&p) != Some(&power) {
            dist[i] = 0;
            frontier.push(i);
        }
    }
    let mut d = 0;
    while !frontier.is_empty() && d + 1 < MARCH_STEPS {
        d += 1;
        let mut next = vec![];
        for &i in &frontier {
            for &j in &into[i] {
                if dist[j] > d {
                    dist[j] = d;
                    next.push(j);
                }
            }
        }
        frontier = next;
    }
    dist
}

/// Every slot of the map, sorted (armies first, then fleets, by location).
fn all_slots(map: &OrdersMap) -> Vec<Slot> {
    let mut out = vec![];
    for (i, p) in map.provinces.iter().enumerate() {
        let id = i as ProvinceId;
        if p.kind != ProvinceKind::Sea {
            out.push(Slot {
                kind: UnitType::Army,
                loc: Loc::new(id),
            });
        }
        for loc in map.fleet_locs(id) {
            out.push(Slot {
                kind: UnitType::Fleet,
                loc,
            });
        }
    }
    out.sort();
    out
}

/// For each slot, the slots whose unit could move into its province (`by_kind`: only units of
/// the slot's kind that could move to the slot itself).
fn sources(map: &OrdersMap, slots: &[Slot], by_kind: bool) -> Vec<Vec<usize>> {
    let mut into = vec![vec![]; slots.len()];
    for (j, from) in slots.iter().enumerate() {
        let targets = moves_from(map, from.kind, from.loc, None);
        for (i, to) in slots.iter().enumerate() {
            let reaches = if by_kind {
                from.kind == to.kind && targets.contains(&to.loc)
            } else {
                targets.iter().any(|l| l.province == to.loc.province)
            };
            if reaches {
                into[i].push(j);
            }
        }
    }
    into
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::orders::OrdersOptions;

    #[test]
    fn neutral_centres_near_home_are_worth_more_than_the_far_side_of_the_map() {
        let s = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
        let map = s.map();
        let france = map.power("FRANCE").unwrap();
        let v = Values::new(&s, france);
        let at = |k: &str| Loc::new(map.province(k).unwrap());
        assert!(v.of(UnitType::Army, at("SPA")) > v.of(UnitType::Army, at("WAR")));
        assert!(v.of(UnitType::Army, at("BEL")) > v.of(UnitType::Army, at("PIC")));
    }
}
