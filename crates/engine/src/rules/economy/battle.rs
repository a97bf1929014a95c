//! One battle of the combat phase (source 004, "Battle Step", "Attack"): the players in it declare
//! actions until nobody declares one; when several are declared, the initiative holder picks
//! which resolves first. An attack is fought roll by roll, one unit against one unit of the same
//! kind, until one side has no unit of that kind left in the battle. After each roll the players
//! are asked again (an [`Assault`] is under way): "Defenders can declare an attack action after
//! any roll during a battle and that attack action interrupts any attack action that may
//! currently be happening", and "A withdraw action can be declared at any time during a battle".
//! When everyone asked passes, the attack rolls again.
//!
//! Which unit fights is the attacker's choice in the source. The engine makes it for them the
//! way that is never worse for the roll at hand: the attacker rolls with units that are not
//! amphibious first, and strikes first at the target's weakest units (amphibious, then other
//! newcomers, then defenders). RULES.md lists this reading.
//!
//! Invariants: every roll removes exactly the units that lost it; a declaration is accepted
//! only from a player who can take that action now; a battle closes exactly when a round of
//! declarations has none.

use super::action::EconomyEvent;
use super::battlefield::{
    Arrival, Assault, Battle, BattleAction, Foe, Intercepted, Pending, Site, Unit,
};
use super::error::{EconomyError, Events};
use super::map::{EconomyMap, RegionId};
use super::phase::Phase;
use super::roll::{self, Loser, Side};
use super::state::EconomyState;
use super::units::{Force, Kind};
use crate::dice::Dice;
use crate::rules::classic::PlayerId;
use std::collections::BTreeSet;

impl EconomyState {
    /// The units `who` has in the battle at `site`.
    pub fn site_force(&self, site: Site, who: Foe) -> Force {
        match (site, who) {
            (Site::Region(r), Foe::Player(p)) => self.units_of(p, r),
            (Site::Region(r), Foe::Neutral) => self.regions[r as usize].neutral,
            (Site::Border(..), Foe::Neutral) => Force::default(),
            (Site::Border(a, b), Foe::Player(p)) => {
                let mut f = Force::default();
                for g in self.groups_at(a, b).filter(|g| g.player == p) {
                    f.armies += g.force.armies;
                    f.navies += g.force.navies;
                }
                f
            }
        }
    }

    fn groups_at(
        &self,
        a: RegionId,
        b: RegionId,
    ) -> impl Iterator<Item = &super::battlefield::Group> {
        self.combat
            .iter()
            .flat_map(|c| &c.border)
            .filter(move |g| Site::border(g.from, g.to) == Site::Border(a, b))
    }

    /// `p`'s units in `r` that have been there since the planning phase.
    pub fn defenders(&self, p: PlayerId, r: RegionId) -> Force {
        let mut f = self.units_of(p, r);
        let arrived = self.combat.iter().flat_map(|c| &c.arrivals);
        for a in arrived.filter(|a| a.player == p && a.region == r) {
            f.armies = f.armies.saturating_sub(a.force.armies);
            f.navies = f.navies.saturating_sub(a.force.navies);
        }
        if let Some(m) = self.moved.get(&(p, r)) {
            f.armies = f.armies.saturating_sub(m.armies);
            f.navies = f.navies.saturating_sub(m.navies);
        }
        f
    }

    /// The players with units in the battle at `site`.
    fn present(&self, site: Site) -> Vec<PlayerId> {
        (0..self.players.len() as PlayerId)
            .filter(|&p| self.site_force(site, Foe::Player(p)).units() > 0)
            .collect()
    }

    /// The attack under way in the battle at `site`, between two of its rolls.
    pub fn assault(&self, site: Site) -> Option<Assault> {
        let b = self.combat.as_ref()?.battle.as_ref()?;
        b.assault.filter(|_| b.site == site)
    }

    /// The attacks `p` can declare at `site` (withdraws are in [`Self::withdraw_options`]).
    /// While an attack is under way, only a player with defenders there, other than its
    /// attacker, may declare one: it interrupts the attack.
    pub fn possible_actions(&self, site: Site, p: PlayerId) -> Vec<BattleAction> {
        if let Some(a) = self.assault(site) {
            let defends = match site {
                Site::Region(r) => self.defenders(p, r).units() > 0,
                Site::Border(..) => false,
            };
            if a.attacker == p || !defends {
                return vec![];
            }
        }
        // Blockading navies take no naval action but their own defence.
        let mine = Force {
            navies: self.free_navies(site, p),
            ..self.site_force(site, Foe::Player(p))
        };
        let mut foes: Vec<Foe> = self
            .present(site)
            .into_iter()
            .filter(|&q| !self.friends(p, q))
            .map(Foe::Player)
            .collect();
        foes.push(Foe::Neutral);
        let mut out = vec![];
        for foe in foes {
            let theirs = self.site_force(site, foe);
            for kind in [Kind::Army, Kind::Navy] {
                if mine.of(kind) > 0 && theirs.of(kind) > 0 {
                    out.push(BattleAction::Attack { target: foe, kind });
                }
            }
        }
        out
    }

    /// The players who can declare an action at `site`: an attack or a withdraw.
    pub fn declarers(&self, site: Site) -> Vec<PlayerId> {
        let map = EconomyMap::get();
        self.present(site)
            .into_iter()
            .filter(|&p| {
                !self.possible_actions(site, p).is_empty()
                    || !self.withdraw_options(map, site, p).is_empty()
                    || !self.infrastructure_targets(site, p).is_empty()
                    || !self.siege_targets(site, p).is_empty()
                    || !self.landing_options(map, site, p).is_empty()
            })
            .collect()
    }

    /// The index of `p`'s group on the border `site` with units of `kind`: the largest, or the
    /// smallest.
    fn border_group(&self, site: Site, p: PlayerId, kind: Kind, largest: bool) -> usize {
        let groups = self.combat.iter().flat_map(|c| c.border.iter().enumerate());
        let mut mine: Vec<(usize, u32)> = groups
            .filter(|(_, g)| g.player == p && Site::border(g.from, g.to) == site)
            .map(|(i, g)| (i, g.force.of(kind)))
            .filter(|&(_, n)| n > 0)
            .collect();
        // Ties go to the first group either way.
        mine.sort_by_key(|&(i, n)| if largest { (u32::MAX - n, i) } else { (n, i) });
        mine.first().map_or(0, |&(i, _)| i)
    }

    /// The unit of `q` the attacker strikes at: the weakest first. Returns it and whether it
    /// is a defender.
    ///
    /// Before the combat phase's data exists (the revolution step) there are no arrivals yet,
    /// but units moved in during friendly movement are still no defenders: "Units that have
    /// been in the territory since the beginning of the planning phase ... are considered
    /// defending units".
    pub(super) fn pick_target(&self, site: Site, q: PlayerId, kind: Kind) -> (Unit, bool) {
        match site {
            Site::Border(..) if self.combat.is_none() => (Unit::Defender, true),
            Site::Border(..) => (Unit::Group(self.border_group(site, q, kind, false)), false),
            Site::Region(r) => {
                let arrivals = self
                    .combat
                    .iter()
                    .flat_map(|c| c.arrivals.iter().enumerate());
                let weakest = arrivals
                    .filter(|(_, a)| a.player == q && a.region == r && a.force.of(kind) > 0)
                    .min_by_key(|(_, a)| (!(a.amphibious && kind == Kind::Army), a.force.of(kind)));
                if let Some((i, _)) = weakest {
                    return (Unit::Arrival(i), false);
                }
                if self.moved.get(&(q, r)).is_some_and(|m| m.of(kind) > 0) {
                    return (Unit::Moved, false);
                }
                (Unit::Defender, true)
            }
        }
    }

    /// The unit `p` attacks with: not amphibious first, from the largest arrival (to keep its
    /// flanks). Returns it and whether it is amphibious.
    pub(super) fn pick_attacker(&self, site: Site, p: PlayerId, kind: Kind) -> (Unit, bool) {
        let Some(c) = &self.combat else {
            return (Unit::Defender, false);
        };
        match site {
            Site::Border(..) => (Unit::Group(self.border_group(site, p, kind, true)), false),
            Site::Region(r) => {
                let amph = |a: &Arrival| a.amphibious && kind == Kind::Army;
                let arrivals: Vec<(usize, bool, u32)> = c
                    .arrivals
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| a.player == p && a.region == r && a.force.of(kind) > 0)
                    .map(|(i, a)| (i, amph(a), a.force.of(kind)))
                    .collect();
                let best = |amphibious: bool| {
                    arrivals
                        .iter()
                        .filter(|x| x.1 == amphibious)
                        .max_by_key(|x| x.2)
                        .map(|x| x.0)
                };
                if let Some(i) = best(false) {
                    return (Unit::Arrival(i), false);
                }
                if self.moved.get(&(p, r)).is_some_and(|m| m.of(kind) > 0) {
                    return (Unit::Moved, false);
                }
                if self.defenders(p, r).of(kind) > 0 {
                    return (Unit::Defender, false);
                }
                (best(true).map_or(Unit::Defender, Unit::Arrival), true)
            }
        }
    }

    /// Removes one unit of `kind` of `p` from `site`, keeping the records of where it came from.
    pub(super) fn take_unit(&mut self, site: Site, p: PlayerId, kind: Kind, unit: Unit) {
        let one = match kind {
            Kind::Army => Force {
                armies: 1,
                navies: 0,
            },
            Kind::Navy => Force {
                armies: 0,
                navies: 1,
            },
        };
        match (site, unit) {
            (Site::Border(..), Unit::Group(i)) => {
                if let Some(g) = self.combat_mut().border.get_mut(i) {
                    g.force.minus_one(kind);
                }
            }
            (Site::Region(r), unit) => {
                self.remove_units(p, r, one);
                match unit {
                    Unit::Arrival(i) => {
                        if let Some(a) = self.combat_mut().arrivals.get_mut(i) {
                            a.force.minus_one(kind);
                        }
                    }
                    Unit::Moved => {
                        if let Some(m) = self.moved.get_mut(&(p, r)) {
                            m.minus_one(kind);
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// Countries `p` attacks `site` from, counting friendly units that have held it since the
    /// planning phase as one more; at least one.
    pub(super) fn flanks(&self, site: Site, p: PlayerId) -> u32 {
        let Site::Region(r) = site else { return 1 };
        let froms: BTreeSet<RegionId> = self
            .combat
            .iter()
            .flat_map(|c| &c.arrivals)
            .filter(|a| a.player == p && a.region == r && a.force.units() > 0)
            .map(|a| a.from)
            .collect();
        let held = (0..self.players.len() as PlayerId)
            .any(|q| self.friends(p, q) && self.defenders(q, r).units() > 0);
        (froms.len() as u32 + u32::from(held)).max(1)
    }

    pub(super) fn declare(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        action: Option<BattleAction>,
        dice: &mut dyn Dice,
    ) -> Events {
        let battle = self.battle()?;
        let site = battle.site;
        if battle.declared.contains_key(&p) {
            return Err(EconomyError::AlreadyDone);
        }
        if !self.declarers(site).contains(&p) {
            return Err(EconomyError::NothingToDeclare);
        }
        let ok = match action {
            None => true,
            Some(BattleAction::Withdraw(w)) => self.can_withdraw(site, p, &w),
            Some(BattleAction::AttackInfrastructure { item }) => {
                self.infrastructure_targets(site, p).contains(&item)
            }
            Some(BattleAction::Siege { target }) => self.siege_targets(site, p).contains(&target),
            Some(BattleAction::Land {
                armies,
                to,
                navies_engaged,
            }) => {
                armies > 0
                    && (!navies_engaged || self.site_force(site, Foe::Player(p)).navies > 0)
                    && self
                        .landing_options(EconomyMap::get(), site, p)
                        .iter()
                        .any(|&(c, n)| c == to && armies <= n)
            }
            Some(a) => self.possible_actions(site, p).contains(&a),
        };
        if !ok {
            return Err(EconomyError::ActionNotPossible);
        }
        if battle.pending.is_some() {
            return Err(EconomyError::InterceptionUnderway);
        }
        // "A siege does not end until the units performing the siege declare another action."
        if let (Some(a), Site::Region(r)) = (action, site) {
            if !matches!(a, BattleAction::Siege { .. }) {
                self.end_sieges_by(p, r, &mut vec![]);
            }
        }
        self.battle_mut().declared.insert(p, action);
        let mut events = vec![EconomyEvent::Declared { player: p, action }];
        self.after_declarations(map, dice, &mut events);
        Ok(events)
    }

    pub(super) fn choose_action(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        actor: PlayerId,
        dice: &mut dyn Dice,
    ) -> Events {
        let battle = self.battle()?;
        let holder = self.combat.as_ref().map_or(0, |c| c.holder);
        if p != holder {
            return Err(EconomyError::NotInitiative(holder));
        }
        if !self.waiting_for_choice() {
            return Err(EconomyError::NoChoiceToMake);
        }
        let Some(&Some(action)) = battle.declared.get(&actor) else {
            return Err(EconomyError::NoChoiceToMake);
        };
        let mut events = vec![EconomyEvent::ActionChosen { actor }];
        self.resolve(map, actor, action, dice, &mut events);
        self.after_declarations(map, dice, &mut events);
        Ok(events)
    }

    pub(super) fn battle(&self) -> Result<&Battle, EconomyError> {
        if self.phase != Phase::Combat {
            return Err(EconomyError::WrongPhase(self.phase));
        }
        self.combat
            .as_ref()
            .and_then(|c| c.battle.as_ref())
            .ok_or(EconomyError::NoBattle)
    }

    pub(super) fn battle_mut(&mut self) -> &mut Battle {
        self.combat_mut()
            .battle
            .as_mut()
            .expect("a battle is under way")
    }

    /// Every declarer has declared, and more than one action waits for the holder's choice.
    pub fn waiting_for_choice(&self) -> bool {
        let Some(b) = self.combat.as_ref().and_then(|c| c.battle.as_ref()) else {
            return false;
        };
        let declarers = self.declarers(b.site);
        b.pending.is_none()
            && declarers.iter().all(|p| b.declared.contains_key(p))
            && declarers
                .iter()
                .filter(|p| matches!(b.declared.get(p), Some(Some(_))))
                .count()
                > 1
    }

    /// Moves the battle on once declarations are in: closes it when nobody acts, resolves a
    /// lone action, or waits for the holder's choice among several.
    pub(super) fn after_declarations(
        &mut self,
        map: &EconomyMap,
        dice: &mut dyn Dice,
        events: &mut Vec<EconomyEvent>,
    ) {
        loop {
            let Some(b) = self.combat.as_ref().and_then(|c| c.battle.as_ref()) else {
                return;
            };
            let site = b.site;
            if b.pending.is_some() {
                return;
            }
            let declarers = self.declarers(site);
            if !declarers.iter().all(|p| b.declared.contains_key(p)) {
                return;
            }
            let actions: Vec<(PlayerId, BattleAction)> = declarers
                .iter()
                .filter_map(|&p| b.declared.get(&p).copied().flatten().map(|a| (p, a)))
                .collect();
            match actions.as_slice() {
                // Everyone asked after a roll let the attack go on: it rolls again.
                [] if b.assault.is_some() => {
                    self.attack_roll(map, dice, events);
                    self.battle_mut().declared.clear();
                }
                [] => {
                    let (fought, withdrew) = (b.fought.clone(), b.withdrew.clone());
                    self.close_battle(map, site, fought, &withdrew, events);
                    self.lift_idle_tokens(map, dice, events);
                    return;
                }
                [(p, a)] => {
                    let (p, a) = (*p, *a);
                    self.resolve(map, p, a, dice, events);
                }
                _ => return,
            }
        }
    }

    /// Resolves `p`'s action and opens a new round of declarations.
    fn resolve(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        action: BattleAction,
        dice: &mut dyn Dice,
        events: &mut Vec<EconomyEvent>,
    ) {
        let site = self.battle_mut().site;
        // A declared action ends (interrupts) the attack under way, if any.
        if let Some(x) = self.battle_mut().assault.take() {
            events.push(EconomyEvent::AttackInterrupted {
                attacker: x.attacker,
                by: p,
            });
        }
        match action {
            BattleAction::Attack { target, kind } => {
                let b = self.battle_mut();
                b.attacked.insert(p);
                b.fought.insert((p, target));
                if let Foe::Player(q) = target {
                    b.fought.insert((q, Foe::Player(p)));
                }
                b.assault = Some(Assault {
                    attacker: p,
                    target,
                    kind,
                });
                self.attack_roll(map, dice, events);
            }
            BattleAction::Land {
                armies,
                to,
                navies_engaged,
            } => {
                let what = Intercepted::Landing {
                    armies,
                    to,
                    navies_engaged,
                };
                self.start_intercepted(map, site, Pending::new(p, what), dice, events)
            }
            BattleAction::Siege { target } => {
                if let Site::Region(r) = site {
                    self.lay_siege(r, p, target, events);
                }
            }
            BattleAction::Withdraw(w) => {
                let what = Intercepted::Withdraw(w);
                self.start_intercepted(map, site, Pending::new(p, what), dice, events)
            }
            BattleAction::AttackInfrastructure { item } => {
                let what = Intercepted::Infrastructure { item };
                self.start_intercepted(map, site, Pending::new(p, what), dice, events)
            }
        }
        self.battle_mut().declared.clear();
    }

    /// The two sides of the next roll of `p`'s attack on `target` with units of `kind` at
    /// `site`, each with the unit that would fight it and its dice still to roll (0): the
    /// attacker rolls with [`Self::pick_attacker`]'s unit and its flanks, the target with
    /// [`Self::pick_target`]'s, a defender's fortifications counted. `attack_roll` and the odds
    /// (`odds`) both read a roll from here, so the odds use the rules the dice are rolled by.
    pub(super) fn roll_sides(
        &self,
        site: Site,
        p: PlayerId,
        target: Foe,
        kind: Kind,
    ) -> ((Unit, Side), (Unit, Side)) {
        let region = match site {
            Site::Region(r) => Some(r),
            Site::Border(..) => None,
        };
        let mine = self.site_force(site, Foe::Player(p));
        let theirs = self.site_force(site, target);
        let (au, amphibious) = self.pick_attacker(site, p, kind);
        let a = Side {
            flanks: self.flanks(site, p),
            amphibious,
            ..Side::plain(0, mine.units())
        };
        let (tu, defender) = match target {
            Foe::Neutral => (Unit::Defender, true),
            Foe::Player(q) => self.pick_target(site, q, kind),
        };
        let target_amphibious = match (tu, &self.combat) {
            (Unit::Arrival(i), Some(c)) => c
                .arrivals
                .get(i)
                .is_some_and(|x| x.amphibious && kind == Kind::Army),
            _ => false,
        };
        let d = Side {
            defender,
            fortified: defender
                && match (target, region) {
                    (Foe::Player(q), Some(r)) => self.fortified_for(q, r),
                    (Foe::Neutral, Some(r)) => self.fortified(r),
                    _ => false,
                },
            amphibious: target_amphibious,
            ..Side::plain(0, theirs.units())
        };
        ((au, a), (tu, d))
    }

    /// The target of an attack loses the unit `unit` of `kind` (a neutral one: any; neutral
    /// armies left at sea without navies drown).
    pub(super) fn lose_target_unit(
        &mut self,
        map: &EconomyMap,
        site: Site,
        target: Foe,
        kind: Kind,
        unit: Unit,
        events: &mut Vec<EconomyEvent>,
    ) {
        match (target, site) {
            (Foe::Neutral, Site::Region(r)) => {
                self.regions[r as usize].neutral.minus_one(kind);
                self.sink_neutral(map, r, events);
            }
            (Foe::Player(q), _) => self.take_unit(site, q, kind, unit),
            _ => {}
        }
    }

    /// One roll of the attack under way; the attack ends when a side has no unit of its kind
    /// left here, or a standing order to withdraw takes effect.
    fn attack_roll(
        &mut self,
        map: &EconomyMap,
        dice: &mut dyn Dice,
        events: &mut Vec<EconomyEvent>,
    ) {
        let b = self.battle_mut();
        let site = b.site;
        let Some(Assault {
            attacker: p,
            target,
            kind,
        }) = b.assault
        else {
            return;
        };
        let region = match site {
            Site::Region(r) => Some(r),
            Site::Border(..) => None,
        };
        let mine = self.site_force(site, Foe::Player(p));
        let theirs = self.site_force(site, target);
        if mine.of(kind) == 0 || theirs.of(kind) == 0 {
            self.battle_mut().assault = None;
            return;
        }
        let ((au, a), (tu, d)) = self.roll_sides(site, p, target, kind);
        // The attacker's die first, then the target's.
        let a = Side {
            die: dice.d6(),
            ..a
        };
        let d = Side {
            die: dice.d6(),
            ..d
        };
        let loser = roll::resolve(&a, &d);
        if matches!(loser, Loser::First | Loser::Both) {
            self.take_unit(site, p, kind, au);
        }
        if matches!(loser, Loser::Second | Loser::Both) {
            self.lose_target_unit(map, site, target, kind, tu, events);
        }
        events.push(EconomyEvent::BattleRoll {
            attacker: p,
            target,
            kind,
            dice: (a.die, d.die),
            totals: (
                i32::from(a.die) + roll::modifier(&a, &d),
                i32::from(d.die) + roll::modifier(&d, &a),
            ),
            terms: (roll::terms(&a, &d), roll::terms(&d, &a)),
            loser,
        });
        if let Some(r) = region {
            self.sink(map, r, events);
        }
        let involved: Vec<PlayerId> = match target {
            Foe::Player(q) => vec![p, q],
            Foe::Neutral => vec![p],
        };
        let over = self.site_force(site, Foe::Player(p)).of(kind) == 0
            || self.site_force(site, target).of(kind) == 0;
        if over {
            self.battle_mut().assault = None;
        }
        if self.retreat_due(map, site, &involved, dice, events) {
            if let Some(b) = self.combat_mut().battle.as_mut() {
                b.assault = None;
            }
        }
    }
}

#[cfg(test)]
mod tests;
