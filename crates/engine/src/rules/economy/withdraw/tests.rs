use super::super::action::EconomyAction as A;
use super::super::battlefield::BattleAction;
use super::super::combat::tests::{act, game, hold, mv, r, to_combat};
use super::super::phase::Phase;
use super::*;

/// Ann (4 armies from Western Europe) against Bob (3 in Northern Europe, his own), Ann holding
/// initiative; the battle in Northern Europe is picked.
fn battle(bob: u32) -> EconomyState {
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 1, "northern_europe", bob, 0);
    hold(&mut s, 1, "scandinavia", 1, 0);
    to_combat(
        &mut s,
        vec![vec![mv("western_europe", "northern_europe", 4, 0)], vec![]],
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
    s
}

#[test]
fn where_units_may_withdraw_to() {
    let s = battle(3);
    let ne = Site::Region(r("northern_europe"));
    let map = EconomyMap::get();
    // Ann's newcomers go back where they came from.
    assert_eq!(
        s.withdraw_options(map, ne, 0),
        vec![(
            r("western_europe"),
            Force {
                armies: 4,
                navies: 0
            }
        )]
    );
    // Bob's defenders, which have not moved, go to any bordering country or onto the coast.
    let bob: Vec<RegionId> = s
        .withdraw_options(map, ne, 1)
        .into_iter()
        .map(|(x, _)| x)
        .collect();
    assert!(bob.contains(&r("ukraine")) && bob.contains(&r("northern_europe_coast")));
    assert!(!bob.contains(&r("egypt")));
}

#[test]
fn a_withdraw_is_intercepted_unit_by_unit() {
    let mut s = battle(3);
    let ukraine = r("ukraine");
    act(
        &mut s,
        A::Declare {
            player: 0,
            action: None,
        },
        vec![],
    )
    .unwrap();
    assert_eq!(
        act(
            &mut s,
            A::Declare {
                player: 1,
                action: Some(BattleAction::Withdraw {
                    force: Force {
                        armies: 3,
                        navies: 0
                    },
                    to: r("egypt"),
                    burn_roads: false,
                }),
            },
            vec![],
        ),
        Err(EconomyError::ActionNotPossible)
    );
    act(
        &mut s,
        A::Declare {
            player: 1,
            action: Some(BattleAction::Withdraw {
                force: Force {
                    armies: 3,
                    navies: 0,
                },
                to: ukraine,
                burn_roads: false,
            }),
        },
        vec![],
    )
    .unwrap();
    // Ann may intercept; she is asked.
    assert_eq!(s.to_act(), vec![0]);
    // Withdrawing, Bob's units are no longer defenders (no fortifications here). 2 against 6+1
    // (Ann has more units): his unit dies. 5 against 1+1 (2 against 4 is exactly twice: Ann +1):
    // it gets away and Ann's interceptor dies. 4 against 4+2 (1 against 3): his last dies.
    let ev = act(
        &mut s,
        A::Intercept {
            player: 0,
            yes: true,
        },
        vec![2, 6, 5, 1, 4, 4],
    )
    .unwrap();
    assert!(ev.contains(&EconomyEvent::Withdrew {
        player: 1,
        to: ukraine,
        away: Force {
            armies: 1,
            navies: 0
        },
        lost: Force {
            armies: 2,
            navies: 0
        },
    }));
    assert_eq!(s.units_of(0, r("northern_europe")).armies, 3);
    // Bob withdrew after an interception (an attack): Ann's victory, Bob's loss.
    assert!(ev.contains(&EconomyEvent::BattleClosed {
        site: Site::Region(r("northern_europe")),
        victories: vec![0],
        losses: vec![1],
    }));
    // Bob's army reached Ukraine, which nobody holds: it is his next round.
    assert_eq!(s.phase, Phase::Get);
    assert_eq!(s.regions[ukraine as usize].owner, Some(1));
}

#[test]
fn a_standing_order_ends_an_attack_with_a_withdraw() {
    let mut s = battle(6);
    let we = r("western_europe");
    assert_eq!(
        act(
            &mut s,
            A::SetRetreat {
                player: 0,
                retreat: Some(Retreat {
                    at: 2,
                    to: r("ukraine")
                }),
            },
            vec![],
        ),
        Err(EconomyError::CannotWithdrawThere(r("ukraine")))
    );
    act(
        &mut s,
        A::SetRetreat {
            player: 0,
            retreat: Some(Retreat { at: 2, to: we }),
        },
        vec![],
    )
    .unwrap();
    act(
        &mut s,
        A::Declare {
            player: 1,
            action: None,
        },
        vec![],
    )
    .unwrap();
    // Ann loses two rolls; down to 2 she withdraws, and Bob is asked about intercepting.
    act(
        &mut s,
        A::Declare {
            player: 0,
            action: Some(BattleAction::Attack {
                target: Foe::Player(1),
                kind: Kind::Army,
            }),
        },
        vec![1, 6, 1, 6],
    )
    .unwrap();
    assert_eq!(s.to_act(), vec![1]);
    let ev = act(
        &mut s,
        A::Intercept {
            player: 1,
            yes: false,
        },
        vec![],
    )
    .unwrap();
    assert!(ev.contains(&EconomyEvent::Withdrew {
        player: 0,
        to: we,
        away: Force {
            armies: 2,
            navies: 0
        },
        lost: Force::default(),
    }));
    assert!(ev.contains(&EconomyEvent::BattleClosed {
        site: Site::Region(r("northern_europe")),
        victories: vec![1],
        losses: vec![0],
    }));
    assert_eq!(s.units_of(0, we).armies, 4);
}

#[test]
fn units_that_withdrew_do_not_withdraw_again() {
    // Bob's defenders withdraw from Northern Europe into Ukraine, held by a neutral army.
    let mut s = battle(3);
    s.regions[r("ukraine") as usize].neutral = 1;
    act(
        &mut s,
        A::Declare {
            player: 0,
            action: None,
        },
        vec![],
    )
    .unwrap();
    let away = BattleAction::Withdraw {
        force: Force {
            armies: 3,
            navies: 0,
        },
        to: r("ukraine"),
        burn_roads: false,
    };
    act(
        &mut s,
        A::Declare {
            player: 1,
            action: Some(away),
        },
        vec![],
    )
    .unwrap();
    act(
        &mut s,
        A::Intercept {
            player: 0,
            yes: false,
        },
        vec![],
    )
    .unwrap();
    // A battle awaits them in Ukraine, and they cannot withdraw from it: they have crossed
    // their last border this round.
    let uk = Site::Region(r("ukraine"));
    assert!(s.combat.as_ref().unwrap().tokens.contains(&uk));
    assert!(s.withdraw_options(EconomyMap::get(), uk, 1).is_empty());
}

#[test]
fn withdrawing_armies_may_burn_the_roads_behind_them() {
    let mut s = battle(3);
    s.regions[r("northern_europe") as usize].infra.roads = true;
    act(
        &mut s,
        A::Declare {
            player: 0,
            action: None,
        },
        vec![],
    )
    .unwrap();
    let away = BattleAction::Withdraw {
        force: Force {
            armies: 3,
            navies: 0,
        },
        to: r("ukraine"),
        burn_roads: true,
    };
    act(
        &mut s,
        A::Declare {
            player: 1,
            action: Some(away),
        },
        vec![],
    )
    .unwrap();
    // Ann lets them go; three armies roll, and a 6 destroys Northern Europe's roads.
    let ev = act(
        &mut s,
        A::Intercept {
            player: 0,
            yes: false,
        },
        vec![2, 6, 1],
    )
    .unwrap();
    assert!(ev.contains(&EconomyEvent::RoadsBurned {
        player: 1,
        country: r("northern_europe"),
        dice: vec![2, 6, 1],
        destroyed: true,
    }));
    assert!(!s.regions[r("northern_europe") as usize].infra.roads);
}
