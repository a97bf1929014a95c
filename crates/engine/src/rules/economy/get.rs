//! The Get phase (source 004, "The Get Phase"): when a round begins every player gains the
//! countries that hold only their units, collects income and learns the upkeep owed; then, each at
//! their own pace, settles that upkeep, recruits, builds or destroys infrastructure and trades
//! influence cards, and says when they are done. Planning begins when everyone still playing is.
//!
//! Invariants: MU never goes below zero (every price is checked before it is paid); recruiting
//! and building wait until the upkeep is settled, while what brings money in (destroying
//! infrastructure, trading cards) may come first; a base recruits at the normal price at most once
//! per round, and not in the round it was built.

use super::action::EconomyEvent;
use super::error::{EconomyError, Events, Rule};
use super::infra::Item;
use super::map::{EconomyMap, RegionId};
use super::phase::{BaseKey, GetTurn, Phase};
use super::state::{EconomyState, Standing};
use super::units::Force;
use crate::rules::classic::PlayerId;
use std::collections::BTreeSet;

/// MU for three influence cards.
pub const CARDS_MU: u32 = 50;
/// MU per unit recruited within a base's capacity (or anywhere without the bases rule).
pub const RECRUIT_MU: u32 = 5;
/// MU per unit recruited without a base, or beyond the bases' capacity.
pub const RECRUIT_NO_BASE_MU: u32 = 10;

impl EconomyState {
    /// Begins a round: ownership of regions that now hold only one player's units, income, and
    /// the upkeep each player owes.
    pub(super) fn begin_round(&mut self, map: &EconomyMap) -> Vec<EconomyEvent> {
        self.round += 1;
        self.plans.clear();
        self.moved.clear();
        self.moving_done.clear();
        let mut events = vec![EconomyEvent::RoundBegan { round: self.round }];
        self.prune_blockades(&mut events);
        for r in 0..self.regions.len() {
            let x = &self.regions[r];
            let mut present = x.forces.keys().copied();
            let (Some(p), None) = (present.next(), present.next()) else {
                continue;
            };
            if x.neutral.units() > 0 || x.owner == Some(p) {
                continue;
            }
            // "You keep ownership of your territories even if allied units enter those
            // territories, though you can forfeit a territory to your ally": only a forfeit
            // hands an ally's country over.
            if x.owner.is_some_and(|o| self.friends(p, o)) {
                continue;
            }
            let from = x.owner.or(x.lost_by);
            let from_enemy = from.is_some_and(|o| !self.friends(p, o));
            if let Some(o) = from.filter(|_| from_enemy) {
                self.take_capital(p, o, r as RegionId, &mut events);
            }
            let x = &mut self.regions[r];
            x.owner = Some(p);
            x.lost_by = None;
            if from_enemy {
                x.conquered_in = Some(self.round);
            }
            events.push(EconomyEvent::Gained {
                player: p,
                region: r as RegionId,
            });
        }
        if self.check_end(map, &mut events) {
            return events;
        }
        for p in 0..self.players.len() {
            let pid = p as PlayerId;
            if self.players[p].standing != Standing::Playing {
                self.get[p] = GetTurn {
                    settled: true,
                    done: true,
                    ..GetTurn::default()
                };
                continue;
            }
            let income = self.income(map, pid);
            self.players[p].mu = self.players[p].mu.saturating_add(income.total());
            events.push(EconomyEvent::Income {
                player: pid,
                income,
            });
            let owed = self.upkeep(map, pid);
            let due: u32 = owed.iter().map(|u| u.due).sum();
            if due > 0 {
                events.push(EconomyEvent::UpkeepDue { player: pid, due });
            }
            self.get[p] = GetTurn {
                settled: owed.is_empty(),
                owed,
                ..GetTurn::default()
            };
        }
        self.phase = Phase::Get;
        events
    }

    /// Works out again the upkeep of every player still playing who has not settled it, after
    /// an action of the Get phase that changes what it is owed on or what links it: a capital
    /// destroyed (RULES.md, reading 19: no upkeep is paid without a capital), a country
    /// forfeited, an alliance made or broken, a surrender. Their units have not changed since the
    /// round began (nothing is recruited before the upkeep), so only the links, the capital's
    /// −5 and who controls what can differ. A changed total is announced again.
    pub(super) fn refresh_upkeep(&mut self, map: &EconomyMap, events: &mut Vec<EconomyEvent>) {
        if self.phase != Phase::Get {
            return;
        }
        for p in self.playing().collect::<Vec<_>>() {
            if self.get[p as usize].settled {
                continue;
            }
            let owed = self.upkeep(map, p);
            if owed == self.get[p as usize].owed {
                continue;
            }
            let due: u32 = owed.iter().map(|u| u.due).sum();
            events.push(EconomyEvent::UpkeepDue { player: p, due });
            let turn = &mut self.get[p as usize];
            turn.settled = owed.is_empty();
            turn.owed = owed;
        }
    }

    /// "When a player takes your capital they take all your money and influence cards": `p`
    /// gains `r`, which was `o`'s capital; `o` has none any more.
    fn take_capital(
        &mut self,
        p: PlayerId,
        o: PlayerId,
        r: RegionId,
        events: &mut Vec<EconomyEvent>,
    ) {
        if self.players[o as usize].capital != Some(r) {
            return;
        }
        let loser = &mut self.players[o as usize];
        loser.capital = None;
        let mu = std::mem::take(&mut loser.mu);
        let cards = std::mem::take(&mut loser.cards);
        let slots = std::mem::take(&mut loser.sealed);
        let n = (cards.len() + slots.len()) as u32;
        let taker = &mut self.players[p as usize];
        taker.mu = taker.mu.saturating_add(mu);
        taker.cards.extend(cards);
        taker.sealed.extend(slots.iter().copied());
        events.push(EconomyEvent::CapitalTaken {
            player: p,
            from: o,
            country: r,
            mu,
            cards: n,
        });
        if !slots.is_empty() {
            events.push(EconomyEvent::SlotsTaken {
                player: p,
                from: o,
                slots,
            });
        }
    }

    /// The plain way to settle `p`'s upkeep: pay where the money reaches and the country is
    /// linked to the capital, and otherwise give up the units owed, armies before navies.
    pub fn plain_settlement(&self, p: PlayerId) -> Vec<(RegionId, Force)> {
        let Some(turn) = self.get.get(p as usize) else {
            return vec![];
        };
        let mut mu = self.players[p as usize].mu;
        let mut losses = vec![];
        for u in &turn.owed {
            let pay = if u.linked { mu.min(u.due) } else { 0 };
            mu -= pay;
            let lose = u.due - pay;
            if lose == 0 {
                continue;
            }
            let f = self.regions[u.country as usize]
                .forces
                .get(&p)
                .copied()
                .unwrap_or_default();
            let armies = lose.min(f.armies);
            let navies = (lose - armies).min(f.navies);
            losses.push((u.country, Force { armies, navies }));
        }
        losses
    }

    /// The checks every Get phase action shares: the phase, and the player not yet done.
    fn get_turn(&self, p: PlayerId) -> Result<&GetTurn, EconomyError> {
        if self.phase != Phase::Get {
            return Err(EconomyError::WrongPhase(self.phase));
        }
        let turn = &self.get[p as usize];
        if turn.done {
            return Err(EconomyError::AlreadyDone);
        }
        Ok(turn)
    }

    /// As [`Self::get_turn`], for spending: the upkeep must be settled first.
    fn spending(&self, p: PlayerId) -> Result<(), EconomyError> {
        if !self.get_turn(p)?.settled {
            return Err(EconomyError::UpkeepFirst);
        }
        Ok(())
    }

    /// `r` is a country `p` owns.
    fn own_country(&self, map: &EconomyMap, p: PlayerId, r: RegionId) -> Result<(), EconomyError> {
        if r as usize >= map.regions.len() {
            return Err(EconomyError::UnknownRegion(r));
        }
        if map.is_water(r) {
            return Err(EconomyError::NotACountry(r));
        }
        if self.regions[r as usize].owner != Some(p) {
            return Err(EconomyError::NotYours(r));
        }
        Ok(())
    }

    /// `r` is a country whose infrastructure other than roads `p` controls: theirs, or one they
    /// lost while holding its fortifications (true in that case: they do not own it).
    fn holds_bases(
        &self,
        map: &EconomyMap,
        p: PlayerId,
        r: RegionId,
    ) -> Result<bool, EconomyError> {
        match self.own_country(map, p, r) {
            Err(EconomyError::NotYours(_)) if self.infrastructure_holder(r) == Some(p) => Ok(true),
            other => other.map(|()| false),
        }
    }

    fn pay(&mut self, p: PlayerId, cost: u32) -> Result<(), EconomyError> {
        let have = self.players[p as usize].mu;
        if cost > have {
            return Err(EconomyError::CannotAfford { cost, have });
        }
        self.players[p as usize].mu = have - cost;
        Ok(())
    }

    pub(super) fn settle_upkeep(&mut self, p: PlayerId, losses: &[(RegionId, Force)]) -> Events {
        let turn = self.get_turn(p)?;
        if turn.settled {
            return Err(EconomyError::UpkeepAlreadySettled);
        }
        let owed = turn.owed.clone();
        let mut seen = BTreeSet::new();
        for &(country, lost) in losses {
            let Some(u) = owed.iter().find(|u| u.country == country) else {
                return Err(EconomyError::NoUpkeepThere(country));
            };
            if !seen.insert(country) {
                return Err(EconomyError::Repeated(country));
            }
            let here = self.regions[country as usize]
                .forces
                .get(&p)
                .copied()
                .unwrap_or_default();
            if lost.armies > here.armies || lost.navies > here.navies {
                return Err(EconomyError::NotThere(country));
            }
            if lost.units() > u.due {
                return Err(EconomyError::TooManyLosses {
                    country,
                    due: u.due,
                });
            }
        }
        let lost_in = |c: RegionId| {
            losses
                .iter()
                .find(|l| l.0 == c)
                .map_or(Force::default(), |l| l.1)
        };
        let mut paid = 0u32;
        for u in &owed {
            let pay = u.due - lost_in(u.country).units();
            if pay > 0 && !u.linked {
                return Err(EconomyError::Unlinked(u.country));
            }
            paid += pay;
        }
        self.pay(p, paid)?;
        let mut lost = vec![];
        for u in &owed {
            let l = lost_in(u.country);
            if l.units() == 0 {
                continue;
            }
            self.remove_units(p, u.country, l);
            lost.push((u.country, l));
        }
        self.get[p as usize].settled = true;
        Ok(vec![EconomyEvent::UpkeepSettled {
            player: p,
            paid,
            lost,
        }])
    }

    /// Takes `f` of `p`'s units out of `r` (the caller checked they are there).
    pub(super) fn remove_units(&mut self, p: PlayerId, r: RegionId, f: Force) {
        let forces = &mut self.regions[r as usize].forces;
        if let Some(x) = forces.get_mut(&p) {
            x.armies = x.armies.saturating_sub(f.armies);
            x.navies = x.navies.saturating_sub(f.navies);
            if x.units() == 0 {
                forces.remove(&p);
            }
        }
    }

    /// Adds `f` to `p`'s units in `r`.
    pub(super) fn add_units(&mut self, p: PlayerId, r: RegionId, f: Force) {
        let x = self.regions[r as usize].forces.entry(p).or_default();
        x.armies = x.armies.saturating_add(f.armies);
        x.navies = x.navies.saturating_add(f.navies);
    }

    /// Units `p` may still recruit at the normal price at base `key` this round.
    pub fn base_capacity(&self, p: PlayerId, key: BaseKey) -> u32 {
        if !self.options.bases {
            return 0;
        }
        let infra = |c: RegionId| &self.regions[c as usize].infra;
        let bases = match key {
            BaseKey::Army(c) => infra(c).army_bases as u32,
            BaseKey::Navy(c, w) => {
                let blockaded = self
                    .blockades
                    .iter()
                    .any(|b| b.country == c && b.water == w && !self.friends(p, b.by));
                if blockaded {
                    0
                } else {
                    infra(c).navy_bases.iter().filter(|&&x| x == w).count() as u32
                }
            }
        };
        let turn = &self.get[p as usize];
        let new = turn.new_bases.get(&key).copied().unwrap_or(0) as u32;
        let used = turn.base_recruits.get(&key).copied().unwrap_or(0) as u32;
        bases.saturating_sub(new).saturating_sub(used)
    }

    /// What recruiting `count` units at `key` costs `p` now, and how many of them come at the
    /// base's normal price.
    pub fn recruit_cost(&self, p: PlayerId, key: BaseKey, count: u32) -> (u32, u32) {
        if !self.options.bases {
            return (count.saturating_mul(RECRUIT_MU), 0);
        }
        let cheap = count.min(self.base_capacity(p, key));
        let dear = count - cheap;
        (
            cheap * RECRUIT_MU + dear.saturating_mul(RECRUIT_NO_BASE_MU),
            cheap,
        )
    }

    /// The most units `p` can pay for at `key` now with the MU they hold (0: not even one):
    /// the page's recruit count never asks for more.
    pub fn recruit_max(&self, p: PlayerId, key: BaseKey) -> u32 {
        let mu = self.players[p as usize].mu;
        if !self.options.bases {
            return mu / RECRUIT_MU;
        }
        let cap = self.base_capacity(p, key);
        let cheap = cap.min(mu / RECRUIT_MU);
        if cheap < cap {
            cheap
        } else {
            cheap + (mu - cheap * RECRUIT_MU) / RECRUIT_NO_BASE_MU
        }
    }

    pub(super) fn recruit(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        country: RegionId,
        navy_into: Option<RegionId>,
        count: u32,
    ) -> Events {
        self.spending(p)?;
        // Defenders who lost the country but hold its fortifications keep its bases.
        let held = self.holds_bases(map, p, country)?;
        if count == 0 {
            return Err(EconomyError::ZeroUnits);
        }
        let (key, region) = match navy_into {
            None => (BaseKey::Army(country), country),
            Some(w) => {
                if !map.regions[country as usize].shore.contains(&w) {
                    return Err(EconomyError::NotACoast { country, water: w });
                }
                (BaseKey::Navy(country, w), w)
            }
        };
        let (cost, cheap) = self.recruit_cost(p, key, count);
        if held && cheap < count {
            return Err(EconomyError::BesiegedBeyondBases(country));
        }
        if let Some(w) = navy_into {
            // Navies beyond a base's capacity go only into friendly or contested water.
            let open = self.friendly(p, w) || self.contested(w);
            if cheap < count && !open {
                let blockaded = self.options.bases
                    && self.regions[country as usize].infra.navy_bases.contains(&w)
                    && self
                        .blockades
                        .iter()
                        .any(|b| b.country == country && b.water == w);
                return Err(if blockaded {
                    EconomyError::Blockaded { country, water: w }
                } else {
                    EconomyError::HostileWater(w)
                });
            }
        }
        self.pay(p, cost)?;
        let units = if navy_into.is_some() {
            Force {
                armies: 0,
                navies: count,
            }
        } else {
            Force {
                armies: count,
                navies: 0,
            }
        };
        self.add_units(p, region, units);
        if cheap > 0 {
            let used = self.get[p as usize].base_recruits.entry(key).or_insert(0);
            *used = used.saturating_add(cheap.min(255) as u8);
        }
        Ok(vec![EconomyEvent::Recruited {
            player: p,
            region,
            navies: navy_into.is_some(),
            count,
            cost,
        }])
    }

    fn rule(&self, item: Item) -> Result<(), EconomyError> {
        let (on, rule) = match item {
            Item::Roads => (self.options.roads, Rule::Roads),
            Item::Fortifications => (self.options.fortifications, Rule::Fortifications),
            Item::Canal => (self.options.canals, Rule::Canals),
            Item::ArmyBase | Item::NavyBase { .. } => (self.options.bases, Rule::Bases),
            Item::Capital => (self.options.capitals, Rule::Capitals),
        };
        if on {
            Ok(())
        } else {
            Err(EconomyError::RuleOff(rule))
        }
    }

    /// Why `p` may not build `item` in `country` now, money aside (`Ok` when they may).
    fn build_refusal(
        &self,
        map: &EconomyMap,
        p: PlayerId,
        country: RegionId,
        item: Item,
    ) -> Result<(), EconomyError> {
        self.spending(p)?;
        self.own_country(map, p, country)?;
        self.rule(item)?;
        let infra = &self.regions[country as usize].infra;
        let built = EconomyError::AlreadyBuilt { country, item };
        match item {
            Item::Roads if infra.roads => return Err(built),
            Item::Fortifications if infra.fortifications => return Err(built),
            Item::Canal => {
                if map.canal_site(country).is_none() {
                    return Err(EconomyError::NoCanalSite(country));
                }
                if infra.canal {
                    return Err(built);
                }
                if !infra.roads {
                    return Err(EconomyError::CanalNeedsRoads(country));
                }
            }
            Item::ArmyBase if infra.army_bases == u8::MAX => {
                return Err(EconomyError::TooManyBases(country));
            }
            Item::NavyBase { water } => {
                if !map.regions[country as usize].shore.contains(&water) {
                    return Err(EconomyError::NotACoast { country, water });
                }
                if infra.navy_bases.len() >= u8::MAX as usize {
                    return Err(EconomyError::TooManyBases(country));
                }
            }
            Item::Capital if self.players[p as usize].capital == Some(country) => {
                return Err(built);
            }
            _ => {}
        }
        Ok(())
    }

    /// What `p` may build in `country` now, money aside, in the order a panel lists them:
    /// roads, fortifications, a canal, army and navy bases (a base adds to those standing:
    /// each recruits one unit a round at the base price), the capital. The page shows the
    /// ones `p` cannot pay for greyed, with their price.
    pub fn build_options(&self, map: &EconomyMap, p: PlayerId, country: RegionId) -> Vec<Item> {
        let Some(shore) = map.regions.get(country as usize).map(|r| &r.shore) else {
            return vec![];
        };
        let mut items = vec![
            Item::Roads,
            Item::Fortifications,
            Item::Canal,
            Item::ArmyBase,
        ];
        items.extend(shore.iter().map(|&water| Item::NavyBase { water }));
        items.push(Item::Capital);
        items.retain(|&i| self.build_refusal(map, p, country, i).is_ok());
        items
    }

    pub(super) fn build(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        country: RegionId,
        item: Item,
    ) -> Events {
        self.build_refusal(map, p, country, item)?;
        self.pay(p, item.price())?;
        let infra = &mut self.regions[country as usize].infra;
        let new_base = match item {
            Item::Roads => {
                infra.roads = true;
                None
            }
            Item::Fortifications => {
                infra.fortifications = true;
                None
            }
            Item::Canal => {
                infra.canal = true;
                None
            }
            Item::ArmyBase => {
                infra.army_bases += 1;
                Some(BaseKey::Army(country))
            }
            Item::NavyBase { water } => {
                infra.navy_bases.push(water);
                infra.navy_bases.sort_unstable();
                Some(BaseKey::Navy(country, water))
            }
            Item::Capital => {
                self.players[p as usize].capital = Some(country);
                None
            }
        };
        if let Some(key) = new_base {
            let n = self.get[p as usize].new_bases.entry(key).or_insert(0);
            *n = n.saturating_add(1);
        }
        Ok(vec![EconomyEvent::Built {
            player: p,
            country,
            item,
        }])
    }

    pub(super) fn destroy(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        country: RegionId,
        item: Item,
    ) -> Events {
        self.get_turn(p)?;
        if item == Item::Roads {
            self.own_country(map, p, country)?;
        } else {
            self.holds_bases(map, p, country)?;
        }
        let missing = EconomyError::NotBuilt { country, item };
        // "A player may destroy any infrastructure controlled by that player ... the player gains
        // an amount of MU equal to half the purchase price": the capital too (30 MU, so 15).
        // Without one the player cannot hold initiative, pays no upkeep and faces the
        // revolution step.
        if item == Item::Capital {
            if self.players[p as usize].capital != Some(country) {
                return Err(missing);
            }
            self.players[p as usize].capital = None;
        }
        let infra = &mut self.regions[country as usize].infra;
        let base = match item {
            Item::Capital => None,
            Item::Roads if infra.roads => {
                infra.roads = false;
                None
            }
            Item::Fortifications if infra.fortifications => {
                infra.fortifications = false;
                None
            }
            Item::Canal if infra.canal => {
                infra.canal = false;
                None
            }
            Item::ArmyBase if infra.army_bases > 0 => {
                infra.army_bases -= 1;
                Some(BaseKey::Army(country))
            }
            Item::NavyBase { water } => {
                let Some(i) = infra.navy_bases.iter().position(|&w| w == water) else {
                    return Err(missing);
                };
                infra.navy_bases.remove(i);
                Some(BaseKey::Navy(country, water))
            }
            _ => return Err(missing),
        };
        // A base built this round goes first: the ones that stood before keep recruiting.
        if let Some(key) = base {
            let new = &mut self.get[p as usize].new_bases;
            if let Some(n) = new.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    new.remove(&key);
                }
            }
        }
        let refund = item.refund();
        let me = &mut self.players[p as usize];
        me.mu = me.mu.saturating_add(refund);
        Ok(vec![EconomyEvent::Destroyed {
            player: p,
            country,
            item,
            refund,
        }])
    }

    pub(super) fn trade_cards(&mut self, p: PlayerId, cards: [RegionId; 3]) -> Events {
        self.get_turn(p)?;
        if !self.options.influence_cards {
            return Err(EconomyError::RuleOff(Rule::InfluenceCards));
        }
        for (i, c) in cards.iter().enumerate() {
            if cards[..i].contains(c) {
                return Err(EconomyError::SameCardTwice(*c));
            }
            if !self.players[p as usize].cards.contains(c) {
                return Err(self.card_missing(p, *c));
            }
        }
        let me = &mut self.players[p as usize];
        me.cards.retain(|c| !cards.contains(c));
        me.mu = me.mu.saturating_add(CARDS_MU);
        self.discard.extend(cards);
        Ok(vec![EconomyEvent::CardsTraded {
            player: p,
            cards,
            mu: CARDS_MU,
        }])
    }

    pub(super) fn finish_get(&mut self, p: PlayerId) -> Events {
        self.spending(p)?;
        self.get[p as usize].done = true;
        let mut events = vec![EconomyEvent::GetFinished { player: p }];
        self.advance_get(&mut events);
        Ok(events)
    }

    /// Planning begins once everyone still playing is done with the Get phase.
    pub(super) fn advance_get(&mut self, events: &mut Vec<EconomyEvent>) {
        if self.phase == Phase::Get && self.everyone(|q| self.get[q as usize].done) {
            self.phase = Phase::Planning;
            events.push(EconomyEvent::PlanningBegan);
        }
    }
}

#[cfg(test)]
mod tests;
