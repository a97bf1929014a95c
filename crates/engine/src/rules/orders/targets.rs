//! Where an order may point: for a unit and the kind of order being written, the places (or
//! units) the order can legally name now. The browser highlights them while a player enters
//! orders; they follow the adjudicator's own legality checks (`adjudicator/legality`), read on
//! the board as it stands before anyone's orders are known:
//!
//! * a move goes where the unit could move in one step (a fleet facing a sea only along it,
//!   house option), or, for an army on a coast, to a coast that a chain of fleets now at sea
//!   could carry it to (otherwise the move is void, DATC 6.D.32);
//! * a support names a unit the supporter could support holding or moving, then the unit's
//!   own province (support to hold) or a place that unit could move to and the supporter could
//!   itself move to (never the supporter's own province; a convoy only through the supporting
//!   fleet itself does not count, DATC 6.D.31);
//! * a convoy (a fleet at sea) names an army on a coast, then a coast it can help carry the
//!   army to: one that the fleets at sea joined to this fleet touch, as the army's province does;
//! * a retreat goes where [`OrdersState::retreat_choices`] says; a combine (house option, in
//!   Fall) names a unit of the same power and kind it may merge into.
//!
//! Nothing here changes a state.

use super::adjudicator::convoy_chain;
use super::phases::FacingGeo;
use super::*;

/// The kind of order being written, with what it has named so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderKind {
    /// A move (in a retreat phase: a retreat).
    Move,
    /// A support: the unit to support.
    SupportUnit,
    /// A support of the unit in this province: where it holds or moves.
    SupportTo { supported: ProvinceId },
    /// A convoy: the army to carry.
    ConvoyArmy,
    /// A convoy of the army in this province: its destination.
    ConvoyTo { army: ProvinceId },
    /// A combine (house option): the unit to merge into.
    Combine,
}

impl OrdersState {
    /// The unit at `at` that its power orders in this phase (in a retreat phase, the dislodged
    /// one).
    fn ordered_unit(&self, at: ProvinceId) -> Option<Piece> {
        match self.phase {
            Phase::Retreat => self
                .dislodged
                .iter()
                .map(|d| d.piece)
                .find(|u| u.loc.province == at),
            Phase::Movement => self.units.iter().copied().find(|u| u.loc.province == at),
            _ => None,
        }
    }

    /// Where the order of kind `kind` for the unit at `at` may point, in location order; empty
    /// when there is no such unit to order, or the kind does not fit the unit or the phase.
    /// Units are named by their location (a fleet's coast included), places by their province
    /// (a fleet's move by the coast it would reach).
    pub fn legal_targets(&self, at: ProvinceId, kind: OrderKind) -> Vec<Loc> {
        let Some(u) = self.ordered_unit(at) else {
            return vec![];
        };
        let map = self.map();
        let geo = FacingGeo::of(map, &self.units, self.options.fleet_facing);
        let mut out: Vec<Loc> = match (self.phase, kind) {
            (Phase::Retreat, OrderKind::Move) => self
                .dislodged
                .iter()
                .find(|d| d.piece.loc.province == at)
                .map(|d| self.retreat_choices(d))
                .unwrap_or_default(),
            (Phase::Retreat, _) => vec![],
            (_, OrderKind::Move) => self.move_targets(&u, None),
            (_, OrderKind::SupportUnit) => self
                .units
                .iter()
                .filter(|t| t.loc.province != at)
                .filter(|t| !self.support_targets(&geo, &u, t).is_empty())
                .map(|t| t.loc)
                .collect(),
            (_, OrderKind::SupportTo { supported }) => self
                .units
                .iter()
                .find(|t| t.loc.province == supported && supported != at)
                .map(|t| self.support_targets(&geo, &u, t))
                .unwrap_or_default(),
            (_, OrderKind::ConvoyArmy) => self
                .units
                .iter()
                .filter(|a| !self.convoy_targets(&u, a).is_empty())
                .map(|a| a.loc)
                .collect(),
            (_, OrderKind::ConvoyTo { army }) => self
                .units
                .iter()
                .find(|a| a.loc.province == army)
                .map(|a| self.convoy_targets(&u, a))
                .unwrap_or_default(),
            (_, OrderKind::Combine) => {
                if !self.options.combine || self.season != Season::Fall || u.strength > 1 {
                    vec![]
                } else {
                    self.units
                        .iter()
                        .filter(|t| {
                            t.loc.province != at
                                && t.power == u.power
                                && t.kind == u.kind
                                && t.strength <= 1
                                && geo.can_combine(u.kind, u.loc, t.loc.province)
                        })
                        .map(|t| t.loc)
                        .collect()
                }
            }
        };
        out.sort();
        out.dedup();
        out
    }

    /// Provinces of the fleets at sea now, leaving out the one in `except`.
    fn fleets_at_sea(&self, except: Option<ProvinceId>) -> Vec<ProvinceId> {
        let map = self.map();
        self.units
            .iter()
            .filter(|f| f.kind == UnitType::Fleet && map.is_sea(f.loc.province))
            .map(|f| f.loc.province)
            .filter(|&p| Some(p) != except)
            .collect()
    }

    /// Where `u` may move: one step, or for an army on a coast, by a chain of the fleets at sea
    /// (without the fleet in `without`: a support may not count on a convoy through itself).
    fn move_targets(&self, u: &Piece, without: Option<ProvinceId>) -> Vec<Loc> {
        let map = self.map();
        let here = u.loc.province;
        match u.kind {
            UnitType::Fleet => {
                let facing = u.facing.filter(|_| self.options.fleet_facing);
                facing_targets(map, u.loc, facing)
            }
            UnitType::Army => {
                let mut out: Vec<Loc> = map.provinces[here as usize]
                    .army
                    .iter()
                    .map(|&p| Loc::new(p))
                    .collect();
                if map.is_coastal(here) {
                    let seas = self.fleets_at_sea(without);
                    out.extend(
                        (0..map.provinces.len() as ProvinceId)
                            .filter(|&p| p != here && map.is_land(p) && map.is_coastal(p))
                            .filter(|&p| convoy_chain(map, here, p, &seas))
                            .map(Loc::new),
                    );
                }
                out
            }
        }
    }

    /// Where the supporter `s` may support the unit `t`: its province (to hold) if `s` reaches
    /// it, and each province `t` may move to that `s` reaches, other than where `s` stands.
    fn support_targets(&self, geo: &FacingGeo, s: &Piece, t: &Piece) -> Vec<Loc> {
        let here = s.loc.province;
        let mut out: Vec<Loc> = self
            .move_targets(t, Some(here))
            .into_iter()
            .map(|l| Loc::new(l.province))
            .filter(|l| l.province != here && geo.can_reach(s.kind, s.loc, l.province))
            .collect();
        if geo.can_reach(s.kind, s.loc, t.loc.province) {
            out.push(Loc::new(t.loc.province));
        }
        out
    }

    /// Where the fleet `f` at sea can help carry the army `a` on a coast: coasts other than the
    /// army's that the fleets at sea joined to `f` (by sea) touch, when they also touch the
    /// army's province.
    fn convoy_targets(&self, f: &Piece, a: &Piece) -> Vec<Loc> {
        let map = self.map();
        let (sea, from) = (f.loc.province, a.loc.province);
        if f.kind != UnitType::Fleet
            || !map.is_sea(sea)
            || a.kind != UnitType::Army
            || !map.is_coastal(from)
        {
            return vec![];
        }
        // The fleets at sea joined to this one by a chain of fleets.
        let fleets = self.fleets_at_sea(None);
        let mut group = vec![sea];
        let mut k = 0;
        while k < group.len() {
            let s = group[k];
            for &t in &fleets {
                if !group.contains(&t) && map.touches(s, t) {
                    group.push(t);
                }
            }
            k += 1;
        }
        if !group.iter().any(|&s| map.touches(s, from)) {
            return vec![];
        }
        (0..map.provinces.len() as ProvinceId)
            .filter(|&p| p != from && map.is_land(p) && map.is_coastal(p))
            .filter(|&p| group.iter().any(|&s| map.touches(s, p)))
            .map(Loc::new)
            .collect()
    }
}

#[cfg(test)]
mod tests;
