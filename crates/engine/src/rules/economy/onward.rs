//! Moves after a battle (source 004, "Battle Step"): "The winner of that battle may give their
//! units new movement orders if those units have movement remaining, and if those units are
//! active." Active units are those that came with a plan and those that stood in a region
//! contested when combat began. Once no battle token is left, every player who still has such
//! units is asked to move them on or stop; moving into non-friendly ground lays a new token.
//!
//! Invariants: units move on only from a region where no battle is pending and nothing hostile
//! stands, and only as far as the movement they have left; the combat phase ends only when no
//! token is left and every player with units able to move on has stopped.

use super::action::EconomyEvent;
use super::battlefield::{Arrival, Site};
use super::error::{EconomyError, Events};
use super::map::{EconomyMap, RegionId};
use super::phase::Phase;
use super::state::EconomyState;
use super::units::{Allowance, Force, Kind};
use crate::dice::Dice;
use crate::rules::classic::PlayerId;
use std::collections::BTreeMap;

/// Units of one player in one region that may move on, with the movement they have left.
#[derive(Clone, Copy, Debug)]
enum Source {
    Arrival(usize, Allowance),
    /// Units that held a region contested when combat began: active, not moved yet.
    Holding,
}

impl EconomyState {
    /// `p`'s units in `r` that may move on, each with what it has left.
    fn sources(&self, p: PlayerId, r: RegionId) -> Vec<(Source, Force)> {
        let Some(c) = &self.combat else { return vec![] };
        if c.battle.is_some()
            || c.tokens.contains(&Site::Region(r))
            || self.hostile_present(Site::Region(r), p)
        {
            return vec![];
        }
        let mut out: Vec<(Source, Force)> = c
            .arrivals
            .iter()
            .enumerate()
            .filter(|(_, a)| {
                a.player == p && a.region == r && a.force.units() > 0 && !a.left.spent()
            })
            .map(|(i, a)| (Source::Arrival(i, a.left), a.force))
            .collect();
        if c.contested_at_start.contains(&r) {
            let holding = self.defenders(p, r);
            if holding.units() > 0 {
                out.push((Source::Holding, holding));
            }
        }
        out
    }

    /// Where `p`'s units in `r` may move on to, and how many of each kind may go to each place.
    pub fn onward_options(
        &self,
        map: &EconomyMap,
        p: PlayerId,
        r: RegionId,
    ) -> Vec<(RegionId, Force)> {
        let mut out: BTreeMap<RegionId, Force> = BTreeMap::new();
        for (source, force) in self.sources(p, r) {
            let left = match source {
                Source::Arrival(_, left) => left,
                Source::Holding => Allowance::FRESH,
            };
            for kind in [Kind::Army, Kind::Navy] {
                if force.of(kind) == 0 {
                    continue;
                }
                let reached: std::collections::BTreeSet<RegionId> = self
                    .reach(map, p, kind, r, left, |x| self.passable(p, x))
                    .into_iter()
                    .map(|(x, _)| x)
                    .collect();
                for x in reached {
                    out.entry(x).or_default().add(kind, force.of(kind));
                }
            }
        }
        out.into_iter().collect()
    }

    /// The regions where `p` has units that could move on now.
    pub fn movable(&self, map: &EconomyMap, p: PlayerId) -> Vec<RegionId> {
        (0..map.regions.len() as RegionId)
            .filter(|&r| !self.onward_options(map, p, r).is_empty())
            .collect()
    }

    /// The players asked to move on or stop: none while battle tokens are left. Besides those
    /// with units able to move on, every player holding an influence card is asked, so that
    /// the combat phase never ends before they could incite a revolution ("At any point during
    /// the combat phase", also in a phase with no battle at all).
    pub fn to_move_on(&self, map: &EconomyMap) -> Vec<PlayerId> {
        let Some(c) = &self.combat else { return vec![] };
        if !c.tokens.is_empty() || c.battle.is_some() {
            return vec![];
        }
        self.playing()
            .filter(|p| !c.onward_done.contains(p))
            .filter(|&p| {
                (self.options.influence_cards && self.cards_held(p) > 0)
                    || !self.movable(map, p).is_empty()
            })
            .collect()
    }

    fn check_between_battles(&self, p: PlayerId) -> Result<(), EconomyError> {
        let Some(c) = self.combat.as_ref().filter(|_| self.phase == Phase::Combat) else {
            return Err(EconomyError::WrongPhase(self.phase));
        };
        if c.battle.is_some() {
            return Err(EconomyError::BattleUnderway);
        }
        if c.onward_done.contains(&p) {
            return Err(EconomyError::AlreadyDone);
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn move_on(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        from: RegionId,
        to: RegionId,
        force: Force,
        dice: &mut dyn Dice,
    ) -> Events {
        self.check_between_battles(p)?;
        let fits = self
            .onward_options(map, p, from)
            .iter()
            .any(|&(x, f)| x == to && force.armies <= f.armies && force.navies <= f.navies);
        if force.units() == 0 || !fits {
            return Err(EconomyError::CannotMoveOn { from, to });
        }
        let mut events = vec![];
        for kind in [Kind::Army, Kind::Navy] {
            let mut need = force.of(kind);
            for (source, f) in self.sources(p, from) {
                if need == 0 {
                    break;
                }
                let left = match source {
                    Source::Arrival(_, left) => left,
                    Source::Holding => Allowance::FRESH,
                };
                let arrive_with = self
                    .reach(map, p, kind, from, left, |x| self.passable(p, x))
                    .into_iter()
                    .filter(|&(x, _)| x == to)
                    .map(|(_, l)| l)
                    .max();
                let Some(arrive_with) = arrive_with else {
                    continue;
                };
                let n = need.min(f.of(kind));
                need -= n;
                let mut moved = Force::default();
                moved.add(kind, n);
                if let Source::Arrival(i, _) = source {
                    let a = &mut self.combat_mut().arrivals[i];
                    for _ in 0..n {
                        a.force.minus_one(kind);
                    }
                }
                self.remove_units(p, from, moved);
                self.settle_in(Arrival {
                    player: p,
                    region: to,
                    from,
                    force: moved,
                    left: arrive_with,
                    amphibious: kind == Kind::Army && map.is_water(from) && !map.is_water(to),
                    withdrawn: false,
                });
            }
        }
        events.push(EconomyEvent::MovedOn {
            player: p,
            from,
            to,
            force,
        });
        self.sink(map, to, &mut events);
        self.lift_idle_tokens(map, dice, &mut events);
        Ok(events)
    }

    pub(super) fn stop_moving(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        dice: &mut dyn Dice,
    ) -> Events {
        self.check_between_battles(p)?;
        self.combat_mut().onward_done.insert(p);
        let mut events = vec![EconomyEvent::StoppedMoving { player: p }];
        self.lift_idle_tokens(map, dice, &mut events);
        Ok(events)
    }
}

#[cfg(test)]
mod tests;
