//! Province maps of the orders ruleset: land, sea and coastal provinces, provinces with several
//! coasts, army adjacency and fleet adjacency per coast, supply centres, home centres and the
//! starting units of each power. Loaded from embedded RON files and validated on load.

use super::adjudicator::{Geography, Loc, UnitType};
use super::map_file::MapFile;
pub use super::map_file::ProvinceKind;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

/// Index of a province in its map (0-based, in file order).
pub type ProvinceId = u8;
/// Index of a power in its map (0-based, in file order).
pub type PowerId = u8;

/// One coast of a province with several coasts (defined with `Loc`, which names it).
pub use super::adjudicator::Coast;

/// A province of a loaded map.
#[derive(Clone, Debug)]
pub struct Province {
    /// Three-letter abbreviation, e.g. `"STP"`.
    pub key: String,
    pub name: String,
    pub kind: ProvinceKind,
    pub centre: bool,
    /// The power whose home territory this is (inside its coloured edge): its home centres
    /// and the provinces around them the rules source counts as its own.
    pub home: Option<PowerId>,
    /// Provinces an army here can move to, sorted.
    pub army: Vec<ProvinceId>,
    /// Locations a fleet here can move to (for provinces without named coasts), sorted.
    pub fleet: Vec<Loc>,
    /// Named coasts and the locations a fleet on each can move to.
    pub coasts: Vec<(Coast, Vec<Loc>)>,
}

/// A power of a loaded map.
#[derive(Clone, Debug)]
pub struct Power {
    /// Upper-case key, e.g. `"ENGLAND"`.
    pub key: String,
    pub name: String,
    /// Starting units.
    pub start: Vec<(UnitType, Loc)>,
}

/// A validated province map.
#[derive(Clone, Debug)]
pub struct OrdersMap {
    pub id: String,
    pub name: String,
    /// Supply centres needed to win.
    pub victory: u8,
    pub powers: Vec<Power>,
    pub provinces: Vec<Province>,
    /// Powers in play by number of players; a map without setups plays with all its powers.
    pub setups: Vec<(u8, Vec<PowerId>)>,
    by_key: BTreeMap<String, ProvinceId>,
}

/// Why a map file was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrdersMapError {
    Parse(String),
    TooBig,
    Duplicate(String),
    UnknownProvince {
        at: String,
        name: String,
    },
    UnknownPower {
        at: String,
        name: String,
    },
    BadCoast {
        at: String,
        name: String,
    },
    /// An army or fleet list that does not fit the province kind.
    WrongKind(String),
    Asymmetric {
        unit: &'static str,
        from: String,
        to: String,
    },
    CentreAtSea(String),
    HomeAtSea(String),
    BadStart {
        power: String,
        unit: String,
    },
    Disconnected(String),
    Victory(u8),
    BadSetup(u8),
}

impl fmt::Display for OrdersMapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use OrdersMapError::*;
        match self {
            Parse(e) => write!(f, "the map file is not valid RON: {e}"),
            TooBig => write!(
                f,
                "the map has too many provinces or powers (at most 255 each)"
            ),
            Duplicate(k) => write!(f, "`{k}` is listed twice"),
            UnknownProvince { at, name } => write!(f, "`{at}` refers to unknown province `{name}`"),
            UnknownPower { at, name } => write!(f, "`{at}` refers to unknown power `{name}`"),
            BadCoast { at, name } => write!(
                f,
                "`{at}` refers to `{name}`, which is not a coast of that province"
            ),
            WrongKind(p) => write!(
                f,
                "the adjacency lists of `{p}` do not fit its kind (land, sea or coast)"
            ),
            Asymmetric { unit, from, to } => {
                write!(f, "{unit}s can move from `{from}` to `{to}` but not back")
            }
            CentreAtSea(p) => write!(f, "supply centre `{p}` is at sea"),
            HomeAtSea(p) => write!(f, "home province `{p}` is at sea"),
            BadStart { power, unit } => write!(
                f,
                "starting unit `{unit}` of {power} is not a unit on a valid location"
            ),
            Disconnected(p) => write!(
                f,
                "province `{p}` cannot be reached from the first province"
            ),
            Victory(v) => write!(f, "a victory at {v} centres is impossible on this map"),
            BadSetup(n) => write!(
                f,
                "the setup for {n} players does not list {n} different known powers"
            ),
        }
    }
}

impl std::error::Error for OrdersMapError {}

/// The built-in maps of the orders ruleset, by id, as converted from RON by `build.rs`.
const BUILTIN: &[(&str, &[u8])] = &[
    (
        "europe-1901",
        include_bytes!(concat!(env!("OUT_DIR"), "/europe-1901.bin")),
    ),
    (
        "world",
        include_bytes!(concat!(env!("OUT_DIR"), "/world.bin")),
    ),
];

impl OrdersMap {
    /// A built-in map by id, parsed and validated once.
    pub fn get(id: &str) -> Option<&'static OrdersMap> {
        static EUROPE: OnceLock<OrdersMap> = OnceLock::new();
        static WORLD: OnceLock<OrdersMap> = OnceLock::new();
        let (cell, bytes) = match id {
            "europe-1901" => (&EUROPE, BUILTIN[0].1),
            "world" => (&WORLD, BUILTIN[1].1),
            _ => return None,
        };
        Some(cell.get_or_init(|| {
            OrdersMap::from_bytes(bytes).expect("the built-in maps are validated by the test suite")
        }))
    }

    /// The standard 1901 Europe map.
    pub fn europe() -> &'static OrdersMap {
        OrdersMap::get("europe-1901").expect("europe-1901 is built in")
    }

    /// Ids of the built-in maps.
    pub fn builtin_ids() -> impl Iterator<Item = &'static str> {
        BUILTIN.iter().map(|(id, _)| *id)
    }

    /// Decodes and validates a map in the canonical binary encoding of its RON file.
    pub fn from_bytes(bytes: &[u8]) -> Result<OrdersMap, OrdersMapError> {
        let file: MapFile =
            crate::codec::decode(bytes).map_err(|e| OrdersMapError::Parse(e.to_string()))?;
        Self::from_file(file)
    }

    /// Parses and validates a map file written in RON (tests; built-in maps are converted at build time).
    #[cfg(test)]
    pub fn from_ron(text: &str) -> Result<OrdersMap, OrdersMapError> {
        let file: MapFile =
            ron::from_str(text).map_err(|e| OrdersMapError::Parse(e.to_string()))?;
        Self::from_file(file)
    }

    fn from_file(file: MapFile) -> Result<OrdersMap, OrdersMapError> {
        use OrdersMapError::*;
        if file.provinces.len() > 255 || file.powers.len() > 255 || file.provinces.is_empty() {
            return Err(TooBig);
        }
        let mut by_key = BTreeMap::new();
        for (i, p) in file.provinces.iter().enumerate() {
            if by_key.insert(p.id.clone(), i as ProvinceId).is_some() {
                return Err(Duplicate(p.id.clone()));
            }
        }
        let mut power_keys = BTreeMap::new();
        for (i, p) in file.powers.iter().enumerate() {
            if power_keys.insert(p.id.clone(), i as PowerId).is_some() {
                return Err(Duplicate(p.id.clone()));
            }
        }
        let mut provinces = Vec::with_capacity(file.provinces.len());
        for p in &file.provinces {
            let home = match p.home.as_str() {
                "" => None,
                h => Some(*power_keys.get(h).ok_or_else(|| UnknownPower {
                    at: p.id.clone(),
                    name: h.to_string(),
                })?),
            };
            let mut army = Vec::new();
            for a in &p.army {
                let id = *by_key.get(a).ok_or_else(|| UnknownProvince {
                    at: p.id.clone(),
                    name: a.clone(),
                })?;
                army.push(id);
            }
            army.sort_unstable();
            army.dedup();
            let mut coasts = Vec::new();
            for c in &p.coasts {
                let coast = Coast::parse(&c.coast).ok_or_else(|| BadCoast {
                    at: p.id.clone(),
                    name: c.coast.clone(),
                })?;
                coasts.push((coast, c.fleet.clone()));
            }
            provinces.push((p, home, army, coasts));
        }
        // Second pass: fleet targets need every province's coasts.
        let coasts_of = |id: ProvinceId| -> Vec<Coast> {
            file.provinces[id as usize]
                .coasts
                .iter()
                .filter_map(|c| Coast::parse(&c.coast))
                .collect()
        };
        let resolve = |at: &str, s: &str| -> Result<Loc, OrdersMapError> {
            let (prov, coast) = match s.split_once('/') {
                Some((p, c)) => (p, Some(c)),
                None => (s, None),
            };
            let id = *by_key.get(prov).ok_or_else(|| UnknownProvince {
                at: at.to_string(),
                name: s.to_string(),
            })?;
            let have = coasts_of(id);
            match coast {
                None if have.is_empty() => Ok(Loc::new(id)),
                Some(c) => match Coast::parse(c) {
                    Some(c) if have.contains(&c) => Ok(Loc::coast(id, c)),
                    _ => Err(BadCoast {
                        at: at.to_string(),
                        name: s.to_string(),
                    }),
                },
                None => Err(BadCoast {
                    at: at.to_string(),
                    name: s.to_string(),
                }),
            }
        };
        let mut out = Vec::with_capacity(provinces.len());
        for (p, home, army, coasts) in provinces {
            let mut fleet = Vec::new();
            for t in &p.fleet {
                fleet.push(resolve(&p.id, t)?);
            }
            fleet.sort_unstable();
            fleet.dedup();
            let mut cs = Vec::new();
            for (c, list) in coasts {
                let mut l = Vec::new();
                for t in &list {
                    l.push(resolve(&format!("{}/{}", p.id, c.abbrev()), t)?);
                }
                l.sort_unstable();
                l.dedup();
                cs.push((c, l));
            }
            let ok = match p.kind {
                ProvinceKind::Land => fleet.is_empty() && cs.is_empty() && !army.is_empty(),
                ProvinceKind::Sea => army.is_empty() && cs.is_empty() && !fleet.is_empty(),
                // Islands have no army neighbours.
                ProvinceKind::Coast => (fleet.is_empty() != cs.is_empty()) && cs.len() != 1,
            };
            if !ok {
                return Err(WrongKind(p.id.clone()));
            }
            if p.centre && p.kind == ProvinceKind::Sea {
                return Err(CentreAtSea(p.id.clone()));
            }
            if home.is_some() && p.kind == ProvinceKind::Sea {
                return Err(HomeAtSea(p.id.clone()));
            }
            out.push(Province {
                key: p.id.clone(),
                name: p.name.clone(),
                kind: p.kind,
                centre: p.centre,
                home,
                army,
                fleet,
                coasts: cs,
            });
        }
        let mut map = OrdersMap {
            id: file.id.clone(),
            name: file.name.clone(),
            victory: file.victory,
            powers: vec![],
            provinces: out,
            setups: vec![],
            by_key,
        };
        // Symmetry, per unit type, at coast level; armies only between non-sea provinces.
        for (i, p) in map.provinces.iter().enumerate() {
            let i = i as ProvinceId;
            for &n in &p.army {
                let q = &map.provinces[n as usize];
                if q.kind == ProvinceKind::Sea || !q.army.contains(&i) || n == i {
                    return Err(Asymmetric {
                        unit: "army",
                        from: p.key.clone(),
                        to: q.key.clone(),
                    });
                }
            }
            for from in map.fleet_locs(i) {
                for &to in map.fleet_targets(from) {
                    if !map.fleet_targets(to).contains(&from) || to.province == i {
                        return Err(Asymmetric {
                            unit: "fleet",
                            from: map.loc_name(from),
                            to: map.loc_name(to),
                        });
                    }
                }
            }
        }
        // Connectivity over both kinds of adjacency.
        let n = map.provinces.len();
        let mut seen = vec![false; n];
        let mut stack = vec![0usize];
        seen[0] = true;
        while let Some(p) = stack.pop() {
            let mut next: Vec<ProvinceId> = map.provinces[p].army.clone();
            for l in map.fleet_locs(p as ProvinceId) {
                next.extend(map.fleet_targets(l).iter().map(|l| l.province));
            }
            for q in next {
                if !seen[q as usize] {
                    seen[q as usize] = true;
                    stack.push(q as usize);
                }
            }
        }
        if let Some(i) = seen.iter().position(|s| !s) {
            return Err(Disconnected(map.provinces[i].key.clone()));
        }
        let centres = map.provinces.iter().filter(|p| p.centre).count();
        if file.victory == 0 || file.victory as usize > centres {
            return Err(Victory(file.victory));
        }
        for pf in &file.powers {
            let mut start = Vec::new();
            for u in &pf.start {
                let bad = || BadStart {
                    power: pf.id.clone(),
                    unit: u.clone(),
                };
                let (kind, loc) = u.split_once(' ').ok_or_else(bad)?;
                let kind = match kind {
                    "A" => UnitType::Army,
                    "F" => UnitType::Fleet,
                    _ => return Err(bad()),
                };
                let loc = map.parse_loc(loc).ok_or_else(bad)?;
                if !map.can_stand(kind, loc) {
                    return Err(bad());
                }
                start.push((kind, loc));
            }
            map.powers.push(Power {
                key: pf.id.clone(),
                name: pf.name.clone(),
                start,
            });
        }
        for setup in &file.setups {
            let mut ids = vec![];
            for p in &setup.powers {
                match power_keys.get(p) {
                    Some(&id) if !ids.contains(&id) => ids.push(id),
                    _ => return Err(BadSetup(setup.players)),
                }
            }
            if ids.len() != setup.players as usize
                || map.setups.iter().any(|(n, _)| *n == setup.players)
            {
                return Err(BadSetup(setup.players));
            }
            map.setups.push((setup.players, ids));
        }
        Ok(map)
    }

    /// The powers in play for a number of players (all powers when the map has no setups).
    pub fn powers_for(&self, players: u8) -> Option<Vec<PowerId>> {
        if self.setups.is_empty() {
            return (players as usize == self.powers.len())
                .then(|| (0..self.powers.len() as PowerId).collect());
        }
        self.setups
            .iter()
            .find(|(n, _)| *n == players)
            .map(|(_, p)| p.clone())
    }

    /// Number of provinces.
    pub fn len(&self) -> usize {
        self.provinces.len()
    }

    /// Never true for a validated map.
    pub fn is_empty(&self) -> bool {
        self.provinces.is_empty()
    }

    /// Looks a province up by abbreviation (any case), e.g. `"stp"`.
    pub fn province(&self, key: &str) -> Option<ProvinceId> {
        self.by_key.get(&key.to_ascii_uppercase()).copied()
    }

    /// Looks a power up by key (any case), e.g. `"england"`.
    pub fn power(&self, key: &str) -> Option<PowerId> {
        let k = key.to_ascii_uppercase();
        self.powers
            .iter()
            .position(|p| p.key == k)
            .map(|i| i as PowerId)
    }

    /// Parses `STP`, `stp/sc`, `SPA(NC)`: a province with an optional coast (the coast must exist).
    pub fn parse_loc(&self, s: &str) -> Option<Loc> {
        let s = s.trim();
        let (p, c) = if let Some((p, c)) = s.split_once('/') {
            (p, Some(c))
        } else if let Some((p, c)) = s.strip_suffix(')').and_then(|s| s.split_once('(')) {
            (p, Some(c))
        } else {
            (s, None)
        };
        let id = self.province(p.trim())?;
        match c {
            None => Some(Loc::new(id)),
            Some(c) => {
                let c = Coast::parse(c.trim())?;
                self.provinces[id as usize]
                    .coasts
                    .iter()
                    .any(|(x, _)| *x == c)
                    .then_some(Loc::coast(id, c))
            }
        }
    }

    /// `STP/SC`, `PAR`.
    pub fn loc_name(&self, l: Loc) -> String {
        let p = self
            .provinces
            .get(l.province as usize)
            .map(|p| p.key.clone())
            .unwrap_or_else(|| format!("#{}", l.province));
        match l.coast {
            Some(c) => format!("{p}/{}", c.abbrev()),
            None => p,
        }
    }

    /// Abbreviation of a province.
    pub fn key(&self, p: ProvinceId) -> &str {
        self.provinces
            .get(p as usize)
            .map(|p| p.key.as_str())
            .unwrap_or("???")
    }

    /// The locations a fleet can occupy in a province: the named coasts, or the province itself.
    pub fn fleet_locs(&self, p: ProvinceId) -> Vec<Loc> {
        let prov = &self.provinces[p as usize];
        match prov.kind {
            ProvinceKind::Land => vec![],
            _ if !prov.coasts.is_empty() => {
                prov.coasts.iter().map(|(c, _)| Loc::coast(p, *c)).collect()
            }
            _ => vec![Loc::new(p)],
        }
    }

    /// Where a fleet at `from` can move.
    pub fn fleet_targets(&self, from: Loc) -> &[Loc] {
        let Some(prov) = self.provinces.get(from.province as usize) else {
            return &[];
        };
        match from.coast {
            None => &prov.fleet,
            Some(c) => prov
                .coasts
                .iter()
                .find(|(x, _)| *x == c)
                .map(|(_, l)| l.as_slice())
                .unwrap_or(&[]),
        }
    }

    /// The provinces that border `p` for an army or a fleet on any of its coasts, sorted, each
    /// once (what the map's keyboard moves between).
    pub fn neighbours(&self, p: ProvinceId) -> Vec<ProvinceId> {
        let Some(prov) = self.provinces.get(p as usize) else {
            return vec![];
        };
        let mut out = prov.army.clone();
        for l in self.fleet_locs(p) {
            out.extend(self.fleet_targets(l).iter().map(|t| t.province));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The seas a fleet at coastal location `at` may face (house option "fleets face a sea"):
    /// the sea provinces it borders, in map order. Empty at sea and for coasts with no sea.
    pub fn seas_of(&self, at: Loc) -> Vec<ProvinceId> {
        if self.provinces.get(at.province as usize).map(|p| p.kind) != Some(ProvinceKind::Coast) {
            return vec![];
        }
        let mut seas: Vec<ProvinceId> = self
            .fleet_targets(at)
            .iter()
            .map(|l| l.province)
            .filter(|&p| self.provinces[p as usize].kind == ProvinceKind::Sea)
            .collect();
        seas.sort_unstable();
        seas.dedup();
        seas
    }

    /// The facing a fleet gets when it stands at `at` without having chosen one (starting
    /// fleets): the first sea it borders in map order.
    pub fn default_facing(&self, at: Loc) -> Option<ProvinceId> {
        self.seas_of(at).first().copied()
    }

    /// Location `to` lies on sea `sea`: it is that sea, or a location a fleet in it can reach
    /// (a coast on it or a neighbouring sea).
    pub fn on_sea(&self, sea: ProvinceId, to: Loc) -> bool {
        to.province == sea || self.fleet_targets(Loc::new(sea)).contains(&to)
    }

    /// Where a fleet moving from `from` (facing `facing`) to `to` faces on arrival: nothing at
    /// sea; on a coast, the sea it came from, else the sea it sailed along, else the first sea
    /// the two places share, else the default.
    pub fn arrival_facing(
        &self,
        from: Loc,
        facing: Option<ProvinceId>,
        to: Loc,
    ) -> Option<ProvinceId> {
        let seas = self.seas_of(to);
        if seas.is_empty() {
            return None;
        }
        if seas.contains(&from.province) {
            return Some(from.province);
        }
        if let Some(s) = facing.filter(|s| seas.contains(s)) {
            return Some(s);
        }
        let shared = self.seas_of(from);
        seas.iter()
            .copied()
            .find(|s| shared.contains(s))
            .or(seas.first().copied())
    }

    /// True when a unit of this kind may stand at `loc` (fleets on a named coast where there are coasts).
    pub fn can_stand(&self, kind: UnitType, loc: Loc) -> bool {
        let Some(p) = self.provinces.get(loc.province as usize) else {
            return false;
        };
        match kind {
            UnitType::Army => p.kind != ProvinceKind::Sea && loc.coast.is_none(),
            UnitType::Fleet => {
                p.kind != ProvinceKind::Land
                    && match loc.coast {
                        None => p.coasts.is_empty(),
                        Some(c) => p.coasts.iter().any(|(x, _)| *x == c),
                    }
            }
        }
    }

    /// Supply centres, in province order.
    pub fn centres(&self) -> impl Iterator<Item = ProvinceId> + '_ {
        self.provinces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.centre)
            .map(|(i, _)| i as ProvinceId)
    }

    /// Home centres of a power (where it builds).
    pub fn homes(&self, power: PowerId) -> impl Iterator<Item = ProvinceId> + '_ {
        self.home_territory(power)
            .filter(|&p| self.provinces[p as usize].centre)
    }

    /// Every home province of a power, centre or not.
    pub fn home_territory(&self, power: PowerId) -> impl Iterator<Item = ProvinceId> + '_ {
        self.provinces
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.home == Some(power))
            .map(|(i, _)| i as ProvinceId)
    }
}

impl Geography for OrdersMap {
    fn can_move(&self, kind: UnitType, from: Loc, to: Loc) -> bool {
        match kind {
            UnitType::Army => {
                to.coast.is_none()
                    && self
                        .provinces
                        .get(from.province as usize)
                        .is_some_and(|p| p.army.binary_search(&to.province).is_ok())
            }
            UnitType::Fleet => self.fleet_targets(from).contains(&to),
        }
    }

    fn can_reach(&self, kind: UnitType, from: Loc, to: ProvinceId) -> bool {
        match kind {
            UnitType::Army => self.can_move(kind, from, Loc::new(to)),
            UnitType::Fleet => self.fleet_targets(from).iter().any(|l| l.province == to),
        }
    }

    fn is_sea(&self, p: ProvinceId) -> bool {
        self.provinces
            .get(p as usize)
            .is_some_and(|p| p.kind == ProvinceKind::Sea)
    }

    fn is_land(&self, p: ProvinceId) -> bool {
        self.provinces
            .get(p as usize)
            .is_some_and(|p| p.kind != ProvinceKind::Sea)
    }

    fn is_coastal(&self, p: ProvinceId) -> bool {
        self.provinces
            .get(p as usize)
            .is_some_and(|p| p.kind == ProvinceKind::Coast)
    }

    fn touches(&self, a: ProvinceId, b: ProvinceId) -> bool {
        let Some(p) = self.provinces.get(a as usize) else {
            return false;
        };
        p.fleet.iter().any(|t| t.province == b)
            || p.coasts
                .iter()
                .any(|(_, l)| l.iter().any(|t| t.province == b))
    }
}

#[cfg(test)]
mod tests;
