//! The economy ruleset's board: the classic map's countries plus water territories (the coasts
//! of the countries), loaded from an embedded RON file and validated on load.
//!
//! Regions are numbered countries first (the classic map's territory ids, 0..42), then water
//! territories in file order. Three kinds of adjacency, kept apart because the rules price them
//! differently (a move from water to water costs a third of a move):
//! - land: countries that border each other on the classic map *without* its dotted lines (the
//!   source makes those connections between water territories, not countries);
//! - shore: a country and each of its coasts;
//! - water: coasts that touch (one shoreline running on, or a dotted line).
//!
//! Invariants after [`EconomyMap::from_file`]: every name resolves, every list is sorted and
//! free of duplicates, adjacency is symmetric, every dotted line of the classic map joins a coast
//! of each of its two countries, coasts touch only where their countries border each other, a
//! canal joins two coasts of its own country that do not touch, and every region can be reached
//! from every other.

use super::map_file::MapFile;
use crate::map::{ContinentId, Map, TerritoryId};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

/// Index of a region (country or water territory) of the economy map.
pub type RegionId = u8;

/// What a region is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionKind {
    /// A country of the classic map (its territory id is its region id).
    Land { continent: ContinentId },
    /// The coast of one country.
    Water { coast_of: TerritoryId },
}

/// A region of the loaded map.
#[derive(Clone, Debug)]
pub struct Region {
    pub key: String,
    pub name: String,
    pub kind: RegionKind,
    /// Countries bordering this one over land (empty for water territories).
    pub land: Vec<RegionId>,
    /// A country's coasts, or a coast's country.
    pub shore: Vec<RegionId>,
    /// Water territories touching this one (empty for countries).
    pub water: Vec<RegionId>,
}

/// A country where a canal may be built, and the two coasts it joins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CanalSite {
    pub country: RegionId,
    pub joins: (RegionId, RegionId),
}

/// The validated economy map.
#[derive(Clone, Debug)]
pub struct EconomyMap {
    pub id: String,
    pub name: String,
    /// The classic map whose countries and continents this map uses.
    pub base: &'static Map,
    pub regions: Vec<Region>,
    /// MU per round for holding each continent of `base` (indexed by continent id).
    pub bonuses: Vec<u32>,
    /// The optional Middle East continent: its country and MU per round.
    pub middle_east: (RegionId, u32),
    pub canals: Vec<CanalSite>,
    by_key: BTreeMap<String, RegionId>,
}

/// Why an economy map file was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EconomyMapError {
    Parse(String),
    UnknownBase(String),
    TooManyRegions(usize),
    Duplicate(String),
    UnknownCountry(String),
    UnknownWater(String),
    UnknownContinent(String),
    MissingBonus(String),
    SelfLink(String),
    DuplicateLink(String, String),
    /// Two coasts touch although their countries do not border each other.
    CoastsApart(String, String),
    /// A dotted line of the classic map has no link between coasts of its two countries.
    MissingDottedLine(String, String),
    BadCanal(String),
    Disconnected(String),
}

impl fmt::Display for EconomyMapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use EconomyMapError::*;
        match self {
            Parse(e) => write!(f, "the economy map file cannot be read: {e}"),
            UnknownBase(b) => write!(f, "the economy map extends unknown map `{b}`"),
            TooManyRegions(n) => write!(f, "the map has {n} regions; at most 255 are supported"),
            Duplicate(k) => write!(f, "region `{k}` is listed twice"),
            UnknownCountry(k) => write!(f, "`{k}` is not a country of the base map"),
            UnknownWater(k) => write!(f, "`{k}` is not a water territory of the map"),
            UnknownContinent(k) => write!(f, "`{k}` is not a continent of the base map"),
            MissingBonus(k) => write!(f, "continent `{k}` has no bonus"),
            SelfLink(k) => write!(f, "water territory `{k}` is linked to itself"),
            DuplicateLink(a, b) => write!(f, "the link `{a}`–`{b}` is listed twice"),
            CoastsApart(a, b) => write!(
                f,
                "`{a}` and `{b}` are linked, but their countries do not border each other"
            ),
            MissingDottedLine(a, b) => write!(
                f,
                "the dotted line `{a}`–`{b}` has no link between coasts of the two countries"
            ),
            BadCanal(k) => write!(
                f,
                "the canal in `{k}` must join two coasts of that country that do not touch"
            ),
            Disconnected(k) => write!(f, "`{k}` cannot be reached from the first country"),
        }
    }
}

impl std::error::Error for EconomyMapError {}

/// The built-in economy map, converted to the canonical binary encoding by `build.rs`.
const BUILTIN: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/economy.bin"));

impl EconomyMap {
    /// The built-in economy map, parsed and validated once.
    pub fn get() -> &'static EconomyMap {
        static MAP: OnceLock<EconomyMap> = OnceLock::new();
        MAP.get_or_init(|| {
            EconomyMap::from_bytes(BUILTIN)
                .expect("the built-in economy map is validated by the test suite")
        })
    }

    /// Decodes and validates a map in the canonical binary encoding of its RON file.
    pub fn from_bytes(bytes: &[u8]) -> Result<EconomyMap, EconomyMapError> {
        let file: MapFile =
            crate::codec::decode(bytes).map_err(|e| EconomyMapError::Parse(e.to_string()))?;
        EconomyMap::from_file(file)
    }

    /// Parses and validates a map file written in RON (tests).
    #[cfg(test)]
    pub fn from_ron(text: &str) -> Result<EconomyMap, EconomyMapError> {
        let file: MapFile =
            ron::from_str(text).map_err(|e| EconomyMapError::Parse(e.to_string()))?;
        EconomyMap::from_file(file)
    }

    /// Builds the map from its file, checking every invariant in the module comment.
    pub fn from_file(file: MapFile) -> Result<EconomyMap, EconomyMapError> {
        use EconomyMapError as E;
        let base = Map::get(&file.base).ok_or_else(|| E::UnknownBase(file.base.clone()))?;
        let countries = base.len();
        if countries + file.waters.len() > 255 {
            return Err(E::TooManyRegions(countries + file.waters.len()));
        }
        let sea_links: Vec<(TerritoryId, TerritoryId)> = base
            .sea_links
            .iter()
            .map(|&(a, b)| (a.min(b), a.max(b)))
            .collect();
        let is_dotted = |a: TerritoryId, b: TerritoryId| sea_links.contains(&(a.min(b), a.max(b)));
        let mut regions: Vec<Region> = base
            .territories
            .iter()
            .enumerate()
            .map(|(i, t)| Region {
                key: t.key.clone(),
                name: t.name.clone(),
                kind: RegionKind::Land {
                    continent: t.continent,
                },
                land: t
                    .adjacent
                    .iter()
                    .copied()
                    .filter(|&n| !is_dotted(i as TerritoryId, n))
                    .collect(),
                shore: vec![],
                water: vec![],
            })
            .collect();
        let mut by_key: BTreeMap<String, RegionId> = regions
            .iter()
            .enumerate()
            .map(|(i, r)| (r.key.clone(), i as RegionId))
            .collect();
        for w in &file.waters {
            let id = regions.len() as RegionId;
            if by_key.insert(w.id.clone(), id).is_some() {
                return Err(E::Duplicate(w.id.clone()));
            }
            let country = base
                .territory(&w.coast_of)
                .ok_or_else(|| E::UnknownCountry(w.coast_of.clone()))?;
            regions[country as usize].shore.push(id);
            regions.push(Region {
                key: w.id.clone(),
                name: w.name.clone(),
                kind: RegionKind::Water { coast_of: country },
                land: vec![],
                shore: vec![country],
                water: vec![],
            });
        }
        // A water territory by key, and the country whose coast it is.
        fn water(
            regions: &[Region],
            by_key: &BTreeMap<String, RegionId>,
            k: &str,
        ) -> Result<(RegionId, TerritoryId), EconomyMapError> {
            let unknown = || EconomyMapError::UnknownWater(k.into());
            let id = *by_key.get(k).ok_or_else(unknown)?;
            match regions[id as usize].kind {
                RegionKind::Water { coast_of } => Ok((id, coast_of)),
                RegionKind::Land { .. } => Err(unknown()),
            }
        }
        let mut links: Vec<(RegionId, RegionId)> = Vec::with_capacity(file.links.len());
        for (a, b) in &file.links {
            let (wa, ca) = water(&regions, &by_key, a)?;
            let (wb, cb) = water(&regions, &by_key, b)?;
            if wa == wb {
                return Err(E::SelfLink(a.clone()));
            }
            if ca != cb && !base.adjacent(ca, cb) {
                return Err(E::CoastsApart(a.clone(), b.clone()));
            }
            let pair = (wa.min(wb), wa.max(wb));
            if links.contains(&pair) {
                return Err(E::DuplicateLink(a.clone(), b.clone()));
            }
            links.push(pair);
        }
        for &(a, b) in &links {
            regions[a as usize].water.push(b);
            regions[b as usize].water.push(a);
        }
        // Every dotted line has its link between coasts of its two countries.
        for &(a, b) in &base.sea_links {
            let joined = regions[a as usize].shore.iter().any(|&wa| {
                regions[b as usize]
                    .shore
                    .iter()
                    .any(|wb| regions[wa as usize].water.contains(wb))
            });
            if !joined {
                return Err(E::MissingDottedLine(base.name(a), base.name(b)));
            }
        }
        let mut bonuses: Vec<Option<u32>> = vec![None; base.continents.len()];
        for (k, mu) in &file.bonuses {
            let c = base
                .continents
                .iter()
                .position(|c| &c.key == k)
                .ok_or_else(|| E::UnknownContinent(k.clone()))?;
            bonuses[c] = Some(*mu);
        }
        let bonuses = bonuses
            .into_iter()
            .enumerate()
            .map(|(c, b)| b.ok_or_else(|| E::MissingBonus(base.continents[c].key.clone())))
            .collect::<Result<Vec<u32>, _>>()?;
        let middle_east = (
            base.territory(&file.middle_east.0)
                .ok_or_else(|| E::UnknownCountry(file.middle_east.0.clone()))?,
            file.middle_east.1,
        );
        let mut canals = Vec::with_capacity(file.canals.len());
        for c in &file.canals {
            let country = base
                .territory(&c.country)
                .ok_or_else(|| E::UnknownCountry(c.country.clone()))?;
            let (a, ca) = water(&regions, &by_key, &c.joins.0)?;
            let (b, cb) = water(&regions, &by_key, &c.joins.1)?;
            if ca != country || cb != country || a == b || regions[a as usize].water.contains(&b) {
                return Err(E::BadCanal(c.country.clone()));
            }
            canals.push(CanalSite {
                country,
                joins: (a.min(b), a.max(b)),
            });
        }
        for r in &mut regions {
            for list in [&mut r.land, &mut r.shore, &mut r.water] {
                list.sort_unstable();
                list.dedup();
            }
        }
        let map = EconomyMap {
            id: file.id,
            name: file.name,
            base,
            regions,
            bonuses,
            middle_east,
            canals,
            by_key,
        };
        if let Some(r) = map.unreachable() {
            return Err(E::Disconnected(map.regions[r as usize].key.clone()));
        }
        Ok(map)
    }

    /// The first region that cannot be reached from country 0 over any adjacency, if any.
    fn unreachable(&self) -> Option<RegionId> {
        let mut seen = vec![false; self.regions.len()];
        let mut stack = vec![0 as RegionId];
        seen[0] = true;
        while let Some(r) = stack.pop() {
            for &n in self.neighbours(r) {
                if !seen[n as usize] {
                    seen[n as usize] = true;
                    stack.push(n);
                }
            }
        }
        seen.iter().position(|&s| !s).map(|i| i as RegionId)
    }

    /// Every region next to `r`: over land, across its shore, over water.
    pub fn neighbours(&self, r: RegionId) -> impl Iterator<Item = &RegionId> {
        self.regions
            .get(r as usize)
            .into_iter()
            .flat_map(|x| x.land.iter().chain(&x.shore).chain(&x.water))
    }

    /// Looks a region up by its file id, e.g. `"egypt_red_sea"`.
    pub fn region(&self, key: &str) -> Option<RegionId> {
        self.by_key.get(key).copied()
    }

    /// True when `r` is a water territory.
    pub fn is_water(&self, r: RegionId) -> bool {
        matches!(
            self.regions.get(r as usize).map(|x| x.kind),
            Some(RegionKind::Water { .. })
        )
    }

    /// The number of countries (regions `0..countries()` are countries).
    pub fn countries(&self) -> usize {
        self.base.len()
    }

    /// The canal site in `country`, if one may be built there.
    pub fn canal_site(&self, country: RegionId) -> Option<CanalSite> {
        self.canals.iter().copied().find(|c| c.country == country)
    }
}

#[cfg(test)]
mod tests;
