//! The economy's `normal` computer player: a heuristic, deterministic from the state alone.
//! - Setup: a European capital with room to grow, the continent with the best bonus per
//!   country, draft picks next to its own; capital inland, both bases there, ten armies in the
//!   capital (free of upkeep) and the rest on the borders.
//! - Get: pays upkeep, trades cards, recruits at its bases first, then where stacks are small,
//!   builds roads (each pays for itself in five rounds) and fortifies a threatened capital.
//! - Planning: from each region, attacks the weakest non-friendly neighbour it outnumbers more
//!   than twice, keeping a guard at home that grows with the threat to the capital.
//! - Movement: brings idle inland armies to the nearest border.
//! - Combat: fights where it is stronger, withdraws where it is weaker, intercepts when it
//!   outnumbers, incites revolutions in weakly held countries whose cards it holds.

use crate::rules::classic::PlayerId;
use crate::rules::economy::action::{EconomyAction as A, SetupAction};
use crate::rules::economy::battlefield::{BattleAction, Foe, WithdrawOrder};
use crate::rules::economy::infra::Item;
use crate::rules::economy::map::{EconomyMap, RegionId};
use crate::rules::economy::options::Setup;
use crate::rules::economy::phase::{BaseKey, Phase};
use crate::rules::economy::setup::{START_ARMIES, START_BASES};
use crate::rules::economy::state::EconomyState;
use crate::rules::economy::units::{Force, Kind, PlannedMove};
use std::collections::BTreeMap;

/// Armies kept at home when attacking from there, beyond which a stack pays upkeep.
const GUARD: u32 = 1;
/// MU kept back for next round's upkeep before recruiting beyond the bases.
const RESERVE: u32 = 10;

/// What seat `p`'s normal bot does now, if it has anything to do.
pub(super) fn normal(s: &EconomyState, p: PlayerId) -> Option<A> {
    if !s.to_act().contains(&p) {
        return None;
    }
    let map = EconomyMap::get();
    let legal = |a: &A| s.clone().apply(a).is_ok();
    let action = match s.phase {
        Phase::Pick(_) => pick_start(s, map, p)?,
        Phase::Place => place(s, map, p),
        Phase::Get => get(s, map, p, &legal),
        Phase::Planning => {
            let a = A::SubmitPlans {
                player: p,
                moves: plans(s, map, p),
            };
            if legal(&a) {
                a
            } else {
                A::SubmitPlans {
                    player: p,
                    moves: vec![],
                }
            }
        }
        Phase::Moving => moving(s, map, p, &legal),
        Phase::Combat => combat(s, map, p, &legal)?,
        Phase::Over => return None,
    };
    Some(action)
}

/// Units hostile to `p` in `r`: other players' who are not allies, and neutral armies.
fn hostile(s: &EconomyState, p: PlayerId, r: RegionId) -> u32 {
    let x = &s.regions[r as usize];
    let players: u32 = x
        .forces
        .iter()
        .filter(|(&q, _)| !s.friends(p, q))
        .map(|(_, f)| f.units())
        .sum();
    players + x.neutral.units()
}

/// Hostile armies next to `r` over land or from its coasts.
fn threat(s: &EconomyState, map: &EconomyMap, p: PlayerId, r: RegionId) -> u32 {
    map.neighbours(r).map(|&n| hostile(s, p, n)).sum()
}

fn countries(s: &EconomyState, map: &EconomyMap, p: PlayerId) -> Vec<RegionId> {
    s.owned(p).filter(|&r| !map.is_water(r)).collect()
}

/// A country of `p` with a non-friendly country next to it over land.
fn border(s: &EconomyState, map: &EconomyMap, p: PlayerId, r: RegionId) -> bool {
    map.regions[r as usize]
        .land
        .iter()
        .any(|&n| !s.friendly(p, n))
}

fn pick_start(s: &EconomyState, map: &EconomyMap, p: PlayerId) -> Option<A> {
    let choices = s.choices(map);
    let best = match s.options.setup {
        // The continent with the most MU per country.
        Setup::Continents => choices.iter().copied().max_by_key(|&c| {
            let cont = &map.base.continents[c as usize];
            (
                map.bonuses[c as usize] * 100 / cont.territories.len().max(1) as u32,
                u32::MAX - c,
            )
        })?,
        // A draft pick next to its own countries; a capital with room around it.
        _ => choices.iter().copied().max_by_key(|&c| {
            let land = &map.regions[c as usize].land;
            let own = land
                .iter()
                .filter(|&&n| s.regions[n as usize].owner == Some(p))
                .count();
            (own, land.len(), u32::MAX - c)
        })?,
    };
    let choice = match s.options.setup {
        Setup::Continents => SetupAction::Continent(best as u8),
        _ => SetupAction::Country(best as RegionId),
    };
    Some(A::Setup { player: p, choice })
}

fn place(s: &EconomyState, map: &EconomyMap, p: PlayerId) -> A {
    let mine = countries(s, map, p);
    // The capital where the fewest foreign countries border it.
    let capital = mine.iter().copied().min_by_key(|&c| {
        let foreign = map.regions[c as usize]
            .land
            .iter()
            .filter(|&&n| s.regions[n as usize].owner != Some(p))
            .count();
        (foreign, c)
    });
    let bases = match (s.options.bases, capital) {
        (true, Some(c)) => vec![c; START_BASES],
        _ => vec![],
    };
    let mut armies: BTreeMap<RegionId, u32> = BTreeMap::new();
    let mut left = START_ARMIES;
    if let Some(c) = capital {
        let n = left.min(10);
        armies.insert(c, n);
        left -= n;
    }
    let mut borders: Vec<RegionId> = mine
        .iter()
        .copied()
        .filter(|&c| Some(c) != capital && border(s, map, p, c))
        .collect();
    if borders.is_empty() {
        borders = mine
            .iter()
            .copied()
            .filter(|&c| Some(c) != capital)
            .collect();
    }
    let mut i = 0;
    while left > 0 {
        let Some(&c) = borders.get(i % borders.len().max(1)) else {
            *armies.entry(capital.unwrap_or(mine[0])).or_default() += left;
            break;
        };
        *armies.entry(c).or_default() += 1;
        left -= 1;
        i += 1;
    }
    A::Setup {
        player: p,
        choice: SetupAction::Place {
            capital: if s.options.capitals { capital } else { None },
            bases,
            armies: armies.into_iter().collect(),
        },
    }
}

fn get(s: &EconomyState, map: &EconomyMap, p: PlayerId, legal: &dyn Fn(&A) -> bool) -> A {
    if !s.get[p as usize].settled {
        return A::SettleUpkeep {
            player: p,
            losses: s.plain_settlement(p),
        };
    }
    let me = &s.players[p as usize];
    let mut tries: Vec<A> = vec![];
    if me.cards.len() >= 3 {
        tries.push(A::TradeCards {
            player: p,
            cards: [me.cards[0], me.cards[1], me.cards[2]],
        });
    }
    let mine = countries(s, map, p);
    // Recruit at the bases first: the normal price.
    for &c in &mine {
        if s.base_capacity(p, BaseKey::Army(c)) > 0 {
            tries.push(A::Recruit {
                player: p,
                country: c,
                navy_into: None,
                count: s.base_capacity(p, BaseKey::Army(c)),
            });
        }
    }
    // Fortify a threatened capital.
    if let Some(cap) = me.capital {
        let guard = s.units_of(p, cap).armies;
        if threat(s, map, p, cap) >= guard {
            tries.push(A::Build {
                player: p,
                country: cap,
                item: Item::Fortifications,
            });
        }
    }
    // Roads pay for themselves; recruit on thin borders while money is left over.
    if me.mu >= RESERVE + 5 {
        if let Some(&c) = mine.iter().find(|&&c| !s.regions[c as usize].infra.roads) {
            tries.push(A::Build {
                player: p,
                country: c,
                item: Item::Roads,
            });
        }
    }
    if me.mu >= RESERVE + 10 {
        let thin = mine
            .iter()
            .copied()
            .filter(|&c| border(s, map, p, c) && s.units_of(p, c).units() < 5)
            .min_by_key(|&c| (s.units_of(p, c).units(), c));
        if let Some(c) = thin {
            tries.push(A::Recruit {
                player: p,
                country: c,
                navy_into: None,
                count: 1,
            });
        }
    }
    tries
        .into_iter()
        .find(|a| legal(a))
        .unwrap_or(A::FinishGet { player: p })
}

fn plans(s: &EconomyState, map: &EconomyMap, p: PlayerId) -> Vec<PlannedMove> {
    let capital = s.players[p as usize].capital;
    let mut moves = vec![];
    let mut claimed: BTreeMap<RegionId, u32> = BTreeMap::new();
    for from in countries(s, map, p) {
        if s.contested(from) {
            continue;
        }
        let here = s.units_of(p, from).armies;
        let keep = if Some(from) == capital {
            GUARD.max(threat(s, map, p, from) / 2 + 1)
        } else {
            GUARD
        };
        let mut spare = here.saturating_sub(keep);
        // The weakest non-friendly neighbours first: empty ones, then neutral or thin ones.
        let mut targets: Vec<(u32, RegionId)> = map.regions[from as usize]
            .land
            .iter()
            .filter(|&&n| !s.passable(p, n))
            .map(|&n| (hostile(s, p, n) + claimed.get(&n).copied().unwrap_or(0), n))
            .collect();
        targets.sort_unstable();
        for (h, to) in targets {
            let need = (2 * h + 1).max(1);
            if spare < need {
                continue;
            }
            // More than twice as many, and enough to keep the conquest.
            let send = if h == 0 {
                need.min(spare).max(1)
            } else {
                need.max(spare / 2).min(spare)
            };
            moves.push(PlannedMove {
                from,
                to,
                armies: send,
                navies: 0,
            });
            *claimed.entry(to).or_default() += send;
            spare -= send;
        }
    }
    moves
}

fn moving(s: &EconomyState, map: &EconomyMap, p: PlayerId, legal: &dyn Fn(&A) -> bool) -> A {
    let capital = s.players[p as usize].capital;
    for from in countries(s, map, p) {
        if Some(from) == capital || border(s, map, p, from) || !s.passable(p, from) {
            continue;
        }
        let free = s.free_units(p, from).armies;
        if free <= GUARD {
            continue;
        }
        let to = map.regions[from as usize]
            .land
            .iter()
            .copied()
            .filter(|&n| s.passable(p, n) && border(s, map, p, n))
            .min_by_key(|&n| (s.units_of(p, n).units(), n));
        if let Some(to) = to {
            let a = A::MoveFriendly {
                player: p,
                from,
                to,
                force: Force {
                    armies: free - GUARD,
                    navies: 0,
                },
            };
            if legal(&a) {
                return a;
            }
        }
    }
    A::FinishMoving { player: p }
}

fn combat(
    s: &EconomyState,
    map: &EconomyMap,
    p: PlayerId,
    legal: &dyn Fn(&A) -> bool,
) -> Option<A> {
    let c = s.combat.as_ref()?;
    if c.cards_dealt {
        // Steal from the fullest hand.
        let from = s
            .steal_victims(p)
            .into_iter()
            .max_by_key(|&q| (s.players[q as usize].cards.len(), std::cmp::Reverse(q)))?;
        return Some(A::StealCard { player: p, from });
    }
    let pending = c.battle.as_ref().is_some_and(|b| b.pending.is_some());
    // A revolution in a weakly held country whose card it holds.
    if !pending {
        for &country in &s.players[p as usize].cards {
            let theirs = hostile(s, p, country);
            let owner = s.regions[country as usize].owner;
            if owner.is_some_and(|o| !s.friends(p, o)) && theirs <= 1 {
                let target = s.regions[country as usize]
                    .forces
                    .iter()
                    .find(|(&q, f)| !s.friends(p, q) && f.armies > 0)
                    .map(|(&q, _)| Foe::Player(q));
                let a = A::IncitRevolution {
                    player: p,
                    country,
                    target,
                };
                if legal(&a) {
                    return Some(a);
                }
            }
        }
    }
    let Some(b) = &c.battle else {
        if c.tokens.is_empty() {
            return Some(A::StopMoving { player: p });
        }
        // The battle where it is strongest first.
        let site = c.tokens.iter().copied().max_by_key(|&t| {
            let mine = s.site_force(t, Foe::Player(p)).units() as i64;
            (mine, std::cmp::Reverse(t))
        })?;
        return Some(A::PickBattle { player: p, site });
    };
    let site = b.site;
    let mine = s.site_force(site, Foe::Player(p)).units();
    let foes = |kind: Option<Kind>| -> u32 {
        (0..s.players.len() as PlayerId)
            .filter(|&q| !s.friends(p, q))
            .map(|q| {
                let f = s.site_force(site, Foe::Player(q));
                kind.map_or(f.units(), |k| f.of(k))
            })
            .sum::<u32>()
            + s.site_force(site, Foe::Neutral).units()
    };
    if b.pending.is_some() {
        return Some(A::Intercept {
            player: p,
            yes: mine >= foes(None),
        });
    }
    if s.waiting_for_choice() {
        let actor = b
            .declared
            .iter()
            .find(|(_, a)| a.is_some())
            .map(|(&q, _)| q)?;
        return Some(A::ChooseAction { player: p, actor });
    }
    // Attack where it outnumbers; withdraw where it is outnumbered; else wait.
    let attack = s.possible_actions(site, p).into_iter().find(|a| match a {
        BattleAction::Attack { target, kind } => {
            s.site_force(site, Foe::Player(p)).of(*kind) >= s.site_force(site, *target).of(*kind)
        }
        _ => false,
    });
    let action = match attack {
        Some(a) => Some(a),
        None if mine < foes(None) => {
            s.withdraw_options(map, site, p)
                .first()
                .map(|&(to, force)| {
                    BattleAction::Withdraw(WithdrawOrder {
                        burn_roads: true,
                        ..WithdrawOrder::to(to, force)
                    })
                })
        }
        None => None,
    };
    Some(A::Declare { player: p, action })
}
