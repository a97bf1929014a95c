//! Random dense positions of the Europe map with hold, move and support orders, written both in
//! our notation and in the `diplomacy` crate's, for the differential test and the benchmark.
#![allow(dead_code)]

use diplomacy::geo::{Coast as TheirCoast, Map as TheirMap, ProvinceKey, RegionKey, Terrain};
use orbis_engine::rules::orders::adjudicator::{Geography, Loc, Piece, UnitType};
use orbis_engine::rules::orders::map::{Coast, OrdersMap, ProvinceKind};
use orbis_engine::rules::orders::notation::{Spec, Written};

pub const NATIONS: [&str; 7] = ["ENG", "FRA", "GER", "ITA", "AUS", "RUS", "TUR"];

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

pub fn loc_text(m: &OrdersMap, l: Loc) -> String {
    let p = m.key(l.province).to_ascii_lowercase();
    match l.coast {
        Some(c) => format!("{p}({})", c.abbrev().to_ascii_lowercase()),
        None => p,
    }
}

pub fn their_order(m: &OrdersMap, u: &Piece, w: &Written) -> String {
    let head = format!(
        "{}: {} {}",
        NATIONS[u.power as usize],
        u.kind.letter(),
        loc_text(m, u.loc)
    );
    let kind = |k: Option<UnitType>| k.map(|k| k.letter()).unwrap_or('A');
    match w.spec {
        Spec::Hold => format!("{head} holds"),
        Spec::Move { to, .. } => format!("{head} -> {}", loc_text(m, to)),
        Spec::SupportHold { kind: k, target } => {
            format!("{head} supports {} {}", kind(k), loc_text(m, target))
        }
        Spec::SupportMove { kind: k, from, to } => format!(
            "{head} supports {} {} -> {}",
            kind(k),
            loc_text(m, from),
            loc_text(m, to)
        ),
        _ => unreachable!(),
    }
}

pub fn region(m: &OrdersMap, l: Loc) -> RegionKey {
    let coast = l.coast.map(|c| match c {
        Coast::North => TheirCoast::North,
        Coast::South => TheirCoast::South,
        Coast::East => TheirCoast::East,
        Coast::West => TheirCoast::West,
    });
    RegionKey::new(
        ProvinceKey::new(m.key(l.province).to_ascii_lowercase()),
        coast,
    )
}

pub fn terrain_ok(kind: UnitType, t: Terrain) -> bool {
    match kind {
        UnitType::Army => t != Terrain::Sea,
        UnitType::Fleet => t != Terrain::Land,
    }
}

/// The oracle's map lacks a few borders of the standard board (e.g. Gulf of Bothnia–Finland);
/// orders are only generated along borders both maps have.
pub fn their_move_ok(m: &OrdersMap, their: &TheirMap, kind: UnitType, from: Loc, to: Loc) -> bool {
    their
        .find_border_between(&region(m, from), &region(m, to))
        .is_some_and(|b| terrain_ok(kind, b.terrain()))
}

pub fn their_reach_ok(m: &OrdersMap, their: &TheirMap, kind: UnitType, from: Loc, to: u8) -> bool {
    their
        .find_borders_between(
            &region(m, from),
            &ProvinceKey::new(m.key(to).to_ascii_lowercase()),
        )
        .iter()
        .any(|b| terrain_ok(kind, b.terrain()))
}

pub fn random_position(m: &OrdersMap, rng: &mut Rng, count: usize) -> Vec<Piece> {
    let mut provinces: Vec<u8> = (0..m.len() as u8).collect();
    for i in (1..provinces.len()).rev() {
        provinces.swap(i, rng.below(i + 1));
    }
    provinces
        .into_iter()
        .take(count)
        .map(|p| {
            let prov = &m.provinces[p as usize];
            let kind = match prov.kind {
                ProvinceKind::Land => UnitType::Army,
                ProvinceKind::Sea => UnitType::Fleet,
                ProvinceKind::Coast => {
                    if rng.below(2) == 0 {
                        UnitType::Army
                    } else {
                        UnitType::Fleet
                    }
                }
            };
            let loc = match kind {
                UnitType::Army => Loc::new(p),
                UnitType::Fleet => {
                    let locs = m.fleet_locs(p);
                    locs[rng.below(locs.len())]
                }
            };
            Piece::new(rng.below(7) as u8, kind, loc)
        })
        .collect()
}

pub fn destinations(m: &OrdersMap, u: &Piece) -> Vec<Loc> {
    match u.kind {
        UnitType::Army => m.provinces[u.loc.province as usize]
            .army
            .iter()
            .map(|&p| Loc::new(p))
            .collect(),
        UnitType::Fleet => m.fleet_targets(u.loc).to_vec(),
    }
}

pub fn random_orders(
    m: &OrdersMap,
    their: &TheirMap,
    rng: &mut Rng,
    units: &[Piece],
) -> Vec<Written> {
    // First moves and holds, then supports of what others actually do.
    let mut orders: Vec<Written> = units
        .iter()
        .map(|u| {
            let spec = match rng.below(10) {
                0..=3 => Spec::Hold,
                _ => {
                    let d: Vec<Loc> = destinations(m, u)
                        .into_iter()
                        .filter(|&to| their_move_ok(m, their, u.kind, u.loc, to))
                        .collect();
                    if d.is_empty() {
                        Spec::Hold
                    } else {
                        Spec::Move {
                            to: d[rng.below(d.len())],
                            via_convoy: false,
                        }
                    }
                }
            };
            Written {
                kind: u.kind,
                at: u.loc,
                spec,
            }
        })
        .collect();
    for i in 0..units.len() {
        if rng.below(10) >= 4 {
            continue;
        }
        let u = units[i];
        let options: Vec<Spec> = (0..units.len())
            .filter(|&j| j != i)
            .filter_map(|j| {
                let v = units[j];
                match orders[j].spec {
                    Spec::Move { to, .. }
                        if to.province != u.loc.province
                            && m.can_reach(u.kind, u.loc, to.province)
                            && their_reach_ok(m, their, u.kind, u.loc, to.province) =>
                    {
                        Some(Spec::SupportMove {
                            kind: Some(v.kind),
                            from: v.loc,
                            to,
                        })
                    }
                    Spec::Hold
                        if m.can_reach(u.kind, u.loc, v.loc.province)
                            && their_reach_ok(m, their, u.kind, u.loc, v.loc.province) =>
                    {
                        Some(Spec::SupportHold {
                            kind: Some(v.kind),
                            target: v.loc,
                        })
                    }
                    _ => None,
                }
            })
            .collect();
        if !options.is_empty() {
            orders[i].spec = options[rng.below(options.len())];
        }
    }
    orders
}

/// One random phase: units, our orders, and the same orders in the oracle's notation.
pub fn random_phase(
    m: &OrdersMap,
    their: &TheirMap,
    rng: &mut Rng,
) -> (Vec<Piece>, Vec<Written>, Vec<String>) {
    let count = 20 + rng.below(30);
    let units = random_position(m, rng, count);
    let orders = random_orders(m, their, rng, &units);
    let texts = units
        .iter()
        .zip(&orders)
        .map(|(u, w)| their_order(m, u, w))
        .collect();
    (units, orders, texts)
}
