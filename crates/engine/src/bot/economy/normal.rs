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

use super::reading::{
    boxed, capital_guard, countries, hostile, threat, Style, BOLD_AFTER, GUARD, RESERVE, RICH,
};
use super::{finish, navy, tactics};
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

/// Armies a capital away from the front keeps when the rest walk to the front.
const CAPITAL_KEEP: u32 = 3;
/// Navies it keeps at sea at least, once it has somewhere to sail.
const FLEET: u32 = 2;
/// Armies a country must have, beyond its guard, to send some of them to sea.
const SAIL_ARMIES: u32 = 3;
/// What seat `p`'s normal bot does now, if it has anything to do.
pub(super) fn normal(s: &EconomyState, p: PlayerId) -> Option<A> {
    normal_with(s, p, Style::default())
}

/// [`normal`] in a given style (the `hard` player's).
pub(super) fn normal_with(s: &EconomyState, p: PlayerId, style: Style) -> Option<A> {
    if !s.to_act().contains(&p) {
        return None;
    }
    let map = EconomyMap::get();
    let legal = |a: &A| s.clone().apply(a).is_ok();
    let action = match s.phase {
        Phase::Pick(_) => pick_start(s, map, p)?,
        Phase::Place => place(s, map, p),
        Phase::Get => get(s, map, p, &legal, style),
        Phase::Planning => {
            let a = A::SubmitPlans {
                player: p,
                moves: plans(s, map, p, style),
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
        Phase::Moving => moving(s, map, p, &legal, style),
        Phase::Combat => combat(s, map, p, &legal, style)?,
        Phase::Over => return None,
    };
    Some(action)
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

fn get(
    s: &EconomyState,
    map: &EconomyMap,
    p: PlayerId,
    legal: &dyn Fn(&A) -> bool,
    style: Style,
) -> A {
    if !s.get[p as usize].settled {
        return A::SettleUpkeep {
            player: p,
            losses: s.plain_settlement(p),
        };
    }
    let me = &s.players[p as usize];
    let mut tries: Vec<A> = vec![];
    tries.extend(tactics::diplomacy(s, map, p));
    tries.extend(tactics::blockades(s, map, p));
    if me.cards.len() >= 3 {
        tries.push(A::TradeCards {
            player: p,
            cards: [me.cards[0], me.cards[1], me.cards[2]],
        });
    }
    let mine = countries(s, map, p);
    // Rebuild a lost capital in its strongest country, saving for it before anything else:
    // without one, it cannot hold initiative, pays no upkeep and faces the revolution step.
    if me.capital.is_none() && s.options.capitals {
        if let Some(c) = mine
            .iter()
            .copied()
            .filter(|&c| !s.contested(c))
            .max_by_key(|&c| (s.units_of(p, c).armies, std::cmp::Reverse(c)))
        {
            tries.push(A::Build {
                player: p,
                country: c,
                item: Item::Capital,
            });
        }
        return tries
            .into_iter()
            .find(|a| legal(a))
            .unwrap_or(A::FinishGet { player: p });
    }
    // Navies for expeditions overseas and for hunting hostile navies: recruited at a navy base
    // on the coast nearest (by water) to where they are needed. Boxed in (in style), whatever
    // the money: the sea is its only way to grow, and armies bought first would leave none.
    let boxed = style.sail_boxed && boxed(s, map, p);
    if me.mu >= RESERVE + 10 || boxed {
        let charts = navy::Charts::new(s, map, p);
        if let Some((c, w)) = navy::harbour(s, map, p, &charts, SAIL_ARMIES) {
            let all = |q: &dyn Fn(PlayerId) -> bool| -> u32 {
                s.regions
                    .iter()
                    .flat_map(|x| x.forces.iter())
                    .filter(|(&o, _)| q(o))
                    .map(|(_, f)| f.navies)
                    .sum()
            };
            let ours = all(&|o| o == p);
            let theirs = all(&|o| !s.friends(p, o));
            if ours < (2 * theirs + 1).max(FLEET) {
                tries.push(A::Recruit {
                    player: p,
                    country: c,
                    navy_into: Some(w),
                    count: 1,
                });
                let based = s.regions[c as usize].infra.navy_bases.contains(&w);
                if !based && (me.mu >= RESERVE + 20 || boxed) {
                    tries.push(A::Build {
                        player: p,
                        country: c,
                        item: Item::NavyBase { water: w },
                    });
                }
            }
        }
    }
    // Finishing the game (in style), once rich: navies and armies for the last refuges.
    tries.extend(finish::get(s, map, p, style));
    // Armies only while upkeep leaves most of the income: beyond that, more armies only eat it.
    let upkeep: u32 = s.upkeep(map, p).iter().map(|u| u.due).sum();
    let affordable = 2 * upkeep < s.income(map, p).total() || me.mu >= RICH;
    // Recruit at the bases first: the normal price.
    for &c in mine.iter().filter(|_| affordable) {
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
    if me.mu >= RESERVE + 10 && affordable {
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

/// Plans: every non-friendly country next to its own is a target, the weakest (and capitals,
/// which bring their owner's money) first; a target is attacked when the armies that can spare
/// themselves from the countries around it are more than twice its defenders (flanks from
/// several countries add to the odds), or, late in a stalled game, simply more.
fn plans(s: &EconomyState, map: &EconomyMap, p: PlayerId, style: Style) -> Vec<PlannedMove> {
    let capital = s.players[p as usize].capital;
    let mut spare: BTreeMap<RegionId, u32> = BTreeMap::new();
    for from in countries(s, map, p) {
        if s.contested(from) {
            continue;
        }
        let here = s.units_of(p, from).armies;
        let keep = if Some(from) == capital {
            capital_guard(s, map, p, from, style)
        } else {
            GUARD
        };
        if here > keep {
            spare.insert(from, here - keep);
        }
    }
    // Armies at sea, on water of their own: all of them may land.
    for w in navy::waters(map).filter(|&w| s.passable(p, w) && s.units_of(p, w).armies > 0) {
        spare.insert(w, s.units_of(p, w).armies);
    }
    let mut moves = vec![];
    if style.finish {
        moves.extend(finish::sea_plans(s, map, p, &mut spare));
    }
    let capitals: Vec<RegionId> = s.players.iter().filter_map(|x| x.capital).collect();
    let mut targets: Vec<(u32, bool, RegionId)> = vec![];
    for &from in spare.keys() {
        let region = &map.regions[from as usize];
        let ways = if map.is_water(from) {
            &region.shore
        } else {
            &region.land
        };
        for &n in ways {
            if !s.passable(p, n) && !targets.iter().any(|t| t.2 == n) {
                targets.push((hostile(s, p, n), !capitals.contains(&n), n));
            }
        }
    }
    // Capitals first among equals; then the weakest.
    targets.sort_unstable_by_key(|&(h, not_capital, n)| (h, not_capital, n));
    let bold = s.round > BOLD_AFTER;
    for (h, _, to) in targets {
        let target = &map.regions[to as usize];
        let mut sources: Vec<(u32, RegionId)> = target
            .land
            .iter()
            .chain(&target.shore)
            .filter_map(|&f| spare.get(&f).map(|&n| (n, f)))
            .filter(|&(n, _)| n > 0)
            .collect();
        // Armies landing from water are amphibious (−1): they need more.
        let amphibious = sources.iter().any(|&(_, f)| map.is_water(f));
        sources.sort_unstable_by_key(|&(n, f)| (std::cmp::Reverse(n), f));
        let available: u32 = sources.iter().map(|x| x.0).sum();
        let against_player = s.regions[to as usize]
            .forces
            .keys()
            .any(|&q| !s.friends(p, q));
        // Fortified defenders roll +1 more: half as many again.
        let fortified = s.regions[to as usize].infra.fortifications && s.options.fortifications;
        let need = if h == 0 {
            1
        } else if bold && against_player {
            h + 1
        } else {
            2 * h + 1 + if fortified { h / 2 + 1 } else { 0 }
        } + if amphibious { h } else { 0 };
        if available < need {
            continue;
        }
        // Enough to win and hold it: the need, and half of what else is spare around it.
        let mut send_total = need.max((available + need) / 2).min(available);
        for (n, from) in sources {
            if send_total == 0 {
                break;
            }
            let send = n.min(send_total);
            send_total -= send;
            moves.push(PlannedMove {
                from,
                to,
                armies: send,
                navies: 0,
            });
            *spare.get_mut(&from).expect("a source") -= send;
        }
    }
    // Navies attack hostile navies next to their water when more than twice as many.
    let charts = navy::Charts::new(s, map, p);
    for w in navy::waters(map).filter(|&w| !s.contested(w) && s.units_of(p, w).navies > 0) {
        let ours = s.units_of(p, w).navies;
        let target = map.regions[w as usize]
            .water
            .iter()
            .copied()
            .map(|t| (navy::hostile_navies(s, p, t), t))
            .filter(|&(h, _)| h > 0 && ours > 2 * h)
            .min();
        if let Some((_, to)) = target {
            moves.push(PlannedMove {
                from: w,
                to,
                armies: 0,
                navies: ours,
            });
        } else {
            // Fleets sail ahead toward hostile navies or a landing coast, claiming the water
            // armies then cross (armies need no navies in water of their own): into water it
            // does not hold, that is a plan.
            if let Some((to, false)) = navy::step(s, map, p, Kind::Navy, w, charts.fleet()) {
                moves.push(PlannedMove {
                    from: w,
                    to,
                    armies: 0,
                    navies: ours,
                });
            }
        }
    }
    moves
}

/// Land steps from each region to the nearest land region that is not passable for `p` (a
/// front): idle armies walk down this distance, one border a round.
fn front_distance(s: &EconomyState, map: &EconomyMap, p: PlayerId) -> Vec<u32> {
    let fronts =
        (0..map.regions.len() as RegionId).filter(|&r| !map.is_water(r) && !s.passable(p, r));
    navy::distance(map, fronts, |r| &map.regions[r as usize].land)
}

/// Friendly movement, the first of these that applies: armies beyond the upkeep-free five (ten
/// in the capital) spread to neighbours with room; fleets and armies at sea sail on through water
/// of their own; with no front left on its continent, spare armies board their own water toward
/// a landing coast; armies beyond a guard walk toward the nearest front.
fn moving(
    s: &EconomyState,
    map: &EconomyMap,
    p: PlayerId,
    legal: &dyn Fn(&A) -> bool,
    style: Style,
) -> A {
    let capital = s.players[p as usize].capital;
    // Armies `from` keeps: in the capital, its guard and at least `in_capital`; else `elsewhere`.
    let keep = |from: RegionId, in_capital: u32, elsewhere: u32| {
        if Some(from) == capital {
            capital_guard(s, map, p, from, style).max(in_capital)
        } else {
            elsewhere
        }
    };
    // Moves `force` (if any) from `from` to `to`, when legal.
    let go = |from: RegionId, to: RegionId, force: Force| -> Option<A> {
        let a = A::MoveFriendly {
            player: p,
            from,
            to,
            force,
        };
        (force.units() > 0 && legal(&a)).then_some(a)
    };
    let armies = |n: u32| Force {
        armies: n,
        navies: 0,
    };
    let spare = |from: RegionId, keep: u32| s.free_units(p, from).armies.saturating_sub(keep);
    let mine: Vec<RegionId> = countries(s, map, p)
        .into_iter()
        .filter(|&c| s.passable(p, c))
        .collect();
    // Spreading: upkeep eats income, and attacks from several countries gain flanks.
    for &from in &mine {
        let n = spare(from, keep(from, 10, 5));
        let to = map.regions[from as usize]
            .land
            .iter()
            .copied()
            .filter(|&x| s.passable(p, x) && s.units_of(p, x).armies + 1 < 5)
            .min_by_key(|&x| (s.units_of(p, x).armies, x));
        if let Some(a) = to.and_then(|to| go(from, to, armies(n.min(5 - s.units_of(p, to).armies))))
        {
            return a;
        }
    }
    // At sea: fleets toward hostile navies or a landing coast, armies toward a landing coast.
    let charts = navy::Charts::new(s, map, p);
    for w in navy::waters(map) {
        let free = s.free_units(p, w);
        if !s.passable(p, w) || free.units() == 0 {
            continue;
        }
        let ways = [
            (
                Kind::Navy,
                charts.fleet(),
                Force {
                    armies: 0,
                    navies: free.navies,
                },
            ),
            (Kind::Army, &charts.landing[..], armies(free.armies)),
        ];
        for (kind, dist, force) in ways {
            if let Some((to, true)) = navy::step(s, map, p, kind, w, dist) {
                if let Some(a) = go(w, to, force) {
                    return a;
                }
            }
        }
    }
    let dist = front_distance(s, map, p);
    // Boarding, with no front left on its continent; or boxed in (in style), when the capital
    // keeps its guard, since its fronts are other players' capitals.
    let boxed = style.sail_boxed && boxed(s, map, p);
    for &from in mine
        .iter()
        .filter(|&&c| boxed || dist[c as usize] == u32::MAX)
    {
        let stay = if boxed {
            keep(from, CAPITAL_KEEP, GUARD)
        } else if Some(from) == capital {
            CAPITAL_KEEP
        } else {
            GUARD
        };
        let board = map.regions[from as usize]
            .shore
            .iter()
            .copied()
            .filter(|&w| s.passable(p, w) && charts.landing[w as usize] != u32::MAX)
            .min_by_key(|&w| (charts.landing[w as usize], w));
        if let Some(a) = board.and_then(|to| go(from, to, armies(spare(from, stay)))) {
            return a;
        }
    }
    // Walking to the front.
    for &from in mine.iter().filter(|&&c| dist[c as usize] > 1) {
        let to = map.regions[from as usize]
            .land
            .iter()
            .copied()
            .filter(|&x| s.passable(p, x) && dist[x as usize] < dist[from as usize])
            .min_by_key(|&x| (dist[x as usize], s.units_of(p, x).units(), x));
        if let Some(a) = to.and_then(|to| {
            go(
                from,
                to,
                armies(spare(from, keep(from, CAPITAL_KEEP, GUARD))),
            )
        }) {
            return a;
        }
    }
    A::FinishMoving { player: p }
}

fn combat(
    s: &EconomyState,
    map: &EconomyMap,
    p: PlayerId,
    legal: &dyn Fn(&A) -> bool,
    style: Style,
) -> Option<A> {
    let c = s.combat.as_ref()?;
    if c.cards_dealt {
        // Steal from the fullest hand.
        let from = s
            .steal_victims(p)
            .into_iter()
            .max_by_key(|&q| (s.cards_held(q), std::cmp::Reverse(q)))?;
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
    if let Some(action) = tactics::battle_choice(s, map, p, site, if style.finish { 2 } else { 3 })
    {
        let a = A::Declare { player: p, action };
        if legal(&a) {
            return Some(a);
        }
    }
    // Navies among hostile armies alone risk nothing (only navies fight navies): in style, they
    // stay, to carry the armies that follow them.
    let safe = style.finish
        && s.site_force(site, Foe::Player(p)).armies == 0
        && foes(Some(Kind::Navy)) == 0;
    // Attack where it outnumbers; withdraw where it is outnumbered; else wait.
    let attack = s.possible_actions(site, p).into_iter().find(|a| match a {
        BattleAction::Attack { target, kind } => {
            s.site_force(site, Foe::Player(p)).of(*kind) >= s.site_force(site, *target).of(*kind)
        }
        _ => false,
    });
    let action = match attack {
        Some(a) => Some(a),
        None if mine < foes(None) && !safe => {
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
