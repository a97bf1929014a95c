//! The `normal` economy player at sea (source 004: "Navy units that you recruit in this way can
//! be placed in any friendly or contested water territory adjacent to the country where you
//! purchased the unit", "You do not need to own a water territory to build a navy bases that
//! recruits units into that territory", "Army units can move through and occupy ... friendly
//! water territories", "Army units that attack a land territory from a water territory are
//! considered amphibious units"). Since dotted lines join only coasts, the Americas, Australia
//! and the islands are reached by water alone, so a player who never sails cannot finish a game.
//!
//! An expedition: a navy base on the coast of a country with armies to spare nearest (by water)
//! to a country out of reach over land; navies from it claim water step by step toward that
//! country's coast (a plan into water nobody friendly holds; water that only its units occupy is
//! its own next round); armies board and follow through water of their own, then land. Fleets
//! also hunt hostile navies: a player whose last units are at sea is never eliminated otherwise.

use crate::rules::classic::PlayerId;
use crate::rules::economy::map::{EconomyMap, RegionId};
use crate::rules::economy::state::EconomyState;
use crate::rules::economy::units::{Allowance, Kind};
use std::collections::VecDeque;

/// Hostile players' navies in `r`, and neutral ones.
pub(super) fn hostile_navies(s: &EconomyState, p: PlayerId, r: RegionId) -> u32 {
    let x = &s.regions[r as usize];
    let players: u32 = x
        .forces
        .iter()
        .filter(|(&q, _)| !s.friends(p, q))
        .map(|(_, f)| f.navies)
        .sum();
    players + x.neutral.navies
}

/// Steps from each region to the nearest of `seeds`, moving by `next` (`u32::MAX` where none is
/// reached): over land for fronts, over water for fleets.
pub(super) fn distance<'m>(
    map: &'m EconomyMap,
    seeds: impl Iterator<Item = RegionId>,
    next: impl Fn(RegionId) -> &'m [RegionId],
) -> Vec<u32> {
    let mut dist = vec![u32::MAX; map.regions.len()];
    let mut queue = VecDeque::new();
    for r in seeds {
        if dist[r as usize] != 0 {
            dist[r as usize] = 0;
            queue.push_back(r);
        }
    }
    while let Some(r) = queue.pop_front() {
        for &nb in next(r) {
            if dist[nb as usize] == u32::MAX {
                dist[nb as usize] = dist[r as usize] + 1;
                queue.push_back(nb);
            }
        }
    }
    dist
}

/// Water steps from each water territory to the nearest of `seeds`.
fn water_distance(map: &EconomyMap, seeds: impl Iterator<Item = RegionId>) -> Vec<u32> {
    distance(map, seeds, |w| &map.regions[w as usize].water)
}

/// Every water territory of the map (they follow the countries).
pub(super) fn waters(map: &EconomyMap) -> impl Iterator<Item = RegionId> {
    map.countries() as RegionId..map.regions.len() as RegionId
}

/// Countries `p` can only reach by water: not friendly, and with no country of its own next to
/// them over land.
pub(super) fn overseas(s: &EconomyState, map: &EconomyMap, p: PlayerId) -> Vec<RegionId> {
    let owns = |r: RegionId| s.regions[r as usize].owner == Some(p);
    (0..map.countries() as RegionId)
        .filter(|&t| !s.passable(p, t) && !map.regions[t as usize].land.iter().any(|&n| owns(n)))
        .collect()
}

/// Where `p`'s fleets and armies at sea are headed: distance by water to the coast of an
/// overseas country (`landing`) and to hostile navies (`hunt`).
pub(super) struct Charts {
    pub landing: Vec<u32>,
    pub hunt: Vec<u32>,
}

impl Charts {
    pub(super) fn new(s: &EconomyState, map: &EconomyMap, p: PlayerId) -> Charts {
        let targets = overseas(s, map, p);
        let coasts = waters(map).filter(|&w| {
            map.regions[w as usize]
                .shore
                .iter()
                .any(|t| targets.contains(t))
        });
        let landing = water_distance(map, coasts);
        let hunted = waters(map).filter(|&w| {
            s.regions[w as usize]
                .forces
                .iter()
                .any(|(&q, f)| !s.friends(p, q) && f.navies > 0)
        });
        Charts {
            landing,
            hunt: water_distance(map, hunted),
        }
    }

    /// What a fleet steers by: hostile navies when there are any, else the landing coasts.
    pub(super) fn fleet(&self) -> &[u32] {
        if self.hunt.contains(&0) {
            &self.hunt
        } else {
            &self.landing
        }
    }
}

/// The coast on which `p` should keep a navy base and navies: of a country with more than
/// `min_armies` armies, not held by hostile navies, nearest by water to a landing coast (or to
/// hostile navies). Returns (country, water).
pub(super) fn harbour(
    s: &EconomyState,
    map: &EconomyMap,
    p: PlayerId,
    charts: &Charts,
    min_armies: u32,
) -> Option<(RegionId, RegionId)> {
    let dist = charts.fleet();
    (0..map.countries() as RegionId)
        .filter(|&c| {
            s.regions[c as usize].owner == Some(p)
                && !s.contested(c)
                && s.units_of(p, c).armies > min_armies
        })
        .flat_map(|c| map.regions[c as usize].shore.iter().map(move |&w| (c, w)))
        .filter(|&(_, w)| dist[w as usize] != u32::MAX && hostile_navies(s, p, w) == 0)
        .min_by_key(|&(c, w)| {
            (
                dist[w as usize],
                std::cmp::Reverse(s.units_of(p, c).armies),
                w,
            )
        })
}

/// Where `kind` units of `p` in water `w` go this round to get nearer by `dist`: the nearest
/// water they can reach, and whether it is friendly (a friendly move) or not (a plan; only
/// navies). `None` when they cannot get nearer, or are there already.
pub(super) fn step(
    s: &EconomyState,
    map: &EconomyMap,
    p: PlayerId,
    kind: Kind,
    w: RegionId,
    dist: &[u32],
) -> Option<(RegionId, bool)> {
    let here = dist[w as usize];
    if here == u32::MAX || here == 0 {
        return None;
    }
    let reach = s.reach(map, p, kind, w, Allowance::FRESH, |r| s.passable(p, r));
    reach
        .into_iter()
        .map(|(r, _)| r)
        .filter(|&r| map.is_water(r) && dist[r as usize] < here)
        .filter(|&r| kind == Kind::Navy || s.passable(p, r))
        .map(|r| (dist[r as usize], !s.passable(p, r), r))
        .min()
        .map(|(_, hostile, r)| (r, !hostile))
}
