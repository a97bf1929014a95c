use super::super::action::EconomyAction as A;
use super::super::battlefield::BattleAction;
use super::super::combat::tests::{act, game, hold, mv, pass, r, to_combat};
use super::*;

/// Ann's 3 armies have arrived in Northern Europe, where Bob has 2 defenders and roads, an army
/// base and fortifications; the battle there is picked, Bob declares nothing.
fn raid() -> EconomyState {
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 1, "northern_europe", 2, 0);
    hold(&mut s, 1, "scandinavia", 1, 0);
    let ne = &mut s.regions[r("northern_europe") as usize].infra;
    ne.roads = true;
    ne.army_bases = 1;
    to_combat(
        &mut s,
        vec![vec![mv("western_europe", "northern_europe", 3, 0)], vec![]],
        vec![6, 1],
    );
    let site = Site::Region(r("northern_europe"));
    act(&mut s, A::PickBattle { player: 0, site }, vec![]).unwrap();
    pass(&mut s, 1);
    s
}

#[test]
fn against_fortified_defenders_only_the_fortifications_can_be_attacked() {
    let mut s = raid();
    let site = Site::Region(r("northern_europe"));
    assert_eq!(
        s.infrastructure_targets(site, 0),
        vec![Item::Roads, Item::ArmyBase]
    );
    s.regions[r("northern_europe") as usize]
        .infra
        .fortifications = true;
    assert_eq!(
        s.infrastructure_targets(site, 0),
        vec![Item::Fortifications]
    );
    // Bob owns it and defends it: he may destroy any of it, but not his capital.
    assert_eq!(
        s.infrastructure_targets(site, 1),
        vec![Item::Roads, Item::Fortifications, Item::ArmyBase]
    );
}

#[test]
fn an_attack_on_infrastructure_survives_the_interception_then_needs_a_six() {
    let mut s = raid();
    act(
        &mut s,
        A::Declare {
            player: 0,
            action: Some(BattleAction::AttackInfrastructure { item: Item::Roads }),
        },
        vec![],
    )
    .unwrap();
    // Bob may intercept with his armies.
    assert_eq!(s.to_act(), vec![1]);
    // Ann 5 + 1 (3 against 2) − 1 = 5 against Bob's 1: Bob's interceptor dies. Then a 6.
    let ev = act(
        &mut s,
        A::Intercept {
            player: 1,
            yes: true,
        },
        vec![5, 1, 6],
    )
    .unwrap();
    assert!(ev.contains(&EconomyEvent::InfrastructureRoll {
        player: 0,
        item: Item::Roads,
        die: Some(6),
        destroyed: true
    }));
    assert!(!s.regions[r("northern_europe") as usize].infra.roads);
    assert_eq!(s.units_of(1, r("northern_europe")).armies, 1);
}

#[test]
fn a_unit_that_loses_the_interception_dies_and_nothing_is_destroyed() {
    let mut s = raid();
    act(
        &mut s,
        A::Declare {
            player: 0,
            action: Some(BattleAction::AttackInfrastructure {
                item: Item::ArmyBase,
            }),
        },
        vec![],
    )
    .unwrap();
    let ev = act(
        &mut s,
        A::Intercept {
            player: 1,
            yes: true,
        },
        vec![1, 5],
    )
    .unwrap();
    assert!(ev.contains(&EconomyEvent::InfrastructureRoll {
        player: 0,
        item: Item::ArmyBase,
        die: None,
        destroyed: false
    }));
    assert_eq!(s.regions[r("northern_europe") as usize].infra.army_bases, 1);
    assert_eq!(s.units_of(0, r("northern_europe")).armies, 2);
}

#[test]
fn defenders_destroy_their_own_infrastructure_without_a_six() {
    let mut s = raid();
    // Ann declares nothing; Bob, whose declaration is redone in a fresh round, burns his roads.
    let mut t = s.clone();
    t.battle_mut().declared.clear();
    act(
        &mut t,
        A::Declare {
            player: 0,
            action: None,
        },
        vec![],
    )
    .unwrap();
    act(
        &mut t,
        A::Declare {
            player: 1,
            action: Some(BattleAction::AttackInfrastructure { item: Item::Roads }),
        },
        vec![],
    )
    .unwrap();
    // Ann declines to intercept: the roads are gone, no die rolled.
    let ev = act(
        &mut t,
        A::Intercept {
            player: 0,
            yes: false,
        },
        vec![],
    )
    .unwrap();
    assert!(ev.contains(&EconomyEvent::InfrastructureRoll {
        player: 1,
        item: Item::Roads,
        die: None,
        destroyed: true
    }));
    assert!(!t.regions[r("northern_europe") as usize].infra.roads);
    // A capital is never a target.
    s.regions[r("northern_europe") as usize].infra.roads = false;
    assert!(!s
        .infrastructure_targets(Site::Region(r("northern_europe")), 0)
        .contains(&Item::Capital));
}
