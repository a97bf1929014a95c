use super::super::action::EconomyAction as A;
use super::super::battlefield::{BattleAction, Foe};
use super::super::combat::tests::{act, declare, game, hold, mv, pass, r, to_combat};
use super::*;

#[test]
fn navies_that_win_sail_on_with_the_movement_they_have_left() {
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 0, "western_europe_coast", 0, 3);
    hold(&mut s, 1, "great_britain_coast", 0, 1);
    hold(&mut s, 1, "great_britain", 1, 0);
    // Ann's navies sail one water step into British waters, where Bob has one navy.
    to_combat(
        &mut s,
        vec![
            vec![mv("western_europe_coast", "great_britain_coast", 0, 3)],
            vec![],
        ],
        vec![6, 1],
    );
    let gb = Site::Region(r("great_britain_coast"));
    act(
        &mut s,
        A::PickBattle {
            player: 0,
            site: gb,
        },
        vec![],
    )
    .unwrap();
    pass(&mut s, 1);
    let attack = Some(BattleAction::Attack {
        target: Foe::Player(1),
        kind: Kind::Navy,
    });
    declare(&mut s, 0, attack, vec![6, 1]).unwrap();
    // The battle is won; Ann's navies have two thirds left: two more water steps.
    let map = EconomyMap::get();
    let options: Vec<RegionId> = s
        .onward_options(map, 0, r("great_britain_coast"))
        .into_iter()
        .map(|(x, _)| x)
        .collect();
    assert!(options.contains(&r("iceland_coast")));
    assert!(!options.contains(&r("great_britain")));
    assert_eq!(s.to_act(), vec![0]);
    assert_eq!(
        s.apply(&A::MoveOn {
            player: 0,
            from: r("great_britain_coast"),
            to: r("great_britain"),
            force: Force {
                armies: 0,
                navies: 1
            },
        }),
        Err(EconomyError::CannotMoveOn {
            from: r("great_britain_coast"),
            to: r("great_britain")
        })
    );
    // Two navies sail on to Icelandic waters, nobody's: they take it without a fight.
    let ev = act(
        &mut s,
        A::MoveOn {
            player: 0,
            from: r("great_britain_coast"),
            to: r("iceland_coast"),
            force: Force {
                armies: 0,
                navies: 2,
            },
        },
        vec![],
    )
    .unwrap();
    assert!(ev.iter().any(|e| matches!(e, EconomyEvent::MovedOn { .. })));
    // One third left for those two: a last step is possible; Ann stops.
    assert!(!s.onward_options(map, 0, r("iceland_coast")).is_empty());
    act(&mut s, A::StopMoving { player: 0 }, vec![]).unwrap();
    assert_eq!(s.phase, Phase::Get);
    assert_eq!(s.units_of(0, r("iceland_coast")).navies, 2);
    assert_eq!(s.regions[r("iceland_coast") as usize].owner, Some(0));
}

#[test]
fn armies_that_spent_their_move_stay() {
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 1, "ukraine", 1, 0);
    to_combat(
        &mut s,
        vec![vec![mv("western_europe", "northern_europe", 5, 0)], vec![]],
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
    let attack = Some(BattleAction::Attack {
        target: Foe::Player(1),
        kind: Kind::Army,
    });
    // Bob's three fall; Ann's armies have no movement left (no roads), so nobody is asked to
    // move on and the next round begins.
    declare(&mut s, 0, attack, vec![6, 1, 6, 1, 6, 1]).unwrap();
    assert_eq!(s.phase, Phase::Get);
    assert_eq!(s.units_of(0, r("northern_europe")).armies, 5);
}

/// "At any point during the combat phase": a combat phase with no battle at all waits for the
/// player holding an influence card (and only for them), who may incite a revolution or stop.
#[test]
fn a_combat_phase_without_battles_waits_for_a_card_holder() {
    let mut s = game(&["Ann", "Bob"]);
    s.players[0].cards = vec![r("northern_europe")];
    to_combat(&mut s, vec![vec![], vec![]], vec![6, 1]);
    assert_eq!(s.phase, Phase::Combat);
    assert_eq!(s.to_act(), vec![0]);
    let mut incited = s.clone();
    let ev = incited
        .apply(&A::IncitRevolution {
            player: 0,
            country: r("northern_europe"),
            target: None,
        })
        .unwrap();
    assert!(ev
        .iter()
        .any(|e| matches!(e, EconomyEvent::RevolutionIncited { player: 0, .. })));
    assert_eq!(
        incited.to_act(),
        vec![incited.combat.as_ref().unwrap().holder]
    );
    act(&mut s, A::StopMoving { player: 0 }, vec![]).unwrap();
    assert_eq!(s.phase, Phase::Get);

    // Without a card, nobody is asked: the phase ends as it begins.
    let mut s = game(&["Ann", "Bob"]);
    to_combat(&mut s, vec![vec![], vec![]], vec![6, 1]);
    assert_eq!(s.phase, Phase::Get);
}
