//! Finishing a game (the `hard` player's [`super::reading::Style::finish`]): once rich, money
//! that `normal` would hoard buys the attacks that end the game.
//! - Armies at sea. A player with no country left survives on water of its own, where armies
//!   stand without navies. Armies may enter water one does not control only with as many of
//!   one's own navies there (source 004: "there must be as many or more of your navy units in
//!   that territory"), and only armies fight armies. So, from a country of its own on that
//!   water's coast, it builds a navy base on the water, recruits a navy into it (the water is
//!   then contested, and more navies go in at the dear price), and once its navies there
//!   outnumber the hostile armies more than twice, recruits the armies and plans them in, no
//!   more than its navies there.
//! - A fortified last capital. It recruits armies in its countries around the hostile country
//!   that needs the fewest more, until the armies they can spare are more than twice its
//!   defenders (and half as many again behind fortifications): `plans` then attacks it the same
//!   round, before friendly movement spreads the new armies out.

use super::reading::{capital_guard, countries, hostile, Style, GUARD, RESERVE, RICH};
use crate::rules::classic::PlayerId;
use crate::rules::economy::action::EconomyAction as A;
use crate::rules::economy::get::RECRUIT_NO_BASE_MU;
use crate::rules::economy::infra::Item;
use crate::rules::economy::map::{EconomyMap, RegionId};
use crate::rules::economy::phase::BaseKey;
use crate::rules::economy::state::EconomyState;
use crate::rules::economy::units::{Force, PlannedMove};
use std::cmp::Reverse;
use std::collections::BTreeMap;

/// Hostile units in `r`: other players' who are not allies, and neutral ones.
fn hostile_force(s: &EconomyState, p: PlayerId, r: RegionId) -> Force {
    let x = &s.regions[r as usize];
    let mut out = x.neutral;
    for (_, f) in x.forces.iter().filter(|(&q, _)| !s.friends(p, q)) {
        out.armies += f.armies;
        out.navies += f.navies;
    }
    out
}

/// Water `p` cannot pass where hostile players' armies stand, the fewest hostile units first.
fn refuges(s: &EconomyState, map: &EconomyMap, p: PlayerId) -> Vec<RegionId> {
    let mut out: Vec<(u32, RegionId)> = super::navy::waters(map)
        .filter(|&w| {
            !s.passable(p, w)
                && s.regions[w as usize]
                    .forces
                    .iter()
                    .any(|(&q, f)| !s.friends(p, q) && f.armies > 0)
        })
        .map(|w| (hostile(s, p, w), w))
        .collect();
    out.sort_unstable();
    out.into_iter().map(|(_, w)| w).collect()
}

/// Armies to send into water holding `h` hostile units, and navies to send with them.
fn sea_need(h: Force) -> (u32, u32) {
    let armies = 2 * h.armies + 1;
    (armies, armies.max(2 * h.navies + 1))
}

/// Armies `p` keeps in `c` when attacking from it.
fn keep(s: &EconomyState, map: &EconomyMap, p: PlayerId, c: RegionId, style: Style) -> u32 {
    if s.players[p as usize].capital == Some(c) {
        capital_guard(s, map, p, c, style)
    } else {
        GUARD
    }
}

/// Countries of `p` it may attack from: its own, not contested.
fn sources(s: &EconomyState, map: &EconomyMap, p: PlayerId) -> Vec<RegionId> {
    countries(s, map, p)
        .into_iter()
        .filter(|&c| !s.contested(c))
        .collect()
}

/// Armies needed to attack country `t` holding `h` hostile units: more than twice as many, and
/// half as many again behind fortifications.
fn land_need(s: &EconomyState, t: RegionId, h: u32) -> u32 {
    let fortified = s.regions[t as usize].infra.fortifications && s.options.fortifications;
    2 * h + 1 + if fortified { h / 2 + 1 } else { 0 }
}

/// What the Get phase tries, in order, to finish the game: nothing unless rich.
pub(super) fn get(s: &EconomyState, map: &EconomyMap, p: PlayerId, style: Style) -> Vec<A> {
    let mu = s.players[p as usize].mu;
    if !style.finish || mu < RICH {
        return vec![];
    }
    let budget = (mu - RESERVE) / RECRUIT_NO_BASE_MU;
    let mine = sources(s, map, p);
    let mut tries = vec![];
    // Armies at sea.
    for w in refuges(s, map, p) {
        let Some(c) = map.regions[w as usize]
            .shore
            .iter()
            .copied()
            .filter(|c| mine.contains(c))
            .max_by_key(|&c| (s.units_of(p, c).armies, Reverse(c)))
        else {
            continue;
        };
        let (armies, navies) = sea_need(hostile_force(s, p, w));
        let ours = s.units_of(p, w);
        if ours.navies < navies {
            let open = s.friendly(p, w) || s.contested(w);
            let based = s.base_capacity(p, BaseKey::Navy(c, w)) > 0;
            if open || based {
                let count = if open {
                    (navies - ours.navies).min(budget)
                } else {
                    1
                };
                if count > 0 {
                    tries.push(A::Recruit {
                        player: p,
                        country: c,
                        navy_into: Some(w),
                        count,
                    });
                }
            } else if !s.regions[c as usize].infra.navy_bases.contains(&w) {
                tries.push(A::Build {
                    player: p,
                    country: c,
                    item: Item::NavyBase { water: w },
                });
            }
            continue;
        }
        let spare = s
            .units_of(p, c)
            .armies
            .saturating_sub(keep(s, map, p, c, style));
        let want = armies.saturating_sub(ours.armies);
        if spare < want && want - spare <= budget {
            tries.push(A::Recruit {
                player: p,
                country: c,
                navy_into: None,
                count: want - spare,
            });
        }
    }
    // The country next to its own that a hostile player owns or stands in (a siege of its own
    // capital included) and that needs the fewest more armies.
    let mut best: Option<(u32, bool, RegionId, RegionId)> = None;
    let mut seen = vec![];
    for &f in &mine {
        for &t in &map.regions[f as usize].land {
            let x = &s.regions[t as usize];
            let theirs = x.owner.is_some_and(|q| !s.friends(p, q))
                || x.forces
                    .iter()
                    .any(|(&q, f)| !s.friends(p, q) && f.armies > 0);
            if seen.contains(&t) || s.passable(p, t) || !theirs {
                continue;
            }
            seen.push(t);
            let around: Vec<RegionId> = map.regions[t as usize]
                .land
                .iter()
                .copied()
                .filter(|n| mine.contains(n))
                .collect();
            let available: u32 = around
                .iter()
                .map(|&n| {
                    s.units_of(p, n)
                        .armies
                        .saturating_sub(keep(s, map, p, n, style))
                })
                .sum();
            let need = land_need(s, t, hostile(s, p, t));
            let short = need.saturating_sub(available);
            let not_capital = !s.players.iter().any(|x| x.capital == Some(t));
            let at = around
                .iter()
                .copied()
                .max_by_key(|&n| (s.units_of(p, n).armies, Reverse(n)))
                .expect("a country of its own next to it");
            if best.is_none_or(|b| (short, not_capital, t) < (b.0, b.1, b.2)) {
                best = Some((short, not_capital, t, at));
            }
        }
    }
    if let Some((short, _, _, at)) = best {
        if short > 0 && short <= budget {
            tries.push(A::Recruit {
                player: p,
                country: at,
                navy_into: None,
                count: short,
            });
        }
    }
    tries
}

/// Plans into water holding hostile armies where its navies already are: armies from its
/// countries on that coast, no more than its navies there and enough to outnumber the hostile
/// armies. Takes them from `spare`.
pub(super) fn sea_plans(
    s: &EconomyState,
    map: &EconomyMap,
    p: PlayerId,
    spare: &mut BTreeMap<RegionId, u32>,
) -> Vec<PlannedMove> {
    let mut moves = vec![];
    for w in refuges(s, map, p) {
        let h = hostile_force(s, p, w);
        let ours = s.units_of(p, w);
        let mut room = ours.navies.saturating_sub(ours.armies);
        let from: Vec<RegionId> = map.regions[w as usize]
            .shore
            .iter()
            .copied()
            .filter(|c| !map.is_water(*c))
            .collect();
        let available: u32 = from.iter().filter_map(|c| spare.get(c)).sum();
        if ours.armies + available.min(room) <= h.armies {
            continue;
        }
        for c in from {
            let Some(n) = spare.get_mut(&c) else {
                continue;
            };
            let send = (*n).min(room);
            if send == 0 {
                continue;
            }
            *n -= send;
            room -= send;
            moves.push(PlannedMove {
                from: c,
                to: w,
                armies: send,
                navies: 0,
            });
        }
    }
    moves
}
