//! Differential test of the orders adjudicator against the `diplomacy` crate (MIT) on random dense
//! positions of the Europe map. Orders are holds, moves and supports only (no convoys), where the
//! DATC leaves no choice, so both adjudicators must agree on every move and every dislodgement.

use crate::orders_random;

use diplomacy::judge::{MappedMainOrder, OrderState, Rulebook, Submission};
use orbis_engine::rules::orders::adjudicator::Outcome;
use orbis_engine::rules::orders::map::OrdersMap;
use orbis_engine::rules::orders::movement;
use orbis_engine::rules::orders::notation::Spec;
use orders_random::*;

#[test]
fn agrees_with_the_diplomacy_crate_on_random_dense_positions() {
    let m = OrdersMap::europe();
    let their_map = diplomacy::geo::standard_map();
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let mut moves_checked = 0;
    for round in 0..1000 {
        let (units, orders, texts) = random_phase(m, their_map, &mut rng);
        let ours = movement(
            m,
            &units,
            &units
                .iter()
                .zip(&orders)
                .map(|(u, w)| (u.power, *w))
                .collect::<Vec<_>>(),
        );
        let parsed: Vec<MappedMainOrder> = texts
            .iter()
            .map(|t| t.parse().unwrap_or_else(|e| panic!("{t}: {e:?}")))
            .collect();
        let sub = Submission::with_inferred_state(their_map, parsed.clone());
        let outcome = sub.adjudicate(Rulebook::edition_2023());
        for (i, o) in parsed.iter().enumerate() {
            let theirs = OrderState::from(outcome.get(o).expect("outcome"));
            if let Spec::Move { .. } = orders[i].spec {
                let mine = ours.results[i].outcome == Outcome::Ok;
                if mine != (theirs == OrderState::Succeeds) {
                    for (k, o) in parsed.iter().enumerate() {
                        eprintln!(
                            "{} => theirs {:?} ours {:?}",
                            texts[k],
                            outcome.get(o).unwrap(),
                            ours.results[k].outcome
                        );
                    }
                }
                assert_eq!(
                    mine,
                    theirs == OrderState::Succeeds,
                    "round {round}: {} (ours {:?})\n{}",
                    texts[i],
                    ours.results[i].outcome,
                    texts.join("\n")
                );
                moves_checked += 1;
            }
        }
        // Every move into a province held by a unit that stays dislodges it in both.
        let their_start = outcome.to_retreat_start();
        let mut theirs: Vec<usize> = their_start
            .dislodged()
            .keys()
            .map(|o| parsed.iter().position(|p| p == *o).expect("known order"))
            .collect();
        theirs.sort_unstable();
        let mut mine: Vec<usize> = ours
            .dislodged
            .iter()
            .map(|d| {
                units
                    .iter()
                    .position(|u| *u == d.piece)
                    .expect("known unit")
            })
            .collect();
        mine.sort_unstable();
        assert_eq!(mine, theirs, "round {round}\n{}", texts.join("\n"));
    }
    assert!(moves_checked > 10_000, "{moves_checked}");
}
