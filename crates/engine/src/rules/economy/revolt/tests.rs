use super::super::action::EconomyAction as A;
use super::super::combat::tests::{act, game, hold, mv, r, to_combat};
use super::*;

/// Combat has begun with a battle pending in Northern Europe (Ann's 2 armies against Bob's 3);
/// Ann holds the Ukraine card, where Bob has 2 armies.
fn ready() -> EconomyState {
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 1, "ukraine", 2, 0);
    s.players[0].cards = vec![r("ukraine")];
    to_combat(
        &mut s,
        vec![vec![mv("western_europe", "northern_europe", 2, 0)], vec![]],
        vec![6, 1],
    );
    s
}

#[test]
fn a_card_raises_two_armies_whose_first_rolls_risk_nothing() {
    let mut s = ready();
    let uk = r("ukraine");
    assert_eq!(
        act(
            &mut s,
            A::IncitRevolution {
                player: 0,
                country: r("peru"),
                target: None
            },
            vec![]
        ),
        Err(EconomyError::CardNotHeld(r("peru")))
    );
    // Two surprise rolls against Bob's defenders (two against two; Bob +1 as defender): 6
    // against 2 + 1 hits; 1 against 6 + 1 misses, at no cost.
    let ev = act(
        &mut s,
        A::IncitRevolution {
            player: 0,
            country: uk,
            target: Some(Foe::Player(1)),
        },
        vec![6, 2, 1, 6],
    )
    .unwrap();
    let hits: Vec<bool> = ev
        .iter()
        .filter_map(|e| match e {
            EconomyEvent::IncitedRoll { hit, .. } => Some(*hit),
            _ => None,
        })
        .collect();
    assert_eq!(hits, vec![true, false]);
    assert_eq!(
        s.units_of(0, uk),
        Force {
            armies: 2,
            navies: 0
        }
    );
    assert_eq!(s.units_of(1, uk).armies, 1);
    assert!(s.players[0].cards.is_empty());
    assert_eq!(s.discard, vec![uk]);
    // A battle token now lies in Ukraine.
    assert!(s
        .combat
        .as_ref()
        .unwrap()
        .tokens
        .contains(&Site::Region(uk)));
}

#[test]
fn a_revolution_where_nobody_stands_takes_the_country_unopposed() {
    let mut s = ready();
    s.players[0].cards = vec![r("peru")];
    act(
        &mut s,
        A::IncitRevolution {
            player: 0,
            country: r("peru"),
            target: None,
        },
        vec![],
    )
    .unwrap();
    assert_eq!(s.units_of(0, r("peru")).armies, 2);
    // Nothing to fight there: no token is left in Peru.
    assert!(!s
        .combat
        .as_ref()
        .unwrap()
        .tokens
        .contains(&Site::Region(r("peru"))));
}
