//! Save files and state hashes of classic games, byte-for-byte the same as
//! `orbis_engine::rules::Game::{to_save, from_save, state_hash}` for `Game::Classic`.
//!
//! Why not call `Game` directly: going through the `Game` enum links every ruleset's
//! (de)serialisation and consistency checks into the browser bundle (+30 KB gzipped with the
//! orders ruleset), and this client plays the classic game only. The unit tests below compare
//! against the engine's own functions, so a change of the save format fails `cargo test`.
//! (An engine-side `classic`-only feature or `ClassicState::{to_save, from_save}` would make this
//! module unnecessary.)

use orbis_engine::classic::ClassicState;
use orbis_engine::codec::{self, DecodeError};
use orbis_engine::rules::{LoadError, SAVE_VERSION};
use serde::{Deserialize, Serialize};

const MAGIC: [u8; 5] = *b"ORBIS";

/// `Game`, as far as the classic variant (index 0) goes.
#[derive(Serialize)]
enum GameRef<'a> {
    Classic(&'a ClassicState),
}

#[derive(Deserialize)]
enum GameOwned {
    Classic(ClassicState),
}

#[derive(Serialize)]
struct SaveRef<'a> {
    magic: [u8; 5],
    version: u16,
    game: GameRef<'a>,
}

#[derive(Deserialize)]
struct SaveOwned {
    #[allow(dead_code)]
    magic: [u8; 5],
    version: u16,
    game: GameOwned,
}

/// The bytes of a save file.
pub fn to_save(s: &ClassicState) -> Vec<u8> {
    codec::encode(&SaveRef {
        magic: MAGIC,
        version: SAVE_VERSION,
        game: GameRef::Classic(s),
    })
}

/// Reads a save file, with the engine's checks and messages.
pub fn from_save(bytes: &[u8]) -> Result<ClassicState, String> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(LoadError::NotASave.to_string());
    }
    match bytes.get(MAGIC.len()) {
        Some(&v) if v as u16 != SAVE_VERSION => {
            return Err(LoadError::Version(v as u16).to_string())
        }
        None => return Err(LoadError::NotASave.to_string()),
        _ => {}
    }
    let save: SaveOwned = codec::decode(bytes).map_err(|e: DecodeError| {
        if e.to_string().contains("variant") {
            "this save is of another kind of game than the classic one".to_string()
        } else {
            LoadError::Decode(e).to_string()
        }
    })?;
    if save.version != SAVE_VERSION {
        return Err(LoadError::Version(save.version).to_string());
    }
    let GameOwned::Classic(s) = save.game;
    s.check_consistency()
        .map_err(|why| LoadError::Inconsistent(why).to_string())?;
    Ok(s)
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
        assert_eq!(from_save(&g.to_save()).unwrap(), s);
        assert_eq!(Game::from_save(&to_save(&s)).unwrap(), g);
    }

    #[test]
    fn same_refusals_as_the_engine() {
        let good = to_save(&game());
        let mut damaged = good.clone();
        let n = damaged.len();
        damaged.truncate(n - 3);
        let mut wrong_version = good.clone();
        wrong_version[5] = 9;
        for bad in [b"hello".to_vec(), vec![], damaged, wrong_version] {
            let ours = from_save(&bad).unwrap_err();
            let theirs = Game::from_save(&bad).unwrap_err().to_string();
            assert_eq!(ours, theirs);
        }
    }
}
