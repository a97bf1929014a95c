//! The on-disk shape of a classic map file. Shared with `build.rs` (through `#[path]`), which
//! converts the RON files to bincode, so this module depends on serde and bincode alone (the
//! engine reads the converted files with bincode's own decoding, `codec::decode_lean`).

use serde::{Deserialize, Serialize};

/// The symbol printed on a territory card.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    bincode::Decode,
)]
pub enum Symbol {
    Infantry,
    Cavalry,
    Artillery,
}

/// A territory as written in the map file (names, not indices).
#[derive(Clone, Debug, Serialize, Deserialize, bincode::Decode)]
pub struct TerritoryFile {
    pub id: String,
    pub name: String,
    pub continent: String,
    pub card: Symbol,
    pub adjacent: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, bincode::Decode)]
pub struct ContinentFile {
    pub id: String,
    pub name: String,
    pub bonus: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize, bincode::Decode)]
pub struct MapFile {
    pub id: String,
    pub name: String,
    pub continents: Vec<ContinentFile>,
    pub territories: Vec<TerritoryFile>,
    #[serde(default)]
    pub sea_links: Vec<(String, String)>,
}
