//! The planning phase and friendly movement (source 004, "Planning Phase", "Friendly Movement").
//!
//! Planning: every player writes, in secret and at the same time, the non-friendly movements of
//! the round: from where, to which non-friendly region, how many armies and navies. A plan is
//! final once submitted (the peer-to-peer layer commits to it before anyone reveals theirs).
//! Friendly movement follows: units not in a plan move freely within friendly territory; they
//! then stay put for the round.
//!
//! Invariants: a player's plans never move more units out of a region than stood there when
//! they were written, and never start in a contested region; a unit moved in friendly movement is
//! never in a plan and moves once.

use super::action::EconomyEvent;
use super::error::{EconomyError, Events};
use super::map::{EconomyMap, RegionId};
use super::phase::Phase;
use super::state::EconomyState;
use super::units::{Allowance, Force, Kind, PlannedMove};
use crate::dice::Dice;
use crate::rules::classic::PlayerId;
use std::collections::BTreeMap;

impl EconomyState {
    fn check_region(map: &EconomyMap, r: RegionId) -> Result<(), EconomyError> {
        if (r as usize) < map.regions.len() {
            Ok(())
        } else {
            Err(EconomyError::UnknownRegion(r))
        }
    }

    /// Units of `p` in `r`.
    pub fn units_of(&self, p: PlayerId, r: RegionId) -> Force {
        self.regions
            .get(r as usize)
            .and_then(|x| x.forces.get(&p))
            .copied()
            .unwrap_or_default()
    }

    /// Units of `p` in `r` that may still move in friendly movement: neither in a plan nor
    /// moved already.
    pub fn free_units(&self, p: PlayerId, r: RegionId) -> Force {
        let mut out = self.units_of(p, r);
        for m in self.plans.get(&p).into_iter().flatten() {
            if m.from == r {
                out.armies = out.armies.saturating_sub(m.armies);
                out.navies = out.navies.saturating_sub(m.navies);
            }
        }
        if let Some(moved) = self.moved.get(&(p, r)) {
            out.armies = out.armies.saturating_sub(moved.armies);
            out.navies = out.navies.saturating_sub(moved.navies);
        }
        out
    }

    /// Checks that `force` can go from `from` to `to` passing only where `pass` holds: armies
    /// and navies each by their own way.
    fn can_move(
        &self,
        map: &EconomyMap,
        p: PlayerId,
        from: RegionId,
        to: RegionId,
        force: Force,
        pass: impl Fn(RegionId) -> bool + Copy,
    ) -> Result<(), EconomyError> {
        for (n, kind) in [(force.armies, Kind::Army), (force.navies, Kind::Navy)] {
            let reached = || {
                self.reach(map, p, kind, from, Allowance::FRESH, pass)
                    .iter()
                    .any(|&(r, _)| r == to)
            };
            if n > 0 && !reached() {
                return Err(EconomyError::OutOfReach { from, to, kind });
            }
        }
        Ok(())
    }

    /// Where a move of `p`'s units from `from` may go now: in planning, every region some of
    /// its units there can reach that needs a plan (not one friendly region to another); in
    /// friendly movement, every friendly region its unmoved units can reach. Empty in other
    /// phases and where `p` has no units to move. The page marks these on the map; the engine
    /// still checks each move as it is made.
    pub fn destinations(
        &self,
        map: &EconomyMap,
        p: PlayerId,
        from: RegionId,
    ) -> std::collections::BTreeSet<RegionId> {
        let units = match self.phase {
            Phase::Planning if !self.contested(from) => self.units_of(p, from),
            Phase::Moving if self.passable(p, from) => self.free_units(p, from),
            _ => Force::default(),
        };
        let pass = |r: RegionId| self.passable(p, r);
        let mut out = std::collections::BTreeSet::new();
        for (n, kind) in [(units.armies, Kind::Army), (units.navies, Kind::Navy)] {
            if n > 0 {
                out.extend(
                    self.reach(map, p, kind, from, Allowance::FRESH, pass)
                        .into_iter()
                        .map(|(r, _)| r),
                );
            }
        }
        let friendly_from = pass(from);
        out.retain(|&to| match self.phase {
            Phase::Planning => !(friendly_from && pass(to)),
            _ => pass(to),
        });
        out
    }

    /// How many of `p`'s units a move from `from` to `to` takes unless the player says
    /// otherwise: every unit there that can make the move. In planning, the units in `from`
    /// (none where it is contested) less what `drafted`, the plans written so far, already takes
    /// out of it; in friendly movement, the units still free to move, when both ends are
    /// friendly. Only a kind that can reach `to` counts (navies never march inland, armies
    /// cross water only where it is friendly). Zero when nothing can go. The page proposes it
    /// and the player may change it; the engine checks the move when it is made.
    pub fn move_default(
        &self,
        map: &EconomyMap,
        p: PlayerId,
        from: RegionId,
        to: RegionId,
        drafted: &[PlannedMove],
    ) -> Force {
        let mut units = match self.phase {
            Phase::Planning if !self.contested(from) => self.units_of(p, from),
            Phase::Moving if self.passable(p, from) && self.passable(p, to) => {
                self.free_units(p, from)
            }
            _ => Force::default(),
        };
        for m in drafted.iter().filter(|m| m.from == from) {
            units.armies = units.armies.saturating_sub(m.armies);
            units.navies = units.navies.saturating_sub(m.navies);
        }
        let pass = |r: RegionId| self.passable(p, r);
        let goes = |kind: Kind| {
            let mut one = Force::default();
            one.add(kind, 1);
            units.of(kind) > 0 && self.can_move(map, p, from, to, one, pass).is_ok()
        };
        Force {
            armies: if goes(Kind::Army) { units.armies } else { 0 },
            navies: if goes(Kind::Navy) { units.navies } else { 0 },
        }
    }

    pub(super) fn submit_plans(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        moves: &[PlannedMove],
    ) -> Events {
        if self.phase != Phase::Planning {
            return Err(EconomyError::WrongPhase(self.phase));
        }
        if self.plans.contains_key(&p) {
            return Err(EconomyError::AlreadyDone);
        }
        let mut leaving: BTreeMap<RegionId, Force> = BTreeMap::new();
        for (i, m) in moves.iter().enumerate() {
            Self::check_region(map, m.from)?;
            Self::check_region(map, m.to)?;
            if m.armies == 0 && m.navies == 0 {
                return Err(EconomyError::ZeroUnits);
            }
            if moves[..i].iter().any(|x| (x.from, x.to) == (m.from, m.to)) {
                return Err(EconomyError::PlanRepeated {
                    from: m.from,
                    to: m.to,
                });
            }
            if self.contested(m.from) {
                return Err(EconomyError::ContestedNoPlans(m.from));
            }
            if self.passable(p, m.from) && self.passable(p, m.to) {
                return Err(EconomyError::FriendlyNeedsNoPlan(m.to));
            }
            let out = leaving.entry(m.from).or_default();
            out.armies = out.armies.saturating_add(m.armies);
            out.navies = out.navies.saturating_add(m.navies);
            let here = self.units_of(p, m.from);
            if out.armies > here.armies || out.navies > here.navies {
                return Err(EconomyError::NotThere(m.from));
            }
            self.can_move(map, p, m.from, m.to, m.force(), |r| self.passable(p, r))?;
        }
        self.plans.insert(p, moves.to_vec());
        let mut events = vec![EconomyEvent::PlansSubmitted {
            player: p,
            count: moves.len() as u32,
        }];
        self.advance_planning(&mut events);
        Ok(events)
    }

    /// Whether the last minute of planning runs: more than half of the players still playing
    /// have submitted their plans, and someone has not.
    pub fn planning_clock_runs(&self) -> bool {
        if self.phase != Phase::Planning {
            return false;
        }
        let (mut done, mut all) = (0, 0);
        for q in self.playing() {
            all += 1;
            done += u32::from(self.plans.contains_key(&q));
        }
        2 * done > all && done < all
    }

    /// The minute is up: players still planning submit nothing.
    pub(super) fn close_planning(&mut self, p: PlayerId) -> Events {
        if self.phase != Phase::Planning {
            return Err(EconomyError::WrongPhase(self.phase));
        }
        if !self.planning_clock_runs() || !self.plans.contains_key(&p) {
            return Err(EconomyError::PlanningClockNotRunning);
        }
        let late: Vec<PlayerId> = self
            .playing()
            .filter(|q| !self.plans.contains_key(q))
            .collect();
        for &q in &late {
            self.plans.insert(q, vec![]);
        }
        let mut events = vec![EconomyEvent::PlanningClosed { late }];
        self.advance_planning(&mut events);
        Ok(events)
    }

    /// Friendly movement begins once everyone still playing has submitted plans.
    pub(super) fn advance_planning(&mut self, events: &mut Vec<EconomyEvent>) {
        if self.phase == Phase::Planning && self.everyone(|q| self.plans.contains_key(&q)) {
            self.phase = Phase::Moving;
            events.push(EconomyEvent::PlansRevealed {
                plans: self.plans.clone(),
            });
        }
    }

    /// True when `f` holds for every player still playing.
    pub(super) fn everyone(&self, f: impl Fn(PlayerId) -> bool) -> bool {
        self.playing().all(f)
    }

    pub(super) fn move_friendly(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        from: RegionId,
        to: RegionId,
        force: Force,
    ) -> Events {
        if self.phase != Phase::Moving {
            return Err(EconomyError::WrongPhase(self.phase));
        }
        if self.moving_done.contains(&p) {
            return Err(EconomyError::AlreadyDone);
        }
        Self::check_region(map, from)?;
        Self::check_region(map, to)?;
        if force.units() == 0 {
            return Err(EconomyError::ZeroUnits);
        }
        for r in [from, to] {
            if !self.passable(p, r) {
                return Err(EconomyError::NotFriendly(r));
            }
        }
        let free = self.free_units(p, from);
        if force.armies > free.armies || force.navies > free.navies {
            return Err(EconomyError::NotFree(from));
        }
        self.can_move(map, p, from, to, force, |r| self.passable(p, r))?;
        self.remove_units(p, from, force);
        self.add_units(p, to, force);
        let moved = self.moved.entry((p, to)).or_default();
        moved.armies = moved.armies.saturating_add(force.armies);
        moved.navies = moved.navies.saturating_add(force.navies);
        Ok(vec![EconomyEvent::MovedFriendly {
            player: p,
            from,
            to,
            force,
        }])
    }

    pub(super) fn finish_moving(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        dice: &mut dyn Dice,
    ) -> Events {
        if self.phase != Phase::Moving {
            return Err(EconomyError::WrongPhase(self.phase));
        }
        if !self.moving_done.insert(p) {
            return Err(EconomyError::AlreadyDone);
        }
        let mut events = vec![EconomyEvent::MovingFinished { player: p }];
        self.advance_moving(map, dice, &mut events);
        Ok(events)
    }

    /// Combat begins once everyone still playing is done with friendly movement.
    pub(super) fn advance_moving(
        &mut self,
        map: &EconomyMap,
        dice: &mut dyn Dice,
        events: &mut Vec<EconomyEvent>,
    ) {
        if self.phase == Phase::Moving && self.everyone(|q| self.moving_done.contains(&q)) {
            events.extend(self.begin_combat(map, dice));
        }
    }
}

#[cfg(test)]
mod tests;
