//! Alliances and surrender (source 004, "Alliance", "Surrender"). An alliance needs both players:
//! one offers, the other accepts. Allies' territory is friendly to each other, each keeps
//! ownership, and a player may forfeit a territory to an ally whose units stand in it. A player
//! who surrenders leaves the game: their armies become neutral, and they hand nothing to anyone.
//!
//! Alliances are made, broken and territories forfeited in the Get phase, so that friendliness
//! never changes under plans being written or carried out (RULES.md). Surrender is possible in
//! any phase but combat.
//!
//! Invariants: `alliances` holds only pairs that both agreed to; a surrendered player owns nothing
//! and has no unit on the board.

use super::action::EconomyEvent;
use super::error::{EconomyError, Events};
use super::map::{EconomyMap, RegionId};
use super::phase::Phase;
use super::state::{EconomyState, Standing};
use super::units::Kind;
use crate::dice::Dice;
use crate::rules::classic::PlayerId;

impl EconomyState {
    fn diplomacy_phase(&self) -> Result<(), EconomyError> {
        if self.phase == Phase::Get {
            Ok(())
        } else {
            Err(EconomyError::WrongPhase(self.phase))
        }
    }

    fn other_player(&self, p: PlayerId, q: PlayerId) -> Result<(), EconomyError> {
        if q == p || q as usize >= self.players.len() {
            return Err(EconomyError::UnknownPlayer(q));
        }
        if self.players[q as usize].standing != Standing::Playing {
            return Err(EconomyError::NotPlaying(q));
        }
        Ok(())
    }

    /// `p` offers `q` an alliance, or accepts the one `q` offered.
    pub(super) fn offer_alliance(&mut self, p: PlayerId, q: PlayerId) -> Events {
        self.diplomacy_phase()?;
        self.other_player(p, q)?;
        if self.friends(p, q) {
            return Err(EconomyError::AlreadyAllies(q));
        }
        if self.alliance_offers.remove(&(q, p)) {
            self.alliances.insert((p.min(q), p.max(q)));
            return Ok(vec![EconomyEvent::AllianceMade { a: q, b: p }]);
        }
        self.alliance_offers.insert((p, q));
        Ok(vec![EconomyEvent::AllianceOffered { from: p, to: q }])
    }

    /// `p` ends the alliance with `q` (or withdraws an offer to `q`).
    pub(super) fn break_alliance(&mut self, p: PlayerId, q: PlayerId) -> Events {
        self.diplomacy_phase()?;
        self.other_player(p, q)?;
        if self.alliance_offers.remove(&(p, q)) {
            return Ok(vec![EconomyEvent::AllianceOfferWithdrawn {
                from: p,
                to: q,
            }]);
        }
        if !self.alliances.remove(&(p.min(q), p.max(q))) {
            return Err(EconomyError::NotAllies(q));
        }
        Ok(vec![EconomyEvent::AllianceBroken { by: p, with: q }])
    }

    /// `p` forfeits `region` to the ally `q`, whose units stand there.
    pub(super) fn forfeit(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        region: RegionId,
        q: PlayerId,
    ) -> Events {
        self.diplomacy_phase()?;
        self.other_player(p, q)?;
        if region as usize >= map.regions.len() {
            return Err(EconomyError::UnknownRegion(region));
        }
        if self.regions[region as usize].owner != Some(p) {
            return Err(EconomyError::NotYours(region));
        }
        if !self.friends(p, q) {
            return Err(EconomyError::NotAllies(q));
        }
        if self.units_of(q, region).units() == 0 {
            return Err(EconomyError::NoAllyThere(region));
        }
        self.regions[region as usize].owner = Some(q);
        if self.players[p as usize].capital == Some(region) {
            self.players[p as usize].capital = None;
        }
        Ok(vec![EconomyEvent::Forfeited {
            player: p,
            region,
            to: q,
        }])
    }

    /// `p` surrenders: units neutral, territory, money and cards given up (face-down cards leave
    /// the game unseen).
    pub(super) fn surrender(
        &mut self,
        map: &EconomyMap,
        p: PlayerId,
        dice: &mut dyn Dice,
    ) -> Events {
        if !matches!(self.phase, Phase::Get | Phase::Planning | Phase::Moving) {
            return Err(EconomyError::WrongPhase(self.phase));
        }
        for r in 0..self.regions.len() {
            let x = &mut self.regions[r];
            if let Some(f) = x.forces.remove(&p) {
                x.neutral.add(Kind::Army, f.armies);
                x.neutral.add(Kind::Navy, f.navies);
            }
            if x.owner == Some(p) {
                x.owner = None;
                x.lost_by = None;
            }
            x.sieges.retain(|&(a, b)| a != p && b != p);
        }
        self.blockades.retain(|b| b.by != p);
        self.alliances.retain(|&(a, b)| a != p && b != p);
        self.alliance_offers.retain(|&(a, b)| a != p && b != p);
        self.plans.remove(&p);
        let me = &mut self.players[p as usize];
        me.standing = Standing::Surrendered;
        me.capital = None;
        me.mu = 0;
        let cards = std::mem::take(&mut me.cards);
        self.discard.extend(cards);
        // Face-down cards cannot go to the discards, which must be known (RULES.md).
        self.face_down_gone(p);
        let mut events = vec![EconomyEvent::Surrendered { player: p }];
        // Water territories follow the countries in map order.
        for r in map.countries()..map.regions.len() {
            self.sink_neutral(map, r as RegionId, &mut events);
        }
        // Nobody waits for a player who has left.
        let playing = self
            .players
            .iter()
            .filter(|x| x.standing == Standing::Playing)
            .count();
        if playing <= 1 {
            self.check_end(map, &mut events);
            return Ok(events);
        }
        self.advance_get(&mut events);
        self.advance_planning(&mut events);
        self.advance_moving(map, dice, &mut events);
        Ok(events)
    }
}

#[cfg(test)]
mod tests;
