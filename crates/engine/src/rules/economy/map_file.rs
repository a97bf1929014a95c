//! The on-disk shape of the economy ruleset's map file. Shared with `build.rs` (through
//! `#[path]`), which converts the RON file to bincode, so this module depends on serde alone.

use serde::{Deserialize, Serialize};

/// A water territory as written in the file: the coast of one country.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WaterFile {
    pub id: String,
    pub name: String,
    pub coast_of: String,
}

/// A country where a canal may be built, and the two coasts of it that the canal joins.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CanalFile {
    pub country: String,
    pub joins: (String, String),
}

/// The whole file: the classic map it extends, continent bonuses in MU, the optional Middle
/// East continent, water territories, links between them and canal sites.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MapFile {
    pub id: String,
    pub name: String,
    pub base: String,
    pub bonuses: Vec<(String, u32)>,
    pub middle_east: (String, u32),
    pub waters: Vec<WaterFile>,
    pub links: Vec<(String, String)>,
    pub canals: Vec<CanalFile>,
}
