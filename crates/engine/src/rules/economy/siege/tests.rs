use super::super::action::EconomyAction as A;
use super::super::battlefield::BattleAction;
use super::super::combat::tests::{act, declare, game, hold, mv, pass, r, to_combat};
use super::super::error::EconomyError;
use super::super::infra::Item;
use super::super::phase::Phase;
use super::super::units::{Force, Kind};
use super::*;

/// Ann's 4 armies have arrived in Northern Europe, Bob's fortified capital, held by 2 of his
/// armies; the battle there is picked.
fn at_the_walls() -> EconomyState {
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 1, "northern_europe", 2, 0);
    hold(&mut s, 1, "scandinavia", 1, 0);
    s.regions[r("northern_europe") as usize]
        .infra
        .fortifications = true;
    to_combat(
        &mut s,
        vec![vec![mv("western_europe", "northern_europe", 4, 0)], vec![]],
        vec![6, 1],
    );
    let site = Site::Region(r("northern_europe"));
    act(&mut s, A::PickBattle { player: 0, site }, vec![]).unwrap();
    s
}

fn siege(s: &mut EconomyState) {
    pass(s, 1);
    act(
        s,
        A::Declare {
            player: 0,
            action: Some(BattleAction::Siege { target: 1 }),
        },
        vec![],
    )
    .unwrap();
}

#[test]
fn the_besieged_must_attack_before_they_withdraw() {
    let mut s = at_the_walls();
    let site = Site::Region(r("northern_europe"));
    let map = super::super::map::EconomyMap::get();
    assert_eq!(s.siege_targets(site, 0), vec![1]);
    assert!(!s.withdraw_options(map, site, 1).is_empty());
    siege(&mut s);
    let ne = &s.regions[r("northern_europe") as usize];
    assert!(ne.sieges.contains(&(0, 1)) && ne.besieged);
    assert!(s.withdraw_options(map, site, 1).is_empty());
    // Ann cannot use the fortifications there; Bob still can.
    assert!(!s.fortified_for(0, r("northern_europe")));
    assert!(s.fortified_for(1, r("northern_europe")));
    // Bob orders a withdraw to Scandinavia once down to one army (he may give the order now;
    // it can only be carried out once he has attacked). He attacks and loses a roll (1 against
    // 6 + 1): down to one, he withdraws; Ann lets him go.
    act(
        &mut s,
        A::SetRetreat {
            player: 1,
            retreat: Some(super::super::battlefield::Retreat {
                at: 1,
                to: r("scandinavia"),
                stay: false,
            }),
        },
        vec![],
    )
    .unwrap();
    pass(&mut s, 0);
    let attack = Some(BattleAction::Attack {
        target: Foe::Player(0),
        kind: Kind::Army,
    });
    declare(&mut s, 1, attack, vec![1, 6]).unwrap();
    assert_eq!(s.to_act(), vec![0]);
    act(
        &mut s,
        A::Intercept {
            player: 0,
            yes: false,
        },
        vec![],
    )
    .unwrap();
    assert_eq!(s.units_of(1, r("scandinavia")).armies, 2);
    // With the besieged gone, so is the siege.
    assert!(s.regions[r("northern_europe") as usize].sieges.is_empty());
}

#[test]
fn a_siege_ends_when_the_besieger_declares_another_action() {
    let mut s = at_the_walls();
    siege(&mut s);
    pass(&mut s, 1);
    let attack = Some(BattleAction::Attack {
        target: Foe::Player(1),
        kind: Kind::Army,
    });
    // Ann attacks: the siege is over, and her attack is fought (Bob: 2 + 1 + 1 fortified).
    let ev = declare(&mut s, 0, attack, vec![6, 1, 6, 1]).unwrap();
    assert!(ev
        .iter()
        .any(|e| matches!(e, EconomyEvent::BattleClosed { .. })));
    assert!(s.regions[r("northern_europe") as usize].sieges.is_empty());
    assert_eq!(
        s.units_of(0, r("northern_europe")),
        Force {
            armies: 4,
            navies: 0
        }
    );
}

#[test]
fn a_siege_lasts_into_the_next_round() {
    let mut s = at_the_walls();
    siege(&mut s);
    // Nobody acts further: the battle is over as is, and the round ends.
    pass(&mut s, 1);
    pass(&mut s, 0);
    assert_eq!(s.phase, Phase::Get);
    let ne = &s.regions[r("northern_europe") as usize];
    assert!(ne.sieges.contains(&(0, 1)));
    // Bob lost the country to the hostile forces in it; it is contested.
    assert_eq!(ne.owner, None);
    assert!(s.contested(r("northern_europe")));
}

#[test]
fn the_besieged_keep_their_infrastructure_but_the_roads() {
    // Northern Europe also has roads and an army base. The siege lasts into the next round, and
    // Bob has lost the country, but his defenders hold its fortifications.
    let mut s = at_the_walls();
    let ne = r("northern_europe");
    let infra = &mut s.regions[ne as usize].infra;
    infra.roads = true;
    infra.army_bases = 1;
    siege(&mut s);
    for player in [1, 0] {
        let pass = A::Declare {
            player,
            action: None,
        };
        act(&mut s, pass, vec![]).unwrap();
    }
    assert_eq!(s.phase, Phase::Get);
    assert_eq!(s.regions[ne as usize].owner, None);
    assert_eq!(s.infrastructure_holder(ne), Some(1));
    // Nothing owed is settled at once.
    let owing: Vec<PlayerId> = [0, 1]
        .into_iter()
        .filter(|&p| !s.get[p as usize].settled)
        .collect();
    for player in owing {
        let settle = A::SettleUpkeep {
            player,
            losses: vec![],
        };
        act(&mut s, settle, vec![]).unwrap();
    }
    let recruit = |player, count| A::Recruit {
        player,
        country: ne,
        navy_into: None,
        count,
    };
    // Bob recruits at his base, within its capacity only; Ann, who does not hold it, cannot.
    assert_eq!(
        act(&mut s.clone(), recruit(1, 2), vec![]),
        Err(EconomyError::BesiegedBeyondBases(ne))
    );
    assert_eq!(
        act(&mut s.clone(), recruit(0, 1), vec![]),
        Err(EconomyError::NotYours(ne))
    );
    act(&mut s, recruit(1, 1), vec![]).unwrap();
    assert_eq!(s.units_of(1, ne).armies, 3);
    // The roads are not his any more; the base is, and he may sell it.
    let destroy = |item| A::Destroy {
        player: 1,
        country: ne,
        item,
    };
    assert_eq!(
        act(&mut s.clone(), destroy(Item::Roads), vec![]),
        Err(EconomyError::NotYours(ne))
    );
    act(&mut s, destroy(Item::ArmyBase), vec![]).unwrap();
    assert_eq!(s.regions[ne as usize].infra.army_bases, 0);
}

/// Source 004: "While units are under siege they are not considered linked to adjacent
/// countries. This means that if you are using capitals then upkeep cannot be paid for units
/// under siege". Bob's 12 armies in Northern Europe, his fortified capital, are besieged by Ann's
/// 4 and nobody acts further: next round they owe 2 (12 − 10) that cannot be paid, and they
/// drop to 10.
#[test]
fn besieged_units_owe_upkeep_they_cannot_pay() {
    let mut s = at_the_walls();
    let ne = r("northern_europe");
    s.regions[ne as usize].forces.insert(
        1,
        Force {
            armies: 12,
            navies: 0,
        },
    );
    siege(&mut s);
    pass(&mut s, 1);
    pass(&mut s, 0);
    assert_eq!(s.phase, Phase::Get);
    assert_eq!(s.regions[ne as usize].owner, None);
    let owed: Vec<(RegionId, u32, bool)> = s.get[1]
        .owed
        .iter()
        .map(|u| (u.country, u.due, u.linked))
        .collect();
    assert_eq!(owed, vec![(ne, 2, false)]);
    let pay = A::SettleUpkeep {
        player: 1,
        losses: vec![],
    };
    assert_eq!(
        act(&mut s.clone(), pay, vec![]),
        Err(EconomyError::Unlinked(ne))
    );
    let losses = s.plain_settlement(1);
    act(&mut s, A::SettleUpkeep { player: 1, losses }, vec![]).unwrap();
    assert_eq!(s.units_of(1, ne).armies, 10);
}
