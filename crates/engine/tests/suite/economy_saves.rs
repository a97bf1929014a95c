//! Economy games in save files: a save taken at any point loads to the same state, and play
//! goes on from it exactly as from the original; a damaged save is refused with a message or, if
//! its damage leaves a consistent game, plays on without a panic.

#![cfg(feature = "economy")]

use orbis_engine::dice::{Dice, SeededDice};
use orbis_engine::rules::classic::BotLevel;
use orbis_engine::rules::economy::options::{EconomyOptions, Setup};
use orbis_engine::rules::economy::phase::Phase;
use orbis_engine::rules::economy::state::EconomyState;
use orbis_engine::rules::{Action, Game, LoadError};
use orbis_engine::sim::game_seed;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// One bot step of an economy game; false when the game is over.
fn step(s: &mut EconomyState) -> bool {
    if s.phase == Phase::Over {
        return false;
    }
    let Some(&p) = s.to_act().first() else {
        return false;
    };
    let level = if p % 2 == 0 {
        BotLevel::Normal
    } else {
        BotLevel::Easy
    };
    let Some(a) = orbis_engine::bot::economy::choose(s, p, level) else {
        return false;
    };
    let mut g = Game::Economy(s.clone());
    if g.apply(&Action::Economy(a)).is_err() {
        return false;
    }
    let Game::Economy(next) = g else {
        unreachable!("an economy game stays one")
    };
    *s = next;
    true
}

/// Saves of one game every `every` steps, each with the state it holds.
fn saves(seed: u64, setup: Setup, players: usize, every: u32) -> Vec<(Vec<u8>, EconomyState)> {
    let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let options = EconomyOptions {
        setup,
        round_limit: Some(8),
        ..EconomyOptions::default()
    };
    let (mut s, _) = EconomyState::new(&names, options, game_seed(5, seed)).unwrap();
    let mut out = vec![];
    let mut n = 0;
    loop {
        if n % every == 0 {
            out.push((Game::Economy(s.clone()).to_save(), s.clone()));
        }
        if !step(&mut s) {
            break;
        }
        n += 1;
    }
    out.push((Game::Economy(s.clone()).to_save(), s));
    out
}

#[test]
fn a_save_loads_and_plays_on_as_the_original() {
    for (i, setup) in [
        Setup::EuropeanCapitals,
        Setup::Continents,
        Setup::Cards,
        Setup::Draft,
    ]
    .into_iter()
    .enumerate()
    {
        for (bytes, s) in saves(i as u64, setup, 3 + i % 3, 97) {
            let Ok(Game::Economy(mut back)) = Game::from_save(&bytes) else {
                panic!("an economy save loads as an economy game");
            };
            assert_eq!(back, s);
            let mut original = s;
            for _ in 0..40 {
                let (a, b) = (step(&mut original), step(&mut back));
                assert_eq!(a, b);
                assert_eq!(original, back);
            }
        }
    }
}

#[test]
fn damaged_saves_are_refused_or_play_on() {
    let mut d = SeededDice::new([3; 32]);
    let (mut refused, mut loaded) = (0, 0);
    for (i, setup) in [Setup::Cards, Setup::Draft].into_iter().enumerate() {
        for (bytes, _) in saves(10 + i as u64, setup, 4, 301) {
            for _ in 0..400 {
                let mut bad = bytes.clone();
                // A few bytes anywhere after the header, each set to any value.
                for _ in 0..1 + d.below(3) {
                    let at = 7 + d.below(bad.len() as u32 - 7) as usize;
                    bad[at] = d.below(256) as u8;
                }
                let result = catch_unwind(AssertUnwindSafe(|| match Game::from_save(&bad) {
                    Ok(Game::Economy(mut s)) => {
                        for _ in 0..200 {
                            if !step(&mut s) {
                                break;
                            }
                        }
                        true
                    }
                    Ok(_) => panic!("an economy save became another ruleset's game"),
                    Err(e) => {
                        assert!(!e.to_string().is_empty());
                        false
                    }
                }));
                match result {
                    Ok(true) => loaded += 1,
                    Ok(false) => refused += 1,
                    Err(_) => panic!("a damaged save made the engine panic"),
                }
            }
        }
    }
    println!("damaged saves: {refused} refused, {loaded} loaded and played on");
    // Both outcomes happen: the check refuses some damage, and some damage is harmless.
    assert!(
        refused > 0 && loaded > 0,
        "refused {refused}, loaded {loaded}"
    );
}

#[test]
fn an_inconsistent_economy_state_says_what_is_wrong() {
    let (_, s) = saves(20, Setup::EuropeanCapitals, 3, 1000).pop().unwrap();
    let mut bad = s.clone();
    bad.regions[0].owner = Some(9);
    let why = |s: EconomyState| match Game::from_save(&Game::Economy(s).to_save()) {
        Err(LoadError::Inconsistent(why)) => why,
        other => panic!("{other:?}"),
    };
    assert_eq!(why(bad), "there is no player 9");
    let mut bad = s.clone();
    bad.deck.push(0);
    assert_eq!(
        why(bad),
        "the influence cards do not add up to one per country"
    );
    let mut bad = s;
    bad.regions.pop();
    assert_eq!(why(bad), "the board has the wrong number of regions");
}
