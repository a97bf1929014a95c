//! The economy screens' session without a browser: a hot-seat game against a computer player
//! played through the panel's messages, from the picks to the second round.

use super::*;
use orbis_engine::rules::economy::options::EconomyOptions;

fn session(seats: Vec<Seat>) -> EconomySession {
    let names = ["Ann", "Bob", "Cleo"];
    let (g, _) =
        EconomyState::new(&names[..seats.len()], EconomyOptions::default(), [5; 32]).unwrap();
    EconomySession::new(g, seats)
}

/// Two players, Ann and Bob, dealt their countries by cards (the standard start follows).
fn cards_session(seats: Vec<Seat>) -> EconomySession {
    use orbis_engine::rules::economy::options::Setup;
    let opts = EconomyOptions {
        setup: Setup::Cards,
        ..EconomyOptions::default()
    };
    let (g, _) = EconomyState::new(&["Ann", "Bob"], opts, [5; 32]).unwrap();
    EconomySession::new(g, seats)
}

/// Plays until `phase` (within `steps` actions): computer seats by themselves, each human as a
/// normal computer would.
fn play_to(s: &mut EconomySession, phase: Phase, steps: u32) {
    let mut guard = 0;
    while s.game.phase != phase && guard < steps {
        guard += 1;
        if s.computer_to_act().is_some() {
            s.update(EMsg::BotStep);
            continue;
        }
        let p = s.actor().expect("a human to act");
        let a = choose(&s.game, p, BotLevel::Normal).expect("an action");
        assert!(s.update(EMsg::Act(a)));
    }
    assert_eq!(s.game.phase, phase);
}

#[test]
fn computers_alone_play_a_game_through_the_session() {
    let mut s = session(vec![
        Seat::Computer(BotLevel::Normal),
        Seat::Computer(BotLevel::Easy),
    ]);
    let mut steps = 0;
    while s.game.phase != Phase::Over && s.game.round <= 3 && steps < 20_000 {
        assert!(
            s.update(EMsg::BotStep),
            "a computer seat stalled in {:?}",
            s.game.phase
        );
        steps += 1;
    }
    assert!(
        s.game.round > 3 || s.game.phase == Phase::Over,
        "{steps} steps, round {}",
        s.game.round
    );
    assert!(
        steps > 20,
        "{steps} steps, round {} phase {:?} winner {:?}",
        s.game.round,
        s.game.phase,
        s.game.winner
    );
    assert!(!s.ui.log.is_empty());
}

#[test]
fn a_human_plans_behind_the_curtain_and_an_illegal_move_is_refused_with_the_rules_words() {
    let mut s = session(vec![Seat::Human, Seat::Human]);
    play_to(&mut s, Phase::Planning, 2_000);
    // Planning: nobody's plans are on screen until the player asks.
    assert_eq!(s.actor(), None);
    assert_eq!(s.next_planner(), Some(0));
    s.update(EMsg::Reveal(0));
    assert_eq!(s.actor(), Some(0));
    // From a region Ann does not hold: the start itself is refused with the engine's reason
    // (move_start), and nothing is picked.
    let theirs = (0..s.game.regions.len() as RegionId)
        .find(|&r| s.game.regions[r as usize].owner == Some(1))
        .unwrap();
    s.update(EMsg::Click(theirs));
    let why = s.ui.error.clone().unwrap_or_default();
    assert!(
        why.starts_with("You can't start a move from")
            && why.contains("none of your units are there"),
        "{why}"
    );
    assert_eq!((s.ui.sel, s.ui.to), (None, None));
    assert!(s.ui.drafts.get(&0).is_none_or(|d| d.is_empty()));
    assert!(s.update(EMsg::SubmitPlans));
    assert_eq!(s.ui.shown, None);
}

#[test]
fn ui_state_round_trips() {
    let mut s = session(vec![Seat::Human, Seat::Human]);
    s.ui.sel = Some(3);
    s.ui.drafts.insert(
        1,
        vec![PlannedMove {
            from: 1,
            to: 2,
            armies: 3,
            navies: 0,
        }],
    );
    let bytes = s.ui_bytes();
    let mut t = session(vec![Seat::Human, Seat::Human]);
    t.restore_ui(&bytes);
    assert_eq!(t.ui, s.ui);
}

/// The position of the end-to-end test (`tests/e2e/fixtures/economy-battle.orbis`): Ann (human)
/// holds Western Europe, her capital (twelve armies: she owes upkeep), and Northern Europe, with three armies and two navies
/// in the Mediterranean coast of Southern Europe; Bob (human) holds Southern Europe, his
/// capital, with a navy in those waters; Cleo (a computer) is in Scandinavia. Round 1's Get
/// phase, nobody has acted yet.
fn battle_position() -> EconomySession {
    use orbis_engine::rules::economy::action::SetupAction;
    use orbis_engine::rules::economy::units::Force;
    let map = EconomyMap::get();
    let (mut g, _) = EconomyState::new(
        &["Ann", "Bob", "Cleo"],
        EconomyOptions::default(),
        orbis_engine::codec::sha256(b"orbis e2e economy battle"),
    )
    .unwrap();
    let key = |k: &str| map.region(k).unwrap();
    let picks = [
        key("western_europe"),
        key("southern_europe"),
        key("scandinavia"),
    ];
    while let Phase::Pick(p) = g.phase {
        g.apply(&A::Setup {
            player: p,
            choice: SetupAction::Country(picks[p as usize]),
        })
        .unwrap();
    }
    assert_eq!(g.phase, Phase::Get);
    let (we, ne, se, coast) = (
        key("western_europe"),
        key("northern_europe"),
        key("southern_europe"),
        key("southern_europe_coast"),
    );
    let place = |g: &mut EconomyState, r: RegionId, p: PlayerId, f: Force| {
        let x = &mut g.regions[r as usize];
        x.neutral = Force::default();
        x.forces.insert(p, f);
    };
    place(
        &mut g,
        we,
        0,
        Force {
            armies: 12,
            navies: 0,
        },
    );
    place(
        &mut g,
        ne,
        0,
        Force {
            armies: 3,
            navies: 0,
        },
    );
    g.regions[ne as usize].owner = Some(0);
    place(
        &mut g,
        se,
        1,
        Force {
            armies: 4,
            navies: 0,
        },
    );
    place(
        &mut g,
        coast,
        0,
        Force {
            armies: 3,
            navies: 2,
        },
    );
    place(
        &mut g,
        coast,
        1,
        Force {
            armies: 0,
            navies: 1,
        },
    );
    g.regions[coast as usize].owner = Some(1);
    for p in 0..3 {
        let owed = g.upkeep(map, p);
        let turn = &mut g.get[p as usize];
        turn.settled = owed.iter().all(|u| u.due == 0);
        turn.owed = owed;
    }
    g.check_consistency().unwrap();
    EconomySession::new(
        g,
        vec![Seat::Human, Seat::Human, Seat::Computer(BotLevel::Normal)],
    )
}

/// What the end-to-end tests press at a combat prompt when they have no plan of their own (the
/// same button, by its words): the steal from the first victim, the first battle offered, no
/// interception, the first declared action to resolve, no declaration, Done.
pub(super) fn pass(s: &EconomySession, p: PlayerId) -> A {
    let g = &s.game;
    let c = g.combat.as_ref().unwrap();
    if !c.steals.is_empty() {
        return A::StealCard {
            player: p,
            from: g.steal_victims(p)[0],
        };
    }
    let Some(b) = &c.battle else {
        return match c.tokens.iter().next() {
            None => A::StopMoving { player: p },
            Some(&site) => A::PickBattle { player: p, site },
        };
    };
    if b.pending.is_some() {
        return A::Intercept {
            player: p,
            yes: false,
        };
    }
    if g.waiting_for_choice() {
        let actor = b.declared.iter().find(|(_, a)| a.is_some()).unwrap().0;
        return A::ChooseAction {
            player: p,
            actor: *actor,
        };
    }
    A::Declare {
        player: p,
        action: None,
    }
}

/// A committed end-to-end fixture is exactly `game`'s save; `ORBIS_WRITE_FIXTURES=1` rewrites
/// it first.
pub(super) fn check_fixture(name: &str, game: EconomyState) {
    let bytes = orbis_engine::rules::Game::Economy(game).to_save();
    let path = format!(
        "{}/../../tests/e2e/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    if std::env::var_os("ORBIS_WRITE_FIXTURES").is_some() {
        std::fs::write(&path, &bytes).unwrap();
    }
    let committed = std::fs::read(&path).expect("run with ORBIS_WRITE_FIXTURES=1 to write it");
    assert!(
        committed == bytes,
        "the fixture {name} is stale: run with ORBIS_WRITE_FIXTURES=1"
    );
}

/// What the end-to-end test's players do in the combat phase (the same choices, by the
/// buttons' words): Ann attacks Southern Europe, withdraws once her attack is interrupted, and
/// lands from the water; Bob interrupts Ann's attack once; the battle at Southern Europe is
/// picked first; otherwise everyone passes.
fn e2e_choice(s: &EconomySession, p: PlayerId, interrupted: bool) -> A {
    use orbis_engine::rules::economy::battlefield::{BattleAction, Foe, Site, WithdrawOrder};
    use orbis_engine::rules::economy::units::Kind;
    let g = &s.game;
    let map = EconomyMap::get();
    let se = map.region("southern_europe").unwrap();
    let we = map.region("western_europe").unwrap();
    let c = g.combat.as_ref().unwrap();
    let none = match pass(s, p) {
        A::PickBattle { .. } if c.tokens.contains(&Site::Region(se)) => {
            return A::PickBattle {
                player: p,
                site: Site::Region(se),
            }
        }
        none @ A::Declare { .. } => none,
        other => return other,
    };
    // A declaration: the battle is under way.
    let b = c.battle.as_ref().unwrap();
    let attack = |target| BattleAction::Attack {
        target: Foe::Player(target),
        kind: Kind::Army,
    };
    let options = g.possible_actions(b.site, p);
    let action = match (p, b.site) {
        (0, Site::Region(r)) if r == se => {
            if interrupted {
                g.withdraw_options(map, b.site, 0)
                    .into_iter()
                    .find(|&(to, _)| to == we)
                    .map(|(to, f)| BattleAction::Withdraw(WithdrawOrder::to(to, f)))
            } else if g.assault(b.site).is_none() {
                options.contains(&attack(1)).then(|| attack(1))
            } else {
                None
            }
        }
        (0, _) => g
            .landing_options(map, b.site, 0)
            .into_iter()
            .find(|&(to, _)| to == se)
            .map(|(to, armies)| BattleAction::Land {
                armies,
                to,
                navies_engaged: false,
            }),
        (1, Site::Region(r)) if r == se && !interrupted => g
            .assault(b.site)
            .filter(|a| a.attacker == 0)
            .and_then(|_| options.contains(&attack(0)).then(|| attack(0))),
        _ => None,
    };
    action.map_or(none, |a| A::Declare {
        player: p,
        action: Some(a),
    })
}

#[test]
fn the_e2e_fixture_is_the_battle_position() {
    check_fixture("economy-battle.orbis", battle_position().game);
}

/// A click on a country in the Get phase sets the recruit count to one army, not the units
/// standing there (twelve at Ann's capital), and to none when she cannot pay for one.
#[test]
fn a_click_in_get_sets_the_recruit_count_to_what_can_be_paid() {
    let we = EconomyMap::get().region("western_europe").unwrap();
    let mut s = battle_position();
    let losses = s.game.plain_settlement(0);
    assert!(s.update(EMsg::Act(A::SettleUpkeep { player: 0, losses })));
    s.update(EMsg::Click(we));
    assert_eq!((s.ui.armies, s.ui.navies), (1, 0));
    s.game.players[0].mu = 4;
    s.update(EMsg::Click(we));
    assert_eq!((s.ui.armies, s.ui.navies), (0, 0));
}

/// The end-to-end test's script, played natively: Get, planning, friendly moves, a battle with
/// an interrupt and a withdraw, a landing, and the second round's Get phase.
#[test]
fn the_e2e_script_reaches_an_interrupt_a_withdraw_a_landing_and_round_two() {
    use orbis_engine::rules::economy::units::Force;
    let map = EconomyMap::get();
    let key = |k: &str| map.region(k).unwrap();
    let mut s = battle_position();
    // Get: Ann recruits two armies at home; both humans settle and finish.
    let losses = s.game.plain_settlement(0);
    assert!(
        s.update(EMsg::Act(A::SettleUpkeep { player: 0, losses })),
        "{:?}",
        s.ui.error
    );
    s.update(EMsg::Click(key("western_europe")));
    s.update(EMsg::Count(2, 0));
    assert!(s.update(EMsg::Act(A::Recruit {
        player: 0,
        country: key("western_europe"),
        navy_into: None,
        count: 2,
    })));
    for p in [0u8, 1] {
        assert!(s.update(EMsg::Act(A::FinishGet { player: p })));
    }
    while s.computer_to_act().is_some() && s.game.phase == Phase::Get {
        s.update(EMsg::BotStep);
    }
    assert_eq!(s.game.phase, Phase::Planning);
    // Planning behind the curtain: Ann marches on Southern Europe, Bob plans nothing.
    s.update(EMsg::Reveal(0));
    s.update(EMsg::Click(key("western_europe")));
    s.update(EMsg::Click(key("southern_europe")));
    assert_eq!(s.ui.error, None);
    s.update(EMsg::PlanCount(0, 6, 0));
    assert_eq!(s.ui.error, None);
    assert_eq!(s.ui.drafts[&0][0].armies, 6);
    assert!(s.update(EMsg::SubmitPlans));
    s.update(EMsg::Reveal(1));
    assert!(s.update(EMsg::SubmitPlans));
    while s.computer_to_act().is_some() && s.game.phase == Phase::Planning {
        s.update(EMsg::BotStep);
    }
    assert_eq!(s.game.phase, Phase::Moving);
    // Friendly movement: one army from Western to Northern Europe.
    assert!(s.update(EMsg::Act(A::MoveFriendly {
        player: 0,
        from: key("western_europe"),
        to: key("northern_europe"),
        force: Force {
            armies: 1,
            navies: 0
        },
    })));
    for p in [0u8, 1] {
        assert!(s.update(EMsg::Act(A::FinishMoving { player: p })));
    }
    let mut log = vec![];
    let mut guard = 0;
    while s.game.phase == Phase::Moving || s.game.phase == Phase::Combat {
        guard += 1;
        assert!(guard < 500, "the combat phase does not end");
        if s.computer_to_act().is_some() {
            assert!(s.update(EMsg::BotStep));
            continue;
        }
        let p = s.actor().expect("a human to act");
        let interrupted = s.ui.log.iter().any(|l| l.contains("interrupts"));
        let a = e2e_choice(&s, p, interrupted);
        assert!(s.update(EMsg::Act(a.clone())), "{a:?}: {:?}", s.ui.error);
        log = s.ui.log.clone();
    }
    let text = log.join("\n");
    assert!(text.contains("Bob interrupts Ann's attack"), "{text}");
    assert!(text.contains("Ann withdraws"), "{text}");
    assert!(text.contains("Ann lands"), "{text}");
    assert_eq!(s.game.phase, Phase::Get);
    assert_eq!(s.game.round, 2);
}

#[test]
fn a_human_places_the_standard_start_from_the_suggestion() {
    use orbis_engine::rules::economy::options::Setup;
    let (g, _) = EconomyState::new(
        &["Ann", "Bob"],
        EconomyOptions {
            setup: Setup::Continents,
            ..EconomyOptions::default()
        },
        [9; 32],
    )
    .unwrap();
    let mut s = EconomySession::new(g, vec![Seat::Human, Seat::Computer(BotLevel::Easy)]);
    let mut guard = 0;
    while s.game.phase != Phase::Place && guard < 100 {
        guard += 1;
        if s.computer_to_act().is_some() {
            s.update(EMsg::BotStep);
        } else {
            let a = choose(&s.game, 0, BotLevel::Normal).unwrap();
            assert!(s.update(EMsg::Act(a)));
        }
    }
    assert_eq!(s.game.phase, Phase::Place);
    s.update(EMsg::SuggestPlace(0));
    let mut d = s.ui.place.clone();
    assert_eq!(d.armies.values().sum::<u32>(), 20);
    // One army too many: the engine refuses, with its words.
    *d.armies.values_mut().next().unwrap() += 1;
    s.update(EMsg::Place(d.clone()));
    assert!(!s.update(EMsg::Act(d.action(0))));
    assert!(s.ui.error.as_deref().unwrap_or("").contains("20"));
    *d.armies.values_mut().next().unwrap() -= 1;
    assert!(s.update(EMsg::Act(d.action(0))));
    assert!(s.game.placed.contains(&0));
}

/// Online: the state every seat's computer player reaches at the first Get phase.
fn first_get() -> EconomyState {
    let (mut g, _) = EconomyState::new(&["Ann", "Bob", "Cleo"], EconomyOptions::default(), [7; 32])
        .expect("a game");
    for _ in 0..2_000 {
        if g.phase == Phase::Get {
            break;
        }
        let p = g.to_act()[0];
        let a = choose(&g, p, BotLevel::Normal).expect("a setup action");
        g.apply(&a).expect("legal");
    }
    assert_eq!(g.phase, Phase::Get);
    g
}

#[test]
fn online_choices_travel_as_one_batch_that_ends_the_step_and_can_be_taken_back() {
    let g = first_get();
    let mut s = EconomySession::new_online(g.clone(), &[0]);
    let _ = online::take_queued();
    assert_eq!(s.actor(), Some(0), "our seat is awaited");
    assert_eq!(s.seats[1], Seat::Remote);
    assert_eq!(
        s.computer_to_act(),
        None,
        "the protocol plays computer seats"
    );
    // An alliance offer stays on this page: the Get phase is not over for us.
    assert!(s.update(EMsg::Act(A::OfferAlliance { player: 0, with: 1 })));
    assert!(online::take_queued().is_empty());
    assert!(
        s.game.alliance_offers.contains(&(0, 1)),
        "the draft shows it"
    );
    assert_eq!(s.online.as_ref().map(|o| o.batch.len()), Some(1));
    // Taken back: the agreed state again.
    s.update(EMsg::Undo);
    assert_eq!(s.game, g);
    // Offered again, then the phase finished: one batch goes to the protocol.
    assert!(s.update(EMsg::Act(A::OfferAlliance { player: 0, with: 1 })));
    assert!(s.update(EMsg::Act(A::FinishGet { player: 0 })));
    let sent = online::take_queued();
    assert_eq!(
        sent,
        vec![(
            g.steps,
            vec![
                A::OfferAlliance { player: 0, with: 1 },
                A::FinishGet { player: 0 }
            ]
        )]
    );
    assert_eq!(s.actor(), None, "nothing more to do at this position");
    // Anything more is refused with a reason, and nothing is queued.
    assert!(!s.update(EMsg::Act(A::FinishGet { player: 0 })));
    assert!(s.ui.error.as_deref().is_some_and(|e| e.contains("sent")));
    assert!(online::take_queued().is_empty());
    // Another seat's choice is not ours to make.
    let mut t = EconomySession::new_online(g.clone(), &[0]);
    assert!(!t.update(EMsg::Act(A::FinishGet { player: 1 })));
    assert!(t
        .ui
        .error
        .as_deref()
        .is_some_and(|e| e.contains("not your move")));
    // A batch the protocol did not take (refused, or too late for a window): the player
    // chooses again from the agreed state.
    let mut u = EconomySession::new_online(g.clone(), &[0]);
    assert!(u.update(EMsg::Act(A::FinishGet { player: 0 })));
    let _ = online::take_queued();
    assert_eq!(u.actor(), None);
    u.online_status(vec![0], false, vec![], vec![], None, None);
    assert_eq!(u.actor(), Some(0));
    assert_eq!(u.game, g);
    assert!(u
        .ui
        .error
        .as_deref()
        .is_some_and(|e| e.contains("choose again")));
    // Our influence cards are still being dealt (the deal lacks someone's shuffle): the batch
    // waits in the queue and the draft stays, with no "choose again".
    let mut d = EconomySession::new_online(g.clone(), &[0]);
    assert!(d.update(EMsg::Act(A::FinishGet { player: 0 })));
    d.online_status(
        vec![0],
        false,
        vec![],
        vec!["Bea".into()],
        None,
        Some(online::Dealing::Ours),
    );
    assert_eq!(d.actor(), None, "sent, waiting for the deal");
    assert!(d.ui.error.is_none());
    assert!(d.online.as_ref().is_some_and(|o| o.dealing.is_some()));
    assert_eq!(
        online::take_queued().len(),
        1,
        "the batch waits in the queue"
    );
    // The window closed (or the computer chose) while the player was still choosing: the
    // draft goes, with a word why.
    let mut w = EconomySession::new_online(g.clone(), &[0]);
    assert!(w.update(EMsg::Act(A::OfferAlliance { player: 0, with: 1 })));
    w.online_status(vec![0], true, vec![], vec![], None, None);
    assert_eq!(w.game, g);
    assert_eq!(w.online.as_ref().map(|o| o.batch.len()), Some(0));
    assert!(w
        .ui
        .error
        .as_deref()
        .is_some_and(|e| e.contains("not sent")));
    // Our seat handed to the computer: nothing more to choose on this page.
    let mut v = EconomySession::new_online(g.clone(), &[0]);
    v.online_status(vec![], false, vec![], vec![], None, None);
    assert_eq!(v.actor(), None);
    assert_eq!(v.seats[0], Seat::Remote);
    // The protocol's next position replaces the draft.
    let mut next = g.clone();
    for a in [
        A::OfferAlliance { player: 0, with: 1 },
        A::FinishGet { player: 0 },
    ] {
        next.apply(&a).expect("legal");
    }
    s.online_played(next.clone(), &[]);
    assert_eq!(s.game, next);
    assert_eq!(s.online.as_ref().map(|o| o.sent), Some(false));
}

#[test]
fn a_pick_is_a_batch_of_its_own_even_when_it_ends_the_setup() {
    // The last pick moves the game on to the Get phase, where the same seat is awaited again:
    // the batch still ends with the pick (the position was the pick).
    let (mut g, _) =
        EconomyState::new(&["Ann", "Bob"], EconomyOptions::default(), [9; 32]).expect("a game");
    while let Phase::Pick(p) = g.phase {
        if g.to_act().len() == 1
            && g.clone()
                .apply(&choose(&g, p, BotLevel::Normal).unwrap())
                .is_ok()
        {
            let mut after = g.clone();
            after
                .apply(&choose(&g, p, BotLevel::Normal).unwrap())
                .unwrap();
            if after.phase != Phase::Pick(p) && !matches!(after.phase, Phase::Pick(_)) {
                let mut s = EconomySession::new_online(g.clone(), &[p]);
                let _ = online::take_queued();
                let a = choose(&g, p, BotLevel::Normal).unwrap();
                assert!(s.update(EMsg::Act(a.clone())));
                assert_eq!(online::take_queued(), vec![(g.steps, vec![a])]);
                return;
            }
        }
        let a = choose(&g, p, BotLevel::Normal).unwrap();
        g.apply(&a).unwrap();
    }
    panic!("no last pick found");
}

#[test]
fn the_standard_start_is_placed_by_clicking_the_map() {
    let mut s = cards_session(vec![Seat::Human, Seat::Human]);
    play_to(&mut s, Phase::Place, 100);
    let p = s.actor().expect("a human places");
    let mine: Vec<RegionId> = s.game.owned(p).collect();
    let theirs = s.game.owned(1 - p).next().expect("the other's country");
    // Armies, one a click, then the capital and a base with their tools.
    s.update(EMsg::Click(mine[0]));
    s.update(EMsg::Click(mine[0]));
    s.update(EMsg::Click(mine[1]));
    assert_eq!(s.ui.place.armies.get(&mine[0]), Some(&2));
    assert_eq!(s.ui.place.armies.get(&mine[1]), Some(&1));
    s.update(EMsg::PlaceTool(place::PlaceTool::Capital));
    s.update(EMsg::Click(mine[1]));
    assert_eq!(s.ui.place.capital, Some(mine[1]));
    s.update(EMsg::PlaceTool(place::PlaceTool::Base));
    s.update(EMsg::Click(mine[0]));
    s.update(EMsg::Click(mine[0]));
    assert_eq!(s.ui.place.bases, vec![mine[0], mine[0]]);
    // A third base, or another player's country, is refused with a reason.
    s.update(EMsg::Click(mine[1]));
    assert_eq!(s.ui.place.bases.len(), 2);
    assert!(s.ui.error.as_deref().unwrap_or("").contains("army bases"));
    s.update(EMsg::PlaceTool(place::PlaceTool::Army));
    s.update(EMsg::Click(theirs));
    assert!(s
        .ui
        .error
        .as_deref()
        .unwrap_or("")
        .contains("not one of your countries"));
    assert!(!s.ui.place.armies.contains_key(&theirs));
    // The rest of the armies by clicks, then one too many.
    for i in 0..17 {
        s.update(EMsg::Click(mine[i % mine.len()]));
    }
    assert_eq!(s.ui.place.armies.values().sum::<u32>(), 20);
    s.update(EMsg::Click(mine[0]));
    assert_eq!(s.ui.place.armies.values().sum::<u32>(), 20);
    assert!(s
        .ui
        .error
        .as_deref()
        .unwrap_or("")
        .contains("armies are placed"));
    // The engine takes the placement drafted by clicks.
    let a = s.ui.place.action(p);
    assert!(s.update(EMsg::Act(a)), "{:?}", s.ui.error);
    assert_ne!(s.actor(), Some(p));
}

#[test]
fn a_computers_move_leaves_the_players_message() {
    // Everyone places the standard start at once: the computer placing its own must not wipe
    // the refusal the player was just shown (a browser test read the message gone).
    let mut s = cards_session(vec![Seat::Human, Seat::Computer(BotLevel::Normal)]);
    play_to(&mut s, Phase::Place, 100);
    let p = s.actor().expect("Ann places");
    let theirs = s.game.owned(1 - p).next().expect("the computer's country");
    s.update(EMsg::Click(theirs));
    let shown = |s: &EconomySession| {
        s.ui.error
            .as_deref()
            .unwrap_or("")
            .contains("not one of your countries")
    };
    assert!(shown(&s));
    assert!(
        s.computer_to_act().is_some(),
        "the computer places meanwhile"
    );
    assert!(s.update(EMsg::BotStep));
    assert!(s.computer_to_act().is_none(), "the computer placed");
    assert!(shown(&s), "{:?}", s.ui.error);
}

/// *"The plans that players have written at this point are final"*: when the planning minute
/// runs out, a late player's written plans are submitted, not thrown away (before, the page
/// called time and the late player moved nothing). The minute counts from when the late
/// player takes the device.
#[test]
fn the_plans_written_when_the_minute_ends_are_final() {
    let mut s = session(vec![
        Seat::Human,
        Seat::Human,
        Seat::Computer(BotLevel::Normal),
    ]);
    play_to(&mut s, Phase::Planning, 4_000);
    while s.computer_to_act().is_some() {
        assert!(s.update(EMsg::BotStep));
    }
    // Ann submits: two of three have, so the minute runs for Bob.
    s.update(EMsg::Reveal(0));
    let a = choose(&s.game, 0, BotLevel::Normal).expect("Ann's plans");
    assert!(s.update(EMsg::Act(a)));
    assert_eq!(s.game.phase, Phase::Planning);
    s.ui.deadline = Some(-1);
    s.update(EMsg::Reveal(1));
    assert_eq!(
        s.seconds_left(),
        Some(PLANNING_MINUTE_MS / 1000),
        "a full minute from the device"
    );
    // Bob writes one move into a region he does not hold.
    let n = s.game.regions.len() as RegionId;
    'found: for from in 0..n {
        if s.game.regions[from as usize]
            .forces
            .get(&1)
            .is_none_or(|f| f.armies == 0)
        {
            continue;
        }
        for to in 0..n {
            s.ui.sel = None;
            s.ui.to = None;
            s.update(EMsg::Click(from));
            s.update(EMsg::Click(to));
            if s.ui.drafts.get(&1).is_some_and(|d| !d.is_empty()) {
                break 'found;
            }
        }
    }
    let written = s.ui.drafts.get(&1).cloned().unwrap_or_default();
    assert_eq!(written.len(), 1, "Bob wrote a move");
    // The minute is up.
    s.ui.deadline = Some(-1);
    assert!(s.update(EMsg::Tick));
    assert_ne!(s.game.phase, Phase::Planning);
    assert!(
        s.ui.log
            .iter()
            .any(|l| l == "Time is up: the 1 plan written by Bob is final."),
        "{:?}",
        &s.ui.log[..6.min(s.ui.log.len())]
    );
    assert!(!s.ui.log.iter().any(|l| l.contains("Bob moves nothing")));
}

/// A refusal shown to one player at the device is not shown to the next (a play-tester saw
/// Ann's "… is not yours." still on screen in Bob's Get phase).
#[test]
fn the_next_player_does_not_inherit_the_last_ones_message() {
    let mut s = session(vec![Seat::Human, Seat::Human]);
    play_to(&mut s, Phase::Get, 4_000);
    assert_eq!(s.actor(), Some(0));
    let bobs = (0..s.game.regions.len() as RegionId)
        .find(|&r| s.game.regions[r as usize].owner == Some(1))
        .unwrap();
    s.update(EMsg::Click(bobs));
    s.update(EMsg::Act(A::Build {
        player: 0,
        country: bobs,
        item: orbis_engine::rules::economy::infra::Item::Roads,
    }));
    assert!(s.ui.error.is_some(), "Ann is refused Bob's country");
    assert!(s.update(EMsg::Act(A::FinishGet { player: 0 })));
    assert_eq!(s.actor(), Some(1));
    assert_eq!(s.ui.error, None);
    assert_eq!(s.ui.sel, None);
}

/// A game loaded from a file has no seats: all human, flagged, until a seat is handed back.
#[test]
fn an_imported_game_asks_who_plays_each_seat_until_one_is_set() {
    let g = session(vec![Seat::Human; 3]).game;
    let mut s = EconomySession::new(g, vec![]);
    assert_eq!(s.seats, vec![Seat::Human; 3]);
    assert!(s.ui.seats_unknown);
    s.update(EMsg::SetSeat(2, Seat::Computer(BotLevel::Normal)));
    assert!(!s.ui.seats_unknown);
    assert!(s.ui.seats_open, "the box stays open for the other seats");
    assert_eq!(s.seats[2], Seat::Computer(BotLevel::Normal));
}

/// A lone human against computer players: no pass-the-device screen, and no planning minute
/// (the computers submit at once and wait for nobody); the picked move is planned at once with
/// every unit that can go (the engine's default), its count changed or refused in the draft,
/// and removed.
#[test]
fn a_lone_human_plans_without_a_curtain_or_a_clock_and_a_pick_is_planned_at_once() {
    let map = EconomyMap::get();
    let mut s = session(vec![
        Seat::Human,
        Seat::Computer(BotLevel::Normal),
        Seat::Computer(BotLevel::Normal),
    ]);
    play_to(&mut s, Phase::Planning, 4_000);
    while s.computer_to_act().is_some() {
        assert!(s.update(EMsg::BotStep));
    }
    assert_eq!(s.game.plans.len(), 2, "both computers have submitted");
    assert!(
        s.game.planning_clock_runs(),
        "the rules would let time be called"
    );
    assert_eq!(s.ui.deadline, None, "but nobody at the device is waiting");
    assert_eq!(s.next_planner(), None);
    assert_eq!(s.actor(), Some(0));
    // Ann's largest army and a region it can attack.
    let (from, to) = (0..map.regions.len() as RegionId)
        .filter(|&r| s.game.units_of(0, r).armies > 1)
        .find_map(|r| {
            let d = s.game.destinations(map, 0, r);
            d.iter()
                .copied()
                .find(|&t| !map.is_water(t))
                .map(|t| (r, t))
        })
        .expect("a move to plan");
    s.update(EMsg::Click(from));
    assert_eq!(s.ui.drafts.get(&0).map_or(0, Vec::len), 0, "half-made");
    s.update(EMsg::Click(to));
    assert_eq!(s.ui.error, None);
    let d = s.game.move_default(map, 0, from, to, &[]);
    assert!(d.armies > 1);
    assert_eq!(s.ui.drafts[&0].len(), 1, "planned at once");
    assert_eq!(s.ui.drafts[&0][0].force(), d);
    assert_eq!((s.ui.sel, s.ui.to), (None, None));
    // One army fewer; then more than stand there, refused with the engine's words.
    s.update(EMsg::PlanCount(0, d.armies - 1, 0));
    assert_eq!(s.ui.drafts[&0][0].armies, d.armies - 1);
    s.update(EMsg::PlanCount(0, d.armies + 50, 0));
    assert!(s.ui.error.is_some());
    assert_eq!(s.ui.drafts[&0][0].armies, d.armies - 1);
    s.update(EMsg::RemovePlan(0));
    assert!(s.ui.drafts[&0].is_empty());
    assert_eq!(s.ui.error, None);
    assert!(s.update(EMsg::SubmitPlans));
    assert_eq!(s.game.phase, Phase::Moving);
}

/// Two humans at the device: the minute runs once one of them has submitted and a majority
/// has, counted from when the other takes the device.
#[test]
fn the_minute_runs_for_a_human_left_while_another_waits() {
    let mut s = session(vec![
        Seat::Human,
        Seat::Human,
        Seat::Computer(BotLevel::Normal),
    ]);
    play_to(&mut s, Phase::Planning, 4_000);
    while s.computer_to_act().is_some() {
        assert!(s.update(EMsg::BotStep));
    }
    assert_eq!(s.ui.deadline, None, "only the computer has submitted");
    s.update(EMsg::Reveal(0));
    assert!(s.update(EMsg::SubmitPlans));
    assert!(s.ui.deadline.is_some(), "Ann waits for Bob");
}
