//! Properties of the economy ruleset over many random games between easy and normal bots, with
//! hostile actions thrown in at every step:
//! - an illegal action is refused and leaves the state untouched;
//! - units appear or vanish only through recruiting, the standard start, upkeep, battle and
//!   interception rolls, drowning and revolutions, and exactly as many as those events say;
//! - phases follow each other in the source's order, none skipped;
//! - the state survives a save and load unchanged.

#![cfg(feature = "economy")]

use orbis_engine::dice::{Dice, SeededDice};
use orbis_engine::rules::classic::BotLevel;
use orbis_engine::rules::economy::action::{EconomyAction as A, EconomyEvent as E, SetupAction};
use orbis_engine::rules::economy::battlefield::{BattleAction, Foe, Site};
use orbis_engine::rules::economy::infra::Item;
use orbis_engine::rules::economy::options::{EconomyOptions, Setup};
use orbis_engine::rules::economy::phase::Phase;
use orbis_engine::rules::economy::roll::Loser;
use orbis_engine::rules::economy::state::EconomyState;
use orbis_engine::rules::economy::units::{Force, Kind, PlannedMove};
use orbis_engine::rules::Game;
use orbis_engine::sim::game_seed;

/// Every unit on the board, neutral ones and those standing on borders included.
fn units(s: &EconomyState) -> i64 {
    let on_board: i64 = s
        .regions
        .iter()
        .map(|x| {
            i64::from(x.neutral.units())
                + x.forces.values().map(|f| i64::from(f.units())).sum::<i64>()
        })
        .sum();
    let on_borders: i64 = s
        .combat
        .iter()
        .flat_map(|c| &c.border)
        .map(|g| i64::from(g.force.units()))
        .sum();
    on_board + on_borders
}

/// The change in units the events account for.
fn accounted(events: &[E]) -> i64 {
    events
        .iter()
        .map(|e| match e {
            E::Recruited { count, .. } => i64::from(*count),
            E::Placed { .. } => 20,
            E::CountryPicked { .. } => 0,
            E::UpkeepSettled { lost, .. } => {
                -lost.iter().map(|(_, f)| i64::from(f.units())).sum::<i64>()
            }
            E::BattleRoll { loser, .. } => match loser {
                Loser::Both => -2,
                _ => -1,
            },
            E::InterceptRoll {
                loser,
                interceptor_lost,
                ..
            } => {
                -i64::from(matches!(loser, Loser::First | Loser::Both))
                    - i64::from(*interceptor_lost)
            }
            E::Sunk { armies, .. } => -i64::from(*armies),
            E::RebelRoll { lost, .. } => -i64::from(*lost),
            E::Revolution { neutral, .. } => i64::from(*neutral),
            E::RevolutionIncited { .. } => 2,
            E::NeutralSunk { armies, .. } => -i64::from(*armies),
            // Engaged navies lost beside the armies (those are in the interception rolls).
            E::Landed { lost, .. } => -i64::from(lost.navies),
            E::IncitedRoll { hit, .. } => -i64::from(*hit),
            _ => 0,
        })
        .sum()
}

/// The phases that may follow `a`.
fn follows(a: Phase, b: Phase) -> bool {
    use Phase::*;
    a == b
        || matches!(
            (a, b),
            (Pick(_), Pick(_) | Place | Get)
                | (Place, Get)
                | (Get, Planning | Over)
                | (Planning, Moving)
                | (Moving, Combat | Get | Over)
                | (Combat, Get | Over)
        )
}

/// A random action, most often illegal: wrong player, wrong phase, garbage numbers.
fn hostile(d: &mut SeededDice, players: u8) -> A {
    let p = d.below(u32::from(players) + 1) as u8;
    let r = d.below(100) as u8;
    let n = d.below(30);
    match d.below(12) {
        0 => A::SettleUpkeep {
            player: p,
            losses: vec![(
                r,
                Force {
                    armies: n,
                    navies: 0,
                },
            )],
        },
        1 => A::Recruit {
            player: p,
            country: r,
            navy_into: Some(r.wrapping_add(42)),
            count: n,
        },
        2 => A::Build {
            player: p,
            country: r,
            item: Item::NavyBase { water: r },
        },
        3 => A::Destroy {
            player: p,
            country: r,
            item: Item::Capital,
        },
        4 => A::TradeCards {
            player: p,
            cards: [r, r, r.wrapping_add(1)],
        },
        5 => A::SubmitPlans {
            player: p,
            moves: vec![PlannedMove {
                from: r,
                to: r.wrapping_add(1),
                armies: n,
                navies: 0,
            }],
        },
        6 => A::MoveFriendly {
            player: p,
            from: r,
            to: r.wrapping_add(1),
            force: Force {
                armies: n,
                navies: n,
            },
        },
        7 => A::PickBattle {
            player: p,
            site: Site::Border(r, r),
        },
        8 => A::Declare {
            player: p,
            action: Some(BattleAction::Attack {
                target: Foe::Player(p),
                kind: Kind::Navy,
            }),
        },
        9 => match d.below(4) {
            0 => A::OfferAlliance {
                player: p,
                with: r % 7,
            },
            1 => A::BreakAlliance {
                player: p,
                with: r % 7,
            },
            2 => A::Forfeit {
                player: p,
                region: r,
                to: r % 7,
            },
            _ => A::ChooseAction {
                player: p,
                actor: p,
            },
        },
        10 => A::Setup {
            player: p,
            choice: SetupAction::Place {
                capital: Some(r),
                bases: vec![r],
                armies: vec![(r, n)],
            },
        },
        // Now and then a player gives up: their units turn neutral, navies too.
        _ if n == 0 && d.below(40) == 0 => A::Surrender { player: p },
        _ if n == 1 => A::ClosePlanning { player: p },
        _ => A::FinishGet { player: p },
    }
}

/// Plays one game; returns how many players surrendered in it.
fn check_game(index: u64, setup: Setup, players: usize) -> u32 {
    let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let options = EconomyOptions {
        setup,
        round_limit: Some(15),
        ..EconomyOptions::default()
    };
    let (mut s, _) = EconomyState::new(&names, options, game_seed(99, index)).unwrap();
    let mut d = SeededDice::new(game_seed(7, index));
    let mut steps = 0;
    let mut surrenders = 0;
    while s.phase != Phase::Over {
        steps += 1;
        assert!(steps < 100_000, "game {index} does not end");
        for _ in 0..2 {
            let a = hostile(&mut d, players as u8);
            let before = s.clone();
            match s.apply(&a) {
                Err(_) => assert_eq!(s, before, "a refused {a:?} changed the state"),
                // A legal random action (rare) must keep the count honest too.
                Ok(events) => {
                    surrenders += u32::from(matches!(a, A::Surrender { .. }));
                    if !matches!(before.phase, Phase::Pick(_) | Phase::Place) {
                        assert_eq!(units(&s) - units(&before), accounted(&events), "{a:?}");
                    }
                    assert!(follows(before.phase, s.phase));
                }
            }
        }
        let p = s.to_act()[0];
        // Even seats are played by the normal bot, odd ones by the easy bot.
        let level = if p % 2 == 0 {
            BotLevel::Normal
        } else {
            BotLevel::Easy
        };
        let a = orbis_engine::bot::economy::choose(&s, p, level).expect("the bot has an action");
        let (before, phase) = (units(&s), s.phase);
        let events = s.apply(&a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
        if !matches!(phase, Phase::Pick(_) | Phase::Place) {
            assert_eq!(
                units(&s) - before,
                accounted(&events),
                "game {index}: {a:?} gave {events:?}"
            );
        }
        assert!(follows(phase, s.phase), "{phase:?} then {:?}", s.phase);
        // Every state a game passes through is one a save file may hold (checked at every 4th).
        if steps % 4 == 0 {
            if let Err(e) = s.check_consistency() {
                panic!("game {index}, {}: {e}", s.phase);
            }
        }
    }
    let game = Game::Economy(s);
    assert_eq!(Game::from_save(&game.to_save()), Ok(game));
    surrenders
}

#[test]
fn random_games_keep_the_rules() {
    let mut surrenders = 0;
    for (i, setup) in [
        Setup::EuropeanCapitals,
        Setup::Continents,
        Setup::Cards,
        Setup::Draft,
    ]
    .into_iter()
    .cycle()
    .take(40)
    .enumerate()
    {
        surrenders += check_game(i as u64, setup, 2 + i % 5);
    }
    // Surrenders leave neutral units, navies among them, for the others to fight.
    assert!(surrenders > 0);
}

/// Online play sends each player's choices for one log position as a batch
/// (`bot::economy::batch`): for whatever seat is awaited in a game between normal bots, the
/// batch is legal in order, stays at one step until its last action, and that last action ends
/// the step (another set of players is awaited, or the phase or round moves on) or rolls a die.
#[test]
fn a_computer_batch_covers_exactly_one_step() {
    use orbis_engine::bot::economy::batch;
    for index in 0..4u64 {
        let names = ["A", "B", "C"];
        let (mut s, _) =
            EconomyState::new(&names, EconomyOptions::default(), game_seed(11, index)).unwrap();
        let mut positions = 0;
        while s.phase != Phase::Over && s.round <= 3 && positions < 3_000 {
            positions += 1;
            let to_act = s.to_act();
            let Some(&p) = to_act.first() else { break };
            let b = batch(&s, &[p], BotLevel::Normal);
            assert!(!b.is_empty(), "seat {p} has a batch in {:?}", s.phase);
            let mut draft = s.clone();
            for (i, a) in b.iter().enumerate() {
                let mut dice = SeededDice::new(game_seed(12, positions));
                draft.apply_with(a, &mut dice).expect("legal in order");
                let last = i + 1 == b.len();
                if !last {
                    assert!(s.same_step(&draft), "{a:?} ended the step early");
                    assert_eq!(dice.position(), 0, "{a:?} rolled before the end");
                } else {
                    assert!(
                        !s.same_step(&draft) || dice.position() > 0,
                        "the batch {b:?} stops before its step ends"
                    );
                }
            }
            s = draft;
        }
        assert!(
            s.round > 3 || s.phase == Phase::Over,
            "game {index} stalled"
        );
    }
}
