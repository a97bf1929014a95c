use super::super::action::EconomyAction as A;
use super::super::battlefield::{BattleAction, WithdrawOrder};
use super::super::combat::tests::{act, declare, game, hold, mv, pass, r, to_combat};
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
    pass(&mut s, 0);
    assert_eq!(
        act(
            &mut s,
            A::Declare {
                player: 1,
                action: Some(BattleAction::Withdraw(WithdrawOrder {
                    force: Force {
                        armies: 3,
                        navies: 0
                    },
                    to: r("egypt"),
                    burn_roads: false,
                    stay: false,
                    break_off: None,
                })),
            },
            vec![],
        ),
        Err(EconomyError::ActionNotPossible)
    );
    act(
        &mut s,
        A::Declare {
            player: 1,
            action: Some(BattleAction::Withdraw(WithdrawOrder {
                force: Force {
                    armies: 3,
                    navies: 0,
                },
                to: ukraine,
                burn_roads: false,
                stay: false,
                break_off: None,
            })),
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
        stayed: false,
        broken_off: Force::default(),
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
                    to: r("ukraine"),
                    stay: false,
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
            retreat: Some(Retreat {
                at: 2,
                to: we,
                stay: false,
            }),
        },
        vec![],
    )
    .unwrap();
    pass(&mut s, 1);
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
        stayed: false,
        broken_off: Force::default(),
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
    s.regions[r("ukraine") as usize].neutral.armies = 1;
    pass(&mut s, 0);
    let away = BattleAction::Withdraw(WithdrawOrder {
        force: Force {
            armies: 3,
            navies: 0,
        },
        to: r("ukraine"),
        burn_roads: false,
        stay: false,
        break_off: None,
    });
    declare(&mut s, 1, Some(away), vec![]).unwrap();
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
    s.regions[r("ukraine") as usize].infra.roads = true;
    pass(&mut s, 0);
    let away = BattleAction::Withdraw(WithdrawOrder {
        force: Force {
            armies: 3,
            navies: 0,
        },
        to: r("ukraine"),
        burn_roads: true,
        stay: false,
        break_off: None,
    });
    declare(&mut s, 1, Some(away), vec![]).unwrap();
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

/// Source 004: "Withdrawing army units may roll 1d6 per surviving unit to destroy roads they
/// cross", and "The road movement can only be used to move from a country with roads to a country
/// with roads": withdrawing from Northern Europe (roads) into Ukraine (none) crosses no road, so
/// nobody rolls and the roads stand.
#[test]
fn withdrawing_into_a_country_without_roads_crosses_no_road_to_burn() {
    let mut s = battle(3);
    s.regions[r("northern_europe") as usize].infra.roads = true;
    pass(&mut s, 0);
    let away = BattleAction::Withdraw(WithdrawOrder {
        force: Force {
            armies: 3,
            navies: 0,
        },
        to: r("ukraine"),
        burn_roads: true,
        stay: false,
        break_off: None,
    });
    declare(&mut s, 1, Some(away), vec![]).unwrap();
    // No die is rolled (the test's dice would fail on one).
    let ev = act(
        &mut s,
        A::Intercept {
            player: 0,
            yes: false,
        },
        vec![],
    )
    .unwrap();
    assert!(!ev
        .iter()
        .any(|e| matches!(e, EconomyEvent::RoadsBurned { .. })));
    assert!(s.regions[r("northern_europe") as usize].infra.roads);
    assert_eq!(s.units_of(1, r("ukraine")).armies, 3);
}

/// Bob's withdraw order in `battle(3)`, toward Ukraine, after Ann passes.
fn bob_withdraws(s: &mut EconomyState, order: WithdrawOrder) -> Events {
    pass(s, 0);
    act(
        s,
        A::Declare {
            player: 1,
            action: Some(BattleAction::Withdraw(order)),
        },
        vec![],
    )
}

#[test]
fn units_may_stay_after_a_withdraw_once_per_battle() {
    let mut s = battle(3);
    let (ne, ukraine) = (r("northern_europe"), r("ukraine"));
    let three = Force {
        armies: 3,
        navies: 0,
    };
    let stay = WithdrawOrder {
        stay: true,
        ..WithdrawOrder::to(ukraine, three)
    };
    // Units that stay cross no roads to burn.
    assert_eq!(
        bob_withdraws(
            &mut s.clone(),
            WithdrawOrder {
                burn_roads: true,
                ..stay
            }
        ),
        Err(EconomyError::ActionNotPossible)
    );
    bob_withdraws(&mut s, stay).unwrap();
    // Ann intercepts each unit once: 2 against 6+1, Bob's first dies; 5 against 1+1, Ann's
    // interceptor dies and Bob's second survives, staying; 4 against 4+1 (2 against 3), his
    // third dies.
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
        stayed: true,
        broken_off: Force::default(),
    }));
    // The survivor is still in the battle, still a defender; nobody went to Ukraine.
    assert_eq!(s.units_of(1, ne).armies, 1);
    assert_eq!(s.defenders(1, ne).armies, 1);
    assert_eq!(s.units_of(1, ukraine).armies, 0);
    assert_eq!(s.units_of(0, ne).armies, 3);
    assert!(s.combat.as_ref().unwrap().battle.is_some());
    // Once per battle: Bob may still withdraw, but not stay again.
    let one = Force {
        armies: 1,
        navies: 0,
    };
    let again = WithdrawOrder {
        stay: true,
        ..WithdrawOrder::to(ukraine, one)
    };
    assert_eq!(
        bob_withdraws(&mut s.clone(), again),
        Err(EconomyError::ActionNotPossible)
    );
    bob_withdraws(&mut s, WithdrawOrder::to(ukraine, one)).unwrap();
}

#[test]
fn a_withdraw_may_be_broken_off() {
    let mut s = battle(3);
    let (ne, ukraine) = (r("northern_europe"), r("ukraine"));
    let three = Force {
        armies: 3,
        navies: 0,
    };
    let order = WithdrawOrder {
        break_off: Some(1),
        ..WithdrawOrder::to(ukraine, three)
    };
    assert_eq!(
        bob_withdraws(
            &mut s.clone(),
            WithdrawOrder {
                break_off: Some(0),
                ..order
            }
        ),
        Err(EconomyError::ActionNotPossible)
    );
    bob_withdraws(&mut s, order).unwrap();
    // The first unit gets away (5 against 1+1), the second dies (2 against 6+1): Bob breaks
    // off, and his third stays without facing Ann.
    let ev = act(
        &mut s,
        A::Intercept {
            player: 0,
            yes: true,
        },
        vec![5, 1, 2, 6],
    )
    .unwrap();
    let one = Force {
        armies: 1,
        navies: 0,
    };
    assert!(ev.contains(&EconomyEvent::Withdrew {
        player: 1,
        to: ukraine,
        away: one,
        lost: one,
        stayed: false,
        broken_off: one,
    }));
    assert_eq!(s.units_of(1, ukraine).armies, 1);
    assert_eq!(s.units_of(1, ne).armies, 1);
    assert_eq!(s.units_of(0, ne).armies, 3);
}

#[test]
fn a_standing_order_may_end_an_attack_and_stay() {
    // As above, but Ann's standing order keeps her two armies in Northern Europe: the attack is
    // over, the battle is not, and nobody's units moved.
    let mut s = battle(6);
    let (ne, we) = (r("northern_europe"), r("western_europe"));
    let order = Retreat {
        at: 2,
        to: we,
        stay: true,
    };
    act(
        &mut s,
        A::SetRetreat {
            player: 0,
            retreat: Some(order),
        },
        vec![],
    )
    .unwrap();
    pass(&mut s, 1);
    let attack = BattleAction::Attack {
        target: Foe::Player(1),
        kind: Kind::Army,
    };
    declare(&mut s, 0, Some(attack), vec![1, 6, 1, 6]).unwrap();
    let ev = act(
        &mut s,
        A::Intercept {
            player: 1,
            yes: false,
        },
        vec![],
    )
    .unwrap();
    let two = Force {
        armies: 2,
        navies: 0,
    };
    assert!(ev.contains(&EconomyEvent::Withdrew {
        player: 0,
        to: we,
        away: two,
        lost: Force::default(),
        stayed: true,
        broken_off: Force::default(),
    }));
    assert_eq!(s.units_of(0, ne), two);
    // The two Ann left at home, as before.
    assert_eq!(s.units_of(0, we).armies, 2);
    assert!(s.combat.as_ref().unwrap().battle.is_some());
}
