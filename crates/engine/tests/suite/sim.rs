use orbis_engine::rules::classic::{BotLevel, ClassicOptions};
use orbis_engine::sim::{game_seed, play};

#[test]
fn normal_bots_finish_games_for_every_player_count() {
    for players in 2..=6 {
        for seed in 0..3 {
            let r = play(
                players,
                BotLevel::Normal,
                ClassicOptions::default(),
                game_seed(seed, players as u64),
                2000,
            )
            .unwrap();
            assert!(
                r.winner.is_some_and(|w| (w as usize) < players),
                "{players} players, seed {seed}: {r:?}"
            );
        }
    }
}

#[test]
fn easy_bots_play_only_legal_moves_for_many_turns() {
    for players in 2..=6 {
        let r = play(
            players,
            BotLevel::Easy,
            ClassicOptions::default(),
            game_seed(5, players as u64),
            300,
        )
        .unwrap();
        assert!(r.winner.is_some() || r.turns == 301, "{r:?}");
        assert!(r.actions > 300);
    }
}

#[test]
fn every_level_finishes_four_player_games_with_legal_moves_only() {
    // (Strength is measured by `orbis tournament`, not asserted here.)
    for level in [BotLevel::Easy, BotLevel::Normal, BotLevel::Hard] {
        for seed in 0..3 {
            let r = play(
                4,
                level,
                ClassicOptions::default(),
                game_seed(seed, 40),
                500,
            )
            .unwrap();
            assert!(r.winner.is_some(), "{level:?} seed {seed}: {r:?}");
        }
    }
}
