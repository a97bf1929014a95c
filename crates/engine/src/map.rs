//! Maps: territories, adjacency and continents, loaded from embedded RON data files and validated.
//!
//! Game state never stores a map, only its id; [`Map::get`] returns the shared, validated map.

use crate::map_file::MapFile;
pub use crate::map_file::Symbol;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

/// Index of a territory in its map (0-based, in file order).
pub type TerritoryId = u8;
/// Index of a continent in its map (0-based, in file order).
pub type ContinentId = u8;

/// A territory of a loaded map.
#[derive(Clone, Debug)]
pub struct Territory {
    pub key: String,
    pub name: String,
    pub continent: ContinentId,
    pub card: Symbol,
    /// Neighbours, sorted ascending.
    pub adjacent: Vec<TerritoryId>,
}

/// A continent of a loaded map.
#[derive(Clone, Debug)]
pub struct Continent {
    pub key: String,
    pub name: String,
    pub bonus: u32,
    pub territories: Vec<TerritoryId>,
}

/// A validated map.
#[derive(Clone, Debug)]
pub struct Map {
    pub id: String,
    pub name: String,
    pub territories: Vec<Territory>,
    pub continents: Vec<Continent>,
    /// Pairs drawn as sea lanes (for the UI; the rules treat them as ordinary adjacency).
    pub sea_links: Vec<(TerritoryId, TerritoryId)>,
    by_key: BTreeMap<String, TerritoryId>,
}

/// Why a map file was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapError {
    Parse(String),
    Empty,
    TooManyTerritories(usize),
    DuplicateTerritory(String),
    DuplicateContinent(String),
    UnknownContinent {
        territory: String,
        continent: String,
    },
    UnknownNeighbour {
        territory: String,
        neighbour: String,
    },
    SelfAdjacent(String),
    Asymmetric {
        from: String,
        to: String,
    },
    EmptyContinent(String),
    Disconnected(String),
    BadSeaLink(String, String),
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MapError::Parse(e) => write!(f, "the map file cannot be read: {e}"),
            MapError::Empty => write!(f, "the map has no territories"),
            MapError::TooManyTerritories(n) => {
                write!(f, "the map has {n} territories; at most 255 are supported")
            }
            MapError::DuplicateTerritory(t) => write!(f, "territory `{t}` is listed twice"),
            MapError::DuplicateContinent(c) => write!(f, "continent `{c}` is listed twice"),
            MapError::UnknownContinent {
                territory,
                continent,
            } => {
                write!(
                    f,
                    "territory `{territory}` is in unknown continent `{continent}`"
                )
            }
            MapError::UnknownNeighbour {
                territory,
                neighbour,
            } => {
                write!(
                    f,
                    "territory `{territory}` borders unknown territory `{neighbour}`"
                )
            }
            MapError::SelfAdjacent(t) => write!(f, "territory `{t}` borders itself"),
            MapError::Asymmetric { from, to } => {
                write!(
                    f,
                    "`{from}` lists `{to}` as a neighbour but `{to}` does not list `{from}`"
                )
            }
            MapError::EmptyContinent(c) => write!(f, "continent `{c}` has no territories"),
            MapError::Disconnected(t) => write!(
                f,
                "territory `{t}` cannot be reached from the first territory"
            ),
            MapError::BadSeaLink(a, b) => write!(f, "sea link `{a}`–`{b}` is not an adjacency"),
        }
    }
}

impl std::error::Error for MapError {}

/// The maps built into the engine, by id: `build.rs` converts each RON file to the canonical
/// binary encoding, so the RON parser stays out of the wasm bundle.
const BUILTIN: &[(&str, &[u8])] = &[(
    "classic",
    include_bytes!(concat!(env!("OUT_DIR"), "/classic.bin")),
)];

impl Map {
    /// Parses and validates a map file written in RON (tests; built-in maps are converted at build time).
    #[cfg(test)]
    pub fn from_ron(text: &str) -> Result<Map, MapError> {
        let file: MapFile = ron::from_str(text).map_err(|e| MapError::Parse(e.to_string()))?;
        Map::from_file(file)
    }

    /// Decodes and validates a map in the canonical binary encoding of its RON file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Map, MapError> {
        let file: MapFile =
            crate::codec::decode_lean(bytes).map_err(|e| MapError::Parse(e.to_string()))?;
        Map::from_file(file)
    }

    fn from_file(file: MapFile) -> Result<Map, MapError> {
        if file.territories.is_empty() {
            return Err(MapError::Empty);
        }
        if file.territories.len() > 255 {
            return Err(MapError::TooManyTerritories(file.territories.len()));
        }
        let mut continent_keys = BTreeMap::new();
        for (i, c) in file.continents.iter().enumerate() {
            if continent_keys
                .insert(c.id.clone(), i as ContinentId)
                .is_some()
            {
                return Err(MapError::DuplicateContinent(c.id.clone()));
            }
        }
        let mut by_key = BTreeMap::new();
        for (i, t) in file.territories.iter().enumerate() {
            if by_key.insert(t.id.clone(), i as TerritoryId).is_some() {
                return Err(MapError::DuplicateTerritory(t.id.clone()));
            }
        }
        let mut continents: Vec<Continent> = file
            .continents
            .iter()
            .map(|c| Continent {
                key: c.id.clone(),
                name: c.name.clone(),
                bonus: c.bonus,
                territories: vec![],
            })
            .collect();
        let mut territories = Vec::with_capacity(file.territories.len());
        for (i, t) in file.territories.iter().enumerate() {
            let continent =
                *continent_keys
                    .get(&t.continent)
                    .ok_or_else(|| MapError::UnknownContinent {
                        territory: t.id.clone(),
                        continent: t.continent.clone(),
                    })?;
            continents[continent as usize]
                .territories
                .push(i as TerritoryId);
            let mut adjacent = Vec::with_capacity(t.adjacent.len());
            for n in &t.adjacent {
                let id = *by_key.get(n).ok_or_else(|| MapError::UnknownNeighbour {
                    territory: t.id.clone(),
                    neighbour: n.clone(),
                })?;
                if id as usize == i {
                    return Err(MapError::SelfAdjacent(t.id.clone()));
                }
                adjacent.push(id);
            }
            crate::short_sort::sort(&mut adjacent);
            adjacent.dedup();
            territories.push(Territory {
                key: t.id.clone(),
                name: t.name.clone(),
                continent,
                card: t.card,
                adjacent,
            });
        }
        for (i, t) in territories.iter().enumerate() {
            for &n in &t.adjacent {
                if !territories[n as usize]
                    .adjacent
                    .contains(&(i as TerritoryId))
                {
                    return Err(MapError::Asymmetric {
                        from: t.key.clone(),
                        to: territories[n as usize].key.clone(),
                    });
                }
            }
        }
        if let Some(c) = continents.iter().find(|c| c.territories.is_empty()) {
            return Err(MapError::EmptyContinent(c.key.clone()));
        }
        // Connectivity: breadth-first search from territory 0.
        let mut seen = vec![false; territories.len()];
        let mut queue = vec![0usize];
        seen[0] = true;
        while let Some(t) = queue.pop() {
            for &n in &territories[t].adjacent {
                if !seen[n as usize] {
                    seen[n as usize] = true;
                    queue.push(n as usize);
                }
            }
        }
        if let Some(i) = seen.iter().position(|s| !s) {
            return Err(MapError::Disconnected(territories[i].key.clone()));
        }
        let mut sea_links = Vec::new();
        for (a, b) in &file.sea_links {
            match (by_key.get(a), by_key.get(b)) {
                (Some(&x), Some(&y)) if territories[x as usize].adjacent.contains(&y) => {
                    sea_links.push((x, y))
                }
                _ => return Err(MapError::BadSeaLink(a.clone(), b.clone())),
            }
        }
        Ok(Map {
            id: file.id,
            name: file.name,
            territories,
            continents,
            sea_links,
            by_key,
        })
    }

    /// A built-in map by id (`"classic"`), parsed and validated once.
    pub fn get(id: &str) -> Option<&'static Map> {
        static CLASSIC: OnceLock<Map> = OnceLock::new();
        match id {
            "classic" => Some(CLASSIC.get_or_init(|| {
                Map::from_bytes(BUILTIN[0].1)
                    .expect("the built-in classic map is validated by the test suite")
            })),
            _ => None,
        }
    }

    /// The classic 42-territory world map.
    pub fn classic() -> &'static Map {
        Map::get("classic").expect("classic map is built in")
    }

    /// Ids of the built-in maps.
    pub fn builtin_ids() -> impl Iterator<Item = &'static str> {
        BUILTIN.iter().map(|(id, _)| *id)
    }

    /// Number of territories.
    pub fn len(&self) -> usize {
        self.territories.len()
    }

    /// True when the map has no territories (never, for a validated map).
    pub fn is_empty(&self) -> bool {
        self.territories.is_empty()
    }

    /// Looks a territory up by its file id, e.g. `"ukraine"`.
    pub fn territory(&self, key: &str) -> Option<TerritoryId> {
        self.by_key.get(key).copied()
    }

    /// True when `a` and `b` border each other.
    pub fn adjacent(&self, a: TerritoryId, b: TerritoryId) -> bool {
        self.territories
            .get(a as usize)
            .is_some_and(|t| t.adjacent.binary_search(&b).is_ok())
    }

    /// Display name of a territory, or `"territory #N"` for an out-of-range id.
    pub fn name(&self, t: TerritoryId) -> String {
        self.territories
            .get(t as usize)
            .map(|t| t.name.clone())
            .unwrap_or_else(|| format!("territory #{t}"))
    }

    /// Ids of all territories, in order.
    pub fn ids(&self) -> impl Iterator<Item = TerritoryId> {
        0..self.territories.len() as TerritoryId
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_maps_are_read_alike_without_serde() {
        // `from_bytes` reads with bincode's own decoding; serde's reads the same file the same.
        for (id, bytes) in BUILTIN {
            let lean: MapFile = crate::codec::decode_lean(bytes).unwrap();
            let serde: MapFile = crate::codec::decode(bytes).unwrap();
            assert_eq!(crate::codec::encode(&lean), *bytes, "{id}");
            assert_eq!(crate::codec::encode(&serde), *bytes, "{id}");
        }
    }

    #[test]
    fn classic_map_is_the_standard_board() {
        let m = Map::classic();
        assert_eq!(m.len(), 42);
        assert_eq!(m.continents.len(), 6);
        let edges: usize = m
            .territories
            .iter()
            .map(|t| t.adjacent.len())
            .sum::<usize>()
            / 2;
        assert_eq!(edges, 83);
        let bonus: Vec<(&str, u32)> = m
            .continents
            .iter()
            .map(|c| (c.name.as_str(), c.bonus))
            .collect();
        assert_eq!(
            bonus,
            vec![
                ("North America", 5),
                ("South America", 2),
                ("Europe", 5),
                ("Africa", 3),
                ("Asia", 7),
                ("Australia", 2)
            ]
        );
        let sizes: Vec<usize> = m.continents.iter().map(|c| c.territories.len()).collect();
        assert_eq!(sizes, vec![9, 4, 7, 6, 12, 4]);
        for (a, b) in [
            ("alaska", "kamchatka"),
            ("greenland", "iceland"),
            ("brazil", "north_africa"),
            ("southern_europe", "egypt"),
            ("east_africa", "middle_east"),
            ("siam", "indonesia"),
        ] {
            assert!(
                m.adjacent(m.territory(a).unwrap(), m.territory(b).unwrap()),
                "{a}-{b}"
            );
        }
        assert!(!m.adjacent(
            m.territory("alaska").unwrap(),
            m.territory("greenland").unwrap()
        ));
        let per_symbol = |s| m.territories.iter().filter(|t| t.card == s).count();
        assert_eq!(
            [
                per_symbol(Symbol::Infantry),
                per_symbol(Symbol::Cavalry),
                per_symbol(Symbol::Artillery)
            ],
            [14, 14, 14]
        );
    }

    #[test]
    fn build_time_conversion_matches_the_ron_source() {
        let from_text = Map::from_ron(include_str!("../maps/classic.ron")).unwrap();
        let built = Map::classic();
        assert_eq!(format!("{from_text:?}"), format!("{built:?}"));
        assert!(matches!(
            Map::from_bytes(&[1, 2, 3]),
            Err(MapError::Parse(_))
        ));
    }

    const TINY: &str = r#"(id: "t", name: "T", continents: [(id: "c", name: "C", bonus: 1)],
        territories: [(id: "a", name: "A", continent: "c", card: Infantry, adjacent: ["b"]),
                      (id: "b", name: "B", continent: "c", card: Cavalry, adjacent: ["a"])])"#;

    #[test]
    fn validation_rejects_broken_maps() {
        assert!(Map::from_ron(TINY).is_ok());
        let asym = TINY.replace(r#"adjacent: ["a"]"#, "adjacent: []");
        assert!(matches!(
            Map::from_ron(&asym),
            Err(MapError::Asymmetric { .. })
        ));
        let unknown = TINY.replace(r#"adjacent: ["b"]"#, r#"adjacent: ["b", "z"]"#);
        assert!(matches!(
            Map::from_ron(&unknown),
            Err(MapError::UnknownNeighbour { .. })
        ));
        let cont = TINY.replacen(r#"continent: "c""#, r#"continent: "x""#, 1);
        assert!(matches!(
            Map::from_ron(&cont),
            Err(MapError::UnknownContinent { .. })
        ));
        let disc = TINY
            .replace(r#"adjacent: ["b"]"#, "adjacent: []")
            .replace(r#"adjacent: ["a"]"#, "adjacent: []");
        assert!(matches!(
            Map::from_ron(&disc),
            Err(MapError::Disconnected(_))
        ));
        let empty_c = TINY.replace(
            r#"bonus: 1)]"#,
            r#"bonus: 1), (id: "d", name: "D", bonus: 2)]"#,
        );
        assert!(matches!(
            Map::from_ron(&empty_c),
            Err(MapError::EmptyContinent(_))
        ));
        assert!(matches!(Map::from_ron("not ron"), Err(MapError::Parse(_))));
    }
}
