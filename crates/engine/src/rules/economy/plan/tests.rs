use super::super::action::EconomyAction as A;
use super::super::options::EconomyOptions;
use super::*;

fn map() -> &'static EconomyMap {
    EconomyMap::get()
}

fn r(k: &str) -> RegionId {
    map().region(k).unwrap_or_else(|| panic!("no region {k}"))
}

fn hold(s: &mut EconomyState, p: PlayerId, k: &str, armies: u32, navies: u32) {
    let x = &mut s.regions[r(k) as usize];
    x.owner = Some(p);
    x.forces.insert(p, Force { armies, navies });
}

/// Planning: Ann (0) holds Western Europe (10 armies) and its coast (2 navies); Bob (1) holds
/// Northern Europe (3 armies); Southern Europe holds one neutral army.
fn game() -> EconomyState {
    let mut s = EconomyState::empty(map(), &["Ann", "Bob"], EconomyOptions::default());
    hold(&mut s, 0, "western_europe", 10, 0);
    hold(&mut s, 0, "western_europe_coast", 0, 2);
    hold(&mut s, 1, "northern_europe", 3, 0);
    s.regions[r("southern_europe") as usize].neutral.armies = 1;
    s.phase = Phase::Planning;
    s
}

fn mv(from: &str, to: &str, armies: u32, navies: u32) -> PlannedMove {
    PlannedMove {
        from: r(from),
        to: r(to),
        armies,
        navies,
    }
}

fn plans(s: &mut EconomyState, p: PlayerId, moves: Vec<PlannedMove>) -> Events {
    s.apply(&A::SubmitPlans { player: p, moves })
}

#[test]
fn plans_name_non_friendly_destinations_within_reach() {
    let mut s = game();
    let before = s.clone();
    let cases = [
        (
            vec![mv("western_europe", "western_europe_coast", 1, 0)],
            EconomyError::FriendlyNeedsNoPlan(r("western_europe_coast")),
        ),
        (
            vec![
                mv("western_europe", "northern_europe", 6, 0),
                mv("western_europe", "southern_europe", 5, 0),
            ],
            EconomyError::NotThere(r("western_europe")),
        ),
        (
            vec![mv("western_europe", "ukraine", 1, 0)],
            EconomyError::OutOfReach {
                from: r("western_europe"),
                to: r("ukraine"),
                kind: Kind::Army,
            },
        ),
        (
            vec![mv("western_europe_coast", "southern_europe", 0, 1)],
            EconomyError::OutOfReach {
                from: r("western_europe_coast"),
                to: r("southern_europe"),
                kind: Kind::Navy,
            },
        ),
        (
            vec![
                mv("western_europe", "northern_europe", 1, 0),
                mv("western_europe", "northern_europe", 1, 0),
            ],
            EconomyError::PlanRepeated {
                from: r("western_europe"),
                to: r("northern_europe"),
            },
        ),
        (
            vec![mv("western_europe", "northern_europe", 0, 0)],
            EconomyError::ZeroUnits,
        ),
        (
            vec![mv("western_europe", "northern_europe", 0, 1)],
            EconomyError::NotThere(r("western_europe")),
        ),
    ];
    for (moves, e) in cases {
        assert_eq!(plans(&mut s, 0, moves), Err(e));
        assert_eq!(s, before);
    }
    // Navies sail past their own coast into water nobody owns: three water steps at most.
    plans(
        &mut s,
        0,
        vec![
            mv("western_europe", "northern_europe", 5, 0),
            mv("western_europe", "southern_europe", 4, 0),
            mv("western_europe_coast", "great_britain_coast", 0, 1),
            mv("western_europe_coast", "north_africa_coast", 0, 1),
        ],
    )
    .unwrap();
    // Plans are final.
    assert_eq!(plans(&mut s, 0, vec![]), Err(EconomyError::AlreadyDone));
    assert_eq!(s.phase, Phase::Planning);
    let ev = plans(&mut s, 1, vec![]).unwrap();
    assert!(matches!(ev.last(), Some(EconomyEvent::PlansRevealed { plans }) if plans.len() == 2));
    assert_eq!(s.phase, Phase::Moving);
}

#[test]
fn units_in_a_contested_region_take_no_plans() {
    let mut s = game();
    s.regions[r("western_europe_coast") as usize].forces.insert(
        1,
        Force {
            armies: 0,
            navies: 1,
        },
    );
    assert_eq!(
        plans(
            &mut s,
            0,
            vec![mv("western_europe_coast", "great_britain_coast", 0, 1)]
        ),
        Err(EconomyError::ContestedNoPlans(r("western_europe_coast")))
    );
}

#[test]
fn friendly_movement_uses_units_not_in_plans_once() {
    let mut s = game();
    plans(
        &mut s,
        0,
        vec![mv("western_europe", "northern_europe", 5, 0)],
    )
    .unwrap();
    let friendly = |s: &mut EconomyState, from: &str, to: &str, armies: u32| {
        s.apply(&A::MoveFriendly {
            player: 0,
            from: r(from),
            to: r(to),
            force: Force { armies, navies: 0 },
        })
    };
    assert_eq!(
        friendly(&mut s, "western_europe", "western_europe_coast", 1),
        Err(EconomyError::WrongPhase(Phase::Planning))
    );
    plans(&mut s, 1, vec![]).unwrap();
    // Five are in the plan: six are not free.
    assert_eq!(
        friendly(&mut s, "western_europe", "western_europe_coast", 6),
        Err(EconomyError::NotFree(r("western_europe")))
    );
    assert_eq!(
        friendly(&mut s, "western_europe", "northern_europe", 1),
        Err(EconomyError::NotFriendly(r("northern_europe")))
    );
    // Armies go onto friendly water without navies.
    friendly(&mut s, "western_europe", "western_europe_coast", 2).unwrap();
    assert_eq!(
        s.units_of(0, r("western_europe_coast")),
        Force {
            armies: 2,
            navies: 2
        }
    );
    // ... and stay there for the round.
    assert_eq!(
        friendly(&mut s, "western_europe_coast", "western_europe", 1),
        Err(EconomyError::NotFree(r("western_europe_coast")))
    );
    assert_eq!(
        s.free_units(0, r("western_europe")),
        Force {
            armies: 3,
            navies: 0
        }
    );
    s.apply(&A::FinishMoving { player: 0 }).unwrap();
    assert_eq!(
        friendly(&mut s, "western_europe", "western_europe_coast", 1),
        Err(EconomyError::AlreadyDone)
    );
    let ev = s.apply(&A::FinishMoving { player: 1 }).unwrap();
    assert!(ev.contains(&EconomyEvent::CombatBegan));
    assert_eq!(s.phase, Phase::Combat);
}

#[test]
fn time_is_called_on_the_last_planners_once_most_have_submitted() {
    let mut s = EconomyState::empty(map(), &["Ann", "Bob", "Cy"], EconomyOptions::default());
    hold(&mut s, 0, "western_europe", 3, 0);
    hold(&mut s, 1, "northern_europe", 3, 0);
    hold(&mut s, 2, "ukraine", 3, 0);
    s.round = 1;
    s.phase = Phase::Planning;
    let submit = |player| A::SubmitPlans {
        player,
        moves: vec![],
    };
    let close = |player| A::ClosePlanning { player };
    s.apply(&submit(0)).unwrap();
    // One of three is no majority: the clock does not run yet.
    assert!(!s.planning_clock_runs());
    assert_eq!(
        s.apply(&close(0)),
        Err(EconomyError::PlanningClockNotRunning)
    );
    s.apply(&submit(1)).unwrap();
    assert!(s.planning_clock_runs());
    // Cy, still planning, cannot call time on himself.
    assert_eq!(
        s.apply(&close(2)),
        Err(EconomyError::PlanningClockNotRunning)
    );
    let ev = s.apply(&close(1)).unwrap();
    assert_eq!(ev[0], EconomyEvent::PlanningClosed { late: vec![2] });
    assert_eq!(s.plans.get(&2), Some(&vec![]));
    assert_eq!(s.phase, Phase::Moving);
    assert!(!s.planning_clock_runs());
}

/// The regions the page marks as destinations are exactly those a one-move plan (in planning)
/// or a friendly move (in friendly movement) of every unit of that kind there is accepted for.
#[test]
fn destinations_are_exactly_the_moves_the_rules_accept() {
    let s = game();
    let all = 0..map().regions.len() as RegionId;
    for from in [r("western_europe"), r("western_europe_coast")] {
        let dest = s.destinations(map(), 0, from);
        assert!(!dest.is_empty(), "{from}");
        let here = s.units_of(0, from);
        for to in all.clone().filter(|&t| t != from) {
            let accepted = [(here.armies, 0), (0, here.navies)]
                .into_iter()
                .filter(|&(a, n)| a + n > 0)
                .any(|(a, n)| {
                    let mut t = s.clone();
                    let m = PlannedMove {
                        from,
                        to,
                        armies: a,
                        navies: n,
                    };
                    plans(&mut t, 0, vec![m]).is_ok()
                });
            assert_eq!(dest.contains(&to), accepted, "planning {from} -> {to}");
        }
    }
    // Nobody's units, nothing to mark.
    assert!(s.destinations(map(), 0, r("southern_europe")).is_empty());

    let mut m = game();
    m.phase = Phase::Moving;
    let from = r("western_europe");
    let dest = m.destinations(map(), 0, from);
    assert!(dest.contains(&r("western_europe_coast")), "{dest:?}");
    for to in all.filter(|&t| t != from) {
        let mut t = m.clone();
        let ok = t
            .apply(&A::MoveFriendly {
                player: 0,
                from,
                to,
                force: Force {
                    armies: 1,
                    navies: 0,
                },
            })
            .is_ok();
        assert_eq!(dest.contains(&to), ok, "moving {from} -> {to}");
    }
}

/// A picked move takes, unless the player says otherwise, every unit that can make it: all the
/// armies (navies do not march inland) less those already in a plan from there; the navies
/// only toward water they reach; in friendly movement, only units still free; nothing from a
/// contested region. Each default is a move the rules accept.
#[test]
fn a_picked_move_defaults_to_every_unit_that_can_make_it() {
    let mut s = game();
    hold(&mut s, 0, "western_europe", 10, 0);
    let we = r("western_europe");
    let def = |s: &EconomyState, from: &str, to: &str, drafted: &[PlannedMove]| {
        s.move_default(map(), 0, r(from), r(to), drafted)
    };
    let f = def(&s, "western_europe", "southern_europe", &[]);
    assert_eq!((f.armies, f.navies), (10, 0));
    let drafted = [mv("western_europe", "northern_europe", 4, 0)];
    let f = def(&s, "western_europe", "southern_europe", &drafted);
    assert_eq!((f.armies, f.navies), (6, 0));
    let mut t = s.clone();
    let m = PlannedMove {
        from: we,
        to: r("southern_europe"),
        armies: f.armies,
        navies: f.navies,
    };
    assert!(plans(&mut t, 0, vec![drafted[0], m]).is_ok());
    // Out of reach: nothing.
    assert_eq!(def(&s, "western_europe", "ukraine", &[]).units(), 0);
    // Navies toward water they reach; none toward a country.
    assert_eq!(
        def(&s, "western_europe_coast", "southern_europe", &[]).units(),
        0
    );
    // Contested: no plans, so no default.
    s.regions[we as usize].forces.insert(
        1,
        Force {
            armies: 1,
            navies: 0,
        },
    );
    assert_eq!(def(&s, "western_europe", "southern_europe", &[]).units(), 0);
    // Friendly movement: only the free units, only between friendly regions.
    let mut m = game();
    m.phase = Phase::Moving;
    m.plans
        .insert(0, vec![mv("western_europe", "southern_europe", 7, 0)]);
    let f = def(&m, "western_europe", "western_europe_coast", &[]);
    assert_eq!((f.armies, f.navies), (3, 0));
    assert_eq!(def(&m, "western_europe", "northern_europe", &[]).units(), 0);
}
