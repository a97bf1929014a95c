//! Candidate order sets for `hard`'s search: `normal`'s own set first, then `normal`'s procedure
//! with a wider choice of alternatives; and the sets one unit's order away from a given set.
//! Every set is legal and none of its orders is void: supports and convoys name our own units'
//! actual orders (see [`fixup`]).

use super::super::values::{moves_from, Values};
use super::super::{normal_moves, reaches, NORMAL_SPREAD};
use crate::dice::Dice;
use crate::rules::orders::adjudicator::{Loc, Piece};
use crate::rules::orders::map::{OrdersMap, PowerId, ProvinceId};
use crate::rules::orders::notation::{Spec, Written};
use crate::rules::orders::OrdersState;

/// `hard`'s candidates: an alternative within a half of the best is played half the time (normal
/// plays one within a fifth), so the sets differ where the choice is close.
const WIDE_SPREAD: i64 = 2;

/// Up to `count` different order sets for `power` (aligned with `s.orderable_units(power)`),
/// `normal`'s set first.
pub(super) fn generate(
    s: &OrdersState,
    power: PowerId,
    v: &Values,
    d: &mut dyn Dice,
    count: usize,
) -> Vec<Vec<Written>> {
    let mut out: Vec<Vec<Written>> = vec![normal_moves(s, power, v, d, NORMAL_SPREAD)];
    // A few draws more than asked for: some come out the same.
    for _ in 0..3 * count {
        if out.len() >= count {
            break;
        }
        let set = normal_moves(s, power, v, d, WIDE_SPREAD);
        if !out.contains(&set) {
            out.push(set);
        }
    }
    out
}

/// The set of a power that grabs: every unit moves into the best-valued supply centre next to
/// it that its power does not own (one unit to a centre), the others hold. What a careless or
/// random neighbour does most; `hard` checks its own orders against it.
pub(super) fn greedy(s: &OrdersState, power: PowerId, v: &Values) -> Vec<Written> {
    let map = s.map();
    let mut taken: Vec<ProvinceId> = vec![];
    s.orderable_units(power)
        .iter()
        .map(|u| {
            let best = moves_from(map, u.kind, u.loc, u.facing)
                .into_iter()
                .filter(|l| {
                    map.provinces[l.province as usize].centre
                        && s.centres.get(&l.province) != Some(&power)
                        && !taken.contains(&l.province)
                })
                .map(|l| (l, v.of(u.kind, l)))
                .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)));
            let spec = match best {
                Some((to, _)) => {
                    taken.push(to.province);
                    Spec::Move {
                        to,
                        via_convoy: false,
                    }
                }
                None => Spec::Hold,
            };
            Written {
                kind: u.kind,
                at: u.loc,
                spec,
            }
        })
        .collect()
}

/// The unit standing in province `p`, as an index into `units`.
fn unit_at(units: &[Piece], p: ProvinceId) -> Option<usize> {
    units.iter().position(|u| u.loc.province == p)
}

/// Turns into holds the supports and convoys that no longer match the order of the unit they
/// name (the adjudicator would void them). A new hold never unmatches another order, so one
/// pass is enough.
pub(super) fn fixup(units: &[Piece], orders: &mut [Written]) {
    for k in 0..orders.len() {
        // A support names the coast too (another coast of the same province voids it).
        let moves_to = |from: ProvinceId, to: Loc, coast: bool, orders: &[Written]| {
            unit_at(units, from).is_some_and(|j| {
                matches!(orders[j].spec, Spec::Move { to: t, .. }
                    if t.province == to.province && (!coast || t == to))
            })
        };
        let ok = match orders[k].spec {
            Spec::SupportHold { target, .. } => unit_at(units, target.province)
                .is_some_and(|j| !matches!(orders[j].spec, Spec::Move { .. })),
            Spec::SupportMove { from, to, .. } => moves_to(from.province, to, true, orders),
            Spec::Convoy { from, to } => moves_to(from.province, to, false, orders),
            _ => true,
        };
        if !ok {
            orders[k].spec = Spec::Hold;
        }
    }
}

/// The order sets that differ from `orders` in unit `i`'s order (a hold, another move, a
/// support of another of our units where `i` reaches), each made consistent by [`fixup`].
/// Convoying fleets and convoyed armies keep their orders (their route is one decision).
pub(super) fn alternatives(
    map: &OrdersMap,
    units: &[Piece],
    orders: &[Written],
    i: usize,
) -> Vec<Vec<Written>> {
    let u = units[i];
    let current = orders[i].spec;
    if matches!(
        current,
        Spec::Convoy { .. }
            | Spec::Move {
                via_convoy: true,
                ..
            }
    ) {
        return vec![];
    }
    let mut specs = vec![Spec::Hold];
    specs.extend(
        moves_from(map, u.kind, u.loc, u.facing)
            .into_iter()
            .map(|to| Spec::Move {
                to,
                via_convoy: false,
            }),
    );
    for (j, other) in units.iter().enumerate() {
        if j == i {
            continue;
        }
        match orders[j].spec {
            Spec::Move {
                to,
                via_convoy: false,
            } => {
                if to.province != u.loc.province && reaches(map, &u, to.province) {
                    specs.push(Spec::SupportMove {
                        kind: Some(other.kind),
                        from: other.loc,
                        to,
                    });
                }
            }
            Spec::Move { .. } => {}
            _ => {
                if reaches(map, &u, other.loc.province) {
                    specs.push(Spec::SupportHold {
                        kind: Some(other.kind),
                        target: other.loc,
                    });
                }
            }
        }
    }
    specs
        .into_iter()
        .filter(|sp| *sp != current)
        .map(|sp| {
            let mut set = orders.to_vec();
            set[i].spec = sp;
            fixup(units, &mut set);
            set
        })
        .collect()
}
