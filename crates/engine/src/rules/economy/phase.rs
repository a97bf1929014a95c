//! Where a round of the economy ruleset stands: its phase, and each player's progress through
//! the Get phase, which every player plays at their own pace (source 004: "all players must be
//! completed with the Get Phase before any player can move on").
//!
//! Invariant: `GetTurn::done` is only set once the player's upkeep is settled, and the game moves
//! to planning exactly when every player still playing is done.

use super::map::RegionId;
use crate::rules::classic::PlayerId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The phase of a round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The setup: this player picks a country or a continent.
    Pick(PlayerId),
    /// The standard start: every player places a capital, bases and armies.
    Place,
    /// Income, upkeep, recruiting, infrastructure and trading cards, each player at their own pace.
    #[default]
    Get,
    /// Secret, simultaneous plans of non-friendly movement.
    Planning,
    /// Friendly movement by units not in a plan, each player at their own pace.
    Moving,
    /// Initiative and battles.
    Combat,
    /// The game has ended.
    Over,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Pick(_) => "the picks of the setup",
            Phase::Place => "the placing of the start",
            Phase::Get => "the Get phase",
            Phase::Planning => "the planning phase",
            Phase::Moving => "friendly movement",
            Phase::Combat => "the combat phase",
            Phase::Over => "a finished game",
        })
    }
}

/// A base that recruits: army bases by country, navy bases by country and the water territory
/// they recruit into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum BaseKey {
    Army(RegionId),
    Navy(RegionId, RegionId),
}

/// One player's progress through this round's Get phase.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GetTurn {
    /// The upkeep owed when the round began, country by country.
    pub owed: Vec<Upkeep>,
    /// The upkeep has been paid (or its units lost); recruiting and building come after.
    pub settled: bool,
    /// Units recruited at each base's normal price this round.
    pub base_recruits: BTreeMap<BaseKey, u8>,
    /// Bases built this round: they recruit nothing until next round.
    pub new_bases: BTreeMap<BaseKey, u8>,
    /// Finished with the Get phase.
    pub done: bool,
}

/// What a player gains in the Get phase, by source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Income {
    /// 1 MU per land territory owned.
    pub countries: u32,
    /// 1 MU per road owned.
    pub roads: u32,
    /// Continent bonuses (an option).
    pub bonuses: u32,
}

impl Income {
    pub fn total(self) -> u32 {
        self.countries + self.roads + self.bonuses
    }
}

/// Upkeep a player owes for one country in the Get phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upkeep {
    pub country: RegionId,
    pub units: u32,
    /// 1 MU per unit over 5 (over 10 where the capital stands); 0 when exempt.
    pub due: u32,
    /// Linked to the capital through friendly territory: only then can it be paid.
    pub linked: bool,
}
