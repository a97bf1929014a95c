use super::super::action::EconomyAction as A;
use super::super::battlefield::{BattleAction, Foe};
use super::super::combat::tests::{game, hold, r};
use super::super::units::{Force, Kind};
use super::*;

/// Planning: Bob owns Egypt with a navy base on the Red Sea coast, where Ann has one navy.
fn red_sea() -> EconomyState {
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 1, "egypt", 2, 0);
    s.regions[r("egypt") as usize].infra.navy_bases = vec![r("egypt_red_sea")];
    hold(&mut s, 0, "egypt_red_sea", 0, 1);
    s
}

fn blockade(p: PlayerId) -> A {
    A::Blockade {
        player: p,
        country: r("egypt"),
        water: r("egypt_red_sea"),
    }
}

#[test]
fn one_navy_blockades_one_base() {
    let mut s = red_sea();
    let ev = s.apply(&blockade(0)).unwrap();
    assert_eq!(
        ev,
        vec![EconomyEvent::BlockadeSet {
            player: 0,
            country: r("egypt"),
            water: r("egypt_red_sea")
        }]
    );
    assert_eq!(s.blockading(0, r("egypt_red_sea")), 1);
    // The same base twice, or a base where none is.
    assert_eq!(
        s.apply(&blockade(0)),
        Err(EconomyError::NoBaseToBlockade {
            country: r("egypt"),
            water: r("egypt_red_sea")
        })
    );
    assert_eq!(
        s.apply(&A::Blockade {
            player: 0,
            country: r("egypt"),
            water: r("egypt_mediterranean")
        }),
        Err(EconomyError::NoBaseToBlockade {
            country: r("egypt"),
            water: r("egypt_mediterranean")
        })
    );
    // Not an ally's base.
    let mut t = red_sea();
    t.alliances.insert((0, 1));
    assert!(t.apply(&blockade(0)).is_err());
    // Ended at will.
    s.apply(&A::EndBlockade {
        player: 0,
        country: r("egypt"),
        water: r("egypt_red_sea"),
    })
    .unwrap();
    assert!(s.blockades.is_empty());
}

#[test]
fn a_blockading_navy_only_defends_itself() {
    let mut s = red_sea();
    s.apply(&blockade(0)).unwrap();
    s.regions[r("egypt_red_sea") as usize].forces.insert(
        1,
        Force {
            armies: 0,
            navies: 1,
        },
    );
    let site = Site::Region(r("egypt_red_sea"));
    // Ann's only navy blockades: no naval attack for her; Bob may attack it.
    assert!(s.possible_actions(site, 0).is_empty());
    assert_eq!(
        s.possible_actions(site, 1),
        vec![BattleAction::Attack {
            target: Foe::Player(0),
            kind: Kind::Navy
        }]
    );
    // A second navy of hers is free.
    s.regions[r("egypt_red_sea") as usize].forces.insert(
        0,
        Force {
            armies: 0,
            navies: 2,
        },
    );
    assert_eq!(s.possible_actions(site, 0).len(), 1);
    // Without navies there, the blockade is over.
    s.regions[r("egypt_red_sea") as usize].forces.remove(&0);
    let mut events = vec![];
    s.prune_blockades(&mut events);
    assert!(s.blockades.is_empty());
    assert_eq!(events.len(), 1);
}
