//! Save files and state hashes of classic games, byte-for-byte the same as
//! `orbis_engine::rules::Game::{to_save, state_hash}` for `Game::Classic`, without cloning the
//! state into a `Game` after every action. Reading saves (of both rulesets) goes through
//! `Game::from_save`.
//!
//! The unit test below compares against the engine's own functions, so a change of the save
//! format fails `cargo test`.

use orbis_engine::classic::ClassicState;
use orbis_engine::codec;
use orbis_engine::rules::SAVE_VERSION;
use serde::Serialize;

const MAGIC: [u8; 5] = *b"ORBIS";

/// `Game`, as far as the classic variant (index 0) goes.
#[derive(Serialize)]
enum GameRef<'a> {
    Classic(&'a ClassicState),
}

#[derive(Serialize)]
struct SaveRef<'a> {
    magic: [u8; 5],
    version: u16,
    game: GameRef<'a>,
}

/// The bytes of a save file.
pub fn to_save(s: &ClassicState) -> Vec<u8> {
    codec::encode(&SaveRef {
        magic: MAGIC,
        version: SAVE_VERSION,
        game: GameRef::Classic(s),
    })
}

/// Hex SHA-256 of the canonical encoding of `Game::Classic(s)`.
pub fn state_hash(s: &ClassicState) -> String {
    codec::hash_of(&GameRef::Classic(s)).to_hex()
}

#[cfg(test)]
mod tests {
    use super::*;
    use orbis_engine::classic::{BotLevel, ClassicOptions, Colour, SeatConfig, SeatKind};
    use orbis_engine::rules::Game;

    fn game() -> ClassicState {
        let seats = [Colour::Red, Colour::Blue, Colour::Green]
            .iter()
            .map(|&c| SeatConfig {
                name: c.name().into(),
                colour: c,
                kind: SeatKind::Bot(BotLevel::Normal),
            })
            .collect();
        let mut s = ClassicState::new(seats, ClassicOptions::default(), [7; 32]).unwrap();
        for _ in 0..300 {
            let a = orbis_engine::bot::choose(&s, BotLevel::Normal).unwrap();
            s.apply(&a).unwrap();
        }
        s
    }

    #[test]
    fn same_bytes_and_hash_as_the_engine() {
        let s = game();
        let g = Game::Classic(s.clone());
        assert_eq!(to_save(&s), g.to_save());
        assert_eq!(state_hash(&s), g.state_hash().to_hex());
        assert_eq!(Game::from_save(&to_save(&s)).unwrap(), g);
    }
}
