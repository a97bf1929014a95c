//! Save files and state hashes of classic games, byte-for-byte the same as
//! `orbis_engine::rules::Game::{to_save, state_hash}` for `Game::Classic`, without cloning the
//! state into a `Game` after every action; and reading them without linking the orders ruleset
//! into the lite bundle (`from_save`, the engine's `classic_from_save`, reads classic saves of the
//! current format only, without serde's decoding; the full bundle reads the rest with
//! `Game::from_save`: other rulesets, and earlier formats, whose readers would grow the lite
//! page's first load by 5 KB gzipped).
//!
//! The unit test below compares against the engine's own functions, so a change of the save
//! format fails `cargo test`.

use orbis_engine::classic::ClassicState;
use orbis_engine::codec;
#[cfg(feature = "full")]
use orbis_engine::rules::Game;
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

/// Reads a save file with the same checks and messages as `Game::from_save`; `Ok(None)` for a
/// save not read here: a game of another ruleset, or a classic game of an earlier format (the
/// lite page sends both to the full page).
pub use orbis_engine::rules::classic_from_save as from_save;

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

/// A save file as this bundle reads it.
#[allow(clippy::large_enum_variant)] // short-lived, one per load
pub enum Loaded {
    Classic(ClassicState),
    #[cfg(feature = "full")]
    Orders(orbis_engine::rules::orders::OrdersState),
    #[cfg(feature = "full")]
    Economy(Box<orbis_engine::rules::economy::state::EconomyState>),
    /// Lite bundle: a game of the orders ruleset, for the full page to read.
    #[cfg(not(feature = "full"))]
    FullPage,
}

/// Reads a save file of any ruleset, with the engine's checks and messages.
pub fn load_bytes(bytes: &[u8]) -> Result<Loaded, String> {
    match from_save(bytes) {
        Ok(Some(g)) => Ok(Loaded::Classic(g)),
        #[cfg(feature = "full")]
        Ok(None) => match Game::from_save(bytes) {
            Ok(Game::Orders(g)) => Ok(Loaded::Orders(g)),
            Ok(Game::Classic(g)) => Ok(Loaded::Classic(g)),
            Ok(Game::Economy(g)) => Ok(Loaded::Economy(Box::new(g))),
            Err(e) => Err(e.to_string()),
        },
        #[cfg(not(feature = "full"))]
        Ok(None) => Ok(Loaded::FullPage),
        Err(e) => Err(e.to_string()),
    }
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
    fn older_formats_are_left_to_the_engine() {
        for bytes in [
            &include_bytes!("../../../tests/e2e/fixtures/trade.orbis")[..],
            include_bytes!("../../engine/tests/saves/v2-classic.orbis"),
            include_bytes!("../../engine/tests/saves/v3-classic.orbis"),
            include_bytes!("../../engine/tests/saves/v2-orders.orbis"),
        ] {
            assert!(bytes[5] < SAVE_VERSION as u8);
            assert_eq!(from_save(bytes), Ok(None));
            let loaded = load_bytes(bytes);
            #[cfg(not(feature = "full"))] // the lite page sends them to the full page
            assert!(matches!(loaded, Ok(Loaded::FullPage)));
            #[cfg(feature = "full")] // which reads them as the engine does
            match (loaded, Game::from_save(bytes)) {
                (Ok(Loaded::Classic(a)), Ok(Game::Classic(b))) => assert_eq!(a, b),
                (Ok(Loaded::Orders(a)), Ok(Game::Orders(b))) => assert_eq!(a, b),
                _ => panic!("read as the engine reads it"),
            }
        }
    }

    #[test]
    fn same_bytes_and_hash_as_the_engine() {
        let s = game();
        let g = Game::Classic(s.clone());
        assert_eq!(to_save(&s), g.to_save());
        assert_eq!(state_hash(&s), g.state_hash().to_hex());
        assert_eq!(Game::from_save(&to_save(&s)).unwrap(), g);
        assert_eq!(from_save(&to_save(&s)).unwrap(), Some(s.clone()));
    }

    #[test]
    fn reads_like_the_engine_and_leaves_orders_games_alone() {
        let s = game();
        let orders =
            orbis_engine::rules::orders::OrdersState::new_for("europe-1901", Default::default(), 7)
                .unwrap();
        assert_eq!(from_save(&Game::Orders(orders).to_save()), Ok(None));
        let good = to_save(&s);
        let mut bad = vec![
            b"not a save".to_vec(),
            good[..6].to_vec(),
            good[..good.len() - 1].to_vec(),
            [good.as_slice(), &[0]].concat(),
        ];
        let mut old = good.clone();
        old[5] = 0;
        bad.push(old);
        for b in bad {
            assert_eq!(
                from_save(&b).unwrap_err(),
                Game::from_save(&b).unwrap_err(),
                "{b:?}"
            );
        }
    }

    #[test]
    fn an_economy_save_opens_on_the_full_page() {
        use orbis_engine::rules::economy::options::EconomyOptions;
        use orbis_engine::rules::economy::state::EconomyState;
        let (s, _) =
            EconomyState::new(&["Ann", "Bob"], EconomyOptions::default(), [3; 32]).unwrap();
        let bytes = Game::Economy(s).to_save();
        // The lite page leaves it to the full page, which opens it.
        assert_eq!(from_save(&bytes), Ok(None));
        #[cfg(feature = "full")]
        assert!(matches!(load_bytes(&bytes), Ok(Loaded::Economy(_))));
    }
}
