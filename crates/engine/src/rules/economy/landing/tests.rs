use super::super::action::EconomyAction as A;
use super::super::battlefield::BattleAction;
use super::super::combat::tests::{act, game, hold, pass, r, to_combat};
use super::*;

/// Ann's 3 armies and 1 navy have held the North Sea coast since planning, where a navy of Bob's
/// stands too; the battle there is picked and Bob declares nothing.
fn off_the_coast() -> EconomyState {
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 0, "northern_europe_coast", 3, 1);
    s.regions[r("northern_europe_coast") as usize]
        .forces
        .insert(
            1,
            Force {
                armies: 0,
                navies: 1,
            },
        );
    to_combat(&mut s, vec![vec![], vec![]], vec![6, 1]);
    let site = Site::Region(r("northern_europe_coast"));
    act(&mut s, A::PickBattle { player: 0, site }, vec![]).unwrap();
    pass(&mut s, 1);
    s
}

fn land(s: &mut EconomyState, navies_engaged: bool) {
    act(
        s,
        A::Declare {
            player: 0,
            action: Some(BattleAction::Land {
                armies: 3,
                to: r("northern_europe"),
                navies_engaged,
            }),
        },
        vec![],
    )
    .unwrap();
}

#[test]
fn only_navies_intercept_a_landing() {
    let mut s = off_the_coast();
    let site = Site::Region(r("northern_europe_coast"));
    assert_eq!(
        s.landing_options(EconomyMap::get(), site, 0),
        vec![(r("northern_europe"), 3)]
    );
    land(&mut s, false);
    assert_eq!(s.to_act(), vec![1]);
    // Every army beats Bob's navy (5 + 2 against 2, 4 + 2 against 1, 3 + 1 against 2); with no
    // navies engaged, those lost rolls cost Bob nothing, so each army faces his navy in turn.
    let ev = act(
        &mut s,
        A::Intercept {
            player: 1,
            yes: true,
        },
        vec![5, 2, 4, 1, 3, 2],
    )
    .unwrap();
    assert!(ev.contains(&EconomyEvent::Landed {
        player: 0,
        to: r("northern_europe"),
        ashore: 3,
        lost: Force::default(),
    }));
    assert_eq!(s.units_of(0, r("northern_europe")).armies, 3);
    assert_eq!(s.units_of(1, r("northern_europe_coast")).navies, 1);
    // Ashore, they are amphibious newcomers facing Bob's armies: a battle there.
    let c = s.combat.as_ref().unwrap();
    assert!(c
        .arrivals
        .iter()
        .any(|a| a.region == r("northern_europe") && a.amphibious));
    assert!(c.tokens.contains(&Site::Region(r("northern_europe"))));
}

#[test]
fn engaged_navies_die_with_the_armies() {
    let mut s = off_the_coast();
    land(&mut s, true);
    // The first army loses (1 against 6 + ... ): it dies, and so does Ann's engaged navy; then
    // Bob's navy loses to the second.
    let ev = act(
        &mut s,
        A::Intercept {
            player: 1,
            yes: true,
        },
        vec![1, 6, 6, 1],
    )
    .unwrap();
    assert!(ev.contains(&EconomyEvent::Landed {
        player: 0,
        to: r("northern_europe"),
        ashore: 2,
        lost: Force {
            armies: 1,
            navies: 1
        },
    }));
}

/// Source 004: "The player performing the amphibious landing can choose to engage his navy units
/// in the amphibious landing as well. If that option is used then a loss for that player results
/// in the death of both an army and a navy unit while a loss for the intercepting player results
/// in a loss of one of their navy units." Only engaged navies can sink the interceptor's navy.
#[test]
fn only_a_landing_with_engaged_navies_sinks_the_interceptor() {
    for engaged in [false, true] {
        let mut s = off_the_coast();
        land(&mut s, engaged);
        // The first army wins its roll (6 + 2 against 1).
        let dice = if engaged {
            vec![6, 1]
        } else {
            vec![6, 1, 6, 1, 6, 1]
        };
        let ev = act(
            &mut s,
            A::Intercept {
                player: 1,
                yes: true,
            },
            dice,
        )
        .unwrap();
        let bob = s.units_of(1, r("northern_europe_coast")).navies;
        assert_eq!(bob, if engaged { 0 } else { 1 }, "engaged: {engaged}");
        assert!(ev
            .iter()
            .any(|e| matches!(e, EconomyEvent::Landed { ashore: 3, .. })));
    }
}
