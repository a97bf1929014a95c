//! Pure queries for user interfaces (the browser's order entry): which units a power orders in
//! the current phase, and where it may build. Nothing here changes a state.

use super::adjudicator::Piece;
use super::map::{PowerId, ProvinceId};
use super::{OrdersState, Phase};

impl OrdersState {
    /// The units `power` gives orders to now: its units in movement and adjustment phases (in
    /// adjustments, for disbanding), its dislodged units in a retreat phase, none after the game.
    pub fn orderable_units(&self, power: PowerId) -> Vec<Piece> {
        match self.phase {
            Phase::Retreat => self
                .dislodged
                .iter()
                .map(|d| d.piece)
                .filter(|u| u.power == power)
                .collect(),
            Phase::Movement | Phase::Adjustment => self
                .units
                .iter()
                .copied()
                .filter(|u| u.power == power)
                .collect(),
            Phase::GameOver { .. } => vec![],
        }
    }

    /// Home centres where `power` may build in this adjustment phase: owned and unoccupied, and
    /// only when it has builds to make (empty otherwise).
    pub fn build_sites(&self, power: PowerId) -> Vec<ProvinceId> {
        if self.phase != Phase::Adjustment || self.adjustment(power) <= 0 {
            return vec![];
        }
        self.map()
            .homes(power)
            .filter(|h| {
                self.centres.get(h) == Some(&power)
                    && !self.units.iter().any(|u| u.loc.province == *h)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{OrdersAction, OrdersOptions};
    use super::*;

    #[test]
    fn orderable_units_and_build_sites() {
        let mut s = OrdersState::new("europe-1901", OrdersOptions::default()).unwrap();
        let map = s.map();
        let russia = map.power("RUSSIA").unwrap();
        assert_eq!(s.orderable_units(russia).len(), 4);
        assert!(s.build_sites(russia).is_empty());
        // Spring: Russia leaves Warsaw and Sevastopol; Fall: takes Rumania.
        let order = |t: &str| super::super::notation::parse(map, t).unwrap();
        s.apply(&OrdersAction::Submit {
            power: russia,
            orders: vec![order("A WAR - GAL"), order("F SEV - RUM")],
        })
        .unwrap();
        s.apply(&OrdersAction::Adjudicate).unwrap();
        s.apply(&OrdersAction::Adjudicate).unwrap();
        assert_eq!(s.phase, Phase::Adjustment);
        let war = map.province("WAR").unwrap();
        let sev = map.province("SEV").unwrap();
        assert_eq!(s.build_sites(russia), {
            let mut v = vec![war, sev];
            v.sort();
            v
        });
        let france = map.power("FRANCE").unwrap();
        assert!(s.build_sites(france).is_empty());
    }
}
