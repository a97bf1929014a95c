//! The orders ruleset's computer powers: only legal orders, on both maps and with every house
//! option; the same seed gives the same game; games of computer powers end.

use orbis_engine::bot::orders::{accepts_draw, orders_for, orders_thinking, phase_actions};
use orbis_engine::rules::classic::BotLevel;
use orbis_engine::rules::orders::{OrdersAction, OrdersOptions, OrdersState, Phase};
use orbis_engine::sim::{game_seed, orders_phase, orders_play, orders_salt};

fn options(i: u64) -> OrdersOptions {
    OrdersOptions {
        no_retreat_into_foreign_territory: i % 2 == 1,
        combine: i % 3 == 1,
        fleet_facing: i % 4 >= 2,
        source_convoys: i % 5 == 4,
    }
}

/// Plays `years` years with the given levels per power; every bot order must be accepted and
/// never voided (`orders_phase` reports a void order as an error).
fn play(
    map: &str,
    players: u8,
    levels: &[BotLevel],
    opts: OrdersOptions,
    seed: u64,
    years: u16,
) -> OrdersState {
    let mut s = OrdersState::new_for(map, opts, players).unwrap();
    let powers = s.map().powers_for(players).unwrap();
    let bots: Vec<_> = powers
        .iter()
        .zip(levels.iter().cycle())
        .map(|(&p, &l)| (p, l))
        .collect();
    let mut phase = 0;
    while !matches!(s.phase, Phase::GameOver { .. }) && s.year < 1901 + years {
        let before = s.clone();
        orders_phase(&mut s, &bots, &orders_salt(game_seed(seed, 0), phase))
            .unwrap_or_else(|e| panic!("seed {seed} on {map}: {e}"));
        s.check_consistency().unwrap();
        assert_ne!(before, s, "a phase changed nothing");
        phase += 1;
    }
    s
}

#[test]
fn bots_give_only_legal_orders_on_every_map_and_option() {
    let levels = [BotLevel::Normal, BotLevel::Easy, BotLevel::Hard];
    for seed in 0..12u64 {
        play("europe-1901", 7, &levels, options(seed), seed, 12);
    }
    for players in 2..=6u8 {
        for seed in 0..3u64 {
            play(
                "world",
                players,
                &levels,
                options(seed + u64::from(players)),
                seed,
                10,
            );
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_game_and_another_seed_another() {
    let a = orders_play("europe-1901", &[BotLevel::Normal; 7], game_seed(1, 0), 1910).unwrap();
    let b = orders_play("europe-1901", &[BotLevel::Normal; 7], game_seed(1, 0), 1910).unwrap();
    let c = orders_play("europe-1901", &[BotLevel::Normal; 7], game_seed(2, 0), 1910).unwrap();
    assert_eq!(a, b);
    assert_ne!(a.0, c.0);
}

#[test]
fn games_of_computer_powers_end() {
    for seed in 0..4 {
        let (s, _) = orders_play(
            "europe-1901",
            &[BotLevel::Normal; 7],
            game_seed(seed, 0),
            1960,
        )
        .unwrap();
        assert!(
            matches!(s.phase, Phase::GameOver { .. }),
            "seed {seed}: {:?} {}",
            s.phase,
            s.year
        );
    }
}

#[test]
fn a_hopeless_power_accepts_a_draw_and_a_leader_does_not_early() {
    let mut s = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    let map = s.map();
    let england = map.power("ENGLAND").unwrap();
    let france = map.power("FRANCE").unwrap();
    assert!(!accepts_draw(&s, england));
    // France takes every centre but one of England's and a few more.
    let centres: Vec<_> = map.centres().collect();
    for c in centres.iter().take(12) {
        if s.centres.get(c) != Some(&france) {
            s.centres.insert(*c, france);
        }
    }
    let mine = s.centre_count(england);
    assert!(s.centre_count(france) >= 3 * mine, "{mine}");
    assert!(accepts_draw(&s, england));
    assert!(!accepts_draw(&s, france));
    s.year = 1931;
    assert!(accepts_draw(&s, france));
}

#[test]
fn bot_orders_depend_on_the_salt_only_through_their_random_part() {
    let s = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    let differs = (0..20u8).any(|i| {
        orders_for(&s, 0, BotLevel::Normal, &[i]) != orders_for(&s, 0, BotLevel::Normal, &[i + 1])
    });
    assert!(differs, "the salt never changed England's opening");
    // Phase actions: one submission per power with units, no draw votes at the start.
    let bots: Vec<_> = (0..7).map(|p| (p, BotLevel::Easy)).collect();
    let acts = phase_actions(&s, &bots, b"salt");
    assert_eq!(acts.len(), 7);
    assert!(acts
        .iter()
        .all(|a| matches!(a, OrdersAction::Submit { .. })));
}

/// `hard` in random positions (games of random `easy` powers, every house option, both maps):
/// in every phase, every power's `hard` orders are accepted and none is void.
#[test]
fn hard_gives_only_legal_orders_in_random_positions() {
    let cases: [(&str, u8, u64); 4] = [
        ("europe-1901", 7, 0),
        ("europe-1901", 7, 3),
        ("world", 4, 1),
        ("world", 6, 2),
    ];
    for (map, players, seed) in cases {
        let mut s = OrdersState::new_for(map, options(seed + 1), players).unwrap();
        let powers = s.map().powers_for(players).unwrap();
        let easy: Vec<_> = powers.iter().map(|&p| (p, BotLevel::Easy)).collect();
        let hard: Vec<_> = powers.iter().map(|&p| (p, BotLevel::Hard)).collect();
        let mut phase = 0;
        while !matches!(s.phase, Phase::GameOver { .. }) && s.year < 1908 {
            let salt = orders_salt(game_seed(seed, 0), phase);
            let mut t = s.clone();
            orders_phase(&mut t, &hard, &salt)
                .unwrap_or_else(|e| panic!("hard, seed {seed} on {map}: {e}"));
            t.check_consistency().unwrap();
            orders_phase(&mut s, &easy, &salt).unwrap();
            phase += 1;
        }
    }
}

#[test]
fn hard_gives_the_same_orders_for_the_same_seed() {
    let a = orders_play("europe-1901", &[BotLevel::Hard; 7], game_seed(4, 0), 1903).unwrap();
    let b = orders_play("europe-1901", &[BotLevel::Hard; 7], game_seed(4, 0), 1903).unwrap();
    assert_eq!(a, b);
    let s = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
    for p in 0..7 {
        let o = orders_for(&s, p, BotLevel::Hard, b"salt");
        assert_eq!(o, orders_for(&s, p, BotLevel::Hard, b"salt"));
        assert_eq!(o.len(), s.orderable_units(p).len());
        // A longer thinking time is deterministic too (every page must use the same one).
        let long = orders_thinking(&s, p, BotLevel::Hard, b"salt", 3);
        assert_eq!(long, orders_thinking(&s, p, BotLevel::Hard, b"salt", 3));
        assert_eq!(long.len(), o.len());
    }
}
