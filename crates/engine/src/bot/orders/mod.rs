//! Computer powers for the orders ruleset.
//!
//! - `normal` plays like DAIDE's DumbBot (see [`values`]): each unit, in a random order, takes
//!   the best-valued place it can reach, sometimes the next best when it is nearly as good; a
//!   unit that would bounce off one of ours supports it instead where an enemy competes, and
//!   idle holds become supports. Builds go where the value is highest, disbands where lowest.
//! - `easy` gives random legal orders, moving into a supply centre it does not own when it can.
//! - `hard` ([`hard`]) searches: candidate order sets for every power near it from `normal`'s
//!   valuation, each power's likely orders estimated by iterated best response (Albert's idea)
//!   with the adjudicator itself, then our best set against them, improved one unit at a time.
//!
//! A bot's orders are a function of the board and a `salt` every peer agrees on; online the salt
//! is the phase's revealed human orders, so nobody can foresee the random part of a computer
//! power's orders before committing their own. Only legal orders are produced: every move,
//! support, retreat and build is one the engine accepts and the adjudicator does not void.

pub mod hard;
pub mod values;

use crate::codec::{encode, sha256};
use crate::dice::{shuffle, Dice, SeededDice};
use crate::rules::classic::BotLevel;
use crate::rules::orders::adjudicator::{Geography, Loc, Piece, UnitType};
use crate::rules::orders::map::{OrdersMap, PowerId, ProvinceId, ProvinceKind};
use crate::rules::orders::notation::{Spec, Written};
use crate::rules::orders::{OrdersAction, OrdersState, Phase};
use std::collections::BTreeMap;
use values::{moves_from, Values};

/// Years after which a computer power accepts any draw (the game is a stalemate by then).
pub const DRAW_AFTER_YEARS: u16 = 30;

/// The random stream of `power`'s orders this phase.
fn dice_for(s: &OrdersState, power: PowerId, salt: &[u8]) -> SeededDice {
    let board = encode(&(
        &s.map_id,
        s.year,
        s.season,
        s.phase,
        &s.units,
        &s.dislodged,
        &s.centres,
    ));
    let mut b = b"orbis-orders-bot".to_vec();
    b.extend_from_slice(&sha256(&board));
    b.extend_from_slice(&sha256(salt));
    b.push(power);
    SeededDice::new(sha256(&b))
}

/// The orders `power`'s computer player gives in the current phase (empty when it has nothing
/// to order). `salt`: bytes every peer agrees on (see the module comment).
pub fn orders_for(s: &OrdersState, power: PowerId, level: BotLevel, salt: &[u8]) -> Vec<Written> {
    orders_thinking(s, power, level, salt, 1)
}

/// [`orders_for`] with a thinking time for `hard`: `effort` 1 is the default (about 1 s at
/// most for a phase natively), higher values search longer (more candidates, samples and
/// rounds); other levels ignore it. Every peer must use the same effort for the same orders.
pub fn orders_thinking(
    s: &OrdersState,
    power: PowerId,
    level: BotLevel,
    salt: &[u8],
    effort: u32,
) -> Vec<Written> {
    let mut d = dice_for(s, power, salt);
    match level {
        BotLevel::Easy => easy(s, power, &mut d),
        BotLevel::Normal => normal(s, power, &mut d),
        BotLevel::Hard => hard::orders(s, power, &mut d, effort),
    }
}

/// Whether a computer power accepts a draw now: when its position is hopeless (the leader has
/// at least three times its centres, and at least six), or once the game has gone on for
/// [`DRAW_AFTER_YEARS`] years. A leader never stands in the way of a draw that late either, so
/// games of computer powers always end.
pub fn accepts_draw(s: &OrdersState, power: PowerId) -> bool {
    let map = s.map();
    let first = 1901u16;
    if s.year >= first.saturating_add(DRAW_AFTER_YEARS) {
        return true;
    }
    let mine = s.centre_count(power);
    let leader = (0..map.powers.len() as PowerId)
        .filter(|&p| p != power)
        .map(|p| s.centre_count(p))
        .max()
        .unwrap_or(0);
    leader >= 6 && leader >= 3 * mine
}

/// The actions that let computer powers play the current phase: their orders (for those that
/// owe some) and their draw votes where they change. `bots`: (power, level).
pub fn phase_actions(
    s: &OrdersState,
    bots: &[(PowerId, BotLevel)],
    salt: &[u8],
) -> Vec<OrdersAction> {
    phase_actions_thinking(s, bots, salt, 1)
}

/// [`phase_actions`] with `hard`'s thinking time (`effort`, see [`orders_thinking`]).
pub fn phase_actions_thinking(
    s: &OrdersState,
    bots: &[(PowerId, BotLevel)],
    salt: &[u8],
    effort: u32,
) -> Vec<OrdersAction> {
    let mut out = vec![];
    if matches!(s.phase, Phase::GameOver { .. }) {
        return out;
    }
    let waiting = s.waiting_for();
    let alive: Vec<_> = bots.iter().filter(|(p, _)| s.alive(*p)).collect();
    for &&(power, level) in &alive {
        if waiting.contains(&power) {
            out.push(OrdersAction::Submit {
                power,
                orders: orders_thinking(s, power, level, salt, effort),
            });
        }
    }
    // Draw votes last: a vote that completes a draw ends the game.
    for &&(power, _) in &alive {
        let accept = accepts_draw(s, power);
        if s.draw.get(power as usize).copied() != Some(accept) {
            out.push(OrdersAction::Draw { power, accept });
        }
    }
    out
}

fn written(u: &Piece, spec: Spec) -> Written {
    Written {
        kind: u.kind,
        at: u.loc,
        spec,
    }
}

/// `normal`'s spread: an alternative within a fifth of the best is played half the time.
const NORMAL_SPREAD: i64 = 5;

/// Picks from `items` sorted best first: the next item instead of the current one half the
/// time when it is within 1/`spread` of the current one's value (DumbBot's "play alternative",
/// `normal`'s spread is a fifth); `spread` 0 always takes the best (no die is thrown then).
fn next_item_within<T: Copy>(d: &mut dyn Dice, items: &[(T, i64)], spread: i64) -> Option<T> {
    let mut i = 0;
    while spread > 0 && i + 1 < items.len() {
        let (cur, next) = (items[i].1, items[i + 1].1);
        let close = cur != 0 && (cur - next).abs() * spread < cur.abs();
        if close && d.below(2) == 0 {
            i += 1;
        } else {
            break;
        }
    }
    items.get(i).map(|x| x.0)
}

/// Best first; ties in a fixed order so that every peer sorts alike.
fn sort_best_first<T: Ord + Copy>(items: &mut [(T, i64)]) {
    items.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
}

fn reaches(map: &OrdersMap, u: &Piece, province: ProvinceId) -> bool {
    moves_from(map, u.kind, u.loc, u.facing)
        .iter()
        .any(|l| l.province == province)
}

/// What one of our units has been told so far.
#[derive(Clone, Copy, PartialEq)]
enum Told {
    Stay,
    Move(Loc),
}

fn normal(s: &OrdersState, power: PowerId, d: &mut dyn Dice) -> Vec<Written> {
    let v = Values::new(s, power);
    match s.phase {
        Phase::Movement => normal_moves(s, power, &v, d, NORMAL_SPREAD),
        Phase::Retreat => retreats(s, power, d, NORMAL_SPREAD, |k, l| v.of(k, l)),
        Phase::Adjustment => adjust(s, power, d, NORMAL_SPREAD, |k, l| v.of(k, l)),
        Phase::GameOver { .. } => vec![],
    }
}

/// `normal`'s movement orders; `spread` as in [`next_item_within`] (`hard` draws candidates
/// with a wider one).
fn normal_moves(
    s: &OrdersState,
    power: PowerId,
    v: &Values,
    d: &mut dyn Dice,
    spread: i64,
) -> Vec<Written> {
    let map = s.map();
    let units = s.orderable_units(power);
    let at: BTreeMap<ProvinceId, usize> = units
        .iter()
        .enumerate()
        .map(|(i, u)| (u.loc.province, i))
        .collect();
    let mut queue: Vec<usize> = (0..units.len()).collect();
    shuffle(d, &mut queue);
    let mut told: Vec<Option<Told>> = vec![None; units.len()];
    let mut spec: Vec<Spec> = vec![Spec::Hold; units.len()];
    // Units waiting on unit i's order: i does not move onto them.
    let mut waiting_on: Vec<Vec<ProvinceId>> = vec![vec![]; units.len()];
    let mut guard = 0;
    while !queue.is_empty() && guard < 64 * units.len() + 64 {
        guard += 1;
        let i = queue.remove(0);
        let u = units[i];
        // Candidates: (destination, route), route 0 for a direct move, k for convoy route k-1.
        let routes = if u.kind == UnitType::Army {
            convoy_routes(map, &units, &told, &spec, u.loc.province)
        } else {
            vec![]
        };
        let mut cands: Vec<((Loc, usize), i64)> = moves_from(map, u.kind, u.loc, u.facing)
            .into_iter()
            .map(|l| (l, 0))
            .chain(
                routes
                    .iter()
                    .enumerate()
                    .map(|(k, r)| (Loc::new(r.0), k + 1)),
            )
            .filter(|(l, _)| !waiting_on[i].contains(&l.province))
            .map(|(l, k)| ((l, k), v.of(u.kind, l)))
            .collect();
        cands.push(((u.loc, 0), v.of(u.kind, u.loc)));
        sort_best_first(&mut cands);
        loop {
            let Some((to, route)) = next_item_within(d, &cands, spread) else {
                told[i] = Some(Told::Stay);
                break;
            };
            if to.province == u.loc.province {
                told[i] = Some(Told::Stay);
                break;
            }
            let drop = |c: &mut Vec<((Loc, usize), i64)>| {
                c.retain(|((l, _), _)| l.province != to.province)
            };
            if let Some(&j) = at.get(&to.province) {
                match told[j] {
                    None => {
                        // Decide after the unit standing there.
                        let pos = queue.iter().position(|&k| k == j).map_or(0, |p| p + 1);
                        queue.insert(pos, i);
                        waiting_on[j].push(u.loc.province);
                        break;
                    }
                    Some(Told::Stay) => {
                        // Only a unit that reaches the place itself can support there.
                        if route == 0 && v.competition[to.province as usize] > 1 {
                            told[i] = Some(Told::Stay);
                            spec[i] = Spec::SupportHold {
                                kind: Some(units[j].kind),
                                target: units[j].loc,
                            };
                            break;
                        }
                        drop(&mut cands);
                        continue;
                    }
                    // Swapping places with one of ours bounces both.
                    Some(Told::Move(l)) if l.province == u.loc.province => {
                        drop(&mut cands);
                        continue;
                    }
                    Some(Told::Move(_)) => {}
                }
            }
            let mover = (0..units.len())
                .find(|&k| told[k] == Some(Told::Move(to)))
                .or_else(|| {
                    (0..units.len()).find(
                        |&k| matches!(told[k], Some(Told::Move(l)) if l.province == to.province),
                    )
                });
            if let Some(k) = mover {
                if route == 0 && v.competition[to.province as usize] > 0 {
                    let Some(Told::Move(dest)) = told[k] else {
                        break;
                    };
                    told[i] = Some(Told::Stay);
                    spec[i] = Spec::SupportMove {
                        kind: Some(units[k].kind),
                        from: units[k].loc,
                        to: dest,
                    };
                    break;
                }
                drop(&mut cands);
                continue;
            }
            told[i] = Some(Told::Move(to));
            spec[i] = Spec::Move {
                to,
                via_convoy: route > 0,
            };
            if route > 0 {
                // The fleets of the route convoy, and are ordered now.
                for &f in &routes[route - 1].1 {
                    told[f] = Some(Told::Stay);
                    spec[f] = Spec::Convoy { from: u.loc, to };
                    queue.retain(|&k| k != f);
                }
            }
            break;
        }
    }
    // Idle holds support the best of our neighbours' moves (or stands) that an enemy contests.
    for i in 0..units.len() {
        if spec[i] != Spec::Hold {
            continue;
        }
        let u = units[i];
        let mut best: Option<(i64, Spec)> = None;
        for (k, other) in units.iter().enumerate() {
            if k == i {
                continue;
            }
            let (prov, value, sp) = match told[k] {
                Some(Told::Move(dest)) => (
                    dest.province,
                    v.of(other.kind, dest),
                    Spec::SupportMove {
                        kind: Some(other.kind),
                        from: other.loc,
                        to: dest,
                    },
                ),
                _ => (
                    other.loc.province,
                    v.of(other.kind, other.loc),
                    Spec::SupportHold {
                        kind: Some(other.kind),
                        target: other.loc,
                    },
                ),
            };
            let needs = match told[k] {
                Some(Told::Move(_)) => v.competition[prov as usize] > 0,
                _ => v.competition[prov as usize] > 1,
            };
            if needs && value > 0 && reaches(map, &u, prov) && best.is_none_or(|(b, _)| value > b) {
                best = Some((value, sp));
            }
        }
        if let Some((_, sp)) = best {
            spec[i] = sp;
        }
    }
    units
        .iter()
        .zip(spec)
        .map(|(u, sp)| written(u, sp))
        .collect()
}

/// Where the army in `from` can be convoyed by our fleets at sea that are still free (not
/// ordered yet, or holding): each reachable coastal province not next to `from` by land, with
/// the fleets of the shortest chain that reaches it (breadth first, in map order).
fn convoy_routes(
    map: &OrdersMap,
    units: &[Piece],
    told: &[Option<Told>],
    spec: &[Spec],
    from: ProvinceId,
) -> Vec<(ProvinceId, Vec<usize>)> {
    let free: BTreeMap<ProvinceId, usize> = units
        .iter()
        .enumerate()
        .filter(|(k, f)| {
            f.kind == UnitType::Fleet
                && map.is_sea(f.loc.province)
                && (told[*k].is_none() || spec[*k] == Spec::Hold)
        })
        .map(|(k, f)| (f.loc.province, k))
        .collect();
    let by_land = &map.provinces[from as usize].army;
    let mut out: Vec<(ProvinceId, Vec<usize>)> = vec![];
    let mut paths: Vec<(ProvinceId, Vec<usize>)> = free
        .iter()
        .filter(|(&sea, _)| map.touches(sea, from))
        .map(|(&sea, &k)| (sea, vec![k]))
        .collect();
    let mut seen: Vec<ProvinceId> = paths.iter().map(|p| p.0).collect();
    while !paths.is_empty() {
        let mut next = vec![];
        for (sea, path) in &paths {
            for (i, p) in map.provinces.iter().enumerate() {
                let q = i as ProvinceId;
                if p.kind == ProvinceKind::Coast
                    && q != from
                    && !by_land.contains(&q)
                    && map.touches(*sea, q)
                    && !out.iter().any(|o| o.0 == q)
                {
                    out.push((q, path.clone()));
                }
            }
            for (&s2, &k) in &free {
                if !seen.contains(&s2) && map.touches(*sea, s2) {
                    seen.push(s2);
                    let mut p2 = path.clone();
                    p2.push(k);
                    next.push((s2, p2));
                }
            }
        }
        paths = next;
    }
    out
}

/// Retreats: each dislodged unit (in random order) to the best free place no other of ours
/// retreats to; disband when there is none.
fn retreats(
    s: &OrdersState,
    power: PowerId,
    d: &mut dyn Dice,
    spread: i64,
    value: impl Fn(UnitType, Loc) -> i64,
) -> Vec<Written> {
    let mut mine: Vec<_> = s
        .dislodged
        .iter()
        .filter(|x| x.piece.power == power)
        .collect();
    shuffle(d, &mut mine);
    let mut taken: Vec<ProvinceId> = vec![];
    let mut out = vec![];
    for x in mine {
        let mut cands: Vec<(Loc, i64)> = s
            .retreat_choices(x)
            .into_iter()
            .filter(|l| !taken.contains(&l.province))
            .map(|l| (l, value(x.piece.kind, l)))
            .collect();
        sort_best_first(&mut cands);
        let spec = match next_item_within(d, &cands, spread) {
            Some(to) => {
                taken.push(to.province);
                Spec::Retreat { to }
            }
            None => Spec::Disband,
        };
        out.push(written(&x.piece, spec));
    }
    out
}

/// A build: the kind, where, and the sea a fleet faces when it must name one (house option).
type Build = (UnitType, Loc, Option<ProvinceId>);

/// Where `power` may build now.
fn build_slots(s: &OrdersState, power: PowerId) -> Vec<Build> {
    let map = s.map();
    let mut out = vec![];
    for h in s.build_sites(power) {
        out.push((UnitType::Army, Loc::new(h), None));
        if map.provinces[h as usize].kind == ProvinceKind::Coast {
            for loc in map.fleet_locs(h) {
                let seas = map.seas_of(loc);
                if s.options.fleet_facing && seas.len() > 1 {
                    out.extend(seas.iter().map(|&sea| (UnitType::Fleet, loc, Some(sea))));
                } else {
                    out.push((UnitType::Fleet, loc, None));
                }
            }
        }
    }
    out
}

fn build_order(kind: UnitType, at: Loc, sea: Option<ProvinceId>) -> Written {
    Written {
        kind,
        at,
        spec: sea.map_or(Spec::Build, |sea| Spec::BuildFacing { sea }),
    }
}

/// Builds at the best places (one per home centre), or disbands the least valuable units.
fn adjust(
    s: &OrdersState,
    power: PowerId,
    d: &mut dyn Dice,
    spread: i64,
    value: impl Fn(UnitType, Loc) -> i64,
) -> Vec<Written> {
    let n = s.adjustment(power);
    let mut out = vec![];
    if n > 0 {
        let mut cands: Vec<(Build, i64)> = build_slots(s, power)
            .into_iter()
            .map(|b| {
                (
                    b,
                    value(b.0, b.1)
                        + b.2
                            .map_or(0, |sea| value(UnitType::Fleet, Loc::new(sea)) / 8),
                )
            })
            .collect();
        sort_best_first(&mut cands);
        while (out.len() as i32) < n {
            let Some((kind, at, sea)) = next_item_within(d, &cands, spread) else {
                break;
            };
            out.push(build_order(kind, at, sea));
            cands.retain(|((_, l, _), _)| l.province != at.province);
        }
    } else if n < 0 {
        let mut cands: Vec<(Piece, i64)> = s
            .orderable_units(power)
            .into_iter()
            .map(|u| (u, -value(u.kind, u.loc)))
            .collect();
        sort_best_first(&mut cands);
        for _ in 0..n.unsigned_abs() {
            let Some(u) = next_item_within(d, &cands, spread) else {
                break;
            };
            out.push(written(&u, Spec::Disband));
            cands.retain(|(x, _)| x.loc != u.loc);
        }
    }
    out
}

/// Random legal orders; a unit next to a supply centre we do not own moves there two times in
/// three. Retreats and builds at random, disbands at random.
fn easy(s: &OrdersState, power: PowerId, d: &mut dyn Dice) -> Vec<Written> {
    let map = s.map();
    let foreign_centre =
        |p: ProvinceId| map.provinces[p as usize].centre && s.centres.get(&p) != Some(&power);
    match s.phase {
        Phase::Movement => s
            .orderable_units(power)
            .iter()
            .map(|u| {
                let targets = moves_from(map, u.kind, u.loc, u.facing);
                let centres: Vec<Loc> = targets
                    .iter()
                    .copied()
                    .filter(|l| foreign_centre(l.province))
                    .collect();
                let spec = if !centres.is_empty() && d.below(3) < 2 {
                    Spec::Move {
                        to: centres[d.below(centres.len() as u32) as usize],
                        via_convoy: false,
                    }
                } else {
                    let k = d.below(targets.len() as u32 + 1) as usize;
                    targets.get(k).map_or(Spec::Hold, |&to| Spec::Move {
                        to,
                        via_convoy: false,
                    })
                };
                written(u, spec)
            })
            .collect(),
        Phase::Retreat | Phase::Adjustment => {
            // A random value per province, drawn once for the phase.
            let r = d.next_u32();
            let random = move |_: UnitType, l: Loc| {
                i64::from(sha256(&[&r.to_le_bytes()[..], &[l.province]].concat())[0])
            };
            if s.phase == Phase::Retreat {
                retreats(s, power, d, NORMAL_SPREAD, random)
            } else {
                adjust(s, power, d, NORMAL_SPREAD, random)
            }
        }
        Phase::GameOver { .. } => vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::orders::OrdersOptions;

    #[test]
    fn next_item_takes_the_best_unless_the_next_is_close() {
        let mut d = SeededDice::new([7; 32]);
        let far = [(1, 1000), (2, 10)];
        for _ in 0..20 {
            assert_eq!(next_item_within(&mut d, &far, NORMAL_SPREAD), Some(1));
        }
        let close = [(1, 1000), (2, 990)];
        let picks: Vec<i32> = (0..40)
            .filter_map(|_| next_item_within(&mut d, &close, NORMAL_SPREAD))
            .collect();
        assert!(picks.contains(&1) && picks.contains(&2));
        assert_eq!(next_item_within::<i32>(&mut d, &[], NORMAL_SPREAD), None);
    }

    #[test]
    fn opening_orders_are_the_same_for_the_same_salt_and_legal() {
        let s = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
        for p in 0..7 {
            let a = orders_for(&s, p, BotLevel::Normal, b"x");
            assert_eq!(a, orders_for(&s, p, BotLevel::Normal, b"x"));
            assert_eq!(a.len(), s.orderable_units(p).len());
            let mut t = s.clone();
            t.apply(&OrdersAction::Submit {
                power: p,
                orders: a,
            })
            .unwrap();
        }
    }
}
