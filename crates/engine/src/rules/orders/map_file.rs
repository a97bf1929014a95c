//! The on-disk shape of an orders map file. Shared with `build.rs` (through `#[path]`), which
//! converts the RON files to bincode, so this module depends on serde alone.

use serde::{Deserialize, Serialize};

/// What a province is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ProvinceKind {
    /// Armies only.
    Land,
    /// Fleets only.
    Sea,
    /// Armies and fleets.
    Coast,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CoastFile {
    pub coast: String,
    pub fleet: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ProvinceFile {
    pub id: String,
    pub name: String,
    pub kind: ProvinceKind,
    #[serde(default)]
    pub centre: bool,
    /// The power this is a home centre of (empty for none).
    #[serde(default)]
    pub home: String,
    #[serde(default)]
    pub army: Vec<String>,
    #[serde(default)]
    pub fleet: Vec<String>,
    #[serde(default)]
    pub coasts: Vec<CoastFile>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PowerFile {
    pub id: String,
    pub name: String,
    pub start: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SetupFile {
    pub players: u8,
    pub powers: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MapFile {
    pub id: String,
    pub name: String,
    pub victory: u8,
    pub powers: Vec<PowerFile>,
    /// Which powers play for a given number of players (default: all of them).
    #[serde(default)]
    pub setups: Vec<SetupFile>,
    pub provinces: Vec<ProvinceFile>,
}
