//! Checking a state read from a save file before anything plays it: every player and region id
//! in range, tables of the right length, the invariants `state` names, and counts small enough
//! that no sum overflows. A damaged save gets a clear error instead of a panic later.
//!
//! It only reads; it sits beside the rule modules because the player count is a rule of `setup`.

use super::battlefield::{Battle, BattleAction, Combat, Foe, Intercepted, Site, WithdrawOrder};
use super::infra::Item;
use super::map::{EconomyMap, RegionId};
use super::phase::{BaseKey, Phase};
use super::setup::PLAYERS;
use super::state::EconomyState;
use super::units::{Force, FULL};
use crate::rules::classic::PlayerId;

/// The most units of one kind a count may hold, and the most MU a player may have: far beyond
/// any real game, and small enough that adding up a whole board cannot overflow a `u32`.
const MAX_COUNT: u32 = 1_000_000;

struct Checker<'a> {
    map: &'a EconomyMap,
    players: usize,
}

impl Checker<'_> {
    fn player(&self, p: PlayerId) -> Result<(), String> {
        if (p as usize) < self.players {
            Ok(())
        } else {
            Err(format!("there is no player {p}"))
        }
    }

    fn region(&self, r: RegionId) -> Result<(), String> {
        if (r as usize) < self.map.regions.len() {
            Ok(())
        } else {
            Err(format!("there is no region {r}"))
        }
    }

    fn country(&self, r: RegionId) -> Result<(), String> {
        self.region(r)?;
        if self.map.is_water(r) {
            Err(format!(
                "{} is water, where a country was expected",
                self.map.regions[r as usize].name
            ))
        } else {
            Ok(())
        }
    }

    fn count(&self, n: u32, what: &str) -> Result<(), String> {
        if n <= MAX_COUNT {
            Ok(())
        } else {
            Err(format!("{what} is impossibly large ({n})"))
        }
    }

    fn force(&self, f: Force) -> Result<(), String> {
        self.count(f.armies, "a number of armies")?;
        self.count(f.navies, "a number of navies")
    }

    fn site(&self, s: Site) -> Result<(), String> {
        match s {
            Site::Region(r) => self.region(r),
            Site::Border(a, b) => {
                self.region(a)?;
                self.region(b)
            }
        }
    }

    fn item(&self, i: Item) -> Result<(), String> {
        match i {
            Item::NavyBase { water } => self.region(water),
            _ => Ok(()),
        }
    }

    fn withdraw(&self, w: &WithdrawOrder) -> Result<(), String> {
        self.force(w.force)?;
        self.region(w.to)
    }

    fn foe(&self, f: Foe) -> Result<(), String> {
        match f {
            Foe::Player(p) => self.player(p),
            Foe::Neutral => Ok(()),
        }
    }

    fn combat(&self, c: &Combat) -> Result<(), String> {
        self.player(c.holder)?;
        for &t in &c.tokens {
            self.site(t)?;
        }
        for g in &c.border {
            self.player(g.player)?;
            self.region(g.from)?;
            self.region(g.to)?;
            self.force(g.force)?;
        }
        for a in &c.arrivals {
            self.player(a.player)?;
            self.region(a.region)?;
            self.region(a.from)?;
            self.force(a.force)?;
        }
        if let Some(b) = &c.battle {
            self.battle(b)?;
        }
        for (&p, r) in &c.record {
            self.player(p)?;
            self.count(r.victories, "a number of victories")?;
            self.count(r.losses, "a number of losses")?;
        }
        for &(r, a, b) in &c.sieged {
            self.region(r)?;
            self.player(a)?;
            self.player(b)?;
        }
        for &r in &c.contested_at_start {
            self.region(r)?;
        }
        for &p in c.onward_done.iter().chain(&c.steals) {
            self.player(p)?;
        }
        for (&r, pairs) in &c.fought_before {
            self.region(r)?;
            for &(p, f) in pairs {
                self.player(p)?;
                self.foe(f)?;
            }
        }
        Ok(())
    }

    fn battle(&self, b: &Battle) -> Result<(), String> {
        self.site(b.site)?;
        for (&p, a) in &b.declared {
            self.player(p)?;
            match a {
                None => {}
                Some(BattleAction::Attack { target, .. }) => self.foe(*target)?,
                Some(BattleAction::Withdraw(w)) => self.withdraw(w)?,
                Some(BattleAction::AttackInfrastructure { item }) => self.item(*item)?,
                Some(BattleAction::Siege { target }) => self.player(*target)?,
                Some(BattleAction::Land { armies, to, .. }) => {
                    self.count(*armies, "a number of armies")?;
                    self.region(*to)?;
                }
            }
        }
        if let Some(a) = &b.assault {
            self.player(a.attacker)?;
            self.foe(a.target)?;
        }
        for &(p, f) in &b.fought {
            self.player(p)?;
            self.foe(f)?;
        }
        for &p in b.withdrew.iter().chain(&b.attacked).chain(&b.stayed) {
            self.player(p)?;
        }
        for (&p, r) in &b.retreats {
            self.player(p)?;
            self.region(r.to)?;
        }
        if let Some(w) = &b.pending {
            self.player(w.player)?;
            for &q in w.answers.keys() {
                self.player(q)?;
            }
            match w.what {
                Intercepted::Withdraw(w) => self.withdraw(&w)?,
                Intercepted::Infrastructure { item } => self.item(item)?,
                Intercepted::Landing { armies, to, .. } => {
                    self.count(armies, "a number of armies")?;
                    self.region(to)?;
                }
            }
        }
        Ok(())
    }
}

impl EconomyState {
    /// Checks a state read from a save file; the error says what is wrong with it.
    pub fn check_consistency(&self) -> Result<(), String> {
        let map = EconomyMap::get();
        let n = self.players.len();
        if !PLAYERS.contains(&n) {
            return Err(format!("an economy game has 2 to 6 players, not {n}"));
        }
        let c = Checker { map, players: n };
        if self.regions.len() != map.regions.len() {
            return Err("the board has the wrong number of regions".into());
        }
        if self.get.len() != n {
            return Err("the Get phase's table has the wrong length".into());
        }
        for p in &self.players {
            c.count(p.mu, "a player's money")?;
            if let Some(cap) = p.capital {
                c.country(cap)?;
            }
            for &card in &p.cards {
                c.country(card)?;
            }
        }
        for (i, r) in self.regions.iter().enumerate() {
            let name = &map.regions[i].name;
            if let Some(o) = r.owner {
                c.player(o)?;
            }
            for (&p, &f) in &r.forces {
                c.player(p)?;
                c.force(f)?;
                if f.units() == 0 {
                    return Err(format!("an empty force stands in {name}"));
                }
            }
            c.force(r.neutral)?;
            let water = map.is_water(i as RegionId);
            let infra = &r.infra;
            let built = infra.roads
                || infra.fortifications
                || infra.canal
                || infra.army_bases > 0
                || !infra.navy_bases.is_empty();
            if water && built {
                return Err(format!("infrastructure stands in {name}, which is water"));
            }
            for w in &infra.navy_bases {
                if !map.regions[i].shore.contains(w) {
                    return Err(format!(
                        "a navy base in {name} faces water it does not touch"
                    ));
                }
            }
            if infra.canal && map.canal_site(i as RegionId).is_none() {
                return Err(format!("a canal stands in {name}, which is no canal site"));
            }
            if r.conquered_in.is_some_and(|k| k > self.round) {
                return Err(format!("{name} was conquered in a round still to come"));
            }
            for &(a, b) in &r.sieges {
                c.player(a)?;
                c.player(b)?;
            }
            if let Some(p) = r.lost_by {
                c.player(p)?;
            }
        }
        for &(a, b) in self.alliances.iter().chain(&self.alliance_offers) {
            c.player(a)?;
            c.player(b)?;
            if a == b {
                return Err("a player is allied with themselves".into());
            }
        }
        if let Phase::Pick(p) = self.phase {
            c.player(p)?;
        }
        for t in &self.get {
            for u in &t.owed {
                c.country(u.country)?;
                c.count(u.units, "a number of units")?;
                c.count(u.due, "an upkeep")?;
            }
            for k in t.base_recruits.keys().chain(t.new_bases.keys()) {
                match *k {
                    BaseKey::Army(r) => c.country(r)?,
                    BaseKey::Navy(r, w) => {
                        c.country(r)?;
                        c.region(w)?;
                    }
                }
            }
        }
        // Every influence card is in exactly one place (face down, as far as that can be seen).
        self.check_influence(map)?;
        for b in &self.blockades {
            c.player(b.by)?;
            c.country(b.country)?;
            c.region(b.water)?;
        }
        for &p in self
            .initiative
            .iter()
            .chain(&self.pick_queue)
            .chain(&self.placed)
        {
            c.player(p)?;
        }
        for (&p, moves) in &self.plans {
            c.player(p)?;
            for m in moves {
                c.region(m.from)?;
                c.region(m.to)?;
                c.force(m.force())?;
            }
        }
        for (&(p, r), &f) in &self.moved {
            c.player(p)?;
            c.region(r)?;
            c.force(f)?;
        }
        for &p in self.moving_done.iter().chain(&self.winner) {
            c.player(p)?;
        }
        if let Some(k) = &self.combat {
            c.combat(k)?;
        }
        match (&self.combat, self.phase) {
            (Some(_), Phase::Combat) => {}
            (None, Phase::Combat) => return Err("the combat phase holds no combat".into()),
            (None, _) => {}
            (Some(_), _) => return Err("a combat is under way outside the combat phase".into()),
        }
        // Allowances count thirds of a move.
        let thirds = self.combat.iter().flat_map(|k| {
            k.border
                .iter()
                .map(|g| g.left.thirds)
                .chain(k.arrivals.iter().map(|a| a.left.thirds))
        });
        if thirds.into_iter().any(|t| t > FULL) {
            return Err("a unit has more movement left than a whole move".into());
        }
        Ok(())
    }
}
