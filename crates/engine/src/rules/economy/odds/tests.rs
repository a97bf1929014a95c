//! The odds against the engine itself: small battles are played out through `apply` over every
//! sequence of dice (a branch per face, each weighing a sixth of its parent), and the chance of
//! each way they end must equal the odds exactly, in whole 36ths of 36ths.

use super::super::action::{EconomyAction as A, EconomyEvent};
use super::super::battlefield::{BattleAction, Retreat, WithdrawOrder};
use super::super::combat::tests::{act, between_rolls, game, hold, mv, pass, r, to_combat};
use super::super::units::Force;
use super::*;
use crate::dice::Dice;

/// Dice showing `faces`, then 1s, noting that it ran short (the branch is then cut in six).
struct Script {
    faces: Vec<u8>,
    at: usize,
    short: bool,
}

impl Dice for Script {
    fn next_u32(&mut self) -> u32 {
        panic!("only d6 rolls are expected")
    }
    fn d6(&mut self) -> u8 {
        match self.faces.get(self.at) {
            Some(&f) => {
                self.at += 1;
                f
            }
            None => {
                self.short = true;
                1
            }
        }
    }
}

/// Plays `a` from `s` over every sequence of dice, then lets an attack roll on (everyone asked
/// passes) until nobody is asked; calls `leaf` with each end state, the events on its way and
/// its weight (`weight` split a sixth per die).
fn explore(
    s: &EconomyState,
    a: &A,
    faces: Vec<u8>,
    weight: u128,
    events: &[EconomyEvent],
    leaf: &mut dyn FnMut(&EconomyState, &[EconomyEvent], u128),
) {
    let mut c = s.clone();
    let mut d = Script {
        faces: faces.clone(),
        at: 0,
        short: false,
    };
    let res = c.apply_with(a, &mut d);
    if d.short {
        assert_eq!(weight % 6, 0, "more dice than counted for");
        for f in 1..=6 {
            let mut more = faces.clone();
            more.push(f);
            explore(s, a, more, weight / 6, events, leaf);
        }
        return;
    }
    let mut seen = events.to_vec();
    seen.extend(res.expect("the engine takes it"));
    match between_rolls(&c) {
        Some(q) => {
            let pass = A::Declare {
                player: q,
                action: None,
            };
            explore(&c, &pass, vec![], weight, &seen, leaf)
        }
        None => leaf(&c, &seen, weight),
    }
}

type Tally = BTreeMap<(Ending, u32, u32), u128>;

/// The odds of `p`'s attack on `target` at `site`, as a tally, after checking they add up to
/// exactly one (a power of 36), which is returned too.
fn odds_tally(s: &EconomyState, site: Site, p: PlayerId, target: Foe, kind: Kind) -> (Tally, u128) {
    let odds: AttackOdds<Exact> = s.attack_odds(site, p, target, kind).expect("odds");
    let whole = Exact::certain(odds.attacker_units + odds.target_units)
        .unwrap()
        .0;
    let mut t = Tally::new();
    for e in &odds.ends {
        *t.entry((e.ending, e.attacker_lost, e.target_lost))
            .or_default() += e.chance.0;
    }
    assert_eq!(t.values().sum::<u128>(), whole, "the chances add up to one");
    (t, whole)
}

/// `p` declares the attack and it is played out over every sequence of dice.
fn engine_tally(
    s: &EconomyState,
    site: Site,
    p: PlayerId,
    target: Foe,
    kind: Kind,
    whole: u128,
) -> Tally {
    let start = (
        s.site_force(site, Foe::Player(p)),
        s.site_force(site, target),
    );
    let declare = A::Declare {
        player: p,
        action: Some(BattleAction::Attack { target, kind }),
    };
    let mut t = Tally::new();
    explore(s, &declare, vec![], whole, &[], &mut |c, _, w| {
        let (mine, theirs) = (
            c.site_force(site, Foe::Player(p)),
            c.site_force(site, target),
        );
        let pending = c
            .combat
            .as_ref()
            .and_then(|c| c.battle.as_ref()?.pending.as_ref());
        let ending = match (mine.of(kind) == 0, theirs.of(kind) == 0, pending) {
            (true, true, _) => Ending::BothGone,
            (false, true, _) => Ending::Won,
            (true, false, _) => Ending::Lost,
            (false, false, Some(x)) => Ending::Withdrew(x.player),
            _ => panic!("the attack stopped half way"),
        };
        let lost = (
            start.0.units() - mine.units(),
            start.1.units() - theirs.units(),
        );
        *t.entry((ending, lost.0, lost.1)).or_default() += w;
    });
    t
}

fn same_as_the_engine(s: &EconomyState, site: Site, p: PlayerId, target: Foe, kind: Kind) {
    let (odds, whole) = odds_tally(s, site, p, target, kind);
    let engine = engine_tally(s, site, p, target, kind, whole);
    assert_eq!(odds, engine);
}

fn pick(s: &mut EconomyState, site: Site) {
    act(s, A::PickBattle { player: 0, site }, vec![]).unwrap();
}

#[test]
fn an_attack_from_two_countries_on_fortified_defenders() {
    // Ann: 1 army from Western Europe and 1 from Southern Europe (two flanks); Bob: 2 armies
    // defending Northern Europe behind fortifications (+1 defender, +1 fortifications).
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 0, "southern_europe", 3, 0);
    hold(&mut s, 1, "northern_europe", 2, 0);
    s.regions[r("northern_europe") as usize]
        .infra
        .fortifications = true;
    to_combat(
        &mut s,
        vec![
            vec![
                mv("western_europe", "northern_europe", 1, 0),
                mv("southern_europe", "northern_europe", 1, 0),
            ],
            vec![],
        ],
        vec![6, 1],
    );
    let ne = Site::Region(r("northern_europe"));
    pick(&mut s, ne);
    pass(&mut s, 1);
    let odds: AttackOdds<f64> = s.attack_odds(ne, 0, Foe::Player(1), Kind::Army).unwrap();
    // Ann's flanks (+1) against Bob's defender and fortifications (+2, and his 6 wins).
    assert_eq!(roll::modifier(&odds.next.0, &odds.next.1), 1);
    assert_eq!(roll::modifier(&odds.next.1, &odds.next.0), 2);
    assert!(odds.next.1.fortified);
    same_as_the_engine(&s, ne, 0, Foe::Player(1), Kind::Army);
}

#[test]
fn amphibious_attackers_roll_last_and_newcomers_are_struck_first() {
    // Ann: 1 army from the North Sea coast (amphibious) and 1 from Western Europe; Bob: 1
    // defender and 1 army moved in during friendly movement (no defender).
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 0, "northern_europe_coast", 2, 2);
    hold(&mut s, 1, "northern_europe", 1, 0);
    hold(&mut s, 1, "scandinavia", 1, 0);
    let plans = vec![
        mv("northern_europe_coast", "northern_europe", 1, 0),
        mv("western_europe", "northern_europe", 1, 0),
    ];
    s.apply(&A::SubmitPlans {
        player: 0,
        moves: plans,
    })
    .unwrap();
    s.apply(&A::SubmitPlans {
        player: 1,
        moves: vec![],
    })
    .unwrap();
    s.apply(&A::MoveFriendly {
        player: 1,
        from: r("scandinavia"),
        to: r("northern_europe"),
        force: Force {
            armies: 1,
            navies: 0,
        },
    })
    .unwrap();
    to_combat(&mut s, vec![], vec![6, 1]);
    let ne = Site::Region(r("northern_europe"));
    pick(&mut s, ne);
    pass(&mut s, 1);
    assert_eq!(s.defenders(1, r("northern_europe")).armies, 1);
    assert_eq!(s.units_of(1, r("northern_europe")).armies, 2);
    same_as_the_engine(&s, ne, 0, Foe::Player(1), Kind::Army);
}

#[test]
fn neutrals_defend_behind_fortifications() {
    let mut s = game(&["Ann", "Bob"]);
    s.regions[r("southern_europe") as usize].neutral.armies = 2;
    s.regions[r("southern_europe") as usize]
        .infra
        .fortifications = true;
    to_combat(
        &mut s,
        vec![vec![mv("western_europe", "southern_europe", 2, 0)], vec![]],
        vec![6, 1],
    );
    let se = Site::Region(r("southern_europe"));
    pick(&mut s, se);
    same_as_the_engine(&s, se, 0, Foe::Neutral, Kind::Army);
}

#[test]
fn a_standing_order_ends_the_attack_where_the_engine_withdraws() {
    // Ann attacks with 3; her standing order withdraws her at 2 or fewer units.
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 1, "northern_europe", 2, 0);
    hold(&mut s, 1, "scandinavia", 1, 0);
    to_combat(
        &mut s,
        vec![vec![mv("western_europe", "northern_europe", 3, 0)], vec![]],
        vec![6, 1],
    );
    let ne = Site::Region(r("northern_europe"));
    pick(&mut s, ne);
    let we = r("western_europe");
    let retreat = Some(Retreat {
        at: 2,
        to: we,
        stay: false,
    });
    act(&mut s, A::SetRetreat { player: 0, retreat }, vec![]).unwrap();
    pass(&mut s, 1);
    let (odds, _) = odds_tally(&s, ne, 0, Foe::Player(1), Kind::Army);
    assert!(odds.keys().any(|k| k.0 == Ending::Withdrew(0)));
    same_as_the_engine(&s, ne, 0, Foe::Player(1), Kind::Army);
}

#[test]
fn the_odds_go_on_from_between_two_rolls() {
    // After the first roll the attack is under way; the odds from there match the engine's
    // rolls from there.
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 1, "northern_europe", 2, 0);
    hold(&mut s, 1, "scandinavia", 1, 0);
    to_combat(
        &mut s,
        vec![vec![mv("western_europe", "northern_europe", 3, 0)], vec![]],
        vec![6, 1],
    );
    let ne = Site::Region(r("northern_europe"));
    pick(&mut s, ne);
    pass(&mut s, 1);
    let attack = Some(BattleAction::Attack {
        target: Foe::Player(1),
        kind: Kind::Army,
    });
    // One roll: both lose (4 against 4).
    let mut faces = super::super::combat::tests::Faces(vec![3, 3]);
    s.apply_with(
        &A::Declare {
            player: 0,
            action: attack,
        },
        &mut faces,
    )
    .unwrap();
    assert!(s.assault(ne).is_some());
    let q = between_rolls(&s).unwrap();
    let (odds, whole) = odds_tally(&s, ne, 0, Foe::Player(1), Kind::Army);
    let mut engine = Tally::new();
    let start = (
        s.units_of(0, r("northern_europe")),
        s.units_of(1, r("northern_europe")),
    );
    let pass = A::Declare {
        player: q,
        action: None,
    };
    explore(&s, &pass, vec![], whole, &[], &mut |c, _, w| {
        let (a, t) = (
            c.units_of(0, r("northern_europe")),
            c.units_of(1, r("northern_europe")),
        );
        let ending = match (a.armies == 0, t.armies == 0) {
            (true, true) => Ending::BothGone,
            (false, true) => Ending::Won,
            (true, false) => Ending::Lost,
            _ => panic!("the attack stopped half way"),
        };
        let key = (
            ending,
            start.0.units() - a.units(),
            start.1.units() - t.units(),
        );
        *engine.entry(key).or_default() += w;
    });
    assert_eq!(odds, engine);
}

#[test]
fn long_battles_add_up_to_exactly_one() {
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 0, "western_europe", 12, 0);
    hold(&mut s, 0, "southern_europe", 5, 0);
    hold(&mut s, 1, "northern_europe", 8, 0);
    s.regions[r("northern_europe") as usize]
        .infra
        .fortifications = true;
    to_combat(
        &mut s,
        vec![
            vec![
                mv("western_europe", "northern_europe", 10, 0),
                mv("southern_europe", "northern_europe", 4, 0),
            ],
            vec![],
        ],
        vec![6, 1],
    );
    let ne = Site::Region(r("northern_europe"));
    pick(&mut s, ne);
    pass(&mut s, 1);
    // 22 units: the exact sum fits; the float odds agree with it.
    let (exact, whole) = odds_tally(&s, ne, 0, Foe::Player(1), Kind::Army);
    let float: AttackOdds<f64> = s.attack_odds(ne, 0, Foe::Player(1), Kind::Army).unwrap();
    let won: u128 = exact
        .iter()
        .filter(|(k, _)| k.0 == Ending::Won)
        .map(|(_, w)| w)
        .sum();
    assert!((float.win() - won as f64 / whole as f64).abs() < 1e-12);
    assert!(
        float.win() > 0.5,
        "14 against 8 behind walls: {}",
        float.win()
    );
}

/// Tallies escape odds as (lost, interceptors lost) → weight.
fn escape_tally(odds: &EscapeOdds<Exact>) -> BTreeMap<(u32, u32), u128> {
    odds.ends
        .iter()
        .map(|e| ((e.lost, e.interceptors_lost), e.chance.0))
        .collect()
}

/// Plays the interception of the pending withdraw or landing over every sequence of dice.
fn engine_escapes(s: &EconomyState, q: PlayerId, whole: u128) -> BTreeMap<(u32, u32), u128> {
    let yes = A::Intercept {
        player: q,
        yes: true,
    };
    let mut t = BTreeMap::new();
    explore(s, &yes, vec![], whole, &[], &mut |_, events, w| {
        let mut key = (0, 0);
        for e in events {
            match e {
                EconomyEvent::Withdrew { lost, .. } | EconomyEvent::Landed { lost, .. } => {
                    key.0 += lost.units()
                }
                EconomyEvent::InterceptRoll {
                    interceptor_lost: true,
                    ..
                } => key.1 += 1,
                _ => {}
            }
        }
        *t.entry(key).or_default() += w;
    });
    t
}

#[test]
fn a_withdraw_costs_what_the_interception_rolls_take() {
    // Ann's 3 newcomers withdraw back to Western Europe past Bob's 2 defenders.
    let mut s = game(&["Ann", "Bob"]);
    hold(&mut s, 1, "northern_europe", 2, 0);
    hold(&mut s, 1, "scandinavia", 1, 0);
    to_combat(
        &mut s,
        vec![vec![mv("western_europe", "northern_europe", 3, 0)], vec![]],
        vec![6, 1],
    );
    let ne = Site::Region(r("northern_europe"));
    pick(&mut s, ne);
    pass(&mut s, 1);
    let w = WithdrawOrder::to(
        r("western_europe"),
        Force {
            armies: 3,
            navies: 0,
        },
    );
    let odds: EscapeOdds<Exact> = s.escape_odds(ne, 0, Getaway::Withdraw(w), &[1]).unwrap();
    let whole = Exact::certain(3).unwrap().0;
    assert_eq!(odds.ends.iter().map(|e| e.chance.0).sum::<u128>(), whole);
    act(
        &mut s,
        A::Declare {
            player: 0,
            action: Some(BattleAction::Withdraw(w)),
        },
        vec![],
    )
    .unwrap();
    assert_eq!(escape_tally(&odds), engine_escapes(&s, 1, whole));
}

#[test]
fn a_landing_with_engaged_navies_costs_armies_and_navies() {
    for engaged in [false, true] {
        let mut s = game(&["Ann", "Bob"]);
        hold(&mut s, 0, "northern_europe_coast", 2, 2);
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
        pick(&mut s, site);
        pass(&mut s, 1);
        let what = Getaway::Land {
            armies: 2,
            navies_engaged: engaged,
        };
        let odds: EscapeOdds<Exact> = s.escape_odds(site, 0, what, &[1]).unwrap();
        let whole = Exact::certain(2).unwrap().0;
        assert_eq!(odds.ends.iter().map(|e| e.chance.0).sum::<u128>(), whole);
        act(
            &mut s,
            A::Declare {
                player: 0,
                action: Some(BattleAction::Land {
                    armies: 2,
                    to: r("northern_europe"),
                    navies_engaged: engaged,
                }),
            },
            vec![],
        )
        .unwrap();
        assert_eq!(
            escape_tally(&odds),
            engine_escapes(&s, 1, whole),
            "{engaged}"
        );
    }
}
