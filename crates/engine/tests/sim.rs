use orbis_engine::rules::classic::{BotLevel, ClassicOptions};
use orbis_engine::sim::{game_seed, play};

#[test]
fn bots_finish_games() {
    for players in 2..=6 {
        for level in [BotLevel::Easy, BotLevel::Normal] {
            let r = play(
                players,
                level,
                ClassicOptions::default(),
                game_seed(1, players as u64),
                2000,
            )
            .unwrap();
            println!("{players} {level:?} {r:?}");
        }
    }
}
