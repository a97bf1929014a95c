//! Helpers that let each DATC case read like the DATC text: units per power, orders in standard
//! notation, expected results and positions.
#![allow(dead_code)]

use orbis_engine::rules::orders::adjudicator::{Outcome, Piece};
use orbis_engine::rules::orders::map::{OrdersMap, PowerId};
use orbis_engine::rules::orders::notation::{self, Spec, Written};
use orbis_engine::rules::orders::{
    adjustments, movement, retreats, Centres, MovementReport, PhaseReport,
};

pub use orbis_engine::rules::orders::adjudicator::Outcome::*;

pub fn map() -> &'static OrdersMap {
    OrdersMap::europe()
}

pub fn power(name: &str) -> PowerId {
    map()
        .power(name)
        .unwrap_or_else(|| panic!("unknown power {name}"))
}

fn piece(power_name: &str, unit: &str) -> Piece {
    let (kind, loc) = notation::parse_unit(map(), unit).expect("unit notation");
    Piece::new(power(power_name), kind, loc)
}

fn parse(text: &str) -> Written {
    notation::parse(map(), text).unwrap_or_else(|e| panic!("`{text}`: {e}"))
}

fn orders_of(orders: &[(&str, &[&str])]) -> Vec<(PowerId, Written)> {
    orders
        .iter()
        .flat_map(|(p, list)| list.iter().map(move |o| (power(p), parse(o))))
        .collect()
}

/// Units given explicitly, then one unit for every order naming an empty province.
fn units_for(units: &[(&str, &[&str])], orders: &[(PowerId, Written)]) -> Vec<Piece> {
    let mut out: Vec<Piece> = units
        .iter()
        .flat_map(|(p, list)| list.iter().map(move |u| piece(p, u)))
        .collect();
    for (p, w) in orders {
        if !out.iter().any(|u| u.loc.province == w.at.province) {
            out.push(Piece::new(*p, w.kind, w.at));
        }
    }
    out
}

pub struct Moved {
    pub units: Vec<Piece>,
    pub report: MovementReport,
}

/// A movement phase where every unit is named by an order.
pub fn moves(orders: &[(&str, &[&str])]) -> Moved {
    moves_with(&[], orders)
}

/// A movement phase with some units given explicitly (units without orders, or units standing
/// elsewhere than their order says).
pub fn moves_with(units: &[(&str, &[&str])], orders: &[(&str, &[&str])]) -> Moved {
    let orders = orders_of(orders);
    let units = units_for(units, &orders);
    let report = movement(map(), &units, &orders);
    Moved { units, report }
}

fn prov(s: &str) -> u8 {
    map().parse_loc(s).expect("province").province
}

fn index(units: &[Piece], unit: &str) -> usize {
    let (kind, loc) = notation::parse_unit(map(), unit).expect("unit notation");
    units
        .iter()
        .position(|u| u.loc.province == loc.province && u.kind == kind)
        .unwrap_or_else(|| panic!("no unit {unit} on the board"))
}

impl Moved {
    /// The result of the order of the unit written as `A PAR`.
    pub fn outcome(&self, unit: &str) -> Outcome {
        self.report.results[index(&self.units, unit)].outcome
    }

    /// Asserts several outcomes.
    pub fn expect(&self, expected: &[(&str, Outcome)]) {
        for (unit, o) in expected {
            assert_eq!(self.outcome(unit), *o, "result of {unit}");
        }
    }

    /// `POWER K LOC` of the unit standing in a province after the phase.
    pub fn at(&self, province: &str) -> Option<String> {
        let p = prov(province);
        self.report
            .units
            .iter()
            .find(|u| u.loc.province == p)
            .map(|u| {
                format!(
                    "{} {}",
                    map().powers[u.power as usize].key,
                    notation::print_unit(map(), u.kind, u.loc)
                )
            })
    }

    /// Asserts that the unit written as `A PAR` now stands at `to` (`BUR`, `SPA/NC`).
    pub fn moved(&self, unit: &str, to: &str) {
        let i = index(&self.units, unit);
        let u = self.units[i];
        let to_loc = map().parse_loc(to).expect("location");
        assert_eq!(self.outcome(unit), Ok, "{unit} should move to {to}");
        assert!(
            self.report
                .units
                .iter()
                .any(|x| x.power == u.power && x.kind == u.kind && x.loc == to_loc),
            "{unit} should now be at {to}: {:?}",
            self.at(to)
        );
    }

    /// Asserts that several units moved.
    pub fn all_moved(&self, list: &[(&str, &str)]) {
        for (u, to) in list {
            self.moved(u, to);
        }
    }

    /// Asserts that the unit written as `A PAR` is still there and was not dislodged.
    pub fn stays(&self, unit: &str) {
        let u = self.units[index(&self.units, unit)];
        assert!(
            self.report.units.contains(&u),
            "{unit} should still be in place (result {:?})",
            self.outcome(unit)
        );
    }

    /// Asserts that several units stay.
    pub fn all_stay(&self, list: &[&str]) {
        for u in list {
            self.stays(u);
        }
    }

    /// Asserts that the unit written as `A PAR` was dislodged.
    pub fn dislodged(&self, unit: &str) {
        let u = self.units[index(&self.units, unit)];
        assert!(
            self.report.dislodged.iter().any(|d| d.piece == u),
            "{unit} should be dislodged (result {:?})",
            self.outcome(unit)
        );
        assert_eq!(self.outcome(unit), Dislodged);
    }

    /// Asserts that nobody was dislodged.
    pub fn none_dislodged(&self) {
        assert!(
            self.report.dislodged.is_empty(),
            "{:?}",
            self.report.dislodged
        );
    }

    /// Runs the retreat phase that follows.
    pub fn retreat(&self, orders: &[(&str, &[&str])]) -> Phase {
        let orders = orders_of(orders);
        let report = retreats(
            map(),
            &self.report.units,
            &self.report.dislodged,
            &self.report.contested,
            &orders,
        );
        Phase { report, orders }
    }
}

pub struct Phase {
    pub report: PhaseReport,
    pub orders: Vec<(PowerId, Written)>,
}

impl Phase {
    /// The outcome of the (written or default) order naming this unit (`A PAR`).
    pub fn outcome(&self, unit: &str) -> Outcome {
        let (kind, loc) = notation::parse_unit(map(), unit).expect("unit");
        self.report
            .results
            .iter()
            .find(|r| r.order.at.province == loc.province && r.order.kind == kind)
            .unwrap_or_else(|| panic!("no result for {unit}"))
            .outcome
    }

    /// Whether this unit of the power stands there afterwards.
    pub fn has(&self, power_name: &str, unit: &str) -> bool {
        self.report.units.contains(&piece(power_name, unit))
    }

    /// Number of units of a power afterwards.
    pub fn count(&self, power_name: &str) -> usize {
        let p = power(power_name);
        self.report.units.iter().filter(|u| u.power == p).count()
    }

    /// Units removed by a successful disband (ordered or by civil disorder).
    pub fn disbanded(&self) -> Vec<String> {
        self.report
            .results
            .iter()
            .filter(|r| r.order.spec == Spec::Disband && r.outcome == Ok)
            .map(|r| notation::print_unit(map(), r.order.kind, r.order.at))
            .collect()
    }
}

/// An adjustment phase: units per power, owned centres per power, orders.
pub fn adjust(
    units: &[(&str, &[&str])],
    centres: &[(&str, &[&str])],
    orders: &[(&str, &[&str])],
) -> Phase {
    let units: Vec<Piece> = units
        .iter()
        .flat_map(|(p, list)| list.iter().map(move |u| piece(p, u)))
        .collect();
    let mut owned = Centres::new();
    for (p, list) in centres {
        for c in *list {
            owned.insert(prov(c), power(p));
        }
    }
    let orders = orders_of(orders);
    let report = adjustments(map(), &units, &owned, &orders);
    Phase { report, orders }
}
