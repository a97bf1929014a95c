use super::super::action::EconomyAction as A;
use super::super::battlefield::BattleAction;
use super::super::options::EconomyOptions;
use super::super::units::PlannedMove;
use super::*;

/// Dice that show the given faces in order, and fail the test when asked for more.
pub(crate) struct Faces(pub Vec<u8>);

impl Dice for Faces {
    fn next_u32(&mut self) -> u32 {
        panic!("only d6 rolls are expected")
    }
    fn d6(&mut self) -> u8 {
        assert!(!self.0.is_empty(), "more dice rolled than expected");
        self.0.remove(0)
    }
}

fn map() -> &'static EconomyMap {
    EconomyMap::get()
}

pub(crate) fn r(k: &str) -> RegionId {
    map().region(k).unwrap_or_else(|| panic!("no region {k}"))
}

pub(crate) fn hold(s: &mut EconomyState, p: PlayerId, k: &str, armies: u32, navies: u32) {
    let x = &mut s.regions[r(k) as usize];
    x.owner = Some(p);
    if armies + navies > 0 {
        x.forces.insert(p, Force { armies, navies });
    }
}

/// Planning with `names`: Ann (0) holds Western Europe, her capital, with 6 armies; Bob (1)
/// holds Northern Europe, his capital, with 3; both have 10 MU and no cards.
pub(crate) fn game(names: &[&str]) -> EconomyState {
    let options = EconomyOptions {
        influence_cards: true,
        ..EconomyOptions::default()
    };
    let mut s = EconomyState::empty(map(), names, options);
    hold(&mut s, 0, "western_europe", 6, 0);
    hold(&mut s, 1, "northern_europe", 3, 0);
    s.players[0].capital = Some(r("western_europe"));
    s.players[1].capital = Some(r("northern_europe"));
    for p in &mut s.players {
        p.mu = 10;
    }
    s.round = 1;
    s.phase = Phase::Planning;
    s
}

pub(crate) fn mv(from: &str, to: &str, armies: u32, navies: u32) -> PlannedMove {
    PlannedMove {
        from: r(from),
        to: r(to),
        armies,
        navies,
    }
}

/// Everyone submits `plans` (by player) and finishes friendly movement; the last finish rolls
/// `dice` (initiative and anything before the first battle).
pub(crate) fn to_combat(
    s: &mut EconomyState,
    plans: Vec<Vec<PlannedMove>>,
    dice: Vec<u8>,
) -> Vec<EconomyEvent> {
    for (p, moves) in plans.into_iter().enumerate() {
        s.apply(&A::SubmitPlans {
            player: p as PlayerId,
            moves,
        })
        .unwrap();
    }
    let n = s.players.len() as PlayerId;
    for p in 0..n - 1 {
        s.apply(&A::FinishMoving { player: p }).unwrap();
    }
    let mut faces = Faces(dice);
    let ev = s
        .apply_with(&A::FinishMoving { player: n - 1 }, &mut faces)
        .unwrap();
    assert!(faces.0.is_empty(), "dice left over: {:?}", faces.0);
    ev
}

/// `a`, then, while an attack is under way, every player asked after a roll lets it go on: an
/// attack runs to its end (tests of what may be declared between two rolls use [`act_once`]).
pub(crate) fn act(
    s: &mut EconomyState,
    a: A,
    dice: Vec<u8>,
) -> Result<Vec<EconomyEvent>, EconomyError> {
    let mut faces = Faces(dice);
    let mut out = s.apply_with(&a, &mut faces)?;
    while let Some(q) = between_rolls(s) {
        let pass = A::Declare {
            player: q,
            action: None,
        };
        out.extend(s.apply_with(&pass, &mut faces)?);
    }
    assert!(faces.0.is_empty(), "dice left over: {:?}", faces.0);
    Ok(out)
}

/// The next player asked whether to declare between two rolls of an attack, if one is.
pub(crate) fn between_rolls(s: &EconomyState) -> Option<PlayerId> {
    let b = s.combat.as_ref()?.battle.as_ref()?;
    if b.assault.is_none() || b.pending.is_some() || s.waiting_for_choice() {
        return None;
    }
    s.to_act().first().copied()
}

/// `a` alone: an attack stops after its first roll, with the players asked.
pub(crate) fn act_once(
    s: &mut EconomyState,
    a: A,
    dice: Vec<u8>,
) -> Result<Vec<EconomyEvent>, EconomyError> {
    let mut faces = Faces(dice);
    let out = s.apply_with(&a, &mut faces);
    assert!(faces.0.is_empty(), "dice left over: {:?}", faces.0);
    out
}

/// `player` declares `action` in the battle under way, the dice being `dice`.
pub(crate) fn declare(
    s: &mut EconomyState,
    player: PlayerId,
    action: Option<BattleAction>,
    dice: Vec<u8>,
) -> Result<Vec<EconomyEvent>, EconomyError> {
    act(s, A::Declare { player, action }, dice)
}

/// `player` declares no action in the battle under way.
pub(crate) fn pass(s: &mut EconomyState, player: PlayerId) {
    declare(s, player, None, vec![]).unwrap();
}

#[test]
fn an_attack_takes_a_country_and_its_capital() {
    let mut s = game(&["Ann", "Bob"]);
    // Bob also has Ukraine, so he is still in the game after losing his capital.
    hold(&mut s, 1, "ukraine", 1, 0);
    // Initiative: Ann 6, Bob 1.
    let ev = to_combat(
        &mut s,
        vec![vec![mv("western_europe", "northern_europe", 4, 0)], vec![]],
        vec![6, 1],
    );
    assert!(ev.contains(&EconomyEvent::BattleTokens {
        sites: vec![Site::Region(r("northern_europe"))]
    }));
    let ne = Site::Region(r("northern_europe"));
    assert_eq!(s.combat.as_ref().unwrap().holder, 0);
    assert_eq!(
        act(
            &mut s,
            A::PickBattle {
                player: 1,
                site: ne
            },
            vec![]
        ),
        Err(EconomyError::NotInitiative(0))
    );
    act(
        &mut s,
        A::PickBattle {
            player: 0,
            site: ne,
        },
        vec![],
    )
    .unwrap();
    assert_eq!(
        act(
            &mut s,
            A::PickBattle {
                player: 0,
                site: ne
            },
            vec![]
        ),
        Err(EconomyError::BattleUnderway)
    );
    let attack = BattleAction::Attack {
        target: Foe::Player(1),
        kind: Kind::Army,
    };
    pass(&mut s, 1);
    // Ann 4 against 3: +1. Bob defends: +1. 6+1 against 2+1, three times.
    let ev = declare(&mut s, 0, Some(attack), vec![6, 2, 6, 2, 6, 2]).unwrap();
    let rolls: Vec<(i32, i32)> = ev
        .iter()
        .filter_map(|e| match e {
            EconomyEvent::BattleRoll { totals, .. } => Some(*totals),
            _ => None,
        })
        .collect();
    assert_eq!(rolls, vec![(7, 3), (7, 3), (8, 3)]);
    assert!(ev.contains(&EconomyEvent::BattleClosed {
        site: ne,
        victories: vec![0],
        losses: vec![1]
    }));
    assert!(ev.contains(&EconomyEvent::OwnershipLost {
        player: 1,
        region: r("northern_europe")
    }));
    // One victory, no loss: an influence card. Then the next round: Ann gains Northern Europe
    // and with it Bob's capital, his money and his cards.
    assert!(ev
        .iter()
        .any(|e| matches!(e, EconomyEvent::CardDrawn { player: 0, .. })));
    assert!(ev.contains(&EconomyEvent::RoundBegan { round: 2 }));
    assert!(ev.contains(&EconomyEvent::CapitalTaken {
        player: 0,
        from: 1,
        country: r("northern_europe"),
        mu: 10,
        cards: 0
    }));
    assert_eq!(s.phase, Phase::Get);
    assert!(s.combat.is_none());
    assert_eq!(s.players[1].capital, None);
    assert_eq!(s.regions[r("northern_europe") as usize].owner, Some(0));
    assert_eq!(
        s.regions[r("northern_europe") as usize].conquered_in,
        Some(2)
    );
    assert_eq!(s.players[0].cards.len(), 1);
    // 10 + Bob's 10 + 2 countries.
    assert_eq!(s.players[0].mu, 22);
}

#[test]
fn a_defenders_six_always_wins() {
    let mut s = game(&["Ann", "Bob"]);
    s.regions[r("western_europe") as usize].forces.insert(
        0,
        Force {
            armies: 20,
            navies: 0,
        },
    );
    to_combat(
        &mut s,
        vec![vec![mv("western_europe", "northern_europe", 10, 0)], vec![]],
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
    // Ann: 6 + 2 (more than twice) = 8 against Bob's natural 6: Bob wins anyway. Then Ann wins
    // three rolls.
    let ev = act(
        &mut s,
        A::Declare {
            player: 0,
            action: Some(BattleAction::Attack {
                target: Foe::Player(1),
                kind: Kind::Army,
            }),
        },
        vec![6, 6, 5, 1, 5, 1, 5, 1],
    )
    .unwrap();
    let losers: Vec<Loser> = ev
        .iter()
        .filter_map(|e| match e {
            EconomyEvent::BattleRoll { loser, .. } => Some(*loser),
            _ => None,
        })
        .collect();
    assert_eq!(
        losers,
        vec![Loser::First, Loser::Second, Loser::Second, Loser::Second]
    );
    assert_eq!(s.units_of(0, r("northern_europe")).armies, 9);
}

#[test]
fn hostile_plans_crossing_a_border_meet_on_it() {
    let mut s = game(&["Ann", "Bob"]);
    let ev = to_combat(
        &mut s,
        vec![
            vec![mv("western_europe", "northern_europe", 3, 0)],
            vec![mv("northern_europe", "western_europe", 2, 0)],
        ],
        vec![6, 1],
    );
    let border = Site::border(r("western_europe"), r("northern_europe"));
    let tokens: BTreeSet<Site> = ev
        .iter()
        .find_map(|e| match e {
            EconomyEvent::BattleTokens { sites } => Some(sites.iter().copied().collect()),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        tokens,
        BTreeSet::from([
            Site::Region(r("western_europe")),
            Site::Region(r("northern_europe")),
            border
        ])
    );
    // Neither country holds anything hostile yet: their tokens are lifted at once.
    assert_eq!(s.combat.as_ref().unwrap().tokens, BTreeSet::from([border]));
    act(
        &mut s,
        A::PickBattle {
            player: 0,
            site: border,
        },
        vec![],
    )
    .unwrap();
    pass(&mut s, 1);
    // Ann's 3 against Bob's 2 on the border, nobody defending: 5+1 against 4, twice.
    let ev = act(
        &mut s,
        A::Declare {
            player: 0,
            action: Some(BattleAction::Attack {
                target: Foe::Player(1),
                kind: Kind::Army,
            }),
        },
        vec![5, 4, 5, 4],
    )
    .unwrap();
    assert!(ev.contains(&EconomyEvent::BattleClosed {
        site: border,
        victories: vec![0],
        losses: vec![1]
    }));
    // Ann's three go on into Northern Europe, where Bob's last army waits: a new battle there.
    assert_eq!(s.units_of(0, r("northern_europe")).armies, 3);
    assert_eq!(
        s.combat.as_ref().unwrap().tokens,
        BTreeSet::from([Site::Region(r("northern_europe"))])
    );
}

#[test]
fn when_several_act_the_holder_chooses_who_goes_first() {
    let mut s = game(&["Ann", "Bob", "Cy"]);
    hold(&mut s, 2, "ukraine", 3, 0);
    s.players[2].capital = Some(r("ukraine"));
    // Ann and Cy both march on Northern Europe. Initiative: 2, 1, 6 (Cy).
    to_combat(
        &mut s,
        vec![
            vec![mv("western_europe", "northern_europe", 2, 0)],
            vec![],
            vec![mv("ukraine", "northern_europe", 2, 0)],
        ],
        vec![2, 1, 6],
    );
    let ne = Site::Region(r("northern_europe"));
    act(
        &mut s,
        A::PickBattle {
            player: 2,
            site: ne,
        },
        vec![],
    )
    .unwrap();
    let attack = |target| {
        Some(BattleAction::Attack {
            target: Foe::Player(target),
            kind: Kind::Army,
        })
    };
    assert_eq!(
        act(
            &mut s,
            A::Declare {
                player: 0,
                action: attack(0)
            },
            vec![]
        ),
        Err(EconomyError::ActionNotPossible)
    );
    act(
        &mut s,
        A::Declare {
            player: 0,
            action: attack(1),
        },
        vec![],
    )
    .unwrap();
    act(
        &mut s,
        A::Declare {
            player: 1,
            action: attack(2),
        },
        vec![],
    )
    .unwrap();
    assert!(!s.waiting_for_choice());
    act(
        &mut s,
        A::Declare {
            player: 2,
            action: attack(0),
        },
        vec![],
    )
    .unwrap();
    assert!(s.waiting_for_choice());
    assert_eq!(
        act(
            &mut s,
            A::ChooseAction {
                player: 0,
                actor: 1
            },
            vec![]
        ),
        Err(EconomyError::NotInitiative(2))
    );
    // Cy lets Bob's attack on him go first: Bob 3 against Cy's 2, Bob defending... but Bob is
    // attacking, so no defender bonus: 3+1 against 1, twice.
    let ev = act(
        &mut s,
        A::ChooseAction {
            player: 2,
            actor: 1,
        },
        vec![3, 1, 3, 1],
    )
    .unwrap();
    assert!(ev.contains(&EconomyEvent::ActionChosen { actor: 1 }));
    assert_eq!(s.units_of(2, r("northern_europe")).armies, 0);
    // A new round of declarations: only Ann and Bob are left.
    assert_eq!(s.declarers(ne), vec![0, 1]);
}

#[test]
fn a_player_without_a_capital_faces_the_revolution_step() {
    let mut s = game(&["Ann", "Bob"]);
    s.players[0].capital = None;
    // Revolution roll for Western Europe: 6. Two risk-free rebel rolls (rebels lose the first,
    // then win the second), then a normal roll the rebels lose, and one more they lose.
    // Then initiative: Ann's 3 beats Bob's 1, but she has no capital, so Bob, the only one with
    // a capital, rolls alone for it.
    let ev = to_combat(
        &mut s,
        vec![vec![], vec![]],
        vec![6, 1, 6, 6, 1, 1, 6, 1, 6, 3, 1, 4],
    );
    let rebel: Vec<(bool, bool)> = ev
        .iter()
        .filter_map(|e| match e {
            EconomyEvent::RebelRoll {
                rebels_lost, lost, ..
            } => Some((*rebels_lost, *lost)),
            _ => None,
        })
        .collect();
    assert_eq!(
        rebel,
        vec![(false, false), (false, true), (true, false), (true, false)]
    );
    assert!(ev.contains(&EconomyEvent::Revolution {
        country: r("western_europe"),
        neutral: 0
    }));
    assert_eq!(s.units_of(0, r("western_europe")).armies, 5);
    assert_eq!(s.initiative, Some(1));
}

#[test]
fn armies_at_sea_without_navies_drown_in_water_nobody_friendly_holds() {
    let mut s = game(&["Ann", "Bob"]);
    let ev = to_combat(
        &mut s,
        vec![
            vec![mv("western_europe", "western_europe_coast", 2, 0)],
            vec![],
        ],
        vec![6, 1],
    );
    assert!(ev.contains(&EconomyEvent::Sunk {
        player: 0,
        region: r("western_europe_coast"),
        armies: 2
    }));
    assert_eq!(s.units_of(0, r("western_europe_coast")), Force::default());
}

#[test]
fn with_no_card_left_to_draw_the_victor_steals_from_a_player_of_their_choice() {
    let mut s = game(&["Ann", "Bob", "Cy"]);
    hold(&mut s, 1, "ukraine", 1, 0);
    hold(&mut s, 2, "peru", 1, 0);
    s.players[2].capital = Some(r("peru"));
    s.deck.clear();
    s.discard.clear();
    s.players[1].cards = vec![r("siam")];
    s.players[2].cards = vec![r("egypt"), r("japan")];
    to_combat(
        &mut s,
        vec![
            vec![mv("western_europe", "northern_europe", 5, 0)],
            vec![],
            vec![],
        ],
        vec![6, 1, 1],
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
    declare(&mut s, 0, attack, vec![6, 1, 6, 1, 6, 1]).unwrap();
    // Bob and Cy hold cards: they are asked before the phase ends, and stop.
    assert_eq!(s.to_act(), vec![1, 2]);
    act(&mut s, A::StopMoving { player: 1 }, vec![]).unwrap();
    act(&mut s, A::StopMoving { player: 2 }, vec![]).unwrap();
    // A victory and no card to draw: Ann chooses whom to steal from; nothing else goes on.
    assert_eq!(s.to_act(), vec![0]);
    assert_eq!(
        act(&mut s, A::StopMoving { player: 0 }, vec![]),
        Err(EconomyError::StealFirst)
    );
    assert_eq!(
        act(&mut s, A::StealCard { player: 0, from: 0 }, vec![]),
        Err(EconomyError::NoCardsToSteal(0))
    );
    let ev = s.apply(&A::StealCard { player: 0, from: 2 }).unwrap();
    assert!(ev.iter().any(|e| matches!(
        e,
        EconomyEvent::CardStolen {
            player: 0,
            from: 2,
            ..
        }
    )));
    assert_eq!(s.players[2].cards.len(), 1);
    assert_eq!(s.phase, Phase::Get);
    // Next round she also took Bob's capital, and with it his card.
    assert_eq!(s.players[0].cards.len(), 2);
    assert!(s.players[0].cards.contains(&r("siam")));
}

mod source;
