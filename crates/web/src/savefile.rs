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

/// Magic of a save with its history (`to_replay_file`): a file of its own, so an older page
/// refuses it as "not a save" instead of misreading it; plain saves stay `ORBIS` files.
pub const REPLAY_MAGIC: [u8; 5] = *b"ORBRP";

/// At most this many actions are kept (a long bot game has a few thousand); a longer game
/// drops its history and keeps playing.
pub const MAX_ACTIONS: u32 = 30_000;

/// What a replay needs: the start state (a save file of it) and every action since, in order.
/// The dice come from the seeded stream in the state, so `apply` again gives the same rolls.
#[derive(Clone, PartialEq, Debug)]
pub struct History {
    /// The save file of the state before the first action.
    pub start: Vec<u8>,
    /// Number of actions in `actions`.
    pub count: u32,
    /// The actions, each in the codec's encoding, one after another.
    pub actions: Vec<u8>,
}

impl History {
    /// A history that starts at `s`.
    pub fn new(s: &ClassicState) -> History {
        History {
            start: to_save(s),
            count: 0,
            actions: vec![],
        }
    }

    /// A history that starts at the state of this save file (any ruleset).
    #[cfg(feature = "full")]
    pub fn from_start(start: Vec<u8>) -> History {
        History {
            start,
            count: 0,
            actions: vec![],
        }
    }

    /// Records one applied action (of any ruleset); `false` once the history is too long.
    pub fn push<A: Serialize>(&mut self, a: &A) -> bool {
        self.count += 1;
        self.actions.extend(codec::encode(a));
        self.count <= MAX_ACTIONS
    }

    /// The actions decoded (the replay, and the statistics charts of every page).
    pub fn decode_actions(&self) -> Result<Vec<orbis_engine::classic::Action>, String> {
        codec::decode_lean(&self.as_vec()).map_err(|e| e.to_string())
    }

    /// The actions as the codec encodes a `Vec` of them: its length (a varint, as a `u64`),
    /// then the items.
    pub fn as_vec(&self) -> Vec<u8> {
        let mut bytes = codec::encode(&u64::from(self.count));
        bytes.extend_from_slice(&self.actions);
        bytes
    }
}

/// A save with its history: `ORBRP`, format 1, then three parts, each a little-endian `u32`
/// length and its bytes: the save of the current state, the start state's save, the actions
/// (whose count follows the start as a `u32`).
pub fn to_replay_file(save: &[u8], h: &History) -> Vec<u8> {
    let mut out = REPLAY_MAGIC.to_vec();
    out.push(1);
    for part in [save, &h.start] {
        out.extend((part.len() as u32).to_le_bytes());
        out.extend_from_slice(part);
    }
    out.extend(h.count.to_le_bytes());
    out.extend((h.actions.len() as u32).to_le_bytes());
    out.extend_from_slice(&h.actions);
    out
}

/// Splits a file of `to_replay_file` into the save and its history; `None` for anything else
/// (a plain save included). Nothing is decoded here: the save is read as any save is.
pub fn split_replay_file(bytes: &[u8]) -> Option<(&[u8], History)> {
    let rest = bytes
        .strip_prefix(&REPLAY_MAGIC[..])?
        .strip_prefix(&[1u8][..])?;
    fn take(b: &[u8]) -> Option<(&[u8], &[u8])> {
        let n = u32::from_le_bytes(b.get(..4)?.try_into().ok()?) as usize;
        let part = b.get(4..4usize.checked_add(n)?)?;
        Some((part, &b[4 + n..]))
    }
    let (save, rest) = take(rest)?;
    let (start, rest) = take(rest)?;
    let count = u32::from_le_bytes(rest.get(..4)?.try_into().ok()?);
    let (actions, rest) = take(&rest[4..])?;
    (rest.is_empty() && count <= MAX_ACTIONS).then(|| {
        (
            save,
            History {
                start: start.to_vec(),
                count,
                actions: actions.to_vec(),
            },
        )
    })
}

/// Reads a file that may carry a history: the game, and its history if it has one.
pub fn load_with_history(bytes: &[u8]) -> Result<(Loaded, Option<History>), String> {
    match split_replay_file(bytes) {
        Some((save, h)) => load_bytes(save).map(|l| (l, Some(h))),
        None if bytes.starts_with(&REPLAY_MAGIC) => Err("the file is damaged".into()),
        None => load_bytes(bytes).map(|l| (l, None)),
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

    #[test]
    fn a_save_round_trips_with_its_history() {
        let seats = [Colour::Red, Colour::Blue]
            .iter()
            .map(|&c| SeatConfig {
                name: c.name().into(),
                colour: c,
                kind: SeatKind::Bot(BotLevel::Easy),
            })
            .collect();
        let mut s = ClassicState::new(seats, ClassicOptions::default(), [9; 32]).unwrap();
        let mut h = History::new(&s);
        let mut played = vec![];
        for _ in 0..200 {
            let a = orbis_engine::bot::choose(&s, BotLevel::Easy).unwrap();
            s.apply(&a).unwrap();
            assert!(h.push(&a));
            played.push(a);
        }
        let file = to_replay_file(&to_save(&s), &h);
        let (save, back) = split_replay_file(&file).unwrap();
        assert_eq!(back, h);
        assert_eq!(from_save(save).unwrap(), Some(s.clone()));
        match load_with_history(&file) {
            Ok((Loaded::Classic(g), Some(back))) => assert_eq!((g, back), (s.clone(), h.clone())),
            _ => panic!("read with its history"),
        }
        #[cfg(feature = "full")]
        {
            assert_eq!(h.decode_actions().unwrap(), played);
            // Every kind of action reads back as it was written (serde's bytes, bincode's reader).
            use orbis_engine::classic::{Action, DefendPref};
            let all = [
                Action::Claim { territory: 41 },
                Action::Trade { cards: [1, 42, 43] },
                Action::SetDefence {
                    player: 5,
                    pref: DefendPref::One,
                },
                Action::SetTerritoryDefence {
                    territory: 3,
                    one: true,
                },
                Action::Occupy { armies: 70_000 },
            ];
            let mut k = History::new(&s);
            for a in &all {
                k.push(a);
            }
            assert_eq!(k.decode_actions().unwrap(), all);
        }
        // Damaged: cut short or with bytes after it.
        assert!(load_with_history(&file[..file.len() - 1]).is_err());
        assert!(load_with_history(&[file.as_slice(), &[0]].concat()).is_err());
    }

    #[test]
    fn an_old_save_without_history_still_loads() {
        let s = game();
        match load_with_history(&to_save(&s)) {
            Ok((Loaded::Classic(g), None)) => assert_eq!(g, s),
            _ => panic!("a plain save loads, without history"),
        }
        let old = include_bytes!("../../engine/tests/saves/v3-classic.orbis");
        #[cfg(feature = "full")]
        assert!(matches!(
            load_with_history(old),
            Ok((Loaded::Classic(_), None))
        ));
        #[cfg(not(feature = "full"))]
        assert!(matches!(
            load_with_history(old),
            Ok((Loaded::FullPage, None))
        ));
    }
}
