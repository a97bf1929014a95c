//! The planning screen's questions: where a move may start (and the engine's reason where not),
//! and what a planned move meets, its odds equal to those the battle screen counts once the
//! battle is picked.

use super::super::action::EconomyAction as A;
use super::super::combat::tests::{act, game, hold, mv, r, to_combat};
use super::*;

fn map() -> &'static EconomyMap {
    EconomyMap::get()
}

#[test]
fn a_move_starts_only_where_the_player_has_units_to_plan() {
    let mut s = game(&["Ann", "Bob"]);
    s.regions[r("ukraine") as usize].neutral = Force {
        armies: 1,
        navies: 0,
    };
    let we = r("western_europe");
    // Neutral Ukraine and Bob's Northern Europe hold none of Ann's units.
    assert_eq!(
        s.move_start(map(), 0, r("ukraine"), &[]),
        Err(EconomyError::NoUnitsThere(r("ukraine")))
    );
    assert_eq!(
        s.move_start(map(), 0, r("northern_europe"), &[]),
        Err(EconomyError::NoUnitsThere(r("northern_europe")))
    );
    // Her own country: every army, less what her draft already takes.
    assert_eq!(
        s.move_start(map(), 0, we, &[]),
        Ok(Force {
            armies: 6,
            navies: 0
        })
    );
    let draft = [mv("western_europe", "northern_europe", 4, 0)];
    assert_eq!(s.move_start(map(), 0, we, &draft).map(|f| f.armies), Ok(2));
    let all = [mv("western_europe", "northern_europe", 6, 0)];
    assert_eq!(
        s.move_start(map(), 0, we, &all),
        Err(EconomyError::AllPlanned(we))
    );
    // The words say why and what to do.
    let why = EconomyError::NoUnitsThere(r("ukraine")).to_string();
    assert!(
        why.starts_with("You can't start a move from Ukraine: none of your units are there"),
        "{why}"
    );
    // Contested ground takes no plans.
    hold(&mut s, 1, "southern_europe", 2, 0);
    s.regions[r("southern_europe") as usize].forces.insert(
        0,
        Force {
            armies: 1,
            navies: 0,
        },
    );
    assert_eq!(
        s.move_start(map(), 0, r("southern_europe"), &[]),
        Err(EconomyError::ContestedNoPlans(r("southern_europe")))
    );
    // Not a question of the Get phase.
    s.phase = Phase::Get;
    assert_eq!(
        s.move_start(map(), 0, we, &[]),
        Err(EconomyError::WrongPhase(Phase::Get))
    );
}

#[test]
fn units_hemmed_in_by_their_own_land_have_nothing_to_plan() {
    let mut s = game(&["Ann", "Bob"]);
    // Ann holds Western Europe and every land and water region around it.
    let we = r("western_europe");
    for &n in map().neighbours(we) {
        s.regions[n as usize].owner = Some(0);
    }
    s.regions[r("northern_europe") as usize].forces.clear();
    assert_eq!(
        s.move_start(map(), 0, we, &[]),
        Err(EconomyError::NothingToPlan(we))
    );
}

#[test]
fn a_planned_attack_shows_its_defenders_walls_and_the_battles_own_odds() {
    let mut s = game(&["Ann", "Bob"]);
    let ne = r("northern_europe");
    s.regions[ne as usize].infra.fortifications = true;
    s.regions[ne as usize].infra.army_bases = 2;
    let plans = vec![mv("western_europe", "northern_europe", 6, 0)];
    let p = s.plan_preview(map(), 0, &plans, ne);
    assert_eq!(p.owner, Some(1));
    assert_eq!(
        p.defenders,
        vec![(
            Foe::Player(1),
            Force {
                armies: 3,
                navies: 0
            }
        )]
    );
    assert!(p.walls);
    assert_eq!(p.capital_of, Some(1));
    assert_eq!(p.army_bases, 2);
    assert_eq!(p.arriving.armies, 6);
    let f = p.fight.clone().expect("a fight");
    assert_eq!(
        (f.target, f.kind, f.attackers, f.defenders),
        (Foe::Player(1), Kind::Army, 6, 3)
    );
    assert!(f.win > 0.0 && f.win < 1.0, "{f:?}");
    // The same plans carried out by the engine, the battle picked: the battle screen's odds.
    let mut g = s.clone();
    to_combat(&mut g, vec![plans.clone(), vec![]], vec![6, 1]);
    act(
        &mut g,
        A::PickBattle {
            player: 0,
            site: Site::Region(ne),
        },
        vec![],
    )
    .unwrap();
    let real = g
        .attack_odds::<f64>(Site::Region(ne), 0, Foe::Player(1), Kind::Army)
        .unwrap();
    assert_eq!(f.win, real.win());
    assert_eq!(f.lost, real.expected_losses());
    // Without the walls the same attack is likelier to win.
    s.regions[ne as usize].infra.fortifications = false;
    let bare = s.plan_preview(map(), 0, &plans, ne);
    assert!(!bare.walls);
    assert!(bare.fight.unwrap().win > f.win);
}

#[test]
fn more_armies_and_more_flanks_raise_the_chance() {
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 0, "southern_europe", 3, 0);
    let ne = r("northern_europe");
    let few = s.plan_preview(
        map(),
        0,
        &[mv("western_europe", "northern_europe", 3, 0)],
        ne,
    );
    let more = s.plan_preview(
        map(),
        0,
        &[mv("western_europe", "northern_europe", 6, 0)],
        ne,
    );
    let two_sides = s.plan_preview(
        map(),
        0,
        &[
            mv("western_europe", "northern_europe", 3, 0),
            mv("southern_europe", "northern_europe", 3, 0),
        ],
        ne,
    );
    let w = |p: &TargetPreview| p.fight.as_ref().unwrap().win;
    assert!(w(&more) > w(&few));
    // Six armies from two countries: a flank more than six from one.
    assert_eq!(two_sides.arriving.armies, 6);
    assert!(w(&two_sides) > w(&more));
}

#[test]
fn neutral_and_empty_targets() {
    let mut s = game(&["Ann", "Bob"]);
    let uk = r("ukraine");
    s.regions[uk as usize].neutral = Force {
        armies: 1,
        navies: 0,
    };
    hold(&mut s, 0, "scandinavia", 2, 0);
    let plans = [mv("scandinavia", "ukraine", 2, 0)];
    let p = s.plan_preview(map(), 0, &plans, uk);
    assert_eq!(p.owner, None);
    assert_eq!(
        p.defenders,
        vec![(
            Foe::Neutral,
            Force {
                armies: 1,
                navies: 0
            }
        )]
    );
    let f = p.fight.unwrap();
    assert_eq!((f.target, f.attackers, f.defenders), (Foe::Neutral, 2, 1));
    assert!(f.win > 0.5);
    // Nobody in Southern Europe: nothing to fight, and no odds to show.
    let se = r("southern_europe");
    let p = s.plan_preview(
        map(),
        0,
        &[mv("western_europe", "southern_europe", 2, 0)],
        se,
    );
    assert!(p.defenders.is_empty());
    assert_eq!(p.fight, None);
    // A target no plan goes to yet (a region pointed at before the move is made): what stands
    // there, but no odds.
    let p = s.plan_preview(map(), 0, &[], uk);
    assert_eq!(p.defenders.len(), 1);
    assert_eq!(p.fight, None);
}
