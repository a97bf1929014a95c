use super::super::action::EconomyAction as A;
use super::super::combat::tests::{game, hold, r};
use super::*;

/// The Get phase with Ann, Bob and Cy; Ann's armies stand in Bob's Northern Europe too.
fn table() -> EconomyState {
    let mut s = game(&["Ann", "Bob", "Cy"]);
    hold(&mut s, 2, "ukraine", 2, 0);
    s.regions[r("northern_europe") as usize].forces.insert(
        0,
        super::super::units::Force {
            armies: 2,
            navies: 0,
        },
    );
    s.phase = Phase::Get;
    for t in &mut s.get {
        t.settled = true;
    }
    s
}

#[test]
fn an_alliance_needs_both_and_can_be_broken() {
    let mut s = table();
    let ev = s.apply(&A::OfferAlliance { player: 0, with: 1 }).unwrap();
    assert_eq!(ev, vec![EconomyEvent::AllianceOffered { from: 0, to: 1 }]);
    assert!(!s.friends(0, 1));
    let ev = s.apply(&A::OfferAlliance { player: 1, with: 0 }).unwrap();
    assert_eq!(ev, vec![EconomyEvent::AllianceMade { a: 0, b: 1 }]);
    assert!(s.friends(0, 1));
    assert!(s.friendly(0, r("northern_europe")));
    assert_eq!(
        s.apply(&A::OfferAlliance { player: 0, with: 1 }),
        Err(EconomyError::AlreadyAllies(1))
    );
    assert_eq!(
        s.apply(&A::OfferAlliance { player: 0, with: 0 }),
        Err(EconomyError::UnknownPlayer(0))
    );
    s.apply(&A::BreakAlliance { player: 1, with: 0 }).unwrap();
    assert!(!s.friends(0, 1));
    assert_eq!(
        s.apply(&A::BreakAlliance { player: 1, with: 0 }),
        Err(EconomyError::NotAllies(0))
    );
    // Only in the Get phase.
    s.phase = Phase::Planning;
    assert_eq!(
        s.apply(&A::OfferAlliance { player: 0, with: 2 }),
        Err(EconomyError::WrongPhase(Phase::Planning))
    );
}

#[test]
fn a_territory_is_forfeited_only_to_an_ally_standing_in_it() {
    let mut s = table();
    let ne = r("northern_europe");
    let forfeit = A::Forfeit {
        player: 1,
        region: ne,
        to: 0,
    };
    assert_eq!(s.apply(&forfeit), Err(EconomyError::NotAllies(0)));
    s.apply(&A::OfferAlliance { player: 0, with: 1 }).unwrap();
    s.apply(&A::OfferAlliance { player: 1, with: 0 }).unwrap();
    assert_eq!(
        s.apply(&A::Forfeit {
            player: 1,
            region: r("scandinavia"),
            to: 0
        }),
        Err(EconomyError::NotYours(r("scandinavia")))
    );
    s.apply(&forfeit).unwrap();
    assert_eq!(s.regions[ne as usize].owner, Some(0));
    // It was Bob's capital: he has none now.
    assert_eq!(s.players[1].capital, None);
}

#[test]
fn a_surrender_turns_armies_neutral_and_nobody_waits_for_the_player() {
    let mut s = table();
    s.apply(&A::FinishGet { player: 0 }).unwrap();
    s.apply(&A::FinishGet { player: 2 }).unwrap();
    assert_eq!(s.phase, Phase::Get);
    let ev = s.apply(&A::Surrender { player: 1 }).unwrap();
    assert!(ev.contains(&EconomyEvent::Surrendered { player: 1 }));
    // Bob was the last one in the Get phase: planning begins.
    assert!(ev.contains(&EconomyEvent::PlanningBegan));
    let ne = &s.regions[r("northern_europe") as usize];
    assert_eq!(ne.neutral.armies, 3);
    assert_eq!(ne.owner, None);
    assert!(!ne.forces.contains_key(&1));
    assert_eq!(s.players[1].standing, Standing::Surrendered);
    assert_eq!(
        s.apply(&A::FinishGet { player: 1 }),
        Err(EconomyError::NotPlaying(1))
    );
    // When only one player is left, the game is over.
    let ev = s.apply(&A::Surrender { player: 2 }).unwrap();
    assert!(ev.contains(&EconomyEvent::GameOver { winner: Some(0) }));
    assert_eq!(s.phase, Phase::Over);
}

#[test]
fn a_surrender_leaves_neutral_navies_and_drowns_armies_without_them() {
    let mut s = table();
    let (coast, scan) = (r("northern_europe_coast"), r("scandinavia_coast"));
    // Bob: an army aboard a navy on his coast, and an army alone on his own (friendly) water.
    hold(&mut s, 1, "northern_europe_coast", 1, 1);
    hold(&mut s, 1, "scandinavia_coast", 1, 0);
    let ev = s.apply(&A::Surrender { player: 1 }).unwrap();
    let one = super::super::units::Force {
        armies: 1,
        navies: 1,
    };
    assert_eq!(s.regions[coast as usize].neutral, one);
    // Neutral units own nothing: no water is friendly to them.
    assert!(ev.contains(&EconomyEvent::NeutralSunk {
        region: scan,
        armies: 1
    }));
    assert_eq!(s.regions[scan as usize].neutral.units(), 0);
    // Ann's navy there may attack the neutral navy, which defends to the death.
    hold(&mut s, 0, "northern_europe_coast", 0, 2);
    let site = super::super::battlefield::Site::Region(coast);
    assert!(s.possible_actions(site, 0).contains(
        &super::super::battlefield::BattleAction::Attack {
            target: super::super::battlefield::Foe::Neutral,
            kind: Kind::Navy,
        }
    ));
    assert!(s.contested(coast));
}
