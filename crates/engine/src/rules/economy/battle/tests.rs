use super::super::action::EconomyAction as A;
use super::super::combat::tests::{act, declare, game, hold, mv, pass, r, to_combat};
use super::*;

/// The totals of every roll in `events`.
fn totals(events: &[EconomyEvent]) -> Vec<(i32, i32)> {
    events
        .iter()
        .filter_map(|e| match e {
            EconomyEvent::BattleRoll { totals, .. } => Some(*totals),
            _ => None,
        })
        .collect()
}

fn attack(target: Foe) -> Option<BattleAction> {
    Some(BattleAction::Attack {
        target,
        kind: Kind::Army,
    })
}

#[test]
fn flanks_and_fortifications() {
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 0, "southern_europe", 3, 0);
    s.regions[r("northern_europe") as usize]
        .infra
        .fortifications = true;
    to_combat(
        &mut s,
        vec![
            vec![
                mv("western_europe", "northern_europe", 2, 0),
                mv("southern_europe", "northern_europe", 2, 0),
            ],
            vec![],
        ],
        vec![6, 1],
    );
    let ne = Site::Region(r("northern_europe"));
    act(
        &mut s,
        A::PickBattle {
            player: 0,
            site: ne,
        },
        vec![],
    )
    .unwrap();
    pass(&mut s, 1);
    // Ann: 4 against 3 (+1), from two countries (+1). Bob: defender in fortifications (+2).
    let ev = act(
        &mut s,
        A::Declare {
            player: 0,
            action: attack(Foe::Player(1)),
        },
        vec![3, 3, 3, 3, 3, 3],
    )
    .unwrap();
    // 5 against 5: both lose, three times; Ann keeps her flanks (she rolls from the larger of
    // her two groups) and her majority, and keeps one army when Bob's last falls.
    assert_eq!(totals(&ev)[0], (5, 5));
    assert_eq!(s.units_of(0, r("northern_europe")).armies, 1);
}

#[test]
fn armies_landing_from_water_are_amphibious() {
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 0, "northern_europe_coast", 3, 3);
    to_combat(
        &mut s,
        vec![
            vec![mv("northern_europe_coast", "northern_europe", 3, 0)],
            vec![],
        ],
        vec![6, 1],
    );
    let ne = Site::Region(r("northern_europe"));
    act(
        &mut s,
        A::PickBattle {
            player: 0,
            site: ne,
        },
        vec![],
    )
    .unwrap();
    pass(&mut s, 1);
    // Ann 3 against 3, amphibious (−1); Bob defends (+1).
    let ev = act(
        &mut s,
        A::Declare {
            player: 0,
            action: attack(Foe::Player(1)),
        },
        vec![4, 2, 4, 2, 4, 2],
    )
    .unwrap();
    assert_eq!(totals(&ev)[0], (3, 3));
}

#[test]
fn neutral_armies_defend_to_the_death_and_count_as_a_victory() {
    let mut s = game(&["Ann", "Bob"]);
    s.regions[r("southern_europe") as usize].neutral.armies = 1;
    to_combat(
        &mut s,
        vec![vec![mv("western_europe", "southern_europe", 3, 0)], vec![]],
        vec![6, 1],
    );
    let se = Site::Region(r("southern_europe"));
    act(
        &mut s,
        A::PickBattle {
            player: 0,
            site: se,
        },
        vec![],
    )
    .unwrap();
    // The neutral army rolls a 6 and wins once; then loses.
    let ev = act(
        &mut s,
        A::Declare {
            player: 0,
            action: attack(Foe::Neutral),
        },
        vec![6, 6, 6, 1],
    )
    .unwrap();
    // Ann 3 against 1 (+2); then 2 against 1, exactly twice (+1). The neutral defends (+1).
    assert_eq!(totals(&ev), vec![(8, 7), (7, 2)]);
    assert!(ev.contains(&EconomyEvent::BattleClosed {
        site: se,
        victories: vec![0],
        losses: vec![]
    }));
    assert_eq!(s.regions[r("southern_europe") as usize].neutral.armies, 0);
    assert_eq!(s.units_of(0, r("southern_europe")).armies, 2);
}

#[test]
fn armies_fight_armies_and_navies_fight_navies() {
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 0, "western_europe_coast", 0, 2);
    hold(&mut s, 1, "northern_europe_coast", 1, 0);
    to_combat(
        &mut s,
        vec![
            vec![mv("western_europe_coast", "northern_europe_coast", 0, 2)],
            vec![],
        ],
        vec![6, 1],
    );
    // Ann's navies meet Bob's army at sea: neither can attack the other, but either may
    // withdraw, so both are asked; neither does, and the battle is over as is.
    let coast = Site::Region(r("northern_europe_coast"));
    assert_eq!(s.possible_actions(coast, 0), vec![]);
    act(
        &mut s,
        A::PickBattle {
            player: 0,
            site: coast,
        },
        vec![],
    )
    .unwrap();
    pass(&mut s, 1);
    let ev = declare(&mut s, 0, None, vec![]).unwrap();
    assert!(ev.contains(&EconomyEvent::Sunk {
        player: 1,
        region: r("northern_europe_coast"),
        armies: 1
    }));
    // Ann's navies, a water step in, have two thirds of a move left: she may sail on; she stops.
    assert_eq!(s.to_act(), vec![0]);
    assert!(!s
        .onward_options(EconomyMap::get(), 0, r("northern_europe_coast"))
        .is_empty());
    act(&mut s, A::StopMoving { player: 0 }, vec![]).unwrap();
    assert_eq!(s.phase, Phase::Get);
    // Bob lost the water to hostile navies, and his army there has no navy: it drowned.
    assert_eq!(s.units_of(1, r("northern_europe_coast")), Force::default());
    assert_eq!(
        s.regions[r("northern_europe_coast") as usize].owner,
        Some(0)
    );
}
