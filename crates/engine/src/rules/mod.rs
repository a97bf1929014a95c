//! Rulesets. Each ruleset is a module with its own state, actions, events and errors; [`Game`]
//! wraps them so that the UI, the network layer and save files have one `apply` path.

pub mod classic;
#[cfg(feature = "economy")]
pub mod economy;
pub mod legacy;
pub mod orders;

use crate::codec::{self, DecodeError, StateHash};
use crate::dice::Dice;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Save-file format version; bump when a state type changes shape (and teach [`legacy`] to read
/// the older one). 2: orders units have a facing and the orders options the "fleets face a sea"
/// house option. 3: the classic options of the rules review (mission deck, defender dice, card
/// bonus) and per-territory one-die choices; the orders state's territory. 4: cards and missions
/// dealt face down (`sealed`). 5: the economy ruleset's influence cards dealt face down (its
/// state's and players' `sealed`); the classic and orders states are those of format 4. Versions 1
/// to 4 still load. Appending a variant to [`Game`] (as the economy ruleset did) leaves every earlier save's
/// bytes meaning the same, so it needs no new version.
pub const SAVE_VERSION: u16 = 5;

/// The first format whose classic state is the current one: [`classic_from_save`] reads saves
/// from it on, so the browser's lite page still reads the classic saves of format 4.
const CLASSIC_SINCE: u16 = 4;

/// A game of any ruleset.
// One game lives per session; boxing the larger variant would buy nothing but indirection.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Game {
    Classic(classic::ClassicState),
    Orders(orders::OrdersState),
    #[cfg(feature = "economy")]
    Economy(economy::state::EconomyState),
}

/// An action of any ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    Classic(classic::Action),
    Orders(orders::OrdersAction),
    #[cfg(feature = "economy")]
    Economy(economy::action::EconomyAction),
}

/// Something that happened, for logs and animation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    Classic(classic::Event),
    Orders(orders::OrdersEvent),
    #[cfg(feature = "economy")]
    Economy(economy::action::EconomyEvent),
}

/// Why an action was refused. The state is unchanged whenever this is returned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RuleError {
    Classic(classic::ClassicError),
    Orders(orders::OrdersError),
    #[cfg(feature = "economy")]
    Economy(economy::error::EconomyError),
    /// The action belongs to another ruleset than the game's.
    WrongRuleset,
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::Classic(e) => e.fmt(f),
            RuleError::Orders(e) => e.fmt(f),
            #[cfg(feature = "economy")]
            RuleError::Economy(e) => e.fmt(f),
            RuleError::WrongRuleset => {
                f.write_str("that action belongs to a different kind of game")
            }
        }
    }
}

impl std::error::Error for RuleError {}

#[derive(Serialize, Deserialize)]
struct SaveFile {
    magic: [u8; 5],
    version: u16,
    game: Game,
}

/// Why a save could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    NotASave,
    Version(u16),
    Decode(DecodeError),
    Inconsistent(String),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NotASave => f.write_str("this is not an Orbis save file"),
            LoadError::Version(v) => write!(f, "this save was written by another version of Orbis (format {v}, expected {SAVE_VERSION})"),
            LoadError::Decode(e) => write!(f, "the save file is damaged: {e}"),
            LoadError::Inconsistent(why) => write!(f, "the save file is damaged: {why}"),
        }
    }
}

impl std::error::Error for LoadError {}

const MAGIC: [u8; 5] = *b"ORBIS";

/// Reads a save file of a classic game whose state has the current shape (format
/// `CLASSIC_SINCE` on), with the checks and messages of [`Game::from_save`] (which starts
/// here); `Ok(None)` for a save it leaves to that function: a game of another ruleset, or a
/// classic game of an earlier format. It reads the state with
/// bincode's own decoding ([`codec::decode_lean`]), not serde's, and touches no other ruleset, so
/// the browser's lite page reads its saves with this alone.
pub fn classic_from_save(bytes: &[u8]) -> Result<Option<classic::ClassicState>, LoadError> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(LoadError::NotASave);
    }
    // After the magic: the version (a varint, one byte for the versions there are) and the
    // `Game` variant index (a varint: 0 for classic), then the state. Checking the version before
    // the body makes an older save say "other version" rather than "damaged".
    let version = match bytes.get(MAGIC.len()) {
        Some(&v) if v == 0 || u16::from(v) > SAVE_VERSION => {
            return Err(LoadError::Version(v.into()))
        }
        None => return Err(LoadError::NotASave),
        Some(&v) => u16::from(v),
    };
    if version < CLASSIC_SINCE || bytes.get(MAGIC.len() + 1).is_some_and(|&v| v != 0) {
        return Ok(None);
    }
    // The whole file, as `SaveFile` encodes it: magic, version, variant index, state.
    let (_, _, _, state): ([u8; 5], u16, u32, classic::ClassicState) =
        codec::decode_lean(bytes).map_err(LoadError::Decode)?;
    state.check_consistency().map_err(LoadError::Inconsistent)?;
    Ok(Some(state))
}

impl Game {
    /// Applies an action, drawing randomness from the game's own seeded stream.
    pub fn apply(&mut self, action: &Action) -> Result<Vec<Event>, RuleError> {
        match (self, action) {
            (Game::Classic(s), Action::Classic(a)) => s
                .apply(a)
                .map(|e| e.into_iter().map(Event::Classic).collect())
                .map_err(RuleError::Classic),
            // Orders are resolved without dice.
            (Game::Orders(s), Action::Orders(a)) => s
                .apply(a)
                .map(|e| e.into_iter().map(Event::Orders).collect())
                .map_err(RuleError::Orders),
            #[cfg(feature = "economy")]
            (Game::Economy(s), Action::Economy(a)) => s
                .apply(a)
                .map(|e| e.into_iter().map(Event::Economy).collect())
                .map_err(RuleError::Economy),
            _ => Err(RuleError::WrongRuleset),
        }
    }

    /// Applies an action with randomness from `dice` (the peer-to-peer beacon).
    pub fn apply_with(
        &mut self,
        action: &Action,
        dice: &mut dyn Dice,
    ) -> Result<Vec<Event>, RuleError> {
        match (self, action) {
            (Game::Classic(s), Action::Classic(a)) => s
                .apply_with(a, dice)
                .map(|e| e.into_iter().map(Event::Classic).collect())
                .map_err(RuleError::Classic),
            // Orders are resolved without dice.
            (Game::Orders(s), Action::Orders(a)) => s
                .apply(a)
                .map(|e| e.into_iter().map(Event::Orders).collect())
                .map_err(RuleError::Orders),
            #[cfg(feature = "economy")]
            (Game::Economy(s), Action::Economy(a)) => s
                .apply_with(a, dice)
                .map(|e| e.into_iter().map(Event::Economy).collect())
                .map_err(RuleError::Economy),
            _ => Err(RuleError::WrongRuleset),
        }
    }

    /// The game has ended (a winner, a draw, or nobody left).
    pub fn is_over(&self) -> bool {
        match self {
            Game::Classic(s) => s.winner().is_some(),
            Game::Orders(s) => matches!(s.phase, orders::Phase::GameOver { .. }),
            #[cfg(feature = "economy")]
            Game::Economy(s) => s.phase == economy::phase::Phase::Over,
        }
    }

    /// SHA-256 of the canonical encoding of the whole state.
    pub fn state_hash(&self) -> StateHash {
        codec::hash_of(self)
    }

    /// Bytes of a save file.
    pub fn to_save(&self) -> Vec<u8> {
        codec::encode(&SaveFile {
            magic: MAGIC,
            version: SAVE_VERSION,
            game: self.clone(),
        })
    }

    /// Reads a save file, checking its header and the consistency of the state.
    pub fn from_save(bytes: &[u8]) -> Result<Game, LoadError> {
        if let Some(s) = classic_from_save(bytes)? {
            return Ok(Game::Classic(s));
        }
        // `classic_from_save` has checked the magic and refused versions out of range; an older
        // version (a one-byte varint right after the magic) is read with its own types.
        match bytes.get(MAGIC.len()) {
            Some(1) => {
                let v1: legacy::SaveFile<legacy::v1::Game> =
                    codec::decode(bytes).map_err(LoadError::Decode)?;
                return Self::checked(v1.game.into());
            }
            Some(2) => {
                let v2: legacy::SaveFile<legacy::v2::Game> =
                    codec::decode(bytes).map_err(LoadError::Decode)?;
                return Self::checked(v2.game.into());
            }
            Some(3) => {
                let v3: legacy::SaveFile<legacy::v3::Game> =
                    codec::decode(bytes).map_err(LoadError::Decode)?;
                return Self::checked(v3.game.into());
            }
            Some(4) => {
                let v4: legacy::SaveFile<legacy::v4::Game> =
                    codec::decode(bytes).map_err(LoadError::Decode)?;
                return Self::checked(v4.game.into());
            }
            _ => {}
        }
        let save: SaveFile = codec::decode(bytes).map_err(LoadError::Decode)?;
        if save.version != SAVE_VERSION {
            return Err(LoadError::Version(save.version));
        }
        Self::checked(save.game)
    }

    fn checked(mut game: Game) -> Result<Game, LoadError> {
        if let Game::Orders(s) = &mut game {
            s.forget_sea_territory();
        }
        match &game {
            Game::Classic(s) => s.check_consistency().map_err(LoadError::Inconsistent)?,
            Game::Orders(s) => s.check_consistency().map_err(LoadError::Inconsistent)?,
            #[cfg(feature = "economy")]
            Game::Economy(s) => s.check_consistency().map_err(LoadError::Inconsistent)?,
        }
        Ok(game)
    }
}
