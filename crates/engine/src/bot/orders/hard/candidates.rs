//! Candidate order sets for `hard`'s search: `normal`'s own set first, then `normal`'s procedure
//! with a wider choice of alternatives; and the sets one unit's order away from a given set.
//! Every set is legal and none of its orders is void: supports and convoys name our own units'
//! actual orders (see [`fixup`]).

use super::super::values::{moves_from, Values};
use super::super::{normal_moves, reaches, NORMAL_SPREAD};
use crate::dice::Dice;
use crate::rules::orders::adjudicator::Piece;
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

/// The unit standing in province `p`, as an index into `units`.
fn unit_at(units: &[Piece], p: ProvinceId) -> Option<usize> {
    units.iter().position(|u| u.loc.province == p)
}

/// Turns into holds the supports and convoys that no longer match the order of the unit they
/// name (the adjudicator would void them). A new hold never unmatches another order, so one
/// pass is enough.
pub(super) fn fixup(units: &[Piece], orders: &mut [Written]) {
    for k in 0..orders.len() {
        let moves_to = |from: ProvinceId, to: ProvinceId, orders: &[Written]| {
            unit_at(units, from).is_some_and(
                |j| matches!(orders[j].spec, Spec::Move { to: t, .. } if t.province == to),
            )
        };
        let ok = match orders[k].spec {
            Spec::SupportHold { target, .. } => unit_at(units, target.province)
                .is_some_and(|j| !matches!(orders[j].spec, Spec::Move { .. })),
            Spec::SupportMove { from, to, .. } => moves_to(from.province, to.province, orders),
            Spec::Convoy { from, to } => moves_to(from.province, to.province, orders),
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
