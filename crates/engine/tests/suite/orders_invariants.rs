//! Invariants of the orders adjudicator on random dense positions with convoys: no two units end
//! in one province, every unit is accounted for, and the result does not depend on the order in
//! which units are listed (the guessing in dependency cycles must not leak into results).

use crate::orders_random;

use orbis_engine::rules::orders::adjudicator::{Geography, Loc, Piece, UnitType};
use orbis_engine::rules::orders::map::OrdersMap;
use orbis_engine::rules::orders::movement;
use orbis_engine::rules::orders::notation::{Spec, Written};
use orders_random::*;
use std::collections::BTreeSet;

/// Adds convoys: some armies on coasts go by sea along a chain of one or two fleets at sea that
/// are ordered to convoy them (other fleets sometimes join in, off the route).
fn add_convoys(m: &OrdersMap, rng: &mut Rng, units: &[Piece], orders: &mut [Written]) {
    let fleets_at_sea: Vec<usize> = (0..units.len())
        .filter(|&i| units[i].kind == UnitType::Fleet && m.is_sea(units[i].loc.province))
        .collect();
    for i in 0..units.len() {
        let u = units[i];
        if u.kind != UnitType::Army || !m.is_coastal(u.loc.province) || rng.below(2) != 0 {
            continue;
        }
        let first: Vec<usize> = fleets_at_sea
            .iter()
            .copied()
            .filter(|&f| m.touches(units[f].loc.province, u.loc.province))
            .collect();
        if first.is_empty() {
            continue;
        }
        let mut chain = vec![first[rng.below(first.len())]];
        let last = units[chain[0]].loc.province;
        let next: Vec<usize> = fleets_at_sea
            .iter()
            .copied()
            .filter(|&g| g != chain[0] && m.touches(last, units[g].loc.province))
            .collect();
        if !next.is_empty() && rng.below(2) == 0 {
            chain.push(next[rng.below(next.len())]);
        }
        let end = units[*chain.last().unwrap()].loc.province;
        let targets: Vec<u8> = (0..m.len() as u8)
            .filter(|&p| p != u.loc.province && m.is_coastal(p) && m.touches(end, p))
            .collect();
        if targets.is_empty() {
            continue;
        }
        let to = targets[rng.below(targets.len())];
        orders[i].spec = Spec::Move {
            to: Loc::new(to),
            via_convoy: rng.below(4) == 0,
        };
        if rng.below(4) == 0 {
            chain.push(fleets_at_sea[rng.below(fleets_at_sea.len())]);
        }
        for f in chain {
            orders[f].spec = Spec::Convoy {
                from: u.loc,
                to: Loc::new(to),
            };
        }
    }
}

#[test]
fn random_phases_keep_the_invariants() {
    let m = OrdersMap::europe();
    let their_map = diplomacy::geo::standard_map();
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let mut dislodgements = 0;
    let mut convoyed = 0;
    for round in 0..600 {
        let (units, mut orders, _) = random_phase(m, their_map, &mut rng);
        add_convoys(m, &mut rng, &units, &mut orders);
        let pairs: Vec<_> = units
            .iter()
            .zip(&orders)
            .map(|(u, w)| (u.power, *w))
            .collect();
        let r = movement(m, &units, &pairs);
        // No two units in one province; everyone is on the board or dislodged.
        let provinces: BTreeSet<u8> = r.units.iter().map(|u| u.loc.province).collect();
        assert_eq!(provinces.len(), r.units.len(), "round {round}");
        assert_eq!(
            r.units.len() + r.dislodged.len(),
            units.len(),
            "round {round}"
        );
        for d in &r.dislodged {
            assert!(
                !provinces.contains(&d.piece.loc.province) || {
                    // Someone else moved in.
                    r.units
                        .iter()
                        .any(|u| u.loc.province == d.piece.loc.province && *u != d.piece)
                }
            );
        }
        dislodgements += r.dislodged.len();
        convoyed += (0..units.len())
            .filter(|&i| {
                units[i].kind == UnitType::Army
                    && r.results[i].outcome == orbis_engine::rules::orders::adjudicator::Outcome::Ok
                    && matches!(orders[i].spec, Spec::Move { to, .. }
                        if !m.can_move(UnitType::Army, units[i].loc, to))
            })
            .count();
        // The same phase listed in reverse gives the same results.
        let rev_units: Vec<Piece> = units.iter().rev().copied().collect();
        let rev_pairs: Vec<_> = pairs.iter().rev().copied().collect();
        let rr = movement(m, &rev_units, &rev_pairs);
        assert_eq!(rr.units, r.units, "round {round}");
        let n = units.len();
        for i in 0..n {
            assert_eq!(
                rr.results[n - 1 - i].outcome,
                r.results[i].outcome,
                "round {round}, unit {i}"
            );
        }
        assert_eq!(rr.contested, r.contested, "round {round}");
        // And so does a random order.
        let mut perm: Vec<usize> = (0..n).collect();
        for k in (1..n).rev() {
            perm.swap(k, rng.below(k + 1));
        }
        let p_units: Vec<Piece> = perm.iter().map(|&k| units[k]).collect();
        let p_pairs: Vec<_> = perm.iter().map(|&k| pairs[k]).collect();
        let pr = movement(m, &p_units, &p_pairs);
        assert_eq!(pr.units, r.units, "round {round}");
        for (pos, &k) in perm.iter().enumerate() {
            assert_eq!(
                pr.results[pos].outcome, r.results[k].outcome,
                "round {round}"
            );
        }
    }
    assert!(dislodgements > 100, "{dislodgements}");
    assert!(convoyed > 200, "only {convoyed} successful convoys");
}
