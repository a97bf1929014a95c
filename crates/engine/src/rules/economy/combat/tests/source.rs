//! The combat phase's rules as source 004 writes them, one test per sentence that an earlier
//! reading got wrong (issue 28): each test quotes its sentence.

use super::super::super::battlefield::WithdrawOrder;
use super::*;

fn uk() -> RegionId {
    r("ukraine")
}

/// "If there was no winner then the person who previously had initiative still has initiative":
/// a battle with a winner hands initiative to that winner.
#[test]
fn initiative_passes_to_a_battles_winner() {
    let mut s = game(&["Ann", "Bob"]);
    s.regions[uk() as usize].neutral = Force {
        armies: 1,
        navies: 0,
    };
    // Initiative: Ann 6, Bob 1. Bob marches on Ukraine's neutral army.
    to_combat(
        &mut s,
        vec![vec![], vec![mv("northern_europe", "ukraine", 3, 0)]],
        vec![6, 1],
    );
    assert_eq!(s.combat.as_ref().unwrap().holder, 0);
    let site = Site::Region(uk());
    act(&mut s, A::PickBattle { player: 0, site }, vec![]).unwrap();
    let attack = BattleAction::Attack {
        target: Foe::Neutral,
        kind: Kind::Army,
    };
    // Bob 4 + 2 against the neutral's 1 + 1: the neutral army dies, Bob wins the battle.
    let ev = declare(&mut s, 1, Some(attack), vec![4, 1]).unwrap();
    assert!(ev.contains(&EconomyEvent::BattleClosed {
        site,
        victories: vec![1],
        losses: vec![],
    }));
    assert!(ev.contains(&EconomyEvent::InitiativePassed { player: 1 }));
    assert_eq!(s.initiative, Some(1));
}

/// A battle nobody wins leaves initiative where it was.
#[test]
fn initiative_stays_when_a_battle_has_no_winner() {
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 0, "ukraine", 2, 0);
    s.regions[uk() as usize].forces.insert(
        1,
        Force {
            armies: 2,
            navies: 0,
        },
    );
    to_combat(&mut s, vec![vec![], vec![]], vec![1, 6]);
    assert_eq!(s.combat.as_ref().unwrap().holder, 1);
    let site = Site::Region(uk());
    act(&mut s, A::PickBattle { player: 1, site }, vec![]).unwrap();
    pass(&mut s, 0);
    let ev = declare(&mut s, 1, None, vec![]).unwrap();
    assert!(!ev
        .iter()
        .any(|e| matches!(e, EconomyEvent::InitiativePassed { .. })));
    assert_eq!(s.initiative, Some(1));
}

/// "Players loose ownership of any countries that they previously owned but now contain hostile
/// forces, even if they still have forces there": revolutionaries left standing after the
/// Revolution Step are neutral, hence hostile, and the owner loses the country and its income.
#[test]
fn a_revolution_that_wins_takes_the_country() {
    let mut s = game(&["Ann", "Bob"]);
    s.players[0].capital = None;
    hold(&mut s, 0, "western_europe", 1, 0);
    // A navy at sea keeps Ann in the game; water is not a country, so it rolls no revolution.
    hold(&mut s, 0, "brazil_coast", 0, 1);
    let we = r("western_europe");
    // Revolution roll 6; the rebels' first roll beats Ann's only army (6 + 1 against 1 + 1);
    // then initiative as in the test above: Bob, with the only capital, rolls alone.
    let ev = to_combat(&mut s, vec![vec![], vec![]], vec![6, 6, 1, 3, 1, 4]);
    assert!(ev.contains(&EconomyEvent::Revolution {
        country: we,
        neutral: 2
    }));
    assert!(ev.contains(&EconomyEvent::OwnershipLost {
        player: 0,
        region: we
    }));
    // The round is over (no battle was left): Western Europe is nobody's and pays Ann nothing.
    assert_eq!(s.phase, Phase::Get);
    assert_eq!(s.regions[we as usize].owner, None);
    assert_eq!(s.regions[we as usize].neutral.armies, 2);
    assert_eq!(s.income(map(), 0).countries, 0);
}

/// "You keep ownership of your territories even if allied units enter those territories, though
/// you can forfeit a territory to your ally": an ally's units alone in your country do not take
/// it at the next Get phase.
#[test]
fn allied_units_alone_in_a_country_do_not_take_it() {
    let mut s = game(&["Ann", "Bob"]);
    s.alliances.insert((0, 1));
    let x = &mut s.regions[uk() as usize];
    x.owner = Some(0);
    x.forces.insert(
        1,
        Force {
            armies: 2,
            navies: 0,
        },
    );
    to_combat(&mut s, vec![vec![], vec![]], vec![6, 1]);
    assert_eq!(s.phase, Phase::Get);
    assert_eq!(s.regions[uk() as usize].owner, Some(0));
    // A forfeit still hands it over.
    s.apply(&A::Forfeit {
        player: 0,
        region: uk(),
        to: 1,
    })
    .unwrap();
    assert_eq!(s.regions[uk() as usize].owner, Some(1));
}

/// An incited revolution: "Once those actions are taken place a battle token at that location and
/// combat should resume from the point it was at before the revolution took place." Its rolls
/// count for the battle in that country, never for a battle under way elsewhere.
#[test]
fn an_incited_revolution_counts_only_where_it_happens() {
    let mut s = game(&["Ann", "Bob"]);
    s.regions[uk() as usize].neutral = Force {
        armies: 1,
        navies: 0,
    };
    s.deck.retain(|&c| c != uk());
    s.players[0].cards = vec![uk()];
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
    // In the middle of the battle for Northern Europe, Ann's revolutionaries strike Ukraine's
    // neutral army (6 + 1 against 1 + 1): it dies.
    act(
        &mut s,
        A::IncitRevolution {
            player: 0,
            country: uk(),
            target: Some(Foe::Neutral),
        },
        vec![6, 1],
    )
    .unwrap();
    pass(&mut s, 1);
    let ev = declare(&mut s, 0, None, vec![]).unwrap();
    // Nobody fought in Northern Europe: no victory there. Ukraine is Ann's victory.
    assert!(ev.contains(&EconomyEvent::BattleClosed {
        site: ne,
        victories: vec![],
        losses: vec![],
    }));
    assert!(ev.contains(&EconomyEvent::BattleClosed {
        site: Site::Region(uk()),
        victories: vec![0],
        losses: vec![],
    }));
}

/// "When a player withdraws from an attack action with hostile units that are defenders in
/// fortifications then that player can only move back to the country they came from last."
#[test]
fn withdrawing_from_fortified_defenders_goes_back_only() {
    for fortified in [false, true] {
        let mut s = game(&["Ann", "Bob"]);
        let ne = r("northern_europe");
        s.regions[ne as usize].infra.fortifications = fortified;
        // Two of Ann's armies have stood in Bob's Northern Europe since planning; four more come
        // from Western Europe.
        s.regions[ne as usize].forces.insert(
            0,
            Force {
                armies: 2,
                navies: 0,
            },
        );
        to_combat(
            &mut s,
            vec![vec![mv("western_europe", "northern_europe", 4, 0)], vec![]],
            vec![6, 1],
        );
        let site = Site::Region(ne);
        act(&mut s, A::PickBattle { player: 0, site }, vec![]).unwrap();
        let ways = s.withdraw_options(map(), site, 0);
        // Western Europe is Ann's: the four go back there, and the two that came in an earlier
        // round may too (RULES.md, reading 48).
        let back = (
            r("western_europe"),
            Force {
                armies: 6,
                navies: 0,
            },
        );
        assert!(ways.contains(&back), "fortified {fortified}: {ways:?}");
        if fortified {
            assert_eq!(ways, vec![back]);
        } else {
            assert!(ways.iter().any(|&(to, _)| to == r("ukraine")));
        }
    }
}

/// Source 004: "When a player withdraws from an attack action with hostile units that are
/// defenders in fortifications then that player can only move back to the country they came from
/// last": the passage limits where they go, not whether they go. Ann's armies have stood in Bob's
/// fortified Northern Europe since planning; they came in an earlier round, from ground Orbis
/// does not record, so they go back to friendly ground only: Western Europe, hers, and not
/// Scandinavia (Bob's), Ukraine (nobody's) or the coast.
#[test]
fn units_there_since_planning_withdraw_from_fortified_defenders_to_friendly_ground() {
    let mut s = game(&["Ann", "Bob"]);
    let ne = r("northern_europe");
    s.regions[ne as usize].infra.fortifications = true;
    s.regions[ne as usize].forces.insert(
        0,
        Force {
            armies: 2,
            navies: 0,
        },
    );
    hold(&mut s, 1, "scandinavia", 1, 0);
    to_combat(&mut s, vec![vec![], vec![]], vec![6, 1]);
    let site = Site::Region(ne);
    act(&mut s, A::PickBattle { player: 0, site }, vec![]).unwrap();
    assert!(s.fortified_foe(ne, 0));
    let home = (
        r("western_europe"),
        Force {
            armies: 2,
            navies: 0,
        },
    );
    assert_eq!(s.withdraw_options(map(), site, 0), vec![home]);
    // Ann's armies defend the fortifications too (reading 37), so Bob's go only to his
    // Scandinavia.
    let bob: Vec<RegionId> = s
        .withdraw_options(map(), site, 1)
        .into_iter()
        .map(|(x, _)| x)
        .collect();
    assert_eq!(bob, vec![r("scandinavia")]);
}

/// "Units that have been in the territory since the beginning of the planning phase and which are
/// not currently attacking are considered defending units": in the Revolution Step, units moved
/// in during friendly movement get no defender's +1.
#[test]
fn revolution_step_defenders_are_the_units_there_since_planning() {
    let mut s = game(&["Ann", "Bob"]);
    s.players[0].capital = None;
    hold(&mut s, 0, "western_europe", 1, 0);
    hold(&mut s, 0, "southern_europe", 1, 0);
    let (we, se) = (r("western_europe"), r("southern_europe"));
    for p in 0..2 {
        s.apply(&A::SubmitPlans {
            player: p,
            moves: vec![],
        })
        .unwrap();
    }
    s.apply(&A::MoveFriendly {
        player: 0,
        from: se,
        to: we,
        force: Force {
            armies: 1,
            navies: 0,
        },
    })
    .unwrap();
    s.apply(&A::FinishMoving { player: 0 }).unwrap();
    // Revolution rolls in region order, each uprising fought at once: a 6 for Western Europe
    // only. The rebels' first roll ties 3 against 3 with the army that moved in, which has no
    // defender's +1: it dies (the rebels risk nothing). Their second beats the defender (6
    // against 1 + 1). Initiative: Bob alone has a capital.
    let uprising = vec![6, 3, 3, 6, 1];
    let dice = if we < se {
        [uprising, vec![1, 3, 1, 4]].concat()
    } else {
        [vec![1], uprising, vec![3, 1, 4]].concat()
    };
    let mut faces = Faces(dice);
    let ev = s
        .apply_with(&A::FinishMoving { player: 1 }, &mut faces)
        .unwrap();
    assert!(faces.0.is_empty(), "dice left over: {:?}", faces.0);
    let rebel: Vec<(bool, bool)> = ev
        .iter()
        .filter_map(|e| match e {
            EconomyEvent::RebelRoll {
                rebels_lost, lost, ..
            } => Some((*rebels_lost, *lost)),
            _ => None,
        })
        .collect();
    assert_eq!(rebel, vec![(false, true), (false, true)]);
    assert_eq!(s.units_of(0, we).armies, 0);
}

/// Ann's 4 armies from Western Europe attack Bob's 3 defenders in Northern Europe; her first roll
/// (6 + 1 against 2 + 1) kills one of his. The attack is now between two rolls.
fn after_one_roll() -> EconomyState {
    let mut s = game(&["Ann", "Bob"]);
    to_combat(
        &mut s,
        vec![vec![mv("western_europe", "northern_europe", 4, 0)], vec![]],
        vec![6, 1],
    );
    let site = Site::Region(r("northern_europe"));
    act(&mut s, A::PickBattle { player: 0, site }, vec![]).unwrap();
    pass(&mut s, 1);
    let attack = BattleAction::Attack {
        target: Foe::Player(1),
        kind: Kind::Army,
    };
    let ev = act_once(
        &mut s,
        A::Declare {
            player: 0,
            action: Some(attack),
        },
        vec![6, 2],
    )
    .unwrap();
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, EconomyEvent::BattleRoll { .. }))
            .count(),
        1
    );
    assert_eq!(s.units_of(1, r("northern_europe")).armies, 2);
    s
}

/// "Defenders can declare an attack action after any roll during a battle and that attack action
/// interrupts any attack action that may currently be happening."
#[test]
fn a_defender_may_interrupt_an_attack_after_any_roll() {
    let mut s = after_one_roll();
    let site = Site::Region(r("northern_europe"));
    assert!(s.assault(site).is_some());
    // Both are asked: Bob may attack (a defender) or withdraw; Ann may only withdraw.
    assert_eq!(s.to_act(), vec![0, 1]);
    let counter = BattleAction::Attack {
        target: Foe::Player(0),
        kind: Kind::Army,
    };
    assert_eq!(s.possible_actions(site, 1), vec![counter]);
    assert_eq!(s.possible_actions(site, 0), vec![]);
    assert_eq!(
        act_once(
            &mut s,
            A::Declare {
                player: 0,
                action: Some(BattleAction::Attack {
                    target: Foe::Player(1),
                    kind: Kind::Army
                })
            },
            vec![]
        ),
        Err(EconomyError::ActionNotPossible)
    );
    act_once(
        &mut s,
        A::Declare {
            player: 1,
            action: Some(counter),
        },
        vec![],
    )
    .unwrap();
    // Bob's counter-attack rolls once (2 + 1 against 6 + 1: his army dies).
    let ev = act_once(
        &mut s,
        A::Declare {
            player: 0,
            action: None,
        },
        vec![2, 6],
    )
    .unwrap();
    assert!(ev.contains(&EconomyEvent::AttackInterrupted { attacker: 0, by: 1 }));
    assert!(ev.iter().any(|e| matches!(
        e,
        EconomyEvent::BattleRoll {
            attacker: 1,
            loser: Loser::First,
            ..
        }
    )));
    assert_eq!(
        s.assault(site).map(|a| a.attacker),
        Some(1),
        "Bob's attack is now the one under way"
    );
}

/// "A withdraw action can be declared at any time during a battle": between two rolls, the
/// attacker may withdraw back where it came from.
#[test]
fn an_attacker_may_withdraw_between_two_rolls() {
    let mut s = after_one_roll();
    let site = Site::Region(r("northern_europe"));
    let back = WithdrawOrder::to(
        r("western_europe"),
        Force {
            armies: 4,
            navies: 0,
        },
    );
    act_once(
        &mut s,
        A::Declare {
            player: 0,
            action: Some(BattleAction::Withdraw(back)),
        },
        vec![],
    )
    .unwrap();
    pass(&mut s, 1);
    // Bob lets them go.
    act(
        &mut s,
        A::Intercept {
            player: 1,
            yes: false,
        },
        vec![],
    )
    .unwrap();
    assert_eq!(s.units_of(0, r("northern_europe")).armies, 0);
    assert_eq!(s.units_of(0, r("western_europe")).armies, 6);
    assert!(s.assault(site).is_none());
}

/// When everyone asked after a roll passes, the attack rolls again.
#[test]
fn an_attack_goes_on_when_everyone_asked_passes() {
    let mut s = after_one_roll();
    act_once(
        &mut s,
        A::Declare {
            player: 0,
            action: None,
        },
        vec![],
    )
    .unwrap();
    let ev = act_once(
        &mut s,
        A::Declare {
            player: 1,
            action: None,
        },
        vec![5, 3],
    )
    .unwrap();
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, EconomyEvent::BattleRoll { attacker: 0, .. }))
            .count(),
        1
    );
    assert_eq!(s.units_of(1, r("northern_europe")).armies, 1);
    assert!(s.assault(Site::Region(r("northern_europe"))).is_some());
}
