//! Withdrawing from a battle (source 004, "Withdraw"): a player declares a withdraw, or sets a
//! standing order to withdraw when their units in the battle fall to a number (the way an
//! attack "ends when one of the players ... withdraws"). Every hostile player with units of the
//! same kind there may intercept, which counts as an attack: each withdrawing unit rolls against
//! each interceptor in turn, dies if it loses and gets away if it does not. Units that get away
//! move: back to where they came from, or, if they have not moved this round, to any bordering
//! region; into hostile ground, they bring a battle token with them. A withdraw may instead keep
//! its survivors where they are (`stay`, once per battle), or be broken off after a number of
//! losses, the rest staying without facing the interceptors.
//!
//! Invariants: a withdraw is possible only while hostile units stand in the battle (a battle won
//! is over); every withdrawing unit leaves the battle, dead or away, unless it stays or the
//! withdraw was broken off before its turn; a player who withdraws after fighting counts the
//! battle as a loss, and those who fought them as a victory.

use super::action::EconomyEvent;
use super::battlefield::{Arrival, Foe, Intercepted, Pending, Retreat, Site, Unit, WithdrawOrder};
use super::error::{EconomyError, Events};
use super::map::{EconomyMap, RegionId};
use super::roll::{self, Loser, Side};
use super::state::EconomyState;
use super::units::{Allowance, Force, Kind};
use crate::dice::Dice;
use crate::rules::classic::PlayerId;
use std::collections::BTreeMap;

impl EconomyState {
    /// Hostile units (of another player who is not an ally, or neutral) stand in the battle.
    pub fn hostile_present(&self, site: Site, p: PlayerId) -> bool {
        let players = (0..self.players.len() as PlayerId)
            .any(|q| !self.friends(p, q) && self.site_force(site, Foe::Player(q)).units() > 0);
        players || self.site_force(site, Foe::Neutral).units() > 0
    }

    /// Where `p`'s units in the battle at `site` may withdraw to, and how many of each kind may
    /// go to each place: units that came from somewhere go back there; units there since the
    /// planning phase go to any bordering region their kind can enter.
    pub fn withdraw_options(
        &self,
        map: &EconomyMap,
        site: Site,
        p: PlayerId,
    ) -> Vec<(RegionId, Force)> {
        if self.must_attack_first(site, p) {
            return vec![];
        }
        self.withdraw_ways(map, site, p)
    }

    /// As [`Self::withdraw_options`], leaving aside whether a siege holds the units back for now
    /// (a standing order may name a way out they can use once they have attacked).
    fn withdraw_ways(&self, map: &EconomyMap, site: Site, p: PlayerId) -> Vec<(RegionId, Force)> {
        if !self.hostile_present(site, p) {
            return vec![];
        }
        let mut out: BTreeMap<RegionId, Force> = BTreeMap::new();
        let Some(c) = &self.combat else { return vec![] };
        match site {
            Site::Border(a, b) => {
                for g in c
                    .border
                    .iter()
                    .filter(|g| g.player == p && Site::border(g.from, g.to) == Site::Border(a, b))
                {
                    let x = out.entry(g.from).or_default();
                    x.armies += g.force.armies;
                    x.navies += g.force.navies;
                }
            }
            Site::Region(r) => {
                // Units that withdrew here have crossed their last border this round; units
                // raised here (revolutionaries) came from nowhere else.
                let back =
                    |a: &&Arrival| a.player == p && a.region == r && !a.withdrawn && a.from != r;
                for a in c.arrivals.iter().filter(back) {
                    let x = out.entry(a.from).or_default();
                    x.armies += a.force.armies;
                    x.navies += a.force.navies;
                }
                // "When a player withdraws from an attack action with hostile units that are
                // defenders in fortifications then that player can only move back to the
                // country they came from last": units that came this round go back (above);
                // units there since planning came in an earlier round, from ground Orbis does
                // not record, and go back to friendly ground only, a bordering region of
                // theirs or an ally's (RULES.md, reading 48).
                let def = self.defenders(p, r);
                let back_only = self.fortified_foe(r, p);
                let open = |nb: RegionId| !back_only || self.friendly(p, nb);
                let region = &map.regions[r as usize];
                if def.armies > 0 {
                    let army_ways = region.land.iter().chain(&region.shore);
                    for &nb in army_ways.filter(|&&nb| open(nb)) {
                        out.entry(nb).or_default().add(Kind::Army, def.armies);
                    }
                }
                if def.navies > 0 {
                    let navy_ways = if map.is_water(r) {
                        &region.water
                    } else {
                        &region.shore
                    };
                    for &nb in navy_ways.iter().filter(|&&nb| open(nb)) {
                        out.entry(nb).or_default().add(Kind::Navy, def.navies);
                    }
                }
            }
        }
        out.into_iter().filter(|(_, f)| f.units() > 0).collect()
    }

    /// Hostile units that are defenders in fortifications stand in `r`, facing `p`.
    pub fn fortified_foe(&self, r: RegionId, p: PlayerId) -> bool {
        let players = (0..self.players.len() as PlayerId).any(|q| {
            !self.friends(p, q) && self.defenders(q, r).units() > 0 && self.fortified_for(q, r)
        });
        players || (self.regions[r as usize].neutral.units() > 0 && self.fortified(r))
    }

    /// True when `p` may give the withdraw order `w` at `site`: the units can go that way, units
    /// that stay cross no roads to burn, and a player stays after a withdraw once per battle.
    pub(super) fn can_withdraw(&self, site: Site, p: PlayerId, w: &WithdrawOrder) -> bool {
        let stayed = self.battle().is_ok_and(|b| b.stayed.contains(&p));
        let (force, to) = (w.force, w.to);
        force.units() > 0
            && !(w.stay && (w.burn_roads || stayed))
            && w.break_off.is_none_or(|n| n > 0)
            && self
                .withdraw_options(EconomyMap::get(), site, p)
                .iter()
                .any(|&(r, f)| r == to && force.armies <= f.armies && force.navies <= f.navies)
    }

    /// Begins an action that may be intercepted: asks the possible interceptors, or carries
    /// it out at once when there are none.
    pub(super) fn start_intercepted(
        &mut self,
        map: &EconomyMap,
        site: Site,
        pending: Pending,
        dice: &mut dyn Dice,
        events: &mut Vec<EconomyEvent>,
    ) {
        let player = pending.player;
        events.push(match pending.what {
            Intercepted::Withdraw(w) => EconomyEvent::WithdrawDeclared {
                player,
                force: w.force,
                to: w.to,
                stay: w.stay,
                break_off: w.break_off,
            },
            Intercepted::Infrastructure { item } => {
                EconomyEvent::InfrastructureAttackDeclared { player, item }
            }
            Intercepted::Landing {
                armies,
                to,
                navies_engaged,
            } => EconomyEvent::LandingDeclared {
                player,
                armies,
                to,
                navies_engaged,
            },
        });
        if self.interceptors(site, &pending).is_empty() {
            self.finish_intercepted(map, site, pending, dice, events);
        } else {
            self.battle_mut().pending = Some(pending);
        }
    }

    /// Carries out `pending` once every possible interceptor has answered.
    fn finish_intercepted(
        &mut self,
        map: &EconomyMap,
        site: Site,
        pending: Pending,
        dice: &mut dyn Dice,
        events: &mut Vec<EconomyEvent>,
    ) {
        let interceptors: Vec<PlayerId> = self
            .interceptors(site, &pending)
            .into_iter()
            .filter(|q| pending.answers.get(q) == Some(&true))
            .collect();
        match pending.what {
            Intercepted::Withdraw(w) => {
                let p = pending.player;
                let away = self.finish_withdrawal(map, site, p, w, &interceptors, dice, events);
                if w.burn_roads {
                    self.burn_roads(map, site, p, away.armies, w.to, dice, events);
                }
            }
            Intercepted::Landing {
                armies,
                to,
                navies_engaged,
            } => self.finish_landing(
                map,
                site,
                pending.player,
                armies,
                to,
                navies_engaged,
                &interceptors,
                dice,
                events,
            ),
            Intercepted::Infrastructure { item } => self.finish_infrastructure_attack(
                site,
                pending.player,
                item,
                &interceptors,
                dice,
                events,
            ),
        }
    }

    /// The hostile players who could intercept `pending`: they have units of a kind it moves.
    pub fn interceptors(&self, site: Site, pending: &Pending) -> Vec<PlayerId> {
        let units = pending.units();
        (0..self.players.len() as PlayerId)
            .filter(|&q| !self.friends(pending.player, q))
            .filter(|&q| {
                let theirs = Force {
                    navies: self.free_navies(site, q),
                    ..self.site_force(site, Foe::Player(q))
                };
                [Kind::Army, Kind::Navy]
                    .into_iter()
                    .any(|k| units.of(k) > 0 && theirs.of(k) > 0)
            })
            .collect()
    }

    pub(super) fn intercept(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        yes: bool,
        dice: &mut dyn Dice,
    ) -> Events {
        let battle = self.battle()?;
        let site = battle.site;
        let Some(w) = &battle.pending else {
            return Err(EconomyError::NothingToIntercept);
        };
        if !self.interceptors(site, w).contains(&p) || w.answers.contains_key(&p) {
            return Err(EconomyError::NothingToIntercept);
        }
        let mut events = vec![EconomyEvent::InterceptAnswered { player: p, yes }];
        let w = self.battle_mut().pending.as_mut().expect("checked");
        w.answers.insert(p, yes);
        let w = w.clone();
        if self
            .interceptors(site, &w)
            .iter()
            .all(|q| w.answers.contains_key(q))
        {
            self.battle_mut().pending = None;
            self.finish_intercepted(map, site, w, dice, &mut events);
            self.battle_mut().declared.clear();
            self.after_declarations(map, dice, &mut events);
        }
        Ok(events)
    }

    /// The side `q` intercepts with, units of `kind`, its die still to roll (0): the unit
    /// [`Self::pick_attacker`] picks, a defender (in fortifications) when `q_defends`. Read by
    /// `interception_roll` and by the odds (`odds`).
    pub(super) fn interceptor_side(
        &self,
        site: Site,
        q: PlayerId,
        kind: Kind,
        q_defends: bool,
    ) -> (Unit, Side) {
        let theirs = self.site_force(site, Foe::Player(q));
        let (qu, amphibious) = self.pick_attacker(site, q, kind);
        let side = Side {
            flanks: if q_defends { 1 } else { self.flanks(site, q) },
            amphibious,
            defender: q_defends,
            fortified: q_defends,
            ..Side::plain(0, theirs.units())
        };
        (qu, side)
    }

    /// One interception roll: `p`'s unit of `kind`, rolling as `me` (its die is rolled here),
    /// against one of `q`'s, a defender when `q_defends`. `q`'s unit dies if it loses and
    /// `q_can_lose` (a landing without engaged navies cannot sink an interceptor); the caller
    /// removes `p`'s. Counts as an attack between them.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn interception_roll(
        &mut self,
        site: Site,
        p: PlayerId,
        q: PlayerId,
        kind: Kind,
        me: Side,
        q_defends: bool,
        q_can_lose: bool,
        dice: &mut dyn Dice,
        events: &mut Vec<EconomyEvent>,
    ) -> Loser {
        let me = Side {
            die: dice.d6(),
            units: self.site_force(site, Foe::Player(p)).units(),
            ..me
        };
        let (qu, them) = self.interceptor_side(site, q, kind, q_defends);
        let them = Side {
            die: dice.d6(),
            ..them
        };
        let loser = roll::resolve(&me, &them);
        let interceptor_lost = q_can_lose && matches!(loser, Loser::Second | Loser::Both);
        if interceptor_lost {
            self.take_unit(site, q, kind, qu);
        }
        let fought = &mut self.battle_mut().fought;
        fought.insert((q, Foe::Player(p)));
        fought.insert((p, Foe::Player(q)));
        events.push(EconomyEvent::InterceptRoll {
            player: p,
            interceptor: q,
            kind,
            dice: (me.die, them.die),
            loser,
            interceptor_lost,
        });
        loser
    }

    /// The unit of `p` that withdraws next toward `to`: one that came from there, else a
    /// defender, passing over the units in `held` (survivors that stay, which roll only once).
    /// Returns it and whether it is a defender.
    pub(super) fn withdrawing_unit(
        &self,
        site: Site,
        p: PlayerId,
        kind: Kind,
        to: RegionId,
        held: &[(Unit, u32)],
    ) -> (Unit, bool) {
        let Some(c) = &self.combat else {
            return (Unit::Defender, true);
        };
        let held = |u: Unit| held.iter().find(|h| h.0 == u).map_or(0, |h| h.1);
        match site {
            Site::Border(a, b) => {
                let i = c.border.iter().enumerate().position(|(i, g)| {
                    g.player == p
                        && g.from == to
                        && Site::border(g.from, g.to) == Site::Border(a, b)
                        && g.force.of(kind) > held(Unit::Group(i))
                });
                (Unit::Group(i.unwrap_or(0)), false)
            }
            Site::Region(r) => {
                let i = c.arrivals.iter().enumerate().position(|(i, a)| {
                    a.player == p
                        && a.region == r
                        && a.from == to
                        && !a.withdrawn
                        && a.force.of(kind) > held(Unit::Arrival(i))
                });
                match i {
                    Some(i) => (Unit::Arrival(i), false),
                    None => (Unit::Defender, true),
                }
            }
        }
    }

    /// Carries out a withdraw: interception rolls unit by unit (until it is broken off), then the
    /// survivors move, or stay.
    #[allow(clippy::too_many_arguments)]
    fn finish_withdrawal(
        &mut self,
        map: &EconomyMap,
        site: Site,
        p: PlayerId,
        w: WithdrawOrder,
        interceptors: &[PlayerId],
        dice: &mut dyn Dice,
        events: &mut Vec<EconomyEvent>,
    ) -> Force {
        let region = match site {
            Site::Region(r) => Some(r),
            Site::Border(..) => None,
        };
        let to = w.to;
        let mut away = Force::default();
        let mut lost = Force::default();
        let mut broken_off = Force::default();
        // Survivors that stay, by unit, so the next roll is another unit's.
        let mut held: Vec<(Unit, u32)> = vec![];
        for kind in [Kind::Army, Kind::Navy] {
            for _ in 0..w.force.of(kind) {
                if w.break_off.is_some_and(|n| lost.units() >= n) {
                    broken_off.add(kind, 1);
                    continue;
                }
                let (unit, defender) = self.withdrawing_unit(site, p, kind, to, &held);
                let mut alive = true;
                for &q in interceptors {
                    if self.site_force(site, Foe::Player(q)).of(kind) == 0 {
                        continue;
                    }
                    // Only a defender in fortifications keeps its defender status as it
                    // withdraws (RULES.md).
                    let fortified = defender && region.is_some_and(|r| self.fortified_for(p, r));
                    let me = Side {
                        defender: fortified,
                        fortified,
                        ..Side::plain(0, 0)
                    };
                    let loser =
                        self.interception_roll(site, p, q, kind, me, false, true, dice, events);
                    if matches!(loser, Loser::First | Loser::Both) {
                        alive = false;
                        break;
                    }
                }
                if alive {
                    away.add(kind, 1);
                } else {
                    lost.add(kind, 1);
                }
                if !alive || !w.stay {
                    self.take_unit(site, p, kind, unit);
                } else if let Some(h) = held.iter_mut().find(|h| h.0 == unit) {
                    h.1 += 1;
                } else {
                    held.push((unit, 1));
                }
            }
        }
        events.push(EconomyEvent::Withdrew {
            player: p,
            to,
            away,
            lost,
            stayed: w.stay,
            broken_off,
        });
        if w.stay {
            // The action is over; the units are still in the battle, where they were.
            self.battle_mut().stayed.insert(p);
            if let Some(r) = region {
                self.sink(map, r, events);
            }
            return Force::default();
        }
        let came_from = match site {
            Site::Region(r) => r,
            Site::Border(a, b) => {
                if to == a {
                    b
                } else {
                    a
                }
            }
        };
        self.settle_in(Arrival {
            player: p,
            region: to,
            from: came_from,
            force: away,
            left: Allowance::SPENT,
            amphibious: false,
            withdrawn: true,
        });
        self.left_after_fighting(p);
        self.sink(map, to, events);
        if let Some(r) = region {
            self.sink(map, r, events);
        }
        away
    }

    /// `p` left the battle: if they had fought in it, it is their loss (RULES.md).
    pub(super) fn left_after_fighting(&mut self, p: PlayerId) {
        let battle = self.battle_mut();
        if battle.fought.iter().any(|&(q, _)| q == p) {
            battle.withdrew.insert(p);
        }
    }

    /// "Withdrawing army units may roll 1d6 per surviving unit to destroy roads they cross on a
    /// roll of 6": armies that got away over land from a country with roads into another with
    /// roads (a road they cross) roll, and a 6 destroys the roads of the country they left.
    #[allow(clippy::too_many_arguments)]
    fn burn_roads(
        &mut self,
        map: &EconomyMap,
        site: Site,
        p: PlayerId,
        armies: u32,
        to: RegionId,
        dice: &mut dyn Dice,
        events: &mut Vec<EconomyEvent>,
    ) {
        let Site::Region(r) = site else { return };
        let over_land = !map.is_water(r) && !map.is_water(to);
        // A road joins two countries with roads (*"from a country with roads to a country with
        // roads"*): only then is there one to cross.
        let roads = |c: RegionId| self.regions[c as usize].infra.roads;
        if !over_land || !roads(r) || !roads(to) {
            return;
        }
        let dice_rolled: Vec<u8> = (0..armies).map(|_| dice.d6()).collect();
        let destroyed = dice_rolled.contains(&6);
        if destroyed {
            self.regions[r as usize].infra.roads = false;
        }
        events.push(EconomyEvent::RoadsBurned {
            player: p,
            country: r,
            dice: dice_rolled,
            destroyed,
        });
    }

    pub(super) fn set_retreat(&mut self, p: PlayerId, retreat: Option<Retreat>) -> Events {
        let site = self.battle()?.site;
        if self.site_force(site, Foe::Player(p)).units() == 0 {
            return Err(EconomyError::NotInBattle);
        }
        if let Some(rt) = retreat {
            let ways = self.withdraw_ways(EconomyMap::get(), site, p);
            if !ways.iter().any(|&(r, _)| r == rt.to) {
                return Err(EconomyError::CannotWithdrawThere(rt.to));
            }
        }
        let battle = self.battle_mut();
        match retreat {
            Some(rt) => battle.retreats.insert(p, rt),
            None => battle.retreats.remove(&p),
        };
        Ok(vec![EconomyEvent::RetreatSet { player: p, retreat }])
    }

    /// After a roll of an attack: the first of `players` whose standing order to withdraw is
    /// now due withdraws. True when one did (the attack is over).
    pub(super) fn retreat_due(
        &mut self,
        map: &EconomyMap,
        site: Site,
        players: &[PlayerId],
        dice: &mut dyn Dice,
        events: &mut Vec<EconomyEvent>,
    ) -> bool {
        for &q in players {
            let Some(rt) = self.battle_mut().retreats.get(&q).copied() else {
                continue;
            };
            if self.site_force(site, Foe::Player(q)).units() > rt.at {
                continue;
            }
            self.battle_mut().retreats.remove(&q);
            let force = self
                .withdraw_options(map, site, q)
                .into_iter()
                .find(|&(r, _)| r == rt.to)
                .map(|(_, f)| f);
            let stayed = self.battle().is_ok_and(|b| b.stayed.contains(&q));
            if let Some(force) = force.filter(|_| !(rt.stay && stayed)) {
                let what = Intercepted::Withdraw(WithdrawOrder {
                    stay: rt.stay,
                    ..WithdrawOrder::to(rt.to, force)
                });
                self.start_intercepted(map, site, Pending::new(q, what), dice, events);
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests;
