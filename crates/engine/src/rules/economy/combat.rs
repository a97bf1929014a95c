//! The combat phase (source 004, "Combat Phase"): the revolution step for players without a
//! capital, the roll for initiative, units moving onto their planned borders, battle tokens, the
//! initiative holder picking battles one at a time, and the end of combat (influence cards for
//! more victories than losses, then the next round). One battle's declarations and rolls are in
//! [`super::battle`].
//!
//! Invariants: a battle token lies on every planned destination not yet fought over, every
//! contested region and every border two hostile plans cross in opposite directions; a token
//! where nobody can take any action is lifted at once; the next round begins exactly when the
//! last token is lifted.

use super::action::EconomyEvent;
use super::battlefield::{Arrival, Battle, Combat, Foe, Group, Site};
use super::error::{EconomyError, Events};
use super::initiative::{self, Contender};
use super::map::{EconomyMap, RegionId};
use super::phase::Phase;
use super::roll::{self, Loser, Side};
use super::state::{EconomyState, Standing};
use super::units::{Allowance, Force, Kind, PlannedMove};
use crate::dice::Dice;
use crate::rules::classic::PlayerId;
use std::collections::{BTreeMap, BTreeSet};

/// Revolutionary units that appear in a revolution.
pub const REVOLUTIONARIES: u32 = 2;

impl EconomyState {
    /// The combat phase begins: revolutions, initiative, plans carried out, battle tokens.
    pub(super) fn begin_combat(
        &mut self,
        map: &EconomyMap,
        dice: &mut dyn Dice,
    ) -> Vec<EconomyEvent> {
        let mut events = vec![EconomyEvent::CombatBegan];
        self.revolution_step(map, dice, &mut events);
        let contenders: Vec<Contender> = self
            .playing()
            .map(|player| Contender {
                player,
                has_capital: !self.options.capitals
                    || self.players[player as usize].capital.is_some(),
            })
            .collect();
        let holder = match initiative::roll(&contenders, self.initiative, dice) {
            Some(i) => {
                events.push(EconomyEvent::InitiativeRolled {
                    rolls: i.rolls,
                    holder: i.holder,
                });
                i.holder
            }
            None => 0,
        };
        self.initiative = Some(holder);
        self.open_combat(map, holder);
        self.carry_out_plans(map, &mut events);
        self.lift_idle_tokens(map, dice, &mut events);
        events
    }

    /// "If a player has no capital they are subject to the Revolution Step": a 6 for any country
    /// they own starts a revolution there.
    fn revolution_step(
        &mut self,
        map: &EconomyMap,
        dice: &mut dyn Dice,
        events: &mut Vec<EconomyEvent>,
    ) {
        if !self.options.capitals {
            return;
        }
        for p in 0..self.players.len() as PlayerId {
            let me = &self.players[p as usize];
            if me.standing != Standing::Playing || me.capital.is_some() {
                continue;
            }
            for c in 0..map.countries() as RegionId {
                if self.regions[c as usize].owner != Some(p) {
                    continue;
                }
                let die = dice.d6();
                events.push(EconomyEvent::RevolutionRoll {
                    player: p,
                    country: c,
                    die,
                });
                if die == 6 {
                    self.uprising(c, dice, events);
                }
            }
        }
    }

    /// A revolution of the revolution step in `c`: two revolutionary units each take one roll
    /// without risk, then attack the armies there until they are destroyed or nobody else is
    /// left; survivors become neutral.
    fn uprising(&mut self, c: RegionId, dice: &mut dyn Dice, events: &mut Vec<EconomyEvent>) {
        let mut rebels = REVOLUTIONARIES;
        let mut surprise = REVOLUTIONARIES;
        loop {
            let target = self.regions[c as usize]
                .forces
                .iter()
                .find(|(_, f)| f.armies > 0)
                .map(|(&q, _)| q);
            let Some(q) = target else { break };
            if rebels == 0 {
                break;
            }
            let site = Site::Region(c);
            let theirs = self.site_force(site, Foe::Player(q));
            let (unit, defender) = self.pick_target(site, q, Kind::Army);
            let rebel = Side::plain(dice.d6(), rebels);
            let other = Side {
                defender,
                fortified: defender && self.fortified_for(q, c),
                ..Side::plain(dice.d6(), theirs.units())
            };
            let loser = roll::resolve(&rebel, &other);
            let risk_free = surprise > 0;
            surprise = surprise.saturating_sub(1);
            let (rebel_lost, they_lost) = match loser {
                Loser::First => (!risk_free, false),
                Loser::Second => (false, true),
                Loser::Both => (!risk_free, true),
            };
            if they_lost {
                self.take_unit(site, q, Kind::Army, unit);
            }
            if rebel_lost {
                rebels -= 1;
            }
            events.push(EconomyEvent::RebelRoll {
                country: c,
                against: q,
                dice: (rebel.die, other.die),
                rebels_lost: rebel_lost,
                lost: they_lost,
            });
        }
        self.regions[c as usize].neutral.add(Kind::Army, rebels);
        events.push(EconomyEvent::Revolution {
            country: c,
            neutral: rebels,
        });
        // Surviving revolutionaries are neutral, hence hostile: "Players loose ownership of any
        // countries that they previously owned but now contain hostile forces, even if they
        // still have forces there."
        self.lose_ownership(c, events);
    }

    /// The combat phase opens with `holder` holding the initiative: no token, arrival or battle
    /// yet (`plan_preview` opens one on a copy, too).
    pub(super) fn open_combat(&mut self, map: &EconomyMap, holder: PlayerId) {
        self.phase = Phase::Combat;
        self.combat = Some(Combat {
            holder,
            tokens: BTreeSet::new(),
            border: vec![],
            arrivals: vec![],
            battle: None,
            record: BTreeMap::new(),
            sieged: self
                .regions
                .iter()
                .enumerate()
                .flat_map(|(r, x)| x.sieges.iter().map(move |&(a, b)| (r as RegionId, a, b)))
                .collect(),
            contested_at_start: (0..map.regions.len() as RegionId)
                .filter(|&r| self.contested(r))
                .collect(),
            onward_done: BTreeSet::new(),
            cards_dealt: false,
            steals: vec![],
            fought_before: BTreeMap::new(),
        });
    }

    /// Every plan is carried out: units leave, meet on borders crossed both ways by hostile
    /// plans, or arrive at their destination; tokens go on destinations and contested regions.
    pub(super) fn carry_out_plans(&mut self, map: &EconomyMap, events: &mut Vec<EconomyEvent>) {
        let plans: Vec<(PlayerId, PlannedMove)> = self
            .plans
            .iter()
            .flat_map(|(&p, ms)| ms.iter().map(move |&m| (p, m)))
            .collect();
        let mut groups = vec![];
        for &(p, m) in &plans {
            // Units lost in the revolution step cannot move.
            let here = self.units_of(p, m.from);
            let force = Force {
                armies: m.armies.min(here.armies),
                navies: m.navies.min(here.navies),
            };
            if force.units() == 0 {
                continue;
            }
            self.remove_units(p, m.from, force);
            let left = self.left_after(map, p, m.from, m.to, force);
            groups.push(Group {
                player: p,
                from: m.from,
                to: m.to,
                force,
                left,
            });
        }
        let mut tokens = BTreeSet::new();
        for g in &groups {
            let crossed = groups
                .iter()
                .any(|h| h.from == g.to && h.to == g.from && !self.friends(g.player, h.player));
            tokens.insert(Site::Region(g.to));
            if crossed {
                tokens.insert(Site::border(g.from, g.to));
            }
        }
        for g in groups {
            if tokens.contains(&Site::border(g.from, g.to)) {
                self.combat_mut().border.push(g);
                events.push(EconomyEvent::OnBorder {
                    player: g.player,
                    from: g.from,
                    to: g.to,
                    force: g.force,
                });
            } else {
                self.arrive(map, g, events);
            }
        }
        for r in 0..map.regions.len() as RegionId {
            if self.contested(r) {
                tokens.insert(Site::Region(r));
            }
        }
        let combat = self.combat.as_mut().expect("combat has begun");
        combat.tokens = tokens.clone();
        events.push(EconomyEvent::BattleTokens {
            sites: tokens.into_iter().collect(),
        });
        for r in 0..map.regions.len() as RegionId {
            self.sink(map, r, events);
            // Besiegers or besieged who left with a plan end their siege.
            self.prune_sieges(r, events);
        }
        // So do blockading navies.
        self.prune_blockades(events);
    }

    /// The combat under way (callers check the phase first).
    pub(super) fn combat_mut(&mut self) -> &mut Combat {
        self.combat.as_mut().expect("combat has begun")
    }

    /// The best movement `force` can have left on reaching `to` from `from` along a plan.
    fn left_after(
        &self,
        map: &EconomyMap,
        p: PlayerId,
        from: RegionId,
        to: RegionId,
        force: Force,
    ) -> Allowance {
        let best = |kind| {
            self.reach(map, p, kind, from, Allowance::FRESH, |r| {
                self.passable(p, r)
            })
            .into_iter()
            .filter(|&(r, _)| r == to)
            .map(|(_, l)| l)
            .max()
            .unwrap_or(Allowance {
                thirds: 0,
                road: false,
            })
        };
        match (force.armies > 0, force.navies > 0) {
            (true, true) => best(Kind::Army).min(best(Kind::Navy)),
            (true, false) => best(Kind::Army),
            _ => best(Kind::Navy),
        }
    }

    /// `g` enters its destination.
    pub(super) fn arrive(&mut self, map: &EconomyMap, g: Group, events: &mut Vec<EconomyEvent>) {
        self.add_units(g.player, g.to, g.force);
        let amphibious = map.is_water(g.from) && !map.is_water(g.to) && g.force.armies > 0;
        self.combat_mut().arrivals.push(Arrival {
            player: g.player,
            region: g.to,
            from: g.from,
            force: g.force,
            left: g.left,
            amphibious,
            withdrawn: false,
        });
        events.push(EconomyEvent::Arrived {
            player: g.player,
            from: g.from,
            to: g.to,
            force: g.force,
        });
    }

    /// Units enter a region in the middle of combat (a withdraw, a landing, a move after a
    /// battle): they are newcomers there, and bring a battle token to hostile or contested ground.
    pub(super) fn settle_in(&mut self, a: Arrival) {
        if a.force.units() == 0 {
            return;
        }
        self.add_units(a.player, a.region, a.force);
        self.combat_mut().arrivals.push(a);
        if !self.passable(a.player, a.region) || self.contested(a.region) {
            self.combat_mut().tokens.insert(Site::Region(a.region));
        }
    }

    /// "If at any point you have less navy units than army units in a water territory the excess
    /// army units immediately die" (in water the player does not control).
    pub(super) fn sink(&mut self, map: &EconomyMap, r: RegionId, events: &mut Vec<EconomyEvent>) {
        if !map.is_water(r) {
            return;
        }
        let players: Vec<(PlayerId, Force)> = self.regions[r as usize]
            .forces
            .iter()
            .map(|(&p, &f)| (p, f))
            .collect();
        for (p, f) in players {
            if self.friendly(p, r) || f.armies <= f.navies {
                continue;
            }
            let excess = f.armies - f.navies;
            for _ in 0..excess {
                let (unit, _) = self.pick_target(Site::Region(r), p, Kind::Army);
                self.take_unit(Site::Region(r), p, Kind::Army, unit);
            }
            events.push(EconomyEvent::Sunk {
                player: p,
                region: r,
                armies: excess,
            });
        }
        self.sink_neutral(map, r, events);
    }

    /// Neutral armies on water beyond the neutral navies there drown: neutral units own
    /// nothing, so no water is friendly to them.
    pub(super) fn sink_neutral(
        &mut self,
        map: &EconomyMap,
        r: RegionId,
        events: &mut Vec<EconomyEvent>,
    ) {
        let x = &mut self.regions[r as usize].neutral;
        if map.is_water(r) && x.armies > x.navies {
            let armies = x.armies - x.navies;
            x.armies = x.navies;
            events.push(EconomyEvent::NeutralSunk { region: r, armies });
        }
    }

    /// Fortifications in `r` help its defenders (with the rule on).
    pub fn fortified(&self, r: RegionId) -> bool {
        self.options.fortifications
            && self
                .regions
                .get(r as usize)
                .is_some_and(|x| x.infra.fortifications)
    }

    pub(super) fn pick_battle(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        site: Site,
        dice: &mut dyn Dice,
    ) -> Events {
        let Some(combat) = self.combat.as_ref().filter(|_| self.phase == Phase::Combat) else {
            return Err(EconomyError::WrongPhase(self.phase));
        };
        if combat.holder != p {
            return Err(EconomyError::NotInitiative(combat.holder));
        }
        if combat.battle.is_some() {
            return Err(EconomyError::BattleUnderway);
        }
        if !combat.tokens.contains(&site) {
            return Err(EconomyError::NoBattleThere(site));
        }
        let mut battle = Battle::new(site);
        if let Site::Region(r) = site {
            // An incited revolution fought here before the battle was picked.
            battle.fought = self
                .combat_mut()
                .fought_before
                .remove(&r)
                .unwrap_or_default();
        }
        self.combat.as_mut().expect("checked").battle = Some(battle);
        let mut events = vec![EconomyEvent::BattlePicked { site }];
        self.after_declarations(map, dice, &mut events);
        Ok(events)
    }

    /// Closes the battle at `site`: victories and losses, units on a border go on, ownership is
    /// lost where hostile forces stand, the token is lifted.
    pub(super) fn close_battle(
        &mut self,
        map: &EconomyMap,
        site: Site,
        mut fought: BTreeSet<(PlayerId, Foe)>,
        withdrew: &BTreeSet<PlayerId>,
        events: &mut Vec<EconomyEvent>,
    ) {
        let mut victories = vec![];
        let mut losses = vec![];
        if let Site::Region(r) = site {
            // A token lifted unpicked still counts the revolution fought there.
            fought.extend(
                self.combat_mut()
                    .fought_before
                    .remove(&r)
                    .unwrap_or_default(),
            );
        }
        let fought = &fought;
        let fighters: BTreeSet<PlayerId> = fought.iter().map(|&(p, _)| p).collect();
        for &p in &fighters {
            // A foe destroyed, or one who withdrew after fighting, is beaten.
            let gone = |foe: Foe| {
                self.site_force(site, foe).units() == 0
                    || matches!(foe, Foe::Player(q) if withdrew.contains(&q))
            };
            if fought
                .iter()
                .filter(|(q, _)| *q == p)
                .all(|&(_, foe)| gone(foe))
            {
                victories.push(p);
            }
            if gone(Foe::Player(p)) {
                losses.push(p);
            }
        }
        self.pass_initiative(&victories, events);
        let combat = self.combat.as_mut().expect("combat has begun");
        for &p in &victories {
            combat.record.entry(p).or_default().victories += 1;
        }
        for &p in &losses {
            combat.record.entry(p).or_default().losses += 1;
        }
        combat.tokens.remove(&site);
        combat.battle = None;
        events.push(EconomyEvent::BattleClosed {
            site,
            victories,
            losses,
        });
        match site {
            Site::Border(a, b) => {
                let combat = self.combat.as_mut().expect("combat has begun");
                let (here, rest): (Vec<Group>, Vec<Group>) = combat
                    .border
                    .drain(..)
                    .partition(|g| Site::border(g.from, g.to) == Site::border(a, b));
                combat.border = rest;
                for g in here.into_iter().filter(|g| g.force.units() > 0) {
                    self.arrive(map, g, events);
                    // Units going on into hostile or contested ground fight there too.
                    if !self.passable(g.player, g.to) || self.contested(g.to) {
                        self.combat_mut().tokens.insert(Site::Region(g.to));
                    }
                    self.sink(map, g.to, events);
                }
            }
            Site::Region(r) => {
                self.prune_sieges(r, events);
                self.prune_blockades(events);
                self.lose_ownership(r, events);
                // Armies on water that is no longer theirs need navies.
                self.sink(map, r, events);
            }
        }
    }

    /// "If there was no winner then the person who previously had initiative still has
    /// initiative": a battle with one winner hands initiative to that winner, if they may hold
    /// it ("Players without a capital cannot have initiative"). With several winners (allies
    /// who beat a common foe) the holder keeps it if among them; otherwise the first winner in
    /// seat order who may hold it takes it (RULES.md).
    fn pass_initiative(&mut self, victories: &[PlayerId], events: &mut Vec<EconomyEvent>) {
        let holder = self.combat.as_ref().map_or(0, |c| c.holder);
        if victories.contains(&holder) {
            return;
        }
        let eligible = |p: PlayerId| {
            let me = &self.players[p as usize];
            me.standing == Standing::Playing && (!self.options.capitals || me.capital.is_some())
        };
        let Some(&winner) = victories.iter().find(|&&p| eligible(p)) else {
            return;
        };
        self.combat_mut().holder = winner;
        self.initiative = Some(winner);
        events.push(EconomyEvent::InitiativePassed { player: winner });
    }

    /// "Players loose ownership of any countries that they previously owned but now contain
    /// hostile forces."
    pub(super) fn lose_ownership(&mut self, r: RegionId, events: &mut Vec<EconomyEvent>) {
        let x = &self.regions[r as usize];
        let Some(o) = x.owner else { return };
        let hostile = x.neutral.units() > 0 || x.forces.keys().any(|&q| !self.friends(o, q));
        if hostile {
            let x = &mut self.regions[r as usize];
            x.owner = None;
            x.lost_by = Some(o);
            events.push(EconomyEvent::OwnershipLost {
                player: o,
                region: r,
            });
        }
    }

    /// Lifts every token where nobody can take any action, and ends the combat phase when no
    /// token is left.
    pub(super) fn lift_idle_tokens(
        &mut self,
        map: &EconomyMap,
        dice: &mut dyn Dice,
        events: &mut Vec<EconomyEvent>,
    ) {
        let tokens: Vec<Site> = self
            .combat
            .as_ref()
            .map(|c| c.tokens.iter().copied().collect())
            .unwrap_or_default();
        for site in tokens {
            if self.declarers(site).is_empty() {
                self.close_battle(map, site, BTreeSet::new(), &BTreeSet::new(), events);
            }
        }
        let done = self
            .combat
            .as_ref()
            .is_some_and(|c| c.tokens.is_empty() && c.battle.is_none());
        // Players with units able to move on after their battles are asked first.
        if done && self.to_move_on(map).is_empty() {
            self.end_combat(map, dice, events);
        }
    }

    /// The end of combat: an influence card for more victories than losses, then a new round.
    fn end_combat(
        &mut self,
        map: &EconomyMap,
        dice: &mut dyn Dice,
        events: &mut Vec<EconomyEvent>,
    ) {
        let combat = self.combat.as_ref().expect("combat has begun");
        if self.options.influence_cards && !combat.cards_dealt {
            let owed: Vec<PlayerId> = combat
                .record
                .iter()
                .filter(|(_, r)| r.victories > r.losses)
                .map(|(&p, _)| p)
                .filter(|&p| self.players[p as usize].standing == Standing::Playing)
                .collect();
            let mut steals = vec![];
            for p in owed {
                if !self.draw_card(p, dice, events) {
                    steals.push(p);
                }
            }
            let c = self.combat_mut();
            c.cards_dealt = true;
            c.steals = steals;
        }
        self.next_steal(map, events);
    }

    /// Asks the next player owed a card with nothing left to draw whom to steal from; ends the
    /// combat phase once nobody is owed one.
    fn next_steal(&mut self, map: &EconomyMap, events: &mut Vec<EconomyEvent>) {
        while let Some(&p) = self.combat.as_ref().and_then(|c| c.steals.first()) {
            if !self.steal_victims(p).is_empty() {
                return;
            }
            self.combat_mut().steals.remove(0);
        }
        self.combat = None;
        events.push(EconomyEvent::CombatEnded);
        events.extend(self.begin_round(map));
    }

    /// The players `p` may steal an influence card from: anyone else holding one, known or face
    /// down.
    pub fn steal_victims(&self, p: PlayerId) -> Vec<PlayerId> {
        (0..self.players.len() as PlayerId)
            .filter(|&q| q != p && self.cards_held(q) > 0)
            .collect()
    }

    /// "If there are no cards in the influence card pile or the discard pile, steal a random
    /// influence card from any player of your choice."
    pub(super) fn steal_card(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        from: PlayerId,
        dice: &mut dyn Dice,
    ) -> Events {
        let owed = self.combat.as_ref().and_then(|c| c.steals.first()).copied();
        if self.phase != Phase::Combat || owed != Some(p) {
            return Err(EconomyError::NoCardToSteal);
        }
        if !self.steal_victims(p).contains(&from) {
            return Err(EconomyError::NoCardsToSteal(from));
        }
        // The hand is the known cards, then the face-down ones: one roll picks among them all.
        let victim = &mut self.players[from as usize];
        let known = victim.cards.len();
        let i = dice.below((known + victim.sealed.len()) as u32) as usize;
        let stolen = if i < known {
            let card = victim.cards.remove(i);
            self.players[p as usize].cards.push(card);
            EconomyEvent::CardStolen {
                player: p,
                from,
                card,
            }
        } else {
            let slot = victim.sealed.remove(i - known);
            self.players[p as usize].sealed.push(slot);
            EconomyEvent::SlotStolen {
                player: p,
                from,
                slot,
            }
        };
        let mut events = vec![stolen];
        self.combat_mut().steals.remove(0);
        self.next_steal(map, &mut events);
        Ok(events)
    }

    /// `p` draws an influence card: from the pile, else from the reshuffled discards (face down:
    /// a slot of the dealt decks). False when both are empty.
    fn draw_card(
        &mut self,
        p: PlayerId,
        dice: &mut dyn Dice,
        events: &mut Vec<EconomyEvent>,
    ) -> bool {
        if self.sealed.is_some() {
            let Some(slot) = self.draw_sealed(events) else {
                return false;
            };
            self.players[p as usize].sealed.push(slot);
            events.push(EconomyEvent::SlotDrawn { player: p, slot });
            return true;
        }
        if self.deck.is_empty() && !self.discard.is_empty() {
            self.deck = std::mem::take(&mut self.discard);
            crate::dice::shuffle(dice, &mut self.deck);
        }
        let Some(card) = self.deck.pop() else {
            return false;
        };
        self.players[p as usize].cards.push(card);
        events.push(EconomyEvent::CardDrawn { player: p, card });
        true
    }
}

#[cfg(test)]
pub(super) mod tests;
